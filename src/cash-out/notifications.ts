/**
 * Transfer-confirmation notifications (cash-out): what the provider POSTs when a transfer
 * reaches its final status. They are not signed, so each is verified against the provider's own
 * status query before a callback sees it. The handler is built like the received-payments and
 * recurring ones (`notifications/handler.ts`, then `notifications/confirmed.ts`): same
 * `authenticate`, error class, `onError`, `maxBodyBytes`, `store`, bounded and shared
 * confirmations, in-process duplicates dropped, and `.node`.
 */
import type { RequestOptions } from '../core/types.ts';
import { InvalidNotificationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import { TransferNotFoundError } from './errors.ts';
import { NOTIFIED_STATUSES, type NotifiedStatus, type Transfer } from './types.ts';
import { readTransfer, unwrap } from './wire.ts';
import { isValidIdempotencyKey } from '../lib/ids.ts';
import type { Store } from '../store/types.ts';
import type { CashOutApi } from './pay.ts';
import {
  readNotificationJson,
  unclaimed,
  type NotificationContext,
  type NotificationHandler,
  type NotificationHandlerOptions,
} from '../notifications/handler.ts';
import { feed, notificationPipeline } from '../notifications/pipeline.ts';

/** Why a notification is not trusted. */
export type SuspicionReason =
  /** The provider's status for the key differs from the notified one (or is not final). */
  | 'status-mismatch'
  /** The provider knows no transfer with the notified idempotency key (404). */
  | 'unknown-transfer'
  /** The notification carries a status other than LIQUIDATED or CANCELED. */
  | 'not-final-status';

/** The notified status matches the provider's final status: record `actual`. */
export interface ConfirmedNotification {
  verdict: 'confirmed';
  /** The notification as received (amounts converted); never trust it over `actual`. */
  notified: Transfer;
  /** The transfer as the provider's status query gives it. */
  actual: Transfer;
}

/** The notification does not agree with the provider: possibly forged. */
export interface SuspiciousNotification {
  verdict: 'suspicious';
  reason: SuspicionReason;
  notified: Transfer;
  /** The provider's answer; `undefined` for an unknown key or a non-final notified status. */
  actual: Transfer | undefined;
}

/** The verdict of `cashOut.verifyNotification`: confirmed by the provider, or suspicious. */
export type NotificationVerification = ConfirmedNotification | SuspiciousNotification;

/**
 * Reads a transfer-confirmation notification (`{ data: {...}, type: "TRANSFER" }`; a JSON string,
 * bytes or the parsed object). Throws `InvalidNotificationError` when it has no readable
 * `data.idempotencyKey` (`[a-zA-Z0-9]{1,50}`) and `data.status`.
 */
export function parseTransferNotification(body: unknown): Transfer {
  const value = readNotificationJson(body);
  if (!isRecord(value) || !isRecord(value['data'])) {
    throw new InvalidNotificationError('Notification body has no data object');
  }
  const record = unwrap(value) ?? {};
  const key = record['idempotencyKey'];
  if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
    throw new InvalidNotificationError('Notification has no valid data.idempotencyKey');
  }
  let transfer: Transfer | undefined;
  try {
    transfer = readTransfer(record);
  } catch (error) {
    throw new InvalidNotificationError('Notification has an unreadable amount', { cause: error });
  }
  if (transfer === undefined) throw new InvalidNotificationError('Notification has no data.status');
  return transfer;
}

function isNotifiedStatus(status: string): status is NotifiedStatus {
  return (NOTIFIED_STATUSES as readonly string[]).includes(status);
}

/**
 * Verifies a transfer-confirmation notification (interface spec, "Events"): the transfer is queried by the
 * notification's idempotency key, and the verdict is `confirmed` only when the queried status is
 * LIQUIDATED or CANCELED and equals the notified one. A mismatch, an unknown key (404) or a
 * notified status other than LIQUIDATED or CANCELED (not queried at all) is `suspicious`.
 * A body that cannot be read throws `InvalidNotificationError`; a failed query throws its error.
 */
export async function verifyTransferNotification(
  api: CashOutApi,
  body: unknown,
  options?: RequestOptions,
): Promise<NotificationVerification> {
  return verifyTransfer(api, parseTransferNotification(body), options);
}

async function verifyTransfer(
  api: CashOutApi,
  notified: Transfer,
  options?: RequestOptions,
): Promise<NotificationVerification> {
  if (!isNotifiedStatus(notified.status)) {
    return { verdict: 'suspicious', reason: 'not-final-status', notified, actual: undefined };
  }
  let actual: Transfer;
  try {
    actual = await api.payments.getByIdempotencyKey(notified.idempotencyKey, options);
  } catch (error) {
    if (error instanceof TransferNotFoundError) {
      return { verdict: 'suspicious', reason: 'unknown-transfer', notified, actual: undefined };
    }
    throw error;
  }
  if (actual.status === notified.status && isNotifiedStatus(actual.status)) {
    return { verdict: 'confirmed', notified, actual };
  }
  return { verdict: 'suspicious', reason: 'status-mismatch', notified, actual };
}

/**
 * What the transfer callbacks get beside the verdict: the claim's `signal` (and `tx` with the
 * PostgreSQL store, see `NotificationContext`) and the transfer as notified, as every handler's
 * callbacks do.
 */
export type TransferContext<S extends Store = Store> = NotificationContext<S> & {
  /** The transfer as notified. Not trustworthy: use the verdict's `actual`. */
  readonly notified: Transfer;
};

/** Callbacks of `cashOut.notificationHandler`, called after each notification is checked. */
export interface TransferNotificationHandlerOptions<S extends Store = Store> extends NotificationHandlerOptions<S> {
  /**
   * A notification the provider's status confirms. Record `result.actual`; with the PostgreSQL
   * store, through `context.tx` to record it exactly once (see `NotificationContext`).
   */
  onConfirmed(result: ConfirmedNotification, context: TransferContext<S>): unknown;
  /**
   * A notification that does not agree with the provider (possibly forged). Called on every
   * delivery (no claim): its `context.signal` never aborts and it has no `tx`.
   */
  onSuspicious(result: SuspiciousNotification, context: TransferContext): unknown;
  /** How many delivered transfers are remembered to drop duplicates (default 10 000, least recent dropped first). */
  maxRemembered?: number;
}

/** A web-standard handler for `POST /webhook/transfer-confirmation`, with its Node form. Never throws. */
export type TransferNotificationHandler = NotificationHandler;

/**
 * A web-standard `(request) => Promise<Response>` for `POST /webhook/transfer-confirmation`,
 * with `.node` for a Node `(req, res)` server; `cashOut.notificationHandler(handlers)` is the same:
 *
 * - 405 for a method other than POST; 400 for a body that is too large (default 1 MiB), not
 *   JSON or not a transfer notification (the callbacks are not called);
 * - otherwise the notification is verified (`verifyTransferNotification`) and `onConfirmed` or
 *   `onSuspicious` awaited; then 200 with an empty body (a forger learns nothing);
 * - 500 when a callback throws or the status query fails, so the provider sends the
 *   notification again. `onConfirmed` runs once per key and status within the process (the
 *   latest `maxRemembered`), and across the processes sharing the `store` (default: the client's).
 */
export function createTransferNotificationHandler<S extends Store = Store>(
  api: CashOutApi,
  handlers: TransferNotificationHandlerOptions<S>,
): TransferNotificationHandler {
  return notificationPipeline<Transfer>(api, handlers, (log) => ({
    span: 'cashOut.notification',
    parse: parseTransferNotification,
    counts: () => ({ transfers: 1 }),
    feeds: [
      feed((notified) => [notified], {
        what: 'notification',
        callback: 'onConfirmed',
        confirm: async (notified: Transfer, signal: AbortSignal) => {
          const verification = await verifyTransfer(api, notified, { signal });
          if (verification.verdict === 'confirmed') return verification;
          log?.warn?.('notification suspicious', { reason: verification.reason });
          await handlers.onSuspicious(verification, { ...unclaimed, notified });
          return undefined;
        },
        deliveryKey: (confirmed: ConfirmedNotification) => transferClaimKey(confirmed.actual),
        notifiedKeys: (notified) => [transferClaimKey(notified)],
        // The context has `tx` exactly when the store is transactional, as `TransferContext<S>` says.
        deliver: (confirmed, context) => handlers.onConfirmed(confirmed, context as TransferContext<S>),
      }),
    ],
  })).handler;
}

function transferClaimKey(transfer: Transfer): string {
  return `transfer:${transfer.idempotencyKey}:${transfer.status}`;
}
