/**
 * `pay()` through a shared store, crash-safe. `pay()` holds a lease on its idempotency key while
 * it runs (renewed; a second `pay()` with the same key waits, then finds the first one's order)
 * and writes its intent (the order it is about to send) right before the order leaves; after the
 * answer it closes the intent, then records the outcome. An open intent thus means "this order
 * may have been sent, and nobody knows its fate". `recover()` takes each intent whose process is
 * gone (its lease expired), reads it again under the key's lease and settles it by asking the
 * provider.
 *
 * What a caller is told agrees with what the store holds: a `pay()` failure other than
 * `PaymentOutcomeUnknownError` leaves no intent that `recover()` could place. With a sealer,
 * intents are read only through it: a row it does not open is reported, never acted on.
 */
import type { RequestOptions } from '../core/types.ts';
import { violation } from '../core/validation.ts';
import { TimeoutError } from '../errors/failures.ts';
import { StoreError, type Store } from '../store/types.ts';
import { Budget } from './budget.ts';
import { IdempotencyKeyReusedError, PaymentOutcomeUnknownError } from './errors.ts';
import { Intents, OPEN, reasonOf, type IntentOptions } from './intents.ts';
import { DEFAULT_KEY_LEASE_MS, KeyLease } from './key-lease.ts';
import { placePayment, preparePayment, type CashOutApi, type PayParams, type PayResult } from './pay.ts';
import type { CashOutPaymentRequest } from './types.ts';
import { systemNow } from '../internal/clock.ts';

/** `pay()` through the store; see the module comment. */
export async function payWithIntent(
  api: CashOutApi,
  store: Store,
  params: PayParams,
  options: RequestOptions = {},
  intentOptions: IntentOptions = {},
): Promise<PayResult> {
  // Invalid input is refused before the store is touched.
  const payment = await preparePayment(api, params, options);
  const { idempotencyKey } = payment;
  const budget = new Budget(options);
  const lease = new KeyLease(store, idempotencyKey, intentOptions.leaseMs ?? DEFAULT_KEY_LEASE_MS, budget);
  try {
    await lease.wait();
  } catch (error) {
    throw nothingSent(error);
  }
  const intents = new Intents(store, idempotencyKey, budget, api.logger, api.now ?? systemNow);
  /** An earlier call's open intent under this key (a caller-given key only). */
  let prior: string | undefined;
  /** This call's intent, from the moment it is being written. */
  let ours: string | undefined;
  /** The provider said it has no order under the key, and nothing was sent since. */
  let providerHasNone = false;
  try {
    if (payment.given) {
      try {
        prior = await intents.openValue();
      } catch (error) {
        throw nothingSent(error);
      }
      const earlier = prior === undefined ? undefined : await intents.read(prior);
      if (earlier === undefined) {
        // A row this store did not write is never acted on: not closed, not compared.
        prior = undefined;
      } else if (!samePayment(earlier.body, payment.body)) {
        throw new IdempotencyKeyReusedError({
          idempotencyKey,
          sentRequest: false,
          violacoes: [
            violation(
              'idempotencyKey',
              'names an unsettled payment to another destination key or of another amount; settle it with recover()',
            ),
          ],
        });
      }
    }
    const result = await placePayment(api, payment, budget, {
      notFound: () => void (providerHasNone = true),
      beforeOrder: async () => {
        // Right before the order leaves: the key must still be ours, then the intent is written.
        try {
          await lease.confirm();
        } catch (error) {
          throw nothingSent(error);
        }
        ours = await intents.seal({ body: payment.body, createdAt: intents.stamp() });
        try {
          await budget.store(store.set(OPEN + idempotencyKey, ours));
        } catch (error) {
          // It may have been written: recover() could place it.
          throw new PaymentOutcomeUnknownError({ idempotencyKey, cause: error });
        }
        // The write may have outlasted the lease, and another process placed the order meanwhile.
        await lease.confirm();
      },
    });
    try {
      await intents.close(ours ?? prior, { state: 'placed', transfer: result.transfer });
    } catch (error) {
      // The order exists: the caller gets it, recover() will find it and close the intent.
      api.logger?.warn?.('payment intent left open', { reason: reasonOf(error) });
    }
    return result;
  } catch (error) {
    throw await afterFailure(error);
  } finally {
    await lease.release();
  }

  /** What the caller is told; the store is made to agree with it first. */
  async function afterFailure(error: unknown): Promise<unknown> {
    if (error instanceof PaymentOutcomeUnknownError) return error;
    const aborted = budget.signal?.aborted === true && error === budget.signal.reason;
    let open = ours;
    if (open === undefined) {
      // Nothing was sent. An earlier call's intent is closed only on the provider's word.
      if (prior === undefined || !providerHasNone || aborted) return error;
      open = prior;
    }
    try {
      // A reused key names another payment: its record is never touched.
      await intents.close(open, error instanceof IdempotencyKeyReusedError ? undefined : { state: 'not-placed' });
    } catch (closing) {
      // An intent left open could still be placed by recover(): the caller must not read "not placed".
      return new PaymentOutcomeUnknownError({ idempotencyKey, cause: closing });
    }
    return error;
  }
}

/** The same order: amount, destination key and document. */
function samePayment(a: CashOutPaymentRequest, b: CashOutPaymentRequest): boolean {
  return (
    a.payment.amount === b.payment.amount && a.instantKey === b.instantKey && a.creditorDocument === b.creditorDocument
  );
}

/**
 * A failure before anything of the payment was sent or stored: a store failure or the time
 * running out says so in its message; anything else (the caller's abort reason) is as it is.
 */
function nothingSent(error: unknown): unknown {
  if (error instanceof StoreError)
    return new StoreError(`${error.message}; no payment order was sent`, { cause: error });
  if (error instanceof TimeoutError)
    return new TimeoutError(`${error.message}; no payment order was sent`, { cause: error });
  return error;
}
