/**
 * Confirmed, once-only delivery of notified items: what the received-payment and recurring
 * handlers share. A notified item is never trusted: `confirm` asks the service for its own record
 * and judges the item against it; only that record reaches the callback, once per delivery key
 * (the item's id and state) within the process, and across every process sharing a store through
 * the claim runner (`onceRunner`). Concurrent deliveries share work only when they carry the same
 * content, so a forged item naming a real id never answers for the genuine one, and a delivery is
 * answered only once the callback returned for its confirmed record (now or before).
 */
import type { Logger } from '../core/log.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { ClaimContext } from '../store/claims.ts';
import type { Store } from '../store/types.ts';
import { onceRunner, type NotificationHandlerOptions } from './handler.ts';
import type { Now } from '../internal/clock.ts';

/** Confirming calls running at once per handler unless `maxConcurrentConfirmations` says otherwise. */
export const DEFAULT_MAX_CONCURRENT_CONFIRMATIONS = 8;

/** How one kind of notified item is confirmed and delivered. */
export interface Confirmation<N, A> {
  /** Names the items in log lines (`payment`, `recurrence`...). */
  readonly what: string;
  /** Names the callback in log lines (`onPayment`). */
  readonly callback: string;
  /**
   * The service's record for `notified`, or `undefined` when it does not confirm it (already
   * reported, e.g. to `onUnconfirmed`). Throws when the service could not be asked (a 500 answer).
   */
  confirm(notified: N, signal: AbortSignal): Promise<A | undefined>;
  /** The identity of a delivery, also its claim's name: the callback runs once per key. */
  deliveryKey(actual: A): string;
  /** Runs the callback with the service's record and its context: the claim's, and the notified item. */
  deliver(actual: A, context: DeliveryContext<N>): unknown;
  /**
   * Further events a record carries, each handed over once by its own key after the record's
   * callback (a payment's refunds reaching a final status): a new state of the record does not
   * repeat them, and one that failed runs again on the next delivery.
   */
  events?(actual: A): ReadonlyArray<DeliveryEvent<N>>;
}

/** An event of a confirmed record, run once per `key` as a delivery is. */
export interface DeliveryEvent<N> {
  readonly key: string;
  run(context: DeliveryContext<N>): unknown;
}

/** What every confirmed callback gets beside the record: the claim's `signal` (and `tx`), and the item as notified. */
export type DeliveryContext<N> = ClaimContext & {
  /** The item as notified. Not trustworthy: use the service's record. */
  readonly notified: N;
};

/** What a confirmed delivery runs on: the handler's memory bound, claim runner and logger. */
export interface DeliverySettings {
  /** How many delivered keys (and answered notifications) are remembered. */
  readonly maxRemembered: number;
  readonly runOnce: ReturnType<typeof onceRunner>;
  readonly log: Logger | undefined;
  /** Runs a confirming call when a slot is free (`maxConcurrentConfirmations`). */
  readonly limit: Limit;
}

/**
 * A handler's delivery settings from its options: `maxRemembered` (default 10 000), the claim
 * runner over `store`, and one bound for all its confirming calls. Throws `ConfigurationError`
 * for a bad `claim` or `maxConcurrentConfirmations`.
 */
export function deliverySettings(
  options: NotificationHandlerOptions & { maxRemembered?: number },
  store: Store | undefined,
  log: Logger | undefined,
  now: Now,
): DeliverySettings {
  const max = options.maxConcurrentConfirmations ?? DEFAULT_MAX_CONCURRENT_CONFIRMATIONS;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new ConfigurationError('maxConcurrentConfirmations', 'maxConcurrentConfirmations must be a positive integer');
  }
  return {
    maxRemembered: options.maxRemembered ?? 10_000,
    runOnce: onceRunner(store, options.claim, now),
    log,
    limit: limiter(max),
  };
}

/** Runs `work` once fewer than the bound are running; a waiting turn is given up when `signal` aborts. */
export type Limit = <T>(work: () => Promise<T>, signal: AbortSignal) => Promise<T>;

function limiter(max: number): Limit {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async (work, signal) => {
    if (running < max) running++;
    else {
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const at = waiting.indexOf(turn);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal.reason);
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        waiting.push(turn);
      });
    }
    try {
      return await work();
    } finally {
      release();
    }
  };
}

/** One kind of item's way to its callback. */
export interface Delivery<N, A> {
  /**
   * A notified item: resolves once its confirmed record was delivered (now or before) or it was
   * set aside; rejects when the confirmation or the callback failed.
   */
  notified(item: N, signal: AbortSignal): Promise<DeliveryOutcome>;
  /**
   * A record the service listed itself (a sweep): nothing to confirm, delivered under the same
   * keys and claims as a notified one, so that the two never both hand it over.
   */
  listed(record: A, as: N, signal: AbortSignal): Promise<DeliveryOutcome>;
}

/** The delivery of `confirmation`'s items over one handler's settings. */
export function confirmedDelivery<N, A>(
  confirmation: Confirmation<N, A>,
  { maxRemembered, runOnce, log, limit }: DeliverySettings,
): Delivery<N, A> {
  const { what } = confirmation;
  // Keys handed over (records and their events), and notifications that led to one (`contentKey`).
  const delivered = new RecentSet(maxRemembered);
  const answered = new RecentSet(maxRemembered);
  // Running work, joined only by the same thing: the same notification content, or the same
  // key being handed over.
  const confirming = new Map<string, Promise<DeliveryOutcome>>();
  const delivering = new Map<string, Promise<DeliveryOutcome>>();

  const once = (key: string, run: (claim: ClaimContext) => unknown, signal: AbortSignal): Promise<DeliveryOutcome> => {
    if (delivered.has(key)) return Promise.resolve('duplicate');
    return joined(delivering, key, async () => {
      const ran = await runOnce(key, run, signal);
      delivered.add(key);
      // Another process (or an earlier delivery) handed it over already.
      return ran === 'done' ? 'duplicate' : 'confirmed';
    });
  };

  const deliver = async (actual: A, notified: N, signal: AbortSignal): Promise<DeliveryOutcome> => {
    const outcome = await once(
      confirmation.deliveryKey(actual),
      (claim) => confirmation.deliver(actual, { ...claim, notified }),
      signal,
    );
    if (outcome === 'duplicate') log?.info?.(`${what} duplicate: already handed to ${confirmation.callback}`);
    else log?.info?.(`${what} confirmed`);
    for (const event of confirmation.events?.(actual) ?? []) {
      await once(event.key, (claim) => event.run({ ...claim, notified }), signal);
    }
    return outcome;
  };

  return {
    notified(item, signal) {
      // Only the same notification (same content) is answered from memory or joins a running
      // one: a forged one naming the same id must not stand in for the genuine one.
      const key = contentKey(item);
      if (answered.has(key)) {
        log?.info?.(`${what} duplicate: notification already answered`);
        return Promise.resolve('duplicate');
      }
      return joined(confirming, key, async () => {
        const actual = await limit(() => confirmation.confirm(item, signal), signal);
        if (actual === undefined) return 'unconfirmed';
        const outcome = await deliver(actual, item, signal);
        answered.add(key);
        return outcome;
      });
    },
    listed: deliver,
  };
}

/** What became of a notified item: handed to the callback now, before, or set aside unconfirmed. */
export type DeliveryOutcome = 'confirmed' | 'duplicate' | 'unconfirmed';

/** A notification's outcome from its items': confirmed if any was, duplicate if all were, else unconfirmed. */
export function notificationOutcome(outcomes: readonly DeliveryOutcome[]): DeliveryOutcome {
  if (outcomes.includes('confirmed')) return 'confirmed';
  return outcomes.length > 0 && outcomes.every((outcome) => outcome === 'duplicate') ? 'duplicate' : 'unconfirmed';
}

/** The running task under `key`, or `work` started and registered there until it settles. */
function joined<T>(running: Map<string, Promise<T>>, key: string, work: () => Promise<T>): Promise<T> {
  const current = running.get(key);
  if (current) return current;
  const task = work().finally(() => running.delete(key));
  running.set(key, task);
  return task;
}

/** A value's content in a canonical form (object keys sorted): a notified item's identity as a delivery. */
function contentKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(contentKey).join(',')}]`;
  if (isRecord(value)) {
    const fields = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${contentKey(value[key])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A set that forgets its least recently added entries beyond `max`. */
class RecentSet {
  readonly #max: number;
  readonly #entries = new Set<string>();

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  add(key: string): void {
    this.#entries.delete(key);
    this.#entries.add(key);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.values().next().value!);
  }
}
