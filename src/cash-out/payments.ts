/**
 * Payment orders (cash-out): place one to a destination key, query one by its idempotency key.
 */
import { RequisicaoInvalida } from '../errors/catalogue.ts';
import type { Violacao } from '../errors/base.ts';
import { DEFAULT_MAX_RETRIES } from '../core/http.ts';
import type { RequestOptions, WithResponse } from '../core/types.ts';
import { apiPromise, type APIPromise } from '../core/api-promise.ts';
import { path } from '../core/path.ts';
import type { ClientContext } from '../core/resource.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import { isValidIdempotencyKey } from '../lib/ids.ts';
import { TransferNotFoundError } from './errors.ts';
import { CASH_OUT_ERRORS, CashOutResource } from './resource.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';
import { placeOrder, type OrderChannel } from './order.ts';
import { Budget } from './budget.ts';
import { transferFrom } from './wire.ts';

const BY_KEY_ERRORS = { ...CASH_OUT_ERRORS, 404: TransferNotFoundError };

/** Header the provider deduplicates orders by. */
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

/** Options of `payments.create`: the idempotency key is required (`[a-zA-Z0-9]{1,50}`). */
export interface CreatePaymentOptions extends RequestOptions {
  idempotencyKey: string;
}

/** Cash-out payment orders, `cashOut.payments`: place one, and query it by idempotency key. */
export class CashOutPayments extends CashOutResource {
  readonly #maxRetries: number | undefined;
  readonly #totalTimeout: number | undefined;

  /**
   * @internal `maxRetries`: the client's default number of further attempts of an order;
   * `totalTimeout`: the client's default time for a whole `create()`, its attempts, pauses and
   * lookups together.
   */
  constructor(
    client: ClientContext,
    settings: { maxRetries?: number | undefined; totalTimeout?: number | undefined } = {},
  ) {
    super(client);
    this.#maxRetries = settings.maxRetries;
    this.#totalTimeout = settings.totalTimeout;
  }

  /**
   * `POST /api/v2/instant/payments/dict`: places a payment order, answered 202 while the
   * transfer is processed. Every attempt carries the same `x-idempotency-key`, and the order is
   * never lost or placed twice: a 202 without a readable body or a 409 is looked up by the key;
   * after a lost answer (time-out, dropped connection, a body cut short, 408, 5xx) the order is
   * looked up first and sent again (up to `maxRetries` times) only when the provider has none;
   * a 429 is waited out. When the outcome cannot be learnt, or `signal` aborts after the order
   * left, it throws `PaymentOutcomeUnknownError` with the key. An order found under the key for
   * another amount or destination key is an `IdempotencyKeyReusedError`. `totalTimeout` bounds
   * the whole of it, attempts, pauses and lookups together. Prefer
   * `cashOut.pay()`, which also checks the balance. Invalid input throws `RequisicaoInvalida`
   * before sending.
   */
  create(body: CashOutPaymentRequest, options: CreatePaymentOptions): APIPromise<Transfer> {
    return apiPromise(this.#create(body, options));
  }

  /** The order loop; `response` is the answer the transfer was read from (the 202, or the status query after it). */
  async #create(body: CashOutPaymentRequest, options: CreatePaymentOptions): Promise<WithResponse<Transfer>> {
    // Plain JavaScript may leave the options out: the key is then refused as missing, below.
    const { idempotencyKey, ...rest } = options ?? ({} as Partial<CreatePaymentOptions>);
    if (shouldValidate(this.client.validate, rest.validate)) {
      refuse(RequisicaoInvalida, [
        ...checkIdempotencyKey(idempotencyKey as string),
        ...(await checkPaymentRequest(body)),
      ]);
    }
    let response: Response | undefined;
    const answered = <T>(result: WithResponse<T>): T => {
      response = result.response;
      return result.data;
    };
    const channel: OrderChannel = {
      post: (attempt) =>
        this.send<unknown>({
          method: 'POST',
          // One attempt: the order loop (`placeOrder`) looks the order up by its key before any other.
          retry: 'never',
          path: () => path`/api/v2/instant/payments/dict`,
          body,
          idempotencyKey: { header: IDEMPOTENCY_HEADER, value: idempotencyKey as string },
          errors: CASH_OUT_ERRORS,
          options: attempt,
        })
          .withResponse()
          .then(answered),
      find: (lookup) =>
        findTransfer(
          { getByIdempotencyKey: (key, o) => this.getByIdempotencyKey(key, o).withResponse().then(answered) },
          idempotencyKey as string,
          lookup,
        ),
    };
    const budget = new Budget(rest, this.#totalTimeout);
    const transfer = await placeOrder(
      channel,
      body,
      idempotencyKey as string,
      budget,
      rest.maxRetries ?? this.#maxRetries ?? DEFAULT_MAX_RETRIES,
    );
    return { data: transfer, response: response as Response };
  }

  /**
   * `GET /api/v2/instant/payments/idempotencyKey/{key}`: the transfer's actual status.
   * Throws `TransferNotFoundError` (404) when the provider knows no order with that key.
   */
  getByIdempotencyKey(idempotencyKey: string, options?: RequestOptions): APIPromise<Transfer> {
    return this.send<Transfer, unknown>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/api/v2/instant/payments/idempotencyKey/${idempotencyKey}`,
      errors: BY_KEY_ERRORS,
      options,
      rule: (ctx) => void ctx.out.push(...checkIdempotencyKey(idempotencyKey)),
      normalize: (answer) => transferFrom(answer, { idempotencyKey }),
    });
  }
}

/** The transfer under the key, `undefined` when the provider knows none (404). */
export async function findTransfer(
  payments: { getByIdempotencyKey(idempotencyKey: string, options?: RequestOptions): Promise<Transfer> },
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

/**
 * The rules a payment order breaks, as `violacoes` (property names as on the wire). The schema
 * (and zod with it) is loaded on the first order: only cash-out uses it.
 */
export async function checkPaymentRequest(body: unknown): Promise<Violacao[]> {
  const { paymentRequestViolations } = await import('./schema.ts');
  return paymentRequestViolations(body);
}

/** The idempotency key rule (`[a-zA-Z0-9]{1,50}`), as `violacoes`. */
export function checkIdempotencyKey(idempotencyKey: string): Violacao[] {
  return isValidIdempotencyKey(idempotencyKey)
    ? []
    : [violation('idempotencyKey', 'must be 1 to 50 letters or digits ([a-zA-Z0-9]{1,50})')];
}
