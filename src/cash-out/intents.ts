/**
 * Crash-safe payments through a shared store. `pay()` holds a lease on its idempotency key while
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
import type { Logger } from '../core/log.ts';
import { violation } from '../core/validation.ts';
import { InstantError } from '../errors/base.ts';
import { TimeoutError } from '../errors/failures.ts';
import { isRecord, parseJson } from '../internal/json.ts';
import { isValidIdempotencyKey } from '../lib/ids.ts';
import { MONEY_PATTERN } from '../lib/money.ts';
import { durationOption } from '../store/options.ts';
import { ClaimBusyError, StoreError, type Store } from '../store/types.ts';
import { Budget } from './budget.ts';
import { IdempotencyKeyReusedError, PaymentOutcomeUnknownError } from './errors.ts';
import { sameOrder } from './order.ts';
import { findTransfer } from './payments.ts';
import { placePayment, preparePayment, type CashOutApi, type PayParams, type PayResult, type PreparedPayment } from './pay.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';

/** How `pay()` holds its idempotency key in a shared store while it runs. */
export interface IntentOptions {
  /** Lease on a key while its `pay()` runs, renewed every third of it (default 30 s). */
  leaseMs?: number;
}

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

/** An open intent as stored: the order about to be sent. */
interface OpenIntent {
  body: CashOutPaymentRequest;
  createdAt: string;
}

const OPEN = 'intent-open:';
const OUTCOME = 'intent:';
const LEASE = 'intent:';
/** How long an outcome is kept. */
const OUTCOME_TTL_MS = 90 * 24 * 3600_000;
const POLL_MS = 100;

/**
 * `leaseMs` out of range (`NaN`, under 100 ms, beyond 2^31 ms) is a `ConfigurationError` naming
 * the option (`prefix` + `leaseMs`): a zero or NaN lease would let a second `pay()` with the key
 * run at once.
 */
export function checkIntentOptions(options: IntentOptions | undefined, prefix: string): void {
  durationOption(options?.leaseMs, `${prefix}leaseMs`, 100);
}

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
  const lease = new KeyLease(store, idempotencyKey, intentOptions.leaseMs ?? 30_000, budget);
  try {
    await lease.wait();
  } catch (error) {
    throw nothingSent(error);
  }
  const intents = new Intents(store, idempotencyKey, budget, api.logger);
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
          violacoes: [violation('idempotencyKey', 'names an unsettled payment to another destination key or of another amount; settle it with recover()')],
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
        ours = await intents.seal({ body: payment.body, createdAt: new Date().toISOString() });
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

/** Settles the intents a crash left open; see `RecoverOptions`. */
export async function recoverIntents(api: CashOutApi, store: Store, options: RecoverOptions = {}): Promise<RecoveredPayment[]> {
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
  const intents = new Intents(store, idempotencyKey, budget, api.logger);
  if (!isValidIdempotencyKey(idempotencyKey)) return intents.tampered('not an idempotency key');
  const lease = new KeyLease(store, idempotencyKey, options.leaseMs ?? 30_000, budget);
  let transfer: Transfer | undefined;
  try {
    if (!(await lease.take())) return { idempotencyKey, outcome: 'in-progress' };
    const value = await intents.openValue();
    // Settled since it was listed (its pay() finished, or another recover()).
    if (value === undefined) return undefined;
    const intent = await intents.read(value);
    if (intent === undefined) return intents.tampered();
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
      error: error instanceof PaymentOutcomeUnknownError ? error : new PaymentOutcomeUnknownError({ idempotencyKey, cause: error }),
      ...(transfer !== undefined && { transfer }),
    };
  } finally {
    await lease.release();
  }
}

/** The intent and outcome rows of one key. */
class Intents {
  readonly #store: Store;
  readonly #key: string;
  readonly #budget: Budget;
  readonly #logger: Logger | undefined;

  constructor(store: Store, idempotencyKey: string, budget: Budget, logger: Logger | undefined) {
    this.#store = store;
    this.#key = idempotencyKey;
    this.#budget = budget;
    this.#logger = logger;
  }

  /** The open intent's stored value, `undefined` when there is none. */
  openValue(): Promise<string | undefined> {
    return this.#budget.store(this.#store.get(OPEN + this.#key));
  }

  /** Intents name a destination key and a document: sealed when the store has a key. */
  seal(intent: OpenIntent | Record<string, unknown>, context = OPEN): Promise<string> {
    const json = JSON.stringify(intent);
    const sealer = this.#store.sealer;
    return sealer ? sealer.seal(json, context + this.#key) : Promise.resolve(json);
  }

  /**
   * The intent in `value`, or `undefined` (logged) when it is not one this store wrote: with a
   * sealer, anything it does not open (plain JSON included); without, anything that does not read
   * as an order.
   */
  async read(value: string): Promise<OpenIntent | undefined> {
    let text = value;
    const sealer = this.#store.sealer;
    if (sealer) {
      try {
        text = await sealer.open(value, OPEN + this.#key);
      } catch {
        this.#ignored('not sealed with the store key');
        return undefined;
      }
    }
    const intent = parseJson(text);
    const body = isRecord(intent) ? intent['body'] : undefined;
    const amount = isRecord(body) && isRecord(body['payment']) ? body['payment']['amount'] : undefined;
    if (!isRecord(body) || typeof body['instantKey'] !== 'string' || typeof body['creditorDocument'] !== 'string' || typeof amount !== 'string' || !MONEY_PATTERN.test(amount)) {
      this.#ignored('unreadable');
      return undefined;
    }
    return intent as unknown as OpenIntent;
  }

  /** `recover()`'s report of a row it leaves alone (logged with `reason` when `read` did not log it). */
  tampered(reason?: string): RecoveredPayment {
    if (reason !== undefined) this.#ignored(reason);
    return { idempotencyKey: this.#key, outcome: 'tampered' };
  }

  /**
   * Closes the intent `open` (only while it is still that value: another call's is never
   * deleted), then records `outcome`. Closing first: a crash in between loses a record, never
   * leaves an intent that could be acted on again. The close must succeed (it throws); the
   * record is best effort.
   */
  async close(open: string | undefined, outcome: { state: 'placed'; transfer: Transfer } | { state: 'not-placed' } | undefined): Promise<void> {
    if (open !== undefined) await this.#budget.store(this.#store.delete(OPEN + this.#key, open));
    if (outcome === undefined) return;
    try {
      const value = await this.seal({ ...outcome, settledAt: new Date().toISOString() }, OUTCOME);
      await this.#budget.store(this.#store.set(OUTCOME + this.#key, value, OUTCOME_TTL_MS));
    } catch (error) {
      this.#logger?.warn?.('payment outcome not recorded', { reason: reasonOf(error) });
    }
  }

  #ignored(reason: string): void {
    this.#logger?.warn?.('payment intent ignored', { reason });
  }
}

/** The lease on a key while one `pay()` or `recover()` works on it, renewed every third of its time. */
class KeyLease {
  readonly #store: Store;
  readonly #key: string;
  readonly #ms: number;
  readonly #budget: Budget;
  readonly #owner = globalThis.crypto.randomUUID();
  /** Local time by which the lease ends at the latest, as last taken or renewed. */
  #heldUntil = 0;
  #lost = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(store: Store, idempotencyKey: string, leaseMs: number, budget: Budget) {
    this.#store = store;
    this.#key = idempotencyKey;
    this.#ms = leaseMs;
    this.#budget = budget;
  }

  /** One attempt: true when taken (renewed from then on). */
  async take(): Promise<boolean> {
    const taken = await this.#renew(true);
    if (taken) this.#timer = setInterval(() => void this.#renew().catch(() => undefined), this.#ms / 3);
    return taken;
  }

  /**
   * Takes the lease, waiting while a live `pay()` or `recover()` holds it. When the caller's time
   * ends first, that holder decides the key's fate: `PaymentOutcomeUnknownError`.
   */
  async wait(): Promise<void> {
    while (!(await this.take())) {
      if (Date.now() + POLL_MS >= this.#budget.deadline) {
        throw new PaymentOutcomeUnknownError({ idempotencyKey: this.#key, cause: new ClaimBusyError('Another pay() or recover() holds this idempotency key') });
      }
      await this.#budget.sleep(POLL_MS);
    }
  }

  /**
   * Before an order leaves: the lease must still be held with at least half its time left
   * (renewed now otherwise), so that no `recover()` elsewhere decides the key meanwhile.
   */
  async confirm(): Promise<void> {
    if (!this.#lost && this.#heldUntil - Date.now() > this.#ms / 2) return;
    if (this.#lost || !(await this.#renew())) {
      throw new PaymentOutcomeUnknownError({ idempotencyKey: this.#key, cause: new ClaimBusyError("This call lost its idempotency key's lease") });
    }
  }

  async release(): Promise<void> {
    clearInterval(this.#timer);
    await this.#budget.store(this.#store.unlease(LEASE + this.#key, this.#owner)).catch(() => undefined);
  }

  /**
   * Takes the lease, or extends it: with the store's `renew`, only while it is still held, so
   * that a renewal after the lease ran out (a stalled link) never takes back a key another
   * process took and gave back meanwhile.
   */
  async #renew(take = false): Promise<boolean> {
    const sent = Date.now();
    const name = LEASE + this.#key;
    const call = !take && this.#store.renew ? this.#store.renew(name, this.#owner, this.#ms) : this.#store.lease(name, this.#owner, this.#ms);
    const held = await this.#budget.store(call);
    if (held) this.#heldUntil = Math.max(this.#heldUntil, sent + this.#ms);
    else if (this.#timer !== undefined) this.#lost = true;
    return held;
  }
}

/** The same order: amount, destination key and document. */
function samePayment(a: CashOutPaymentRequest, b: CashOutPaymentRequest): boolean {
  return a.payment.amount === b.payment.amount && a.instantKey === b.instantKey && a.creditorDocument === b.creditorDocument;
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

/**
 * A failure before anything of the payment was sent or stored: a store failure or the time
 * running out says so in its message; anything else (the caller's abort reason) is as it is.
 */
function nothingSent(error: unknown): unknown {
  if (error instanceof StoreError) return new StoreError(`${error.message}; no payment order was sent`, { cause: error });
  if (error instanceof TimeoutError) return new TimeoutError(`${error.message}; no payment order was sent`, { cause: error });
  return error;
}

/** An error's name for a log line (never its message, which may quote values). */
function reasonOf(error: unknown): string {
  return error instanceof InstantError || error instanceof Error ? error.name : typeof error;
}
