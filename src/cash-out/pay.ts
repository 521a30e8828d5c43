/**
 * The cash-out payment flow, built on the public resource API (`balance`, `payments`): pay with
 * a balance check and without ever placing a second order under one idempotency key.
 */
import type { Telemetry } from '../core/telemetry.ts';
import { RequisicaoInvalida } from '../errors/catalogue.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { Violacao } from '../errors/base.ts';
import type { RequestOptions } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import type { Store } from '../store/types.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import type { CashOutBalance } from './balance.ts';
import { Budget } from './budget.ts';
import { InsufficientBalanceError, PaymentOutcomeUnknownError } from './errors.ts';
import { sameOrder } from './order.ts';
import { checkIdempotencyKey, checkPaymentRequest, findTransfer, type CashOutPayments } from './payments.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';
import { generateIdempotencyKey } from '../lib/ids.ts';
import { amountForNumber, parseAmount, toCents } from '../lib/money.ts';
import type { Now } from '../internal/clock.ts';

/** What the workflows need of a cash-out client: its public resources. */
export interface CashOutApi {
  readonly balance: Pick<CashOutBalance, 'get'>;
  readonly payments: Pick<CashOutPayments, 'create' | 'getByIdempotencyKey'>;
  /** Client-side checks on (default) or off. */
  readonly validate?: boolean;
  /** The client's store, used by the notification handler when it is given none. */
  readonly store?: Store | undefined;
  /** The client's logger, used by the notification handler when it is given none. */
  readonly logger?: Logger | undefined;
  /** @internal The client's OpenTelemetry: one SERVER span per notification handled. */
  readonly telemetry?: Telemetry | undefined;
  /** The client's clock (default the system clock): intents' times and the handler's deadlines. */
  readonly now?: Now | undefined;
}

/** A payment to a destination key. */
export interface PayParams {
  /** Destination key: CPF, CNPJ, phone (`+5511...`), e-mail (lowercase) or EVP. */
  key: string;
  /**
   * A decimal string in reais with at most two decimals (`"10"`, `"10.5"`, `"10.50"`). Money is
   * never a number: `10` is refused (`RequisicaoInvalida`, nothing sent) with the string to use.
   */
  amount: string;
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
   * order is first looked up by it, so calling `pay()` again with the same key never pays twice
   * (a lookup the provider does not answer with the order or a 404 is `PaymentOutcomeUnknownError`).
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

/** The error for `pay()` called without its params (plain JavaScript), before anything else. */
export function missingPayParams(params: unknown): ConfigurationError | undefined {
  if (isRecord(params)) return undefined;
  return new ConfigurationError('params', 'cashOut.pay(params) needs its params: { key, amount, creditorDocument }');
}

/**
 * Pays `params.amount` to `params.key`:
 *
 * 1. validates key, amount, document and the other fields (`RequisicaoInvalida`, nothing sent);
 * 2. with a caller-given `idempotencyKey`, looks the order up and returns it if it exists (an
 *    order under that key for another amount or destination key is `IdempotencyKeyReusedError`);
 *    when the provider cannot be asked, an earlier call's order may exist under that key:
 *    `PaymentOutcomeUnknownError`, never a failure that reads as "not placed";
 * 3. reads the balance and throws `InsufficientBalanceError` when `available` is below the
 *    amount (no order is placed);
 * 4. places the order with `payments.create()`, one idempotency key for every attempt: a lost
 *    answer is followed by the status query, and the order is sent again only when the provider
 *    has none. When the outcome cannot be learnt (or `options.signal` aborts after the order
 *    left) it throws `PaymentOutcomeUnknownError` carrying the key: call `pay()` again with it.
 *
 * `options.totalTimeout` (the client passes its own when the call gives none) bounds the whole of
 * it, not each call.
 */
export async function payCashOut(api: CashOutApi, params: PayParams, options: RequestOptions = {}): Promise<PayResult> {
  const payment = await preparePayment(api, params, options);
  return placePayment(api, payment, new Budget(options));
}

/** A payment checked and ready to send. */
export interface PreparedPayment {
  body: CashOutPaymentRequest;
  idempotencyKey: string;
  /** The caller gave the key: an earlier call may have placed an order under it. */
  given: boolean;
}

/** What the store-backed `pay()` and `recover()` learn and do while a payment is placed. */
export interface PlaceHooks {
  /** The provider said it has no order under the caller-given key. */
  notFound?: () => void;
  /** Runs after the balance check, right before the order is sent; what it throws is thrown. */
  beforeOrder?: () => Promise<void>;
}

/** Steps 2 to 4 of `payCashOut`, all within `budget`. */
export async function placePayment(
  api: CashOutApi,
  payment: PreparedPayment,
  budget: Budget,
  hooks: PlaceHooks = {},
): Promise<PayResult> {
  const { body, idempotencyKey, given } = payment;
  if (given) {
    let existing: Transfer | undefined;
    try {
      existing = await findTransfer(api.payments, idempotencyKey, budget.request());
    } catch (error) {
      // The caller's abort before anything was sent stays what it is.
      if (budget.signal?.aborted && error === budget.signal.reason) throw error;
      // Only the provider's "no such order" says an earlier call placed nothing under this key.
      throw new PaymentOutcomeUnknownError({ idempotencyKey, cause: error });
    }
    if (existing !== undefined) return { idempotencyKey, transfer: sameOrder(existing, body, idempotencyKey, false) };
    hooks.notFound?.();
  }

  const balance = await api.balance.get(budget.request());
  if (centsOf(balance.available) < toCents(body.payment.amount)) {
    throw new InsufficientBalanceError({ available: balance.available, amount: body.payment.amount });
  }
  await hooks.beforeOrder?.();
  const transfer = await api.payments.create(body, { ...budget.request(), idempotencyKey, validate: false });
  return { idempotencyKey, transfer };
}

/** Validates `params` and builds the wire body; throws `RequisicaoInvalida` before any I/O. */
export async function preparePayment(
  api: CashOutApi,
  params: PayParams,
  options: RequestOptions = {},
): Promise<PreparedPayment> {
  const violacoes: Violacao[] = [];
  let amount = '';
  try {
    // A number is refused here, not read as cents or reais: plain JavaScript can pass one.
    if (typeof params.amount !== 'string') throw new TypeError('amount must be a string');
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
    const rules = await checkPaymentRequest(body);
    // An amount that did not parse is reported once, with the reason above.
    violacoes.push(...(amount === '' ? rules.filter((v) => v.propriedade !== 'payment.amount') : rules));
  }
  refuse(RequisicaoInvalida, violacoes, 'Payment refused before sending');
  return { body, idempotencyKey, given };
}

function amountProblem(amount: unknown): string {
  if (typeof amount === 'number') {
    const written = String(amount);
    // The number as written, when it reads as reais: `10` → "10.00", `10.5` → "10.50".
    const suggestion = amountForNumber(amount);
    return suggestion === undefined
      ? 'must be a decimal string in reais, such as "10.50": money is never a number'
      : `must be a decimal string in reais: pass "${suggestion}", not the number ${written} (money is never a number)`;
  }
  if (typeof amount === 'string')
    return 'must be a decimal string with a dot and at most two decimals, such as "10.50"';
  return 'must be a decimal string in reais, such as "10.50"';
}

/** A possibly negative decimal string (`"-12.30"`) as integer cents. */
function centsOf(amount: string): number {
  return amount.startsWith('-') ? -toCents(amount.slice(1)) : toCents(amount);
}
