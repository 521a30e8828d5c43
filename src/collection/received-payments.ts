/**
 * Received-payment notifications: what the service POSTs to a registered webhook
 * (`webhookUrl` + `/<list name>`), `{ "<list name>": [payment, ...] }`, the list named after
 * the payment scheme. The parser does not spell that name: it takes the body's one
 * array-valued property.
 *
 * The notification is not signed, so the handler trusts none of it: each payment is fetched
 * again with `api.instant.get(e2eid)` and only a payment the service confirms (same e2eid,
 * same amount, same txid) reaches `onPayment`, with the fetched data. Duplicates are dropped
 * within the process, or across every process sharing a `store`, and concurrent deliveries share
 * work only when they carry the same content: a forged notification naming a real e2eid never
 * answers for the genuine one. Uses the public resource API only.
 */
import { ApiError } from '../errors/api-error.ts';
import { InvalidNotificationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { RequestOptions } from '../core/types.ts';
import { resolveLogger, type Logger } from '../core/log.ts';
import { PathParameterError } from '../core/path.ts';
import { sameAmount } from '../lib/money.ts';
import { listKeyOf, normalizePayment, type InstantPayment } from './instant.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../node/adapter.ts';
import { runOnce } from '../store/claims.ts';
import type { Store } from '../store/types.ts';
import {
  notificationHandler, readNotificationJson, type NotificationHandler, type
  NotificationHandlerOptions,
} from '../notifications/handler.ts';

/**
 * The former name of `InvalidNotificationError` for received-payment bodies: the same class.
 * @deprecated Catch `InvalidNotificationError`, which both notification handlers throw.
 */
export const MalformedNotificationError = InvalidNotificationError;
/** @deprecated See `InvalidNotificationError`. */
export type MalformedNotificationError = InvalidNotificationError;

/**
 * The payments of a notification body (bytes, a JSON string or the parsed value). Throws
 * `InvalidNotificationError` unless the body is an object with exactly one array-valued
 * property whose items each have a string `endToEndId` and a string `valor`. Items are read
 * leniently: unknown fields pass through, a lone `devolucoes` object becomes an array.
 */
export function parseReceivedPayments(body: unknown): InstantPayment[] {
  const value = readNotificationJson(body);
  const key = listKeyOf(value);
  if (key === undefined || !isRecord(value)) {
    throw new InvalidNotificationError('The notification body is not an object with one list of payments');
  }
  const items = value[key] as unknown[];
  return items.map((item, index) => {
    if (!isRecord(item) || typeof item['endToEndId'] !== 'string' || item['endToEndId'] === '' || typeof item['valor'] !== 'string') {
      throw new InvalidNotificationError(`Payment ${index} of the notification has no endToEndId or valor`);
    }
    return normalizePayment(item as InstantPayment);
  });
}

/** What the handler needs of the client: the received-payment query. */
export interface ReceivedPaymentsApi {
  readonly instant: {
    /** The service's record of a payment (`api.instant.get`). */
    get(e2eid: string, options?: RequestOptions): Promise<InstantPayment>;
  };
  /** The client's shared store, used when the handler is given none. */
  readonly store?: Store | undefined;
  /** The client's logger, used when the handler is given none. */
  readonly logger?: Logger | undefined;
}

/** Why a notified payment was not handed to `onPayment`. */
export type UnconfirmedReason =
  /** The service knows no payment with that e2eid (404), or the e2eid is malformed. */
  | 'not-found'
  /** The service's payment differs from the notified one (valor, or txid when both have one). */
  | 'mismatch';

/** A notified payment the service's own record did not confirm, and why. */
export interface UnconfirmedPayment {
  reason: UnconfirmedReason;
  /** What the notification claimed. Not trustworthy. */
  notified: InstantPayment;
  /** What the service answered, for a mismatch. */
  actual?: InstantPayment;
}

/** Callbacks and limits of the received-payments notification handler. */
export interface ReceivedPaymentsHandlerOptions extends NotificationHandlerOptions {
  /**
   * A confirmed payment: the service's own record (`payment`) and the notified one. Called once
   * per e2eid and refund state within the process (fleet-wide with a shared `store`); called again for the same e2eid when its
   * refunds changed (the service notifies when a refund reaches a final status). A throw (or
   * rejection) answers 500, so the service sends the notification again.
   */
  onPayment(payment: InstantPayment, context: { notified: InstantPayment }): void | Promise<void>;
  /** A notified payment the service does not confirm (forged or mistaken). A throw answers 500. */
  onUnconfirmed?(event: UnconfirmedPayment): void | Promise<void>;
  /** How many delivered payments are remembered to drop duplicates (default 10 000, least recent dropped first). */
  maxRemembered?: number;
  /** Options for the confirming `api.instant.get` calls (timeouts, retries). */
  requestOptions?: RequestOptions;
  /**
   * With a shared store (`instant-payments/postgres`; default: the client's), `onPayment` runs
   * once per e2eid and refund state across every process, and the answer is 200 only after it
   * finished somewhere. A delivery finding it running elsewhere waits `claim.waitMs`, then
   * answers 500 so that the service sends it again. `maxBodyBytes` defaults to 1 MiB.
   */
  store?: Store;
}

/**
 * A web-standard handler for the received-payment notifications (any path: the service
 * appends the list name to the registered URL), with `.node` for a Node `(req, res)` server.
 * Answers 200 once every payment was handled (a confirmed one only once `onPayment` returned
 * for it, in this request or an earlier one; duplicates and unconfirmed ones set aside), 400
 * for a body that is too large or not a notification, 405 for a method other than POST, and
 * 500 when a callback threw or the confirmation query failed (network, 5xx), so that the
 * service sends again; `onError` is told of each. Never throws.
 */
export function receivedPaymentsHandler(api: ReceivedPaymentsApi, options: ReceivedPaymentsHandlerOptions): NotificationHandler {
  // Confirmed payments handed to onPayment (`deliveryKey`), and notifications that led to one (`contentKey`).
  const delivered = new RecentSet(options.maxRemembered ?? 10_000);
  const answered = new RecentSet(options.maxRemembered ?? 10_000);
  // Running work, joined only by the same thing: the same notification content, or the same
  // confirmed payment being handed to onPayment.
  const confirming = new Map<string, Promise<void>>();
  const delivering = new Map<string, Promise<void>>();
  const log = options.logger ?? api.logger ?? resolveLogger(undefined);

  const once = (running: Map<string, Promise<void>>, key: string, work: () => Promise<void>): Promise<void> => {
    const joined = running.get(key);
    if (joined) return joined;
    const task = work().finally(() => running.delete(key));
    running.set(key, task);
    return task;
  };

  const deliver = (actual: InstantPayment, notified: InstantPayment): Promise<void> => {
    const key = deliveryKey(actual);
    if (delivered.has(key)) {
      log?.info?.('payment duplicate: already handed to onPayment');
      return Promise.resolve();
    }
    return once(delivering, key, async () => {
      const store = options.store ?? api.store;
      const run = () => options.onPayment(actual, { notified });
      if (store) await runOnce(store, `payment:${key}`, run, options.claim);
      else await run();
      delivered.add(key);
      log?.info?.('payment confirmed');
    });
  };

  const confirmAndDeliver = async (notified: InstantPayment, signal: AbortSignal): Promise<void> => {
    let actual: InstantPayment;
    try {
      actual = await api.instant.get(notified.endToEndId, { ...options.requestOptions, signal });
    } catch (error) {
      // 404, or an e2eid the client refuses before asking: no such payment.
      if ((error instanceof ApiError && (error.status === 404 || !error.sentRequest)) || error instanceof PathParameterError) {
        log?.warn?.('payment unconfirmed', { reason: 'not-found' });
        return options.onUnconfirmed?.({ reason: 'not-found', notified });
      }
      throw error;
    }
    if (!sameAmount(actual.valor, notified.valor) || actual.endToEndId !== notified.endToEndId || !sameTxid(actual, notified)) {
      log?.warn?.('payment unconfirmed', { reason: 'mismatch' });
      return options.onUnconfirmed?.({ reason: 'mismatch', notified, actual });
    }
    await deliver(actual, notified);
    answered.add(contentKey(notified));
  };

  const handle = (notified: InstantPayment, signal: AbortSignal): Promise<void> => {
    // Only the same notification (same content) is answered from memory or joins a running
    // one: a forged one naming the same e2eid must not stand in for the genuine one.
    const key = contentKey(notified);
    if (answered.has(key)) {
      log?.info?.('payment duplicate: notification already answered');
      return Promise.resolve();
    }
    return once(confirming, key, () => confirmAndDeliver(notified, signal));
  };

  return notificationHandler(options, DEFAULT_MAX_BODY_BYTES, log, async (bytes, request, fail) => {
    const started = Date.now();
    let payments: InstantPayment[];
    try {
      payments = parseReceivedPayments(bytes);
    } catch (error) {
      return fail(400, error);
    }
    log?.info?.('notification received', { payments: payments.length });
    try {
      for (const payment of payments) await handle(payment, request.signal);
      log?.info?.('notification answered', { status: 200, payments: payments.length, ms: Date.now() - started });
      return new Response(null, { status: 200 });
    } catch (error) {
      return fail(500, error);
    }
  });
}

/** A notified payment's content in a canonical form (object keys sorted): its identity as a delivery. */
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

/** e2eid plus the refunds' ids and statuses: a refund reaching a final status is news. */
function deliveryKey(payment: InstantPayment): string {
  const refunds = Array.isArray(payment.devolucoes)
    ? payment.devolucoes
        .map((d) => `${String(d?.id)}:${String(d?.status)}`)
        .sort()
        .join(',')
    : '';
  return `${payment.endToEndId}|${refunds}`;
}

function sameTxid(actual: InstantPayment, notified: InstantPayment): boolean {
  return notified.txid === undefined || actual.txid === undefined || notified.txid === actual.txid;
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
