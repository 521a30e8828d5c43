/**
 * Cash-out workflows built on the public resource API (`balance`, `payments`): pay with a
 * balance check and without ever placing a second order, and verify transfer-confirmation
 * notifications (which are unsigned) against the provider's own status query.
 */
import { ApiError, ConnectionError, RequisicaoInvalida, TimeoutError, isRecord, type Violacao } from '../core/errors.ts';
import type { RequestOptions } from '../core/http.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import type { CashOutBalance } from '../cash-out/balance.ts';
import {
  CashOutConflictError,
  InsufficientBalanceError,
  InvalidNotificationError,
  PaymentOutcomeUnknownError,
  TransferNotFoundError,
} from '../cash-out/errors.ts';
import { checkIdempotencyKey, checkPaymentRequest, type CashOutPayments } from '../cash-out/payments.ts';
import { NOTIFIED_STATUSES, type CashOutPaymentRequest, type NotifiedStatus, type Transfer } from '../cash-out/types.ts';
import { readTransfer, unwrap } from '../cash-out/wire.ts';
import { generateIdempotencyKey, isValidIdempotencyKey } from '../lib/ids.ts';
import { toNodeHandler, type NodeHandler } from '../node/adapter.ts';
import { parseAmount, toCents } from '../lib/money.ts';

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

/** First pause between attempts of `pay()`; doubled each time, with jitter. */
const PAY_RETRY_BASE_MS = 250;
const PAY_RETRY_MAX_MS = 4_000;
const PAY_MAX_RETRY_AFTER_MS = 60_000;
const DEFAULT_PAY_RETRIES = 2;

/**
 * Pays `params.amount` to `params.key`:
 *
 * 1. validates key, amount, document and the other fields (`RequisicaoInvalida`, nothing sent);
 * 2. with a caller-given `idempotencyKey`, looks the order up and returns it if it exists;
 * 3. reads the balance and throws `InsufficientBalanceError` when `available` is below the
 *    amount (no order is placed);
 * 4. places the order with one idempotency key. When the answer is lost (time-out, dropped
 *    connection, 408 or 5xx) it first asks for the transfer by that key and returns it if the
 *    provider has it; only otherwise does it send the order again, with the same key. A 429 is
 *    waited out and the order sent again. When retries (`options.maxRetries`, default 2) run
 *    out without an answer it throws `PaymentOutcomeUnknownError` carrying the key.
 */
export async function payCashOut(api: CashOutApi, params: PayParams, options: RequestOptions = {}): Promise<PayResult> {
  const { body, idempotencyKey, given } = preparePayment(api, params, options);
  const signal = options.signal;

  if (given) {
    const existing = await findTransfer(api, idempotencyKey, options);
    if (existing !== undefined) return { idempotencyKey, transfer: sameOrder(existing, body) };
  }

  const balance = await api.balance.get(options);
  if (centsOf(balance.available) < toCents(body.payment.amount)) {
    throw new InsufficientBalanceError({ available: balance.available, amount: body.payment.amount });
  }

  const maxRetries = options.maxRetries ?? DEFAULT_PAY_RETRIES;
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    try {
      const transfer = await api.payments.create(body, { ...options, idempotencyKey, maxRetries: 0, validate: false });
      return { idempotencyKey, transfer };
    } catch (error) {
      failure = error;
    }
    if (failure instanceof CashOutConflictError) {
      // A duplicate key: the order may be there already.
      const existing = await findTransfer(api, idempotencyKey, options).catch(() => undefined);
      if (existing !== undefined) return { idempotencyKey, transfer: existing };
      throw failure;
    }
    const uncertain = isOutcomeUnknown(failure);
    if (!uncertain && !isRateLimited(failure)) throw failure;
    const last = attempt >= maxRetries;
    if (!uncertain && last) throw failure;
    // A pause before asking too, so an order still in flight at the provider can land.
    await sleep(pause(attempt, failure), signal);
    if (uncertain) {
      // Never a second order: ask first, and send again only when the provider has none.
      const existing = await lookup(api, idempotencyKey, options);
      if (existing !== undefined) return { idempotencyKey, transfer: existing };
      if (last) throw new PaymentOutcomeUnknownError({ idempotencyKey, cause: failure });
    }
  }
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

/** The transfer by its key, `undefined` on 404; other failures are thrown as they are. */
async function findTransfer(api: CashOutApi, idempotencyKey: string, options: RequestOptions): Promise<Transfer | undefined> {
  try {
    return await api.payments.getByIdempotencyKey(idempotencyKey, { ...options, validate: false });
  } catch (error) {
    if (error instanceof TransferNotFoundError) return undefined;
    throw error;
  }
}

/** After a lost answer: the transfer by its key, and a failed query makes the outcome unknown. */
async function lookup(api: CashOutApi, idempotencyKey: string, options: RequestOptions): Promise<Transfer | undefined> {
  try {
    return await findTransfer(api, idempotencyKey, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new PaymentOutcomeUnknownError({ idempotencyKey, cause: error });
  }
}

/** A found order must be the one asked for: a reused key naming another payment is a conflict. */
function sameOrder(existing: Transfer, body: CashOutPaymentRequest): Transfer {
  const amount = existing.payment?.amount;
  const differs =
    (amount !== undefined && amount !== body.payment.amount) ||
    (existing.instantKey !== undefined && existing.instantKey !== body.instantKey);
  if (differs) {
    throw new CashOutConflictError({
      title: 'The idempotency key already names a different payment order',
      violacoes: [violation('idempotencyKey', 'already used for an order with another key or amount')],
      sentRequest: false,
    });
  }
  return existing;
}

/** No answer, or an answer that does not say whether the order was taken. */
function isOutcomeUnknown(error: unknown): boolean {
  if (error instanceof TimeoutError || error instanceof ConnectionError) return true;
  return error instanceof ApiError && error.sentRequest && (error.status === 408 || error.status >= 500);
}

function isRateLimited(error: unknown): boolean {
  return error instanceof ApiError && error.sentRequest && error.status === 429;
}

function pause(attempt: number, error: unknown): number {
  const retryAfter = error instanceof ApiError ? retryAfterMs(error.response?.headers.get('retry-after')) : undefined;
  if (retryAfter !== undefined) return Math.min(retryAfter, PAY_MAX_RETRY_AFTER_MS);
  const base = Math.min(PAY_RETRY_BASE_MS * 2 ** attempt, PAY_RETRY_MAX_MS);
  return base / 2 + Math.random() * (base / 2);
}

function retryAfterMs(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined || header === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
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
 *   notification again. Notifications are not deduplicated: make the callbacks idempotent
 *   (keyed by `result.actual.idempotencyKey`).
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
      const bytes = await readLimited(request, maxBytes);
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
        if (verification.verdict === 'confirmed') await handlers.onConfirmed(verification);
        else await handlers.onSuspicious(verification);
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

/** The body as bytes, or `undefined` when it is larger than `maxBytes`. */
async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
