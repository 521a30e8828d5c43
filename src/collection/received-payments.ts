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
import type { Telemetry } from '../core/telemetry.ts';
import { ApiError } from '../errors/api-error.ts';
import { InvalidNotificationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { RequestOptions } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import { PathParameterError } from '../core/path.ts';
import { sameAmount } from '../lib/money.ts';
import { listKeyOf, normalizePayment, type Devolucao, type InstantPayment } from './instant.ts';
import type { Now } from '../internal/clock.ts';
import type { Store } from '../store/types.ts';
import {
  readNotificationJson,
  type NotificationContext,
  type NotificationHandler,
  type NotificationHandlerOptions,
} from '../notifications/handler.ts';
import { feed, notificationPipeline } from '../notifications/pipeline.ts';
import {
  handlerSweep,
  listSource,
  type ListMethod,
  type SweepingHandlerOptions,
  type SweepOptions,
  type SweepResult,
} from '../notifications/sweep.ts';

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
    if (
      !isRecord(item) ||
      typeof item['endToEndId'] !== 'string' ||
      item['endToEndId'] === '' ||
      typeof item['valor'] !== 'string'
    ) {
      throw new InvalidNotificationError(`Payment ${index} of the notification has no endToEndId or valor`);
    }
    return normalizePayment(item as InstantPayment);
  });
}

/** What the handler needs of the client: the received-payment query (and for `sweep()`, the list). */
export interface ReceivedPaymentsApi {
  readonly instant: {
    /** The service's record of a payment (`api.instant.get`). */
    get(e2eid: string, options?: RequestOptions): Promise<InstantPayment>;
    /** A page of the received payments of a period (`api.instant.list`): what `sweep()` reads. */
    list?: ListMethod<InstantPayment>;
  };
  /** The client's shared store, used when the handler is given none. */
  readonly store?: Store | undefined;
  /** The client's logger, used when the handler is given none. */
  readonly logger?: Logger | undefined;
  /** @internal The client's OpenTelemetry: one SERVER span per notification handled. */
  readonly telemetry?: Telemetry | undefined;
  /** The client's clock (default the system clock): claims, certificate dates and the end of a sweep's period read it. */
  readonly now?: Now | undefined;
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

/**
 * What `onPayment` gets beside the payment: the notified payment, the claim's `signal` and,
 * with the PostgreSQL store, `tx` (see `NotificationContext`).
 */
export type PaymentContext<S extends Store = Store> = NotificationContext<S> & {
  /** The payment as notified. Not trustworthy: use the service's record. */
  readonly notified: InstantPayment;
};

/**
 * Callbacks and limits of the received-payments notification handler. Its sweep cursor's default
 * `name` is `receivedPayments`; `requestOptions` go to the confirming `api.instant.get` calls and
 * the sweep's `api.instant.list`.
 */
export interface ReceivedPaymentsHandlerOptions<S extends Store = Store>
  extends NotificationHandlerOptions<S>,
    SweepingHandlerOptions {
  /**
   * A confirmed payment: the service's own record (`payment`) and, in `context`, the notified
   * one. Called once per e2eid and refund state within the process (fleet-wide with a shared
   * `store`); called again for the same e2eid when its refunds changed (the service notifies
   * when a refund reaches a final status). A throw (or rejection) answers 500, so the service
   * sends the notification again. With the PostgreSQL store, write through `context.tx` to
   * record the payment exactly once: it commits with the done mark or not at all.
   */
  onPayment(payment: InstantPayment, context: PaymentContext<S>): void | Promise<void>;
  /**
   * A refund of a confirmed payment reached a final status (`DEVOLVIDO`, `NAO_REALIZADO`): called
   * once per refund id and final status, from notifications and sweeps alike (fleet-wide with a
   * shared `store`), after `onPayment` for the record that shows it. `isDispute(refund)` tells a
   * return the service made on its own (a `MED_*` nature) from one the user asked for. A throw
   * answers 500 (or fails the sweep), so it is handed over again.
   */
  onRefund?(payment: InstantPayment, refund: Devolucao, context: PaymentContext<S>): void | Promise<void>;
  /** A notified payment the service does not confirm (forged or mistaken). A throw answers 500. */
  onUnconfirmed?(event: UnconfirmedPayment): void | Promise<void>;
  /**
   * With a shared store (`instant-payments/postgres`; default: the client's), `onPayment` runs
   * once per e2eid and refund state across every process, and the answer is 200 only after it
   * finished somewhere. A delivery finding it running elsewhere waits `claim.waitMs`, then
   * answers 500 so that the service sends it again. `maxBodyBytes` defaults to 1 MiB.
   */
  store?: S;
}

/** The received-payments handler: a web-standard notification handler that can also sweep. */
export interface ReceivedPaymentsHandler extends NotificationHandler {
  /**
   * Reads the service's received payments of a period (`GET /instant`, page by page) and hands
   * each to `onPayment` (and its final refunds to `onRefund`) through the same once-only claims
   * as a notification: what a notification handled is not handed over again, here or (with a
   * store) anywhere in the fleet. Without `from`, starts where this handler's last sweep ended
   * (the store's cursor) less `sweepOverlapMs`; the cursor moves only once the whole period was
   * handed over. Rejects when a page cannot be read or a callback throws (the cursor stays).
   */
  sweep(options?: SweepOptions): Promise<SweepResult>;
}

/**
 * A web-standard handler for the received-payment notifications (any path: the service
 * appends the list name to the registered URL), with `.node` for a Node `(req, res)` server
 * and `sweep()` to catch up lost notifications.
 * Answers 200 once every payment was handled (a confirmed one only once `onPayment` returned
 * for it, in this request or an earlier one; duplicates and unconfirmed ones set aside), 400
 * for a body that is too large or not a notification, 405 for a method other than POST, and
 * 500 when a callback threw or the confirmation query failed (network, 5xx), so that the
 * service sends again; `onError` is told of each. Never throws.
 */
export function receivedPaymentsHandler<S extends Store = Store>(
  api: ReceivedPaymentsApi,
  options: ReceivedPaymentsHandlerOptions<S>,
): ReceivedPaymentsHandler {
  const { onRefund } = options;
  const pipeline = notificationPipeline<InstantPayment[]>(api, options, (log) => ({
    span: 'receivedPayments.notification',
    parse: parseReceivedPayments,
    counts: (payments) => ({ payments: payments.length }),
    feeds: [
      feed((payments) => payments, {
        what: 'payment',
        callback: 'onPayment',
        confirm: async (notified: InstantPayment, signal: AbortSignal) => {
          let actual: InstantPayment;
          try {
            actual = await api.instant.get(notified.endToEndId, { ...options.requestOptions, signal });
          } catch (error) {
            // 404, or an e2eid the client refuses before asking: no such payment.
            if (
              (error instanceof ApiError && (error.status === 404 || !error.sentRequest)) ||
              error instanceof PathParameterError
            ) {
              log?.warn?.('payment unconfirmed', { reason: 'not-found' });
              await options.onUnconfirmed?.({ reason: 'not-found', notified });
              return undefined;
            }
            throw error;
          }
          if (
            !sameAmount(actual.valor, notified.valor) ||
            actual.endToEndId !== notified.endToEndId ||
            !sameTxid(actual, notified)
          ) {
            log?.warn?.('payment unconfirmed', { reason: 'mismatch' });
            await options.onUnconfirmed?.({ reason: 'mismatch', notified, actual });
            return undefined;
          }
          return actual;
        },
        deliveryKey,
        // The payment's key and its final refunds' (when handed to onRefund), as notified.
        notifiedKeys: (notified: InstantPayment) => [
          deliveryKey(notified),
          ...(onRefund === undefined ? [] : finalRefunds(notified).map((refund) => refundKey(notified, refund))),
        ],
        // The context has `tx` exactly when the store is transactional, as `PaymentContext<S>` says.
        deliver: (actual, context) => options.onPayment(actual, context as PaymentContext<S>),
        events: (actual: InstantPayment) =>
          onRefund === undefined
            ? []
            : finalRefunds(actual).map((refund) => ({
                key: refundKey(actual, refund),
                run: (context) => onRefund(actual, refund, context as PaymentContext<S>),
              })),
      }),
    ],
  }));
  const delivery = pipeline.deliveries[0]!;
  const list = api.instant.list?.bind(api.instant);
  const sources = [listSource(list, 'api.instant.list', options.requestOptions, delivery)];
  const sweep = handlerSweep(api, options, 'receivedPayments', sources);
  return Object.assign(pipeline.handler, { sweep });
}

/** A payment's refunds that reached a final status. */
function finalRefunds(payment: InstantPayment): Devolucao[] {
  return (Array.isArray(payment.devolucoes) ? payment.devolucoes : []).filter(
    (refund) => refund?.status === 'DEVOLVIDO' || refund?.status === 'NAO_REALIZADO',
  );
}

/** The claim of a payment's delivery: its e2eid plus the refunds' ids and statuses (a refund reaching a final status is news). */
function deliveryKey(payment: InstantPayment): string {
  const refunds = Array.isArray(payment.devolucoes)
    ? payment.devolucoes
        .map((d) => `${String(d?.id)}:${String(d?.status)}`)
        .sort()
        .join(',')
    : '';
  return `payment:${payment.endToEndId}|${refunds}`;
}

/** The claim of a refund's delivery to `onRefund`: once per refund id and final status. */
function refundKey(payment: InstantPayment, refund: Devolucao): string {
  return `refund:${payment.endToEndId}:${refund.id}:${refund.status}`;
}

function sameTxid(actual: InstantPayment, notified: InstantPayment): boolean {
  return notified.txid === undefined || actual.txid === undefined || notified.txid === actual.txid;
}
