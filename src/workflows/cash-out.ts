/**
 * Cash-out workflows built on the public resource API (`balance`, `payments`): pay with a
 * balance check and without ever placing a second order, and verify transfer-confirmation
 * notifications (which are unsigned) against the provider's own status query.
 */
import { RequisicaoInvalida, type Violacao } from '../core/errors.ts';
import { isRecord } from '../internal/json.ts';
import type { RequestOptions } from '../core/http.ts';
import { readBounded } from '../core/response.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import type { CashOutBalance } from '../cash-out/balance.ts';
import { InsufficientBalanceError, InvalidNotificationError, TransferNotFoundError } from '../cash-out/errors.ts';
import { sameOrder } from '../cash-out/order.ts';
import { checkIdempotencyKey, checkPaymentRequest, findTransfer, type CashOutPayments } from '../cash-out/payments.ts';
import { NOTIFIED_STATUSES, type CashOutPaymentRequest, type NotifiedStatus, type Transfer } from '../cash-out/types.ts';
import { readTransfer, unwrap } from '../cash-out/wire.ts';
import { generateIdempotencyKey, isValidIdempotencyKey } from '../lib/ids.ts';
import { toNodeHandler, type NodeHandler } from '../node/adapter.ts';
import { parseAmount, toCents } from '../lib/money.ts';
import { runOnce, type ClaimOptions } from '../store/claims.ts';
import type { Store } from '../store/types.ts';

/** What the workflows need of a cash-out client: its public resources. */
export interface CashOutApi {
  readonly balance: Pick<CashOutBalance, 'get'>;
  readonly payments: Pick<CashOutPayments, 'create' | 'getByIdempotencyKey'>;
  /** Client-side checks on (default) or off. */
  readonly validate?: boolean;
}

// ---------------------------------------------------------------------------------------------
// pay
// ---------------------------------------------------------------------------------------------

/** A payment to a destination key. */
export interface PayParams {
  /** Destination key: CPF, CNPJ, phone (`+5511...`), e-mail (lowercase) or EVP. */
  key: string;
  /**
   * A decimal string in reais with at most two decimals (`"10"`, `"10.5"`, `"10.50"`), or an
   * integer number of **cents** (`1050`). A non-integer number (`10.5`) is refused: never a float.
   */
  amount: string | number;
  /** The recipient's CPF or CNPJ, digits only. */
  creditorDocument: string;
  description?: string;
  /** `HIGH` (provider default) skips the queue; `NORM` is queued. */
  priority?: 'HIGH' | 'NORM';
  /** Seconds the order may wait in the queue before the provider cancels it (1 to 10800). */
  expiration?: number;
  /** ISPB codes of institutions that must not receive the payment. */
  ispbDeny?: readonly string[];
  /**
   * The order's idempotency key (`[a-zA-Z0-9]{1,50}`); generated when absent. When given, the
   * order is first looked up by it, so calling `pay()` again with the same key never pays twice.
   */
  idempotencyKey?: string;
}

/** What `cashOut.pay` returns: the idempotency key used and the provider's answer. */
export interface PayResult {
  /** The key the order was placed with; query the transfer by it. */
  idempotencyKey: string;
  /** The provider's answer (usually `PROCESSING`; the final status comes by notification). */
  transfer: Transfer;
}

/**
 * Pays `params.amount` to `params.key`:
 *
 * 1. validates key, amount, document and the other fields (`RequisicaoInvalida`, nothing sent);
 * 2. with a caller-given `idempotencyKey`, looks the order up and returns it if it exists (an
 *    order under that key for another amount or destination key is `IdempotencyKeyReusedError`);
 * 3. reads the balance and throws `InsufficientBalanceError` when `available` is below the
 *    amount (no order is placed);
 * 4. places the order with `payments.create()`, one idempotency key for every attempt: a lost
 *    answer is followed by the status query, and the order is sent again only when the provider
 *    has none. When the outcome cannot be learnt (or `options.signal` aborts after the order
 *    left) it throws `PaymentOutcomeUnknownError` carrying the key: call `pay()` again with it.
 */
export async function payCashOut(api: CashOutApi, params: PayParams, options: RequestOptions = {}): Promise<PayResult> {
  const { body, idempotencyKey, given } = preparePayment(api, params, options);

  if (given) {
    const existing = await findTransfer(api.payments, idempotencyKey, options);
    if (existing !== undefined) return { idempotencyKey, transfer: sameOrder(existing, body, idempotencyKey, false) };
  }

  const balance = await api.balance.get(options);
  if (centsOf(balance.available) < toCents(body.payment.amount)) {
    throw new InsufficientBalanceError({ available: balance.available, amount: body.payment.amount });
  }
  const transfer = await api.payments.create(body, { ...options, idempotencyKey, validate: false });
  return { idempotencyKey, transfer };
}

/** Validates `params` and builds the wire body; throws `RequisicaoInvalida` before any I/O. */
function preparePayment(
  api: CashOutApi,
  params: PayParams,
  options: RequestOptions,
): { body: CashOutPaymentRequest; idempotencyKey: string; given: boolean } {
  const violacoes: Violacao[] = [];
  let amount = '';
  try {
    amount = parseAmount(params.amount);
  } catch {
    violacoes.push(violation('payment.amount', amountProblem(params.amount)));
  }
  const body: CashOutPaymentRequest = {
    instantKey: params.key,
    creditorDocument: params.creditorDocument,
    payment: { currency: 'BRL', amount },
  };
  if (params.priority !== undefined) body.priority = params.priority;
  if (params.description !== undefined) body.description = params.description;
  if (params.expiration !== undefined) body.expiration = params.expiration;
  if (params.ispbDeny !== undefined) body.ispbDeny = [...params.ispbDeny];

  const given = params.idempotencyKey !== undefined;
  const idempotencyKey = params.idempotencyKey ?? generateIdempotencyKey();
  // The key goes into a header and a path: it is always checked.
  violacoes.push(...checkIdempotencyKey(idempotencyKey));
  if (shouldValidate(api.validate ?? true, options.validate)) {
    const rules = checkPaymentRequest(body);
    // An amount that did not parse is reported once, with the reason above.
    violacoes.push(...(amount === '' ? rules.filter((v) => v.propriedade !== 'payment.amount') : rules));
  }
  refuse(RequisicaoInvalida, violacoes, 'Payment refused before sending');
  return { body, idempotencyKey, given };
}

function amountProblem(amount: unknown): string {
  if (typeof amount === 'number') {
    return Number.isInteger(amount)
      ? 'integer cents must be from 1 to 999999999999'
      : 'a number is read as integer cents and this one has a fraction: pass reais as a string ("10.50") or cents as an integer (1050), never a float';
  }
  if (typeof amount === 'string') return 'must be a decimal string with a dot and at most two decimals, such as "10.50"';
  return 'must be a decimal string ("10.50") or integer cents (1050)';
}

/** A possibly negative decimal string (`"-12.30"`) as integer cents. */
function centsOf(amount: string): number {
  return amount.startsWith('-') ? -toCents(amount.slice(1)) : toCents(amount);
}

// ---------------------------------------------------------------------------------------------
// verifyNotification
// ---------------------------------------------------------------------------------------------

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
  let value = body;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    try {
      const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      value = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (error) {
      throw new InvalidNotificationError('Notification body is not UTF-8 text', { cause: error });
    }
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch (error) {
      throw new InvalidNotificationError('Notification body is not JSON', { cause: error });
    }
  }
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
 * Verifies a transfer-confirmation notification (spec section 6): the transfer is queried by the
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
  const notified = parseTransferNotification(body);
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

// ---------------------------------------------------------------------------------------------
// notificationHandler
// ---------------------------------------------------------------------------------------------

/** Largest notification body read by default (64 KiB); a larger one is answered 400. */
export const DEFAULT_NOTIFICATION_MAX_BYTES = 64 * 1024;

/** Callbacks of `cashOut.notificationHandler`, called after each notification is checked. */
export interface TransferNotificationHandlerOptions {
  /** A notification the provider's status confirms. Record `result.actual`. */
  onConfirmed(result: ConfirmedNotification): unknown;
  /** A notification that does not agree with the provider (possibly forged). */
  onSuspicious(result: SuspiciousNotification): unknown;
  /**
   * Told about every request answered with an error status (400, 405, 500, 503), with the
   * reason; for logs and metrics. Its own failures are ignored.
   */
  onError?(error: unknown, status: number): void;
  /** Largest body read, in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /**
   * A shared store (default: the client's, when it has a shared one): `onConfirmed` then runs
   * once per idempotency key and status across every process; see `receivedPaymentsHandler`.
   */
  store?: Store;
  /** Lease and wait times of the fleet-wide claim. */
  claim?: ClaimOptions;
}

/** A web-standard handler for `POST /webhook/transfer-confirmation`, with its Node form. Never throws. */
export interface TransferNotificationHandler {
  (request: Request): Promise<Response>;
  /**
   * The same handler as a Node `(req, res)` listener (`http.createServer`, Express...), through
   * `toNodeHandler` with the same body limit. A body over the limit is answered 400 on both
   * paths (the Node adapter stops reading it).
   */
  readonly node: NodeHandler;
}

/**
 * A web-standard `(request) => Promise<Response>` for `POST /webhook/transfer-confirmation`,
 * with `.node` for a Node `(req, res)` server:
 *
 * - 405 for a method other than POST; 400 for a body that is too large, not JSON or not a
 *   transfer notification (the callbacks are not called);
 * - otherwise the notification is verified (`verifyTransferNotification`) and `onConfirmed` or
 *   `onSuspicious` awaited; then 200 with an empty body (a forger learns nothing);
 * - 500 when the callback throws, 503 when the status query fails, so the provider sends the
 *   notification again. Without a `store`, notifications are not deduplicated: make the
 *   callbacks idempotent (keyed by `result.actual.idempotencyKey`). With one, `onConfirmed`
 *   runs once per key and status across the processes sharing it.
 */
export function createTransferNotificationHandler(
  api: CashOutApi,
  handlers: TransferNotificationHandlerOptions,
): TransferNotificationHandler {
  const maxBytes = handlers.maxBodyBytes ?? DEFAULT_NOTIFICATION_MAX_BYTES;
  const fail = (status: number, error: unknown, headers?: Record<string, string>): Response => {
    try {
      handlers.onError?.(error, status);
    } catch {
      // A failing logger does not change the answer.
    }
    return new Response(null, headers ? { status, headers } : { status });
  };

  const web = async (request: Request): Promise<Response> => {
    try {
      if (request.method !== 'POST') {
        return fail(405, new InvalidNotificationError(`Method ${request.method} not allowed`), { allow: 'POST' });
      }
      const bytes = await readBounded(request, maxBytes);
      if (bytes === undefined) {
        return fail(400, new InvalidNotificationError(`Notification body exceeds ${maxBytes} bytes`));
      }
      let verification: NotificationVerification;
      try {
        verification = await verifyTransferNotification(api, bytes);
      } catch (error) {
        return fail(error instanceof InvalidNotificationError ? 400 : 503, error);
      }
      try {
        if (verification.verdict === 'suspicious') await handlers.onSuspicious(verification);
        else if (handlers.store) await runOnce(handlers.store, transferClaimKey(verification.actual), () => handlers.onConfirmed(verification), handlers.claim);
        else await handlers.onConfirmed(verification);
      } catch (error) {
        return fail(500, error);
      }
      return new Response(null, { status: 200 });
    } catch (error) {
      return fail(500, error);
    }
  };
  return Object.assign(web, { node: toNodeHandler(web, { maxBodyBytes: maxBytes, tooLargeStatus: 400 }) });
}

function transferClaimKey(transfer: Transfer): string {
  return `transfer:${transfer.idempotencyKey}:${transfer.status}`;
}
