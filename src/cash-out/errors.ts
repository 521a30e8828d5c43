/**
 * Cash-out errors. The provider's error body is `{ type, title, detail, instance }` with types
 * of its own (`<prefix>-0009`), so the class is chosen by status (`cashOutErrors`, read by the
 * one error factory): 400 `RequisicaoInvalida`, 401 `UnauthorizedError`, 403 `AcessoNegado`,
 * 404 `NaoEncontrado` (`TransferNotFoundError`, a `NaoEncontrado`, on the status query), 409,
 * 412, 422 and 429 the classes below, 500 `ErroInternoDoServidor`, 503 `ServicoIndisponivel`,
 * 504 `IndisponibilidadePorTempoEsgotado`. The provider's own type stays readable in
 * `errorType`, its `instance` in `instance`.
 */
import { ApiError, CLIENT_ERROR_BASE, defineApiError, type ApiErrorInit } from '../errors/api-error.ts';
import { InstantError } from '../errors/base.ts';
import { NaoEncontrado } from '../errors/catalogue.ts';
import type { ErrorTables, StatusTable } from '../errors/factory.ts';

/** The balance does not cover the amount: no order was placed. Both figures are decimal strings. */
export class InsufficientBalanceError extends InstantError {
  override readonly name: string = 'InsufficientBalanceError';
  /** The balance's `available` figure when it was read (`"5.00"`). */
  readonly available: string;
  /** The amount asked for (`"10.00"`). */
  readonly amount: string;

  constructor(init: { available: string; amount: string }) {
    super(`Available balance ${init.available} does not cover ${init.amount}; no order was placed`);
    this.available = init.available;
    this.amount = init.amount;
  }
}

/**
 * An order may exist under `idempotencyKey` and its fate could not be learnt: the answer was lost
 * (time-out, dropped connection, a body cut short, 5xx, a redirect) and neither the status query
 * nor the retries settled it; or the caller's `signal` or `totalTimeout` ended the call after the
 * order left; or the provider could not be asked about a key an earlier call may have used; or
 * (with a shared store) the payment's intent could not be closed, so `recover()` may still place
 * it. Call `pay()` again with the same parameters and `idempotencyKey` (it looks the order up
 * before placing anything, so it never pays twice), or query
 * `payments.getByIdempotencyKey(error.idempotencyKey)` later. `cause` holds the last failure (the
 * abort reason, for an abort; the store's error, for a store failure). Every other failure of
 * `pay()` means no order was placed by that call and none can be placed from it later.
 */
export class PaymentOutcomeUnknownError extends InstantError {
  override readonly name: string = 'PaymentOutcomeUnknownError';
  readonly idempotencyKey: string;

  constructor(init: { idempotencyKey: string; cause: unknown }) {
    super('The payment order may exist but its outcome is unknown; pay again with its idempotency key or query it', {
      cause: init.cause,
    });
    this.idempotencyKey = init.idempotencyKey;
  }
}

/**
 * The idempotency key already names an order for another destination key or amount: nothing was
 * paid for this request. Use a new key for a new payment. `sentRequest` is false when `pay()`
 * found that order before sending anything.
 */
export class IdempotencyKeyReusedError extends ApiError {
  override readonly name: string = 'IdempotencyKeyReusedError';
  readonly idempotencyKey: string;

  constructor(init: { idempotencyKey: string; sentRequest: boolean; violacoes?: ApiErrorInit['violacoes'] }) {
    super({
      status: 409,
      type: `${CLIENT_ERROR_BASE}/IdempotencyKeyReusedError`,
      title: 'The idempotency key already names a different payment order',
      sentRequest: init.sentRequest,
      ...(init.violacoes && { violacoes: init.violacoes }),
    });
    this.idempotencyKey = init.idempotencyKey;
  }
}

/** The provider answered with success but with a body the SDK cannot read. */
export class CashOutResponseError extends InstantError {
  override readonly name: string = 'CashOutResponseError';
}

/** 404 on the status query: the provider knows no transfer with that idempotency key. A `NaoEncontrado`. */
export const TransferNotFoundError = defineApiError('TransferNotFoundError', 404, NaoEncontrado);
export type TransferNotFoundError = InstanceType<typeof TransferNotFoundError>;
/** 409 from the provider; also thrown by `pay()` when a reused idempotency key names another order. */
export const CashOutConflictError = defineApiError('CashOutConflictError', 409);
export type CashOutConflictError = InstanceType<typeof CashOutConflictError>;
/** 412 from the provider (undocumented precondition; `detail` says which). */
export const CashOutPreconditionFailedError = defineApiError('CashOutPreconditionFailedError', 412);
export type CashOutPreconditionFailedError = InstanceType<typeof CashOutPreconditionFailedError>;
/** 422 from the provider: the order is well formed but cannot be carried out (`detail` says why). */
export const CashOutUnprocessableError = defineApiError('CashOutUnprocessableError', 422);
export type CashOutUnprocessableError = InstanceType<typeof CashOutUnprocessableError>;
/** 429 from the provider, after the SDK's own retries (Retry-After honoured) ran out. */
export const CashOutRateLimitedError = defineApiError('CashOutRateLimitedError', 429);
export type CashOutRateLimitedError = InstanceType<typeof CashOutRateLimitedError>;

/** The provider's statuses the service's catalogue has no general class for. */
const CASH_OUT_BY_STATUS: StatusTable = {
  409: CashOutConflictError,
  412: CashOutPreconditionFailedError,
  422: CashOutUnprocessableError,
  429: CashOutRateLimitedError,
};

/**
 * How a cash-out endpoint's answers map to classes. The provider's `type` codes are its own
 * (`<prefix>-0009`), so the status decides: `extra` (the endpoint's own classes, such as the
 * status query's 404), then the provider's statuses above, then the general classes.
 */
export function cashOutErrors(extra?: StatusTable): ErrorTables {
  return { types: null, status: extra ? { ...CASH_OUT_BY_STATUS, ...extra } : CASH_OUT_BY_STATUS };
}
