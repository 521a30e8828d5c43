/**
 * `recover()`: takes each intent whose process is gone (its key's lease expired), reads it again
 * under that lease and settles it by asking the provider (see `intents.ts` for the rows).
 */
import type { RequestOptions } from '../core/types.ts';
import { isValidIdempotencyKey } from '../lib/ids.ts';
import { durationOption } from '../store/options.ts';
import type { Store } from '../store/types.ts';
import { Budget } from './budget.ts';
import { IdempotencyKeyReusedError, PaymentOutcomeUnknownError } from './errors.ts';
import { checkIntentOptions, Intents, OPEN, type IntentOptions } from './intents.ts';
import { DEFAULT_KEY_LEASE_MS, KeyLease } from './key-lease.ts';
import { sameOrder } from './order.ts';
import { findTransfer } from './payments.ts';
import { placePayment, type CashOutApi, type PayResult, type PreparedPayment } from './pay.ts';
import type { Transfer } from './types.ts';
import { systemNow } from '../internal/clock.ts';

/** Options of `cashOut.recover()`. */
export interface RecoverOptions extends IntentOptions {
  /**
   * What to do with an intent the provider does not know after the safe wait: `'mark'`
   * (default) records it as not placed, `'place'` places it now with the same key (the balance
   * is checked again).
   */
  unknown?: 'mark' | 'place';
  /** Pause before asking the provider a second time for a key it did not know (default 5 s). */
  settleDelayMs?: number;
  /**
   * Ends the whole `recover()`, store calls included: it rejects with the signal's reason, or
   * with `PaymentOutcomeUnknownError` when an order it was placing may have left.
   */
  signal?: AbortSignal;
  /**
   * Time for the whole `recover()` in milliseconds, store calls, lookups and waits included
   * (default: none). Running out rejects as an abort does, with `TimeoutError`.
   */
  totalTimeout?: number;
  /** Options of each provider call (`timeout`, `maxRetries`, `headers`). */
  requestOptions?: RequestOptions;
}

/** How `recover()` settled one intent. */
export interface RecoveredPayment {
  idempotencyKey: string;
  /**
   * `found`: the provider has the order (recorded). `placed`: it had none and `recover()` placed
   * it (`unknown: 'place'`). `not-placed`: it had none (or the key names another payment) and
   * the intent is closed as not placed. `in-progress`: a live `pay()` holds the key.
   * `unsettled`: the provider could not be asked, placing failed without an answer, or the store
   * failed; the intent stays open for the next `recover()`. `tampered`: the row is not an intent
   * this store wrote (it does not open with the store's `encryptionKey`, or does not read as an
   * intent); it is left as it is, never acted on, and logged.
   */
  outcome: 'found' | 'placed' | 'not-placed' | 'in-progress' | 'unsettled' | 'tampered';
  /** The order, for `found` and `placed` (and `unsettled` when only the record failed). */
  transfer?: Transfer;
  /**
   * Why: for `unsettled` a `PaymentOutcomeUnknownError` (its `cause` says what failed); for a
   * `not-placed` that `recover()` tried to place, the refusal.
   */
  error?: unknown;
}

/** Settles the intents a crash left open; see `RecoverOptions`. */
export async function recoverIntents(
  api: CashOutApi,
  store: Store,
  options: RecoverOptions = {},
): Promise<RecoveredPayment[]> {
  checkIntentOptions(options, '');
  // A NaN delay would not wait at all before "not placed".
  durationOption(options.settleDelayMs, 'settleDelayMs', 0);
  const signal = options.signal ?? options.requestOptions?.signal;
  const budget = new Budget(
    {
      ...options.requestOptions,
      ...(signal !== undefined && { signal }),
      ...(options.totalTimeout !== undefined && { totalTimeout: options.totalTimeout }),
    },
    Infinity,
  );
  const listed = await budget.store(store.list(OPEN));
  const results: RecoveredPayment[] = [];
  for (const { key } of listed) {
    budget.check();
    const result = await recoverOne(api, store, key.slice(OPEN.length), budget, options);
    if (result !== undefined) results.push(result);
  }
  return results;
}

/** One listed intent, decided only from what is read under its key's lease. */
async function recoverOne(
  api: CashOutApi,
  store: Store,
  idempotencyKey: string,
  budget: Budget,
  options: RecoverOptions,
): Promise<RecoveredPayment | undefined> {
  const intents = new Intents(store, idempotencyKey, budget, api.logger, api.now ?? systemNow);
  if (!isValidIdempotencyKey(idempotencyKey)) {
    intents.ignored('not an idempotency key');
    return { idempotencyKey, outcome: 'tampered' };
  }
  const lease = new KeyLease(store, idempotencyKey, options.leaseMs ?? DEFAULT_KEY_LEASE_MS, budget);
  let transfer: Transfer | undefined;
  try {
    if (!(await lease.take())) return { idempotencyKey, outcome: 'in-progress' };
    const value = await intents.openValue();
    // Settled since it was listed (its pay() finished, or another recover()).
    if (value === undefined) return undefined;
    const intent = await intents.read(value);
    // Not a row this store wrote (`read` logged it): left as it is, never acted on.
    if (intent === undefined) return { idempotencyKey, outcome: 'tampered' };
    const payment: PreparedPayment = { body: intent.body, idempotencyKey, given: false };

    const find = () => findTransfer(api.payments, idempotencyKey, budget.request());
    // An order sent just before the crash may still be landing: ask, wait, ask again.
    transfer = await find();
    if (transfer === undefined) {
      await budget.sleep(options.settleDelayMs ?? 5_000);
      transfer = await find();
    }
    if (transfer !== undefined) {
      const reused = keyReused(transfer, payment);
      if (reused !== undefined) {
        // The key names another payment, so this intent placed nothing; that payment's record stays.
        await intents.close(value, undefined);
        return { idempotencyKey, outcome: 'not-placed', error: reused };
      }
      await intents.close(value, { state: 'placed', transfer });
      return { idempotencyKey, outcome: 'found', transfer };
    }
    if (options.unknown !== 'place') {
      await intents.close(value, { state: 'not-placed' });
      return { idempotencyKey, outcome: 'not-placed' };
    }
    let result: PayResult;
    try {
      result = await placePayment(api, payment, budget, { beforeOrder: () => lease.confirm() });
    } catch (error) {
      if (error instanceof PaymentOutcomeUnknownError || budget.spent()) throw error;
      // The provider refused it, or the balance does not cover it: nothing was placed.
      await intents.close(value, error instanceof IdempotencyKeyReusedError ? undefined : { state: 'not-placed' });
      return { idempotencyKey, outcome: 'not-placed', error };
    }
    transfer = result.transfer;
    await intents.close(value, { state: 'placed', transfer });
    return { idempotencyKey, outcome: 'placed', transfer };
  } catch (error) {
    // The caller's time is up: recover() ends here (an order it was placing carries its key).
    if (budget.spent()) throw error;
    return {
      idempotencyKey,
      outcome: 'unsettled',
      error:
        error instanceof PaymentOutcomeUnknownError
          ? error
          : new PaymentOutcomeUnknownError({ idempotencyKey, cause: error }),
      ...(transfer !== undefined && { transfer }),
    };
  } finally {
    await lease.release();
  }
}

/** The `IdempotencyKeyReusedError` when `found` is not the order of `payment`. */
function keyReused(found: Transfer, payment: PreparedPayment): IdempotencyKeyReusedError | undefined {
  try {
    sameOrder(found, payment.body, payment.idempotencyKey, false);
    return undefined;
  } catch (error) {
    if (error instanceof IdempotencyKeyReusedError) return error;
    throw error;
  }
}
