/**
 * Confirmed, once-only delivery of notified items: what the received-payment and recurring
 * handlers share. A notified item is never trusted: `confirm` asks the service for its own record
 * and judges the item against it; only that record reaches the callback, once per delivery key
 * (the item's id and state) within the process, and across every process sharing a store through
 * the claim runner (`onceRunner`). Before asking the service, the done marks of the keys the item
 * names are read: all there, it is a duplicate, answered without a call (nothing runs for it, so
 * a forged one gains nothing). Concurrent deliveries share work only when they carry the same
 * content, so a forged item naming a real id never answers for the genuine one, and a delivery is
 * answered only once the callback returned for its confirmed record (now or before), or once it
 * is found running in another process (which answers 5xx if it fails, so the service delivers
 * again; a sweep catches what is lost).
 */
import type { Logger } from '../core/log.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { ClaimContext, RunOnceOptions } from '../store/claims.ts';
import { durationOption } from '../store/options.ts';
import { ClaimBusyError, type Store } from '../store/types.ts';
import { onceRunner, type NotificationHandlerOptions, type NotificationTrace, type OnceRunner } from './handler.ts';
import { epochMs, type Now } from '../internal/clock.ts';

/** Confirming calls running at once per handler unless `maxConcurrentConfirmations` says otherwise. */
export const DEFAULT_MAX_CONCURRENT_CONFIRMATIONS = 8;

/** How long the service is taken to wait for an answer unless `deliveryTimeoutMs` says otherwise. */
const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;

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
  /**
   * The keys an item's delivery is done under, read from the item as notified the way
   * `deliveryKey` (and `events`) read them from the record: when each is marked done, the item
   * is a duplicate and the service is not asked. Only the marks are read: nothing runs for it.
   */
  notifiedKeys(notified: N): readonly string[];
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
  readonly once: OnceRunner;
  readonly log: Logger | undefined;
  /** Runs a confirming call when a slot is free (`maxConcurrentConfirmations`). */
  readonly limit: Limit;
}

/**
 * A handler's delivery settings from its options: `maxRemembered` (default 10 000), the claim
 * runner over `store`, and one bound for all its confirming calls, which warns once when a turn
 * takes `deliveryTimeoutMs`. Throws `ConfigurationError` for a bad `claim`,
 * `maxConcurrentConfirmations` or `deliveryTimeoutMs`.
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
  const timeoutMs = durationOption(options.deliveryTimeoutMs, 'deliveryTimeoutMs', 1) ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  return {
    maxRemembered: options.maxRemembered ?? 10_000,
    once: onceRunner(store, options.claim, now),
    log,
    limit: limiter(max, now, overdueWarning(log, max, timeoutMs)),
  };
}

/**
 * Runs `work` once fewer than the bound are running; a waiting turn is given up when `signal`
 * aborts. `trace` is the notification's span, told when its wait was too long.
 */
export type Limit = <T>(work: () => Promise<T>, signal: AbortSignal, trace: NotificationTrace) => Promise<T>;

/** Told how long a turn has waited (the oldest waiting one, or one that ended its wait). */
type Overdue = (waitedMs: number, trace: NotificationTrace) => void;

/**
 * Says once, through the logger (`warn`) and the notification's span, that deliveries wait for
 * a confirmation slot as long as the service waits for an answer: the service gives up on them
 * and delivers again, and only a larger `maxConcurrentConfirmations` (or more processes) helps.
 */
function overdueWarning(log: Logger | undefined, max: number, timeoutMs: number): Overdue {
  let told = false;
  return (waitedMs, trace) => {
    if (told || waitedMs < timeoutMs) return;
    told = true;
    const figures = {
      waitedMs: Math.round(waitedMs),
      maxConcurrentConfirmations: max,
      deliveryTimeoutMs: timeoutMs,
    };
    log?.warn?.(CONFIRMATIONS_OVERDUE, figures);
    trace.step(CONFIRMATIONS_OVERDUE, {
      'instant_payments.waited_ms': figures.waitedMs,
      'instant_payments.max_concurrent_confirmations': max,
      'instant_payments.delivery_timeout_ms': timeoutMs,
    });
  };
}

const CONFIRMATIONS_OVERDUE =
  'confirmations queued past the delivery timeout: raise maxConcurrentConfirmations (see the notifications guide)';

function limiter(max: number, now: Now, overdue: Overdue): Limit {
  let running = 0;
  const waiting: Array<{ turn: () => void; since: number }> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next.turn();
    else running--;
  };
  return async (work, signal, trace) => {
    if (running < max) running++;
    else {
      const oldest = waiting[0];
      if (oldest) overdue(epochMs(now) - oldest.since, trace);
      await new Promise<void>((resolve, reject) => {
        const entry = {
          since: epochMs(now),
          turn: () => {
            signal.removeEventListener('abort', abort);
            overdue(epochMs(now) - entry.since, trace);
            resolve();
          },
        };
        const abort = () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          overdue(epochMs(now) - entry.since, trace);
          reject(signal.reason);
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        waiting.push(entry);
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
   * A notified item: resolves once its confirmed record was delivered (now or before), found
   * running in another process, or set aside; rejects when the confirmation or the callback
   * failed. `trace` is the notification's span.
   */
  notified(item: N, signal: AbortSignal, trace: NotificationTrace): Promise<DeliveryOutcome>;
  /**
   * A record the service listed itself (a sweep): nothing to confirm, delivered under the same
   * keys and claims as a notified one, so that the two never both hand it over. One running in
   * another process is waited for (`claim.waitMs`, then `ClaimBusyError`): a sweep moves on only
   * past what is done.
   */
  listed(record: A, as: N, signal: AbortSignal): Promise<DeliveryOutcome>;
}

/** The delivery of `confirmation`'s items over one handler's settings. */
export function confirmedDelivery<N, A>(
  confirmation: Confirmation<N, A>,
  { maxRemembered, once: runner, log, limit }: DeliverySettings,
): Delivery<N, A> {
  const { what } = confirmation;
  // Keys handed over (records and their events), and notifications that led to one (`contentKey`).
  const delivered = new RecentSet(maxRemembered);
  const answered = new RecentSet(maxRemembered);
  // Running work, joined only by the same thing: the same notification content, or the same
  // key being handed over.
  const confirming = new Map<string, Promise<DeliveryOutcome>>();
  const delivering = new Map<string, Promise<DeliveryOutcome>>();

  const once = (
    key: string,
    run: (claim: ClaimContext) => unknown,
    signal: AbortSignal,
    options: RunOnceOptions,
  ): Promise<DeliveryOutcome> => {
    if (delivered.has(key)) return Promise.resolve('duplicate');
    return joined(delivering, key, async () => {
      const ran = await runner.run(key, run, signal, options);
      // Running elsewhere: not done yet, so not remembered.
      if (ran === 'running') return 'in-flight';
      delivered.add(key);
      // Another process (or an earlier delivery) handed it over already.
      return ran === 'done' ? 'duplicate' : 'confirmed';
    });
  };

  /** `actual` handed over; `looked`: the keys whose done marks were just found missing. */
  const deliver = async (
    actual: A,
    notified: N,
    signal: AbortSignal,
    inFlight: 'wait' | 'answer',
    looked: readonly string[] = [],
  ): Promise<DeliveryOutcome> => {
    const options = (key: string): RunOnceOptions => ({ inFlight, markChecked: looked.includes(key) });
    const key = confirmation.deliveryKey(actual);
    const outcome = await once(
      key,
      (claim) => confirmation.deliver(actual, { ...claim, notified }),
      signal,
      options(key),
    );
    if (outcome === 'in-flight') {
      // Its events follow the record's callback, there.
      log?.info?.(`${what} duplicate: being handed to ${confirmation.callback} elsewhere`);
      return outcome;
    }
    if (outcome === 'duplicate') log?.info?.(`${what} duplicate: already handed to ${confirmation.callback}`);
    else log?.info?.(`${what} confirmed`);
    for (const event of confirmation.events?.(actual) ?? []) {
      await once(event.key, (claim) => event.run({ ...claim, notified }), signal, options(event.key));
    }
    return outcome;
  };

  /**
   * `true` when every key `item` names is marked done (in this process, else in the store);
   * otherwise the keys looked for, whose marks were missing.
   */
  const handedOver = async (item: N, signal: AbortSignal): Promise<readonly string[] | true> => {
    const keys = confirmation.notifiedKeys(item);
    if (keys.length === 0) return [];
    if (keys.every((key) => delivered.has(key))) return true;
    return (await runner.done(keys, signal)) ? true : keys;
  };

  return {
    notified(item, signal, trace) {
      // Only the same notification (same content) is answered from memory or joins a running
      // one: a forged one naming the same id must not stand in for the genuine one.
      const key = contentKey(item);
      if (answered.has(key)) {
        log?.info?.(`${what} duplicate: notification already answered`);
        return Promise.resolve('duplicate');
      }
      return joined(confirming, key, async () => {
        const looked = await handedOver(item, signal);
        if (looked === true) {
          log?.info?.(`${what} duplicate: already handed to ${confirmation.callback}, the service not asked`);
          answered.add(key);
          return 'duplicate';
        }
        const actual = await limit(() => confirmation.confirm(item, signal), signal, trace);
        if (actual === undefined) return 'unconfirmed';
        const outcome = await deliver(actual, item, signal, 'answer', looked);
        if (outcome !== 'in-flight') answered.add(key);
        return outcome;
      });
    },
    async listed(record, as, signal) {
      const outcome = await deliver(record, as, signal, 'wait');
      // It joined a notified delivery that found it running elsewhere: not done yet.
      if (outcome === 'in-flight') throw new ClaimBusyError('Another process is handling this record');
      return outcome;
    },
  };
}

/**
 * What became of a notified item: handed to the callback now, before, being handed over in
 * another process now, or set aside unconfirmed.
 */
export type DeliveryOutcome = 'confirmed' | 'duplicate' | 'in-flight' | 'unconfirmed';

/**
 * A notification's outcome from its items': confirmed if any was; else in-flight if any was and
 * the rest were duplicates; duplicate if all were; else unconfirmed.
 */
export function notificationOutcome(outcomes: readonly DeliveryOutcome[]): DeliveryOutcome {
  if (outcomes.includes('confirmed')) return 'confirmed';
  if (outcomes.length === 0 || !outcomes.every((outcome) => outcome === 'duplicate' || outcome === 'in-flight'))
    return 'unconfirmed';
  return outcomes.includes('in-flight') ? 'in-flight' : 'duplicate';
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
