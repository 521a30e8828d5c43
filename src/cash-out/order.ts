/**
 * Placing a payment order without ever losing it or placing it twice. Every attempt carries the
 * same idempotency key; whatever happens after a POST may have left, the order is looked for by
 * that key before anything else is decided:
 *
 * - a readable 2xx is the order (if it is the one asked for);
 * - a 2xx without a readable body, or a 409, says the provider holds the order: it is looked up
 *   (never sent again) and returned;
 * - a lost answer (dropped connection, a body cut short, time-out, 408, 5xx, a redirect, anything
 *   that is not a definitive answer) is followed by a pause and the status query: found, it is returned;
 *   unknown to the provider, the order is sent again with the same key;
 * - a 429 is waited out and the order sent again; any other 4xx is final;
 * - the caller's abort after the POST left rejects at once with `PaymentOutcomeUnknownError`
 *   (the abort reason as `cause`): no lookup runs on the caller's time.
 *
 * When the outcome cannot be learnt, `PaymentOutcomeUnknownError` carries the key: the order may
 * exist, and `pay()` again with that key (or the status query) settles it.
 */
import { ApiError } from '../errors/api-error.ts';
import { AuthenticationError, InvalidResponseError } from '../errors/failures.ts';
import type { RequestOptions } from '../core/types.ts';
import { violation } from '../core/validation.ts';
import { backoffMs, retrying } from '../internal/retry.ts';
import type { Budget } from './budget.ts';
import { sameAmount } from '../lib/money.ts';
import { CashOutResponseError, IdempotencyKeyReusedError, PaymentOutcomeUnknownError } from './errors.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';
import { transferFrom, unwrap } from './wire.ts';

/** What placing an order needs: one POST of it and the status query by its key. */
export interface OrderChannel {
  /** One attempt (no transport retries); resolves with the answer's body. */
  post(options: RequestOptions): Promise<unknown>;
  /** The transfer under the key, `undefined` when the provider knows none. */
  find(options: RequestOptions): Promise<Transfer | undefined>;
}

/** What an attempt's failure says about the order. */
type Verdict =
  /** This attempt placed nothing (a definitive 4xx, a refusal before sending, no token). */
  | 'refused'
  | 'rate-limited'
  /** The provider holds an order under the key. */
  | 'conflict'
  /** The order may or may not have been taken. */
  | 'unknown';

/**
 * Places `body` under `idempotencyKey`, with up to `maxRetries` further attempts, all within
 * `budget` (attempts, pauses and lookups together), through the SDK's retry loop (its backoff and
 * Retry-After; the pauses within the budget); the lookup by key runs between attempts.
 */
export async function placeOrder(
  channel: OrderChannel,
  body: CashOutPaymentRequest,
  idempotencyKey: string,
  budget: Budget,
  maxRetries: number,
): Promise<Transfer> {
  const signal = budget.signal;
  // Nothing sent yet: the caller's abort stays what it is.
  signal?.throwIfAborted();
  const outcomeUnknown = (cause: unknown) => new PaymentOutcomeUnknownError({ idempotencyKey, cause });
  const check = (found: Transfer) => sameOrder(found, body, idempotencyKey, true);
  /** An earlier attempt may have placed the order. */
  let mayExist = false;
  /** The provider holds an order under the key: from here on it is looked for, never sent again. */
  let held = false;
  /** The last attempt's own failure (not a lookup's): the one the loop may retry. */
  let failure: unknown;

  const find = async (): Promise<Transfer | undefined> => {
    try {
      return await channel.find(budget.request());
    } catch (error) {
      throw outcomeUnknown(signal?.aborted ? signal.reason : error);
    }
  };
  /** A pause within the budget: the time running out ends it, as an abort does. */
  const wait = async (ms: number): Promise<void> => {
    try {
      await budget.sleep(ms);
    } catch (reason) {
      throw mayExist ? outcomeUnknown(reason) : reason;
    }
  };
  /** The provider holds the order: look for it; not there yet, the next attempt looks again. */
  const settle = async (cause: unknown): Promise<Transfer> => {
    held = mayExist = true;
    const found = await find();
    if (found !== undefined) return check(found);
    failure = outcomeUnknown(cause);
    throw failure;
  };
  const attempt = async (): Promise<Transfer> => {
    if (held) return await settle((failure as PaymentOutcomeUnknownError).cause);
    let answer: unknown;
    try {
      answer = await channel.post(budget.request());
    } catch (error) {
      // The POST may have left: from here on the caller gets the key.
      if (signal?.aborted) throw outcomeUnknown(signal.reason);
      const verdict = verdictOf(error);
      if (verdict === 'conflict') return await settle(error);
      if (verdict === 'unknown') mayExist = true;
      failure = error;
      throw error;
    }
    const transfer = readOrder(answer, idempotencyKey);
    if (transfer !== undefined) return check(transfer);
    return await settle(new CashOutResponseError('The provider accepted the order without a readable transfer'));
  };

  try {
    return await retrying(attempt, {
      maxRetries,
      now: budget.clock,
      signal,
      pause: wait,
      retryable: (error) => error === failure && (held || verdictOf(error) !== 'refused'),
      // A pause before asking too, so an order still in flight at the provider can land.
      between: async ({ error }) => {
        if (held || verdictOf(error) !== 'unknown') return undefined;
        const found = await find();
        return found === undefined ? undefined : { value: check(found) };
      },
    });
  } catch (error) {
    // A lookup's failure, a reused key, an abort: final as they are.
    if (error !== failure || held || !mayExist) throw error;
    // The last attempt placed nothing or its outcome is unknown, and an earlier one may have placed it.
    if (verdictOf(error) === 'unknown') await wait(backoffMs(maxRetries));
    const found = await find();
    if (found !== undefined) return check(found);
    throw outcomeUnknown(error);
  }
}

/**
 * An order found under the key must be the one asked for (same amount, same destination key;
 * a field the provider leaves out is not held against it). Otherwise the key was reused.
 */
export function sameOrder(
  found: Transfer,
  body: CashOutPaymentRequest,
  idempotencyKey: string,
  sentRequest: boolean,
): Transfer {
  const amount = found.payment?.amount;
  const differs =
    (amount !== undefined && !sameAmount(amount, body.payment.amount)) ||
    (typeof found.instantKey === 'string' && keyForm(found.instantKey) !== keyForm(body.instantKey));
  if (differs) {
    throw new IdempotencyKeyReusedError({
      idempotencyKey,
      sentRequest,
      violacoes: [violation('idempotencyKey', 'already names an order with another destination key or amount')],
    });
  }
  return found;
}

/**
 * A destination key without case or punctuation: a provider that writes the key its own way
 * (`+55 11 9...`, dashes in an EVP or CPF) must not make our own order look like another one.
 */
function keyForm(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9@+]/g, '');
}

/** The transfer in a 2xx answer, `undefined` when the body does not say (empty, not JSON, another key). */
function readOrder(answer: unknown, idempotencyKey: string): Transfer | undefined {
  const record = unwrap(answer);
  if (record === undefined || (typeof record['status'] !== 'string' && typeof record['idempotencyKey'] !== 'string'))
    return undefined;
  try {
    const transfer = transferFrom(record, { idempotencyKey, status: 'PROCESSING' });
    return transfer.idempotencyKey === idempotencyKey ? transfer : undefined;
  } catch (error) {
    if (error instanceof CashOutResponseError) return undefined;
    throw error;
  }
}

/**
 * Only the provider's refusal (a 4xx other than 408, 409 and 429) or a request that never left
 * says this attempt placed nothing; any other answer (a redirect, a body the SDK will not read,
 * a 5xx) or none at all may hide an accepted order, and is settled by the lookup.
 */
function verdictOf(error: unknown): Verdict {
  // The token is fetched before the request goes out.
  if (error instanceof AuthenticationError) return 'refused';
  if (error instanceof InvalidResponseError) {
    // An unreadable 2xx is an accepted order; a redirect (never followed) proves nothing.
    return error.status >= 200 && error.status < 300 ? 'conflict' : 'unknown';
  }
  if (!(error instanceof ApiError)) return 'unknown';
  if (!error.sentRequest) return 'refused';
  if (error.status === 409) return 'conflict';
  if (error.status === 429) return 'rate-limited';
  if (error.status === 408 || error.status < 400 || error.status >= 500) return 'unknown';
  return 'refused';
}
