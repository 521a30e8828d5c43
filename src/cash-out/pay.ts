/**
 * The cash-out payment flow, built on the public resource API (`balance`, `payments`): pay with
 * a balance check and without ever placing a second order under one idempotency key.
 */
import { RequisicaoInvalida } from '../errors/catalogue.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { Violacao } from '../errors/base.ts';
import type { RequestOptions } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import type { CashOutBalance } from './balance.ts';
import { InsufficientBalanceError } from './errors.ts';
import { sameOrder } from './order.ts';
import { checkIdempotencyKey, checkPaymentRequest, findTransfer, type CashOutPayments } from './payments.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';
import { generateIdempotencyKey } from '../lib/ids.ts';
import { parseAmount, toCents } from '../lib/money.ts';

/** What the workflows need of a cash-out client: its public resources. */
export interface CashOutApi {
  readonly balance: Pick<CashOutBalance, 'get'>;
  readonly payments: Pick<CashOutPayments, 'create' | 'getByIdempotencyKey'>;
  /** Client-side checks on (default) or off. */
  readonly validate?: boolean;
  /** The client's logger, used by the notification handler when it is given none. */
  readonly logger?: Logger | undefined;
}

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
 * 3. reads the balance and throws `InsufficientBalanceError` when `available` is below the
 *    amount (no order is placed);
 * 4. places the order with `payments.create()`, one idempotency key for every attempt: a lost
 *    answer is followed by the status query, and the order is sent again only when the provider
 *    has none. When the outcome cannot be learnt (or `options.signal` aborts after the order
 *    left) it throws `PaymentOutcomeUnknownError` carrying the key: call `pay()` again with it.
 */
export async function payCashOut(api: CashOutApi, params: PayParams, options: RequestOptions = {}): Promise<PayResult> {
  const { body, idempotencyKey, given } = await preparePayment(api, params, options);

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
async function preparePayment(
  api: CashOutApi,
  params: PayParams,
  options: RequestOptions,
): Promise<{ body: CashOutPaymentRequest; idempotencyKey: string; given: boolean }> {
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
    const rules = await checkPaymentRequest(body);
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
