/**
 * Payment orders (cash-out): place one to a destination key, query one by its idempotency key.
 */
import { z } from 'zod';
import { RequisicaoInvalida, type Violacao } from '../core/errors.ts';
import { DEFAULT_MAX_RETRIES, type RequestOptions } from '../core/http.ts';
import { path } from '../core/path.ts';
import type { ClientContext } from '../core/resource.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import { isValidCnpj, isValidCpf } from '../lib/documents.ts';
import { isValidIdempotencyKey } from '../lib/ids.ts';
import { detectKeyType, KEY_MAX_LENGTH } from '../lib/keys.ts';
import { MONEY_PATTERN, toCents } from '../lib/money.ts';
import { TransferNotFoundError } from './errors.ts';
import { CASH_OUT_ERRORS, CashOutResource } from './resource.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';
import { placeOrder, type OrderChannel } from './order.ts';
import { transferFrom } from './wire.ts';

/** Header the provider deduplicates orders by. */
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

/** Options of `payments.create`: the idempotency key is required (`[a-zA-Z0-9]{1,50}`). */
export interface CreatePaymentOptions extends RequestOptions {
  idempotencyKey: string;
}

/** Cash-out payment orders, `cashOut.payments`: place one, and query it by idempotency key. */
export class CashOutPayments extends CashOutResource {
  readonly #maxRetries: number | undefined;

  /** `maxRetries`: the client's default number of further attempts of an order. */
  constructor(client: ClientContext, settings: { maxRetries?: number | undefined } = {}) {
    super(client);
    this.#maxRetries = settings.maxRetries;
  }

  /**
   * `POST /api/v2/instant/payments/dict`: places a payment order, answered 202 while the
   * transfer is processed. Every attempt carries the same `x-idempotency-key`, and the order is
   * never lost or placed twice: a 202 without a readable body or a 409 is looked up by the key;
   * after a lost answer (time-out, dropped connection, a body cut short, 408, 5xx) the order is
   * looked up first and sent again (up to `maxRetries` times) only when the provider has none;
   * a 429 is waited out. When the outcome cannot be learnt, or `signal` aborts after the order
   * left, it throws `PaymentOutcomeUnknownError` with the key. An order found under the key for
   * another amount or destination key is an `IdempotencyKeyReusedError`. Prefer
   * `cashOut.pay()`, which also checks the balance. Invalid input throws `RequisicaoInvalida`
   * before sending.
   */
  async create(body: CashOutPaymentRequest, options: CreatePaymentOptions): Promise<Transfer> {
    const { idempotencyKey, ...rest } = options;
    if (shouldValidate(this.client.validate, rest.validate)) {
      refuse(RequisicaoInvalida, [...checkIdempotencyKey(idempotencyKey), ...checkPaymentRequest(body)]);
    }
    const channel: OrderChannel = {
      post: (attempt) =>
        this.send<unknown>({
          method: 'POST',
          path: () => path`/api/v2/instant/payments/dict`,
          body,
          idempotencyKey: { header: IDEMPOTENCY_HEADER, value: idempotencyKey },
          errors: CASH_OUT_ERRORS,
          options: attempt,
        }),
      find: (lookup) => findTransfer(this, idempotencyKey, lookup),
    };
    return placeOrder(channel, body, idempotencyKey, rest, rest.maxRetries ?? this.#maxRetries ?? DEFAULT_MAX_RETRIES);
  }

  /**
   * `GET /api/v2/instant/payments/idempotencyKey/{key}`: the transfer's actual status.
   * Throws `TransferNotFoundError` (404) when the provider knows no order with that key.
   */
  async getByIdempotencyKey(idempotencyKey: string, options?: RequestOptions): Promise<Transfer> {
    if (shouldValidate(this.client.validate, options?.validate)) {
      refuse(RequisicaoInvalida, checkIdempotencyKey(idempotencyKey));
    }
    const answer = await this.send<unknown>({
      method: 'GET',
      path: () => path`/api/v2/instant/payments/idempotencyKey/${idempotencyKey}`,
      errors: { ...CASH_OUT_ERRORS, 404: TransferNotFoundError },
      options,
    });
    return transferFrom(answer, { idempotencyKey });
  }
}

/** The transfer under the key, `undefined` when the provider knows none (404). */
export async function findTransfer(
  payments: Pick<CashOutPayments, 'getByIdempotencyKey'>,
  idempotencyKey: string,
  options: RequestOptions,
): Promise<Transfer | undefined> {
  try {
    return await payments.getByIdempotencyKey(idempotencyKey, { ...options, validate: false });
  } catch (error) {
    if (error instanceof TransferNotFoundError) return undefined;
    throw error;
  }
}

/** Why a destination key is not valid, by the type it looks like. */
function keyProblem(key: string): string | undefined {
  if (detectKeyType(key) !== undefined) return undefined;
  if (key.length > KEY_MAX_LENGTH) return `key is longer than ${KEY_MAX_LENGTH} characters`;
  if (/^\d{11}$/.test(key)) return 'CPF key with invalid check digits (a phone key needs a leading +)';
  if (/^[0-9A-Z]{12}\d{2}$/.test(key)) return 'CNPJ key with invalid check digits';
  if (key.startsWith('+')) return 'phone key must be + country code and number, digits only (e.g. +5511987654321)';
  if (key.includes('@')) return 'e-mail key must be a lowercase address';
  return 'not a CPF, CNPJ, phone (+...), e-mail or EVP (lowercase UUID) key';
}

const paymentRequestSchema = z.object({
  instantKey: z.string().superRefine((key, ctx) => {
    const problem = keyProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
  creditorDocument: z
    .string()
    .refine((d) => isValidCpf(d) || isValidCnpj(d), 'must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits'),
  priority: z.enum(['HIGH', 'NORM']).optional(),
  description: z.string().optional(),
  expiration: z.int('must be an integer number of seconds').min(1).max(10_800).optional(),
  payment: z.object({
    currency: z.literal('BRL', 'only BRL is supported'),
    amount: z
      .string('must be a decimal string such as "10.00"')
      .regex(MONEY_PATTERN, 'must be a decimal string with exactly two decimals, such as "10.00"')
      .refine((amount) => !MONEY_PATTERN.test(amount) || toCents(amount) >= 1, 'must be at least 0.01'),
  }),
  ispbDeny: z.array(z.string().regex(/^[0-9A-Z]{8}$/, 'must be an 8-character ISPB')).optional(),
});

/** The rules a payment order breaks, as `violacoes` (property names as on the wire). */
export function checkPaymentRequest(body: unknown): Violacao[] {
  const result = paymentRequestSchema.safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => violation(issue.path.map(String).join('.') || 'body', issue.message));
}

/** The idempotency key rule (`[a-zA-Z0-9]{1,50}`), as `violacoes`. */
export function checkIdempotencyKey(idempotencyKey: string): Violacao[] {
  return isValidIdempotencyKey(idempotencyKey)
    ? []
    : [violation('idempotencyKey', 'must be 1 to 50 letters or digits ([a-zA-Z0-9]{1,50})')];
}
