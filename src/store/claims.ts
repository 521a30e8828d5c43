/**
 * Once-only work across processes: a notification's callback runs in the one process that
 * holds its claim, and is marked done before the claim ends. A delivery that finds it done skips
 * it. One that finds it claimed either answers at once that it is running elsewhere (a
 * notification, with a store whose `claim` says so: it holds nothing meanwhile) or looks again
 * every `pollMs` (up to `waitMs`) for it to end, then gives up with `ClaimBusyError` (the handler
 * answers an error status and the service sends it again; a sweep stops, its cursor kept).
 *
 * Two ways to hold a claim:
 * - a store with `claim` (PostgreSQL) holds it with a transaction that also writes the done
 *   mark: the callback gets that transaction as `tx`, and what it writes through it commits with
 *   the mark or not at all. A holder that dies or is cut off loses it (the transaction rolls back).
 * - any other store holds it with a lease (`lease.ts`) renewed while the callback runs; the done mark is
 *   written after the callback. A process that dies between the two leaves the callback to run
 *   again. Memory stores use this way (everything is in one process).
 *
 * Either way the callback's `signal` aborts when the claim is lost (a renewal failed, was
 * refused or went unanswered), and every store call is bounded in time: the request's signal
 * and the claim's wait before the callback, the lease after it.
 */
import { bounded } from '../internal/bounded.ts';
import { sleep } from '../internal/retry.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { durationOption, ttlOption } from './options.ts';
import { Lease, type StoreWait } from './lease.ts';
import { ClaimBusyError, StoreError, type Store, type StoreTransaction } from './types.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

/** Lease and wait times of a fleet-wide claim (a callback run once across processes). */
export interface ClaimOptions {
  /**
   * How long a claim outlives a silent holder (default 30 s, at least 100 ms): renewed every
   * third of it while the callback runs; with PostgreSQL, a claim's transaction idle that long
   * is ended by the server. Longer than any one statement the callback sends through `tx`.
   */
  leaseMs?: number;
  /** How long a delivery waits for another process's run of the same callback (default 5 s; 0: not at all). */
  waitMs?: number;
  /**
   * How long a done mark is kept (default 30 days; `Infinity`: forever): a redelivery after
   * that runs the callback again.
   */
  doneTtlMs?: number;
  /** Pause between looks while waiting, for stores without `claim` (default 50 ms). */
  pollMs?: number;
}

/** Claim options checked and completed with their defaults. */
export type ClaimSettings = Readonly<Required<ClaimOptions>>;

/** What a claimed callback is given: the claim's `signal` and, with a transactional store, `tx`. */
export interface ClaimContext {
  /** Aborted when the claim is lost: stop, another process may run the callback. */
  readonly signal: AbortSignal;
  /** The transaction that records the done mark (PostgreSQL store): write through it to commit with the mark. */
  readonly tx?: StoreTransaction | undefined;
}

const DEFAULTS: ClaimSettings = { leaseMs: 30_000, waitMs: 5_000, doneTtlMs: 30 * 24 * 3600_000, pollMs: 50 };

/** Time a store call may take beyond the claim's wait before it counts as stalled. */
export const STORE_GRACE_MS = 1_000;

/** `options` checked (`ConfigurationError` naming `claim.<option>`) and completed with the defaults. */
export function claimSettings(options: ClaimOptions | undefined, name = 'claim'): ClaimSettings {
  if (options === undefined) return DEFAULTS;
  if (typeof options !== 'object' || options === null) throw new ConfigurationError(name, `${name} must be an object`);
  return {
    leaseMs: durationOption(options.leaseMs, `${name}.leaseMs`, 100) ?? DEFAULTS.leaseMs,
    waitMs: durationOption(options.waitMs, `${name}.waitMs`, 0) ?? DEFAULTS.waitMs,
    doneTtlMs: ttlOption(options.doneTtlMs, `${name}.doneTtlMs`) ?? DEFAULTS.doneTtlMs,
    pollMs: durationOption(options.pollMs, `${name}.pollMs`, 1) ?? DEFAULTS.pollMs,
  };
}

/** How a claim taken elsewhere is met, and what the caller already knows. */
export interface RunOnceOptions {
  /**
   * `'wait'` (default): look again every `pollMs` until it ends, up to `waitMs`. `'answer'`:
   * resolve `'running'` at once when the store's `claim` says it runs elsewhere (a store
   * without `claim` still waits).
   */
  readonly inFlight?: 'wait' | 'answer';
  /** The caller has just looked for the done mark and found none: the first look is skipped. */
  readonly markChecked?: boolean;
}

/**
 * Runs `work` unless it already ran for `key` anywhere the store reaches. Resolves `'ran'`,
 * `'done'` (it had run) or, with `inFlight: 'answer'`, `'running'` (it runs elsewhere now); throws
 * what `work` threw, `ClaimBusyError` after waiting in vain for another process's run, or
 * `StoreError` (the store failed or did not answer in time, or the claim was lost before its mark
 * was written). `signal` (the request's) gives up the wait.
 */
export async function runOnce(
  store: Store,
  key: string,
  work: (context: ClaimContext) => unknown,
  settings: ClaimSettings = DEFAULTS,
  signal?: AbortSignal,
  now: Now = systemNow,
  options: RunOnceOptions = {},
): Promise<'ran' | 'done' | 'running'> {
  if (store.claim) return runInTransaction(store, key, work, settings, signal, now, options);
  return runLeased(store, key, work, settings, signal, now, options);
}

/**
 * Whether every one of `keys` is marked done in `store`: one read per key, at once, bounded as
 * the claim's first look is (`waitMs` plus a grace, and `signal`). Throws `StoreError`.
 */
export async function allDone(
  store: Store,
  keys: readonly string[],
  { waitMs }: ClaimSettings,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const marks = await Promise.all(keys.map((key) => within(store.get(`done:${key}`), waitMs + STORE_GRACE_MS, signal)));
  return marks.every((mark) => mark !== undefined);
}

async function runInTransaction(
  store: Store,
  key: string,
  work: (context: ClaimContext) => unknown,
  { leaseMs, waitMs, doneTtlMs, pollMs }: ClaimSettings,
  signal: AbortSignal | undefined,
  now: Now,
  { inFlight, markChecked = false }: RunOnceOptions,
): Promise<'ran' | 'done' | 'running'> {
  const terms = { leaseMs, waitMs, doneTtlMs, signal, markChecked };
  const deadline = epochMs(now) + waitMs;
  let held = await store.claim!(`done:${key}`, terms);
  // Held elsewhere: looked at again between pauses, holding no connection meanwhile.
  while (held === 'running') {
    if (inFlight === 'answer') return 'running';
    if (epochMs(now) >= deadline) throw new ClaimBusyError('Another process is handling this notification');
    await sleep(pollMs, signal);
    held = await store.claim!(`done:${key}`, { ...terms, markChecked: false });
  }
  if (held === 'done') return 'done';
  try {
    await work(held.tx ? { signal: held.signal, tx: held.tx } : { signal: held.signal });
  } catch (error) {
    await held.release();
    throw error;
  }
  await held.commit();
  return 'ran';
}

async function runLeased(
  store: Store,
  key: string,
  work: (context: ClaimContext) => unknown,
  { leaseMs, waitMs, doneTtlMs, pollMs }: ClaimSettings,
  signal: AbortSignal | undefined,
  now: Now,
  { markChecked = false }: RunOnceOptions,
): Promise<'ran' | 'done'> {
  const doneKey = `done:${key}`;
  // Before the callback: the claim's wait and the request's signal. After it: the lease only
  // (a finished callback's mark is worth writing even when nobody waits for the answer).
  const before: StoreWait = (call, onLate) => within(call, waitMs + STORE_GRACE_MS, signal, onLate);
  const after: StoreWait = (call) => within(call, leaseMs, undefined);
  const lease = new Lease(store, `claim:${key}`, leaseMs, { take: before, giveBack: after, now });

  if (!markChecked && (await before(store.get(doneKey))) !== undefined) return 'done';
  const deadline = epochMs(now) + waitMs;
  while (!(await lease.take())) {
    if ((await before(store.get(doneKey))) !== undefined) return 'done';
    if (epochMs(now) >= deadline) throw new ClaimBusyError('Another process is handling this notification');
    await sleep(pollMs, signal);
  }
  try {
    // It may have been finished between the first look and the lease.
    if ((await before(store.get(doneKey))) !== undefined) return 'done';
    await work({ signal: lease.signal });
    await after(store.set(doneKey, now().toISOString(), doneTtlMs));
    return 'ran';
  } finally {
    await lease.release();
  }
}

/** A store call bounded by `ms` and `signal`; past `ms`, a `StoreError`. */
function within<T>(
  call: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onLate?: (value: T) => void,
): Promise<T> {
  return bounded(
    call,
    ms,
    signal,
    () => new StoreError(`The store did not answer within ${Math.round(ms)} ms`),
    onLate,
  );
}
