/**
 * Sweeps: a handler reads the service's own lists by period and feeds each record into the same
 * delivery as a notification (same keys, same once-only claims, same callbacks), so a lost
 * notification is caught up and a record both notified and swept is handed over once.
 *
 * With a store, each handler keeps a cursor (`sweep:<name>`): where its last complete sweep
 * ended. It moves only once every record of the period was handed over (or found handed over),
 * so a sweep stopped halfway (a signal, a crash, a callback that threw) leaves it where it was
 * and the next one walks the period again: no gap, and the claims drop what was done. Each sweep
 * starts `overlapMs` before the cursor, for records the service lists late.
 */
import { ConfigurationError } from '../errors/failures.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';
import type { Page } from '../core/pagination.ts';
import type { RequestOptions } from '../core/types.ts';
import type { Store } from '../store/types.ts';
import type { Delivery, DeliveryOutcome } from './confirmed.ts';

/** The options of a handler that sweeps, beside its callbacks and its store. */
export interface SweepingHandlerOptions {
  /** Names this handler's sweep cursor in the store, to tell two handlers apart (default: the handler's kind). */
  name?: string;
  /** How far a sweep reaches back before the cursor, in milliseconds (default 5 minutes). */
  sweepOverlapMs?: number;
  /** How many delivered records are remembered to drop duplicates (default 10 000, least recent dropped first). */
  maxRemembered?: number;
  /** Options for the confirming calls and the sweep's lists (timeouts, retries). */
  requestOptions?: RequestOptions;
}

/** Options of a handler's `sweep()`. */
export interface SweepOptions {
  /**
   * Start of the period (an RFC 3339 instant or a `Date`). Default: where this handler's last
   * sweep ended (its cursor in the store), less the overlap. Required without a store, and for
   * the first sweep of a name.
   */
  from?: string | Date;
  /** End of the period (default: now, on the client's clock). */
  until?: string | Date;
  /** How many list pages are read and handed over at once (default 1). */
  concurrency?: number;
  /** Records per list page (1 to 1000, default 1000): at most `concurrency` pages are held at once. */
  pageSize?: number;
  /** Stops the sweep (it rejects; the cursor stays where it was). */
  signal?: AbortSignal;
}

/** What a sweep did. */
export interface SweepResult {
  /** Records the lists held for the period. */
  seen: number;
  /** Records (or their refunds) handed to a callback by this sweep. */
  handled: number;
  /** Records already handed over, by a notification or an earlier sweep, here or elsewhere in the fleet. */
  duplicates: number;
  /** The end of the swept period (RFC 3339): the cursor, with a store. */
  until: string;
}

/** One list a sweep walks. */
export interface SweepSource<R> {
  /** Page `index` (from 0) of the records in [`inicio`, `fim`], and how many pages there are. */
  page(
    inicio: string,
    fim: string,
    paging: { paginaAtual: number; itensPorPagina: number },
    signal: AbortSignal,
  ): Promise<{ items: readonly R[]; pages: number }>;
  /** Hands one listed record over (as a notified one would be). */
  deliver(record: R, signal: AbortSignal): Promise<DeliveryOutcome>;
}

/** A list method of the client (`api.instant.list`, `api.rec.list`...): what a sweep reads. */
export type ListMethod<R> = (
  query: { inicio: string; fim: string; paginacao: { paginaAtual: number; itensPorPagina: number } },
  options?: RequestOptions,
) => PromiseLike<Page<R>>;

/**
 * A sweep source over a client's list method (bound, or `undefined` when the client has none: the
 * sweep then rejects naming `name`), handing each record to `delivery` (as notified: itself).
 */
export function listSource<R>(
  list: ListMethod<R> | undefined,
  name: string,
  requestOptions: RequestOptions | undefined,
  delivery: Delivery<unknown, unknown>,
): SweepSource<unknown> {
  const source: SweepSource<R> = {
    page: async (inicio, fim, paginacao, signal) => {
      if (list === undefined) throw new TypeError(`sweep() needs ${name}`);
      const page = await list({ inicio, fim, paginacao }, { ...requestOptions, signal });
      return { items: page.items, pages: page.parametros.paginacao.quantidadeDePaginas };
    },
    deliver: (record, signal) => delivery.listed(record, record, signal),
  };
  return source as SweepSource<unknown>;
}

/** What a handler's sweep runs on. */
export interface SweepSettings {
  readonly store: Store | undefined;
  /** The cursor's name (the handler's `name` option). */
  readonly name: string;
  readonly overlapMs: number;
  readonly now: Now | undefined;
}

/** Five minutes: payments may be listed a little after their `horario`. */
export const DEFAULT_SWEEP_OVERLAP_MS = 5 * 60_000;

/**
 * A handler's `sweep()` over `sources` (those left out are skipped), with its options: the
 * store's cursor named `options.name` (else `name`), `sweepOverlapMs`, and the client's clock.
 */
export function handlerSweep(
  api: { readonly store?: Store | undefined; readonly now?: Now | undefined },
  options: SweepingHandlerOptions & { store?: Store | undefined },
  name: string,
  sources: ReadonlyArray<SweepSource<unknown> | undefined>,
): (options?: SweepOptions) => Promise<SweepResult> {
  return sweeper(
    sources.filter((source) => source !== undefined),
    {
      store: options.store ?? api.store,
      name: options.name ?? name,
      overlapMs: options.sweepOverlapMs ?? DEFAULT_SWEEP_OVERLAP_MS,
      now: api.now,
    },
  );
}

/** A handler's `sweep()` over `sources`, walked one after the other. */
function sweeper(
  sources: ReadonlyArray<SweepSource<unknown>>,
  { store, name, overlapMs, now = systemNow }: SweepSettings,
): (options?: SweepOptions) => Promise<SweepResult> {
  const cursorKey = `sweep:${name}`;
  return async (options = {}) => {
    const signal = options.signal ?? NEVER;
    const concurrency = options.concurrency ?? 1;
    if (!Number.isSafeInteger(concurrency) || concurrency < 1)
      throw new ConfigurationError('concurrency', 'concurrency must be a positive integer');
    const pageSize = options.pageSize ?? 1000;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 1000)
      throw new ConfigurationError('pageSize', 'pageSize must be an integer from 1 to 1000');
    const until = instant(options.until, 'until') ?? new Date(epochMs(now)).toISOString();
    let from = instant(options.from, 'from');
    if (from === undefined) {
      const cursor = await store?.get(cursorKey);
      if (cursor === undefined) {
        throw new ConfigurationError(
          'from',
          store ? `sweep() needs from: no sweep named ${name} ended yet` : 'sweep() needs from without a store',
        );
      }
      from = new Date(Date.parse(cursor) - overlapMs).toISOString();
    } else if (store && (await store.get(cursorKey)) === undefined) {
      // A first sweep stopped halfway resumes from here, with `sweep()` alone.
      await store.set(cursorKey, from);
    }
    const result: SweepResult = { seen: 0, handled: 0, duplicates: 0, until };
    for (const source of sources) await walk(source, { from, until, pageSize, concurrency }, signal, result);
    if (store) {
      // Never moved back by a slower sweep of an earlier period.
      const cursor = await store.get(cursorKey);
      if (cursor === undefined || Date.parse(cursor) < Date.parse(until)) await store.set(cursorKey, until);
    }
    return result;
  };
}

/** Walks every page of `source` for the period, `concurrency` pages at a time, counting into `result`. */
async function walk<R>(
  source: SweepSource<R>,
  { from, until, pageSize, concurrency }: { from: string; until: string; pageSize: number; concurrency: number },
  signal: AbortSignal,
  result: SweepResult,
): Promise<void> {
  const page = (paginaAtual: number) => source.page(from, until, { paginaAtual, itensPorPagina: pageSize }, signal);
  const handOver = async (items: readonly R[]) => {
    for (const record of items) {
      signal.throwIfAborted();
      result.seen++;
      const outcome = await source.deliver(record, signal);
      if (outcome === 'confirmed') result.handled++;
      else if (outcome === 'duplicate') result.duplicates++;
    }
  };
  signal.throwIfAborted();
  const first = await page(0);
  await handOver(first.items);
  let next = 1;
  const worker = async () => {
    while (next < first.pages) {
      const index = next++;
      signal.throwIfAborted();
      await handOver((await page(index)).items);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(0, first.pages - 1)) }, worker));
}

/** An instant option as RFC 3339, or `undefined`; a `ConfigurationError` for one that is not a date. */
function instant(value: string | Date | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) throw new ConfigurationError(name, `${name} must be an RFC 3339 instant or a Date`);
  return new Date(ms).toISOString();
}

const NEVER: AbortSignal = new AbortController().signal;
