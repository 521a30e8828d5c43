/**
 * Crash-safe payments. `pay()` writes its intent (key, amount, destination) to the store before
 * any order can leave, holds a lease on the key while it runs (renewed; so a second `pay()` with
 * the same key waits and then finds the first one's order), and writes the outcome after.
 * `recover()` takes the intents whose process died (lease expired) and settles each by asking
 * the provider for its key.
 */
import { ApiError } from '../errors/api-error.ts';
import { AuthenticationError } from '../errors/failures.ts';
import type { RequestOptions } from '../core/types.ts';
import { InsufficientBalanceError, PaymentOutcomeUnknownError, TransferNotFoundError } from './errors.ts';
import type { Transfer } from './types.ts';
import { sleep } from '../internal/retry.ts';
import { generateIdempotencyKey, isValidIdempotencyKey } from '../lib/ids.ts';
import { payCashOut, type CashOutApi, type PayParams, type PayResult } from './pay.ts';
import { ClaimBusyError, type Store } from '../store/types.ts';

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
  /** Options of the provider calls. */
  requestOptions?: RequestOptions;
}

/** How `recover()` settled one intent. */
export interface RecoveredPayment {
  idempotencyKey: string;
  /**
   * `found`: the provider has the order (recorded). `placed`: it had none and `recover()` placed
   * it (`unknown: 'place'`). `not-placed`: it had none and the intent is recorded as not placed.
   * `in-progress`: a live `pay()` holds the key. `unsettled`: the provider could not be asked, or
   * placing failed without an answer; the intent stays open for the next `recover()`.
   */
  outcome: 'found' | 'placed' | 'not-placed' | 'in-progress' | 'unsettled';
  /** The order, for `found` and `placed`. */
  transfer?: Transfer;
  /** Why, for `unsettled` (and a refused `placed`, which ends `not-placed`). */
  error?: unknown;
}

interface OpenIntent {
  params: Omit<PayParams, 'idempotencyKey'>;
  createdAt: string;
}

const OPEN = 'intent-open:';
const OUTCOME = 'intent:';
const LEASE = 'intent:';
/** How long an outcome is kept. */
const OUTCOME_TTL_MS = 90 * 24 * 3600_000;
const POLL_MS = 100;

/** `pay()` through the store: the intent is written before the order can leave. */
export async function payWithIntent(
  api: CashOutApi,
  store: Store,
  params: PayParams,
  options: RequestOptions = {},
  intentOptions: IntentOptions = {},
): Promise<PayResult> {
  const idempotencyKey = params.idempotencyKey ?? generateIdempotencyKey();
  // A malformed key is refused by `pay()` itself before anything is stored.
  if (!isValidIdempotencyKey(idempotencyKey)) return payCashOut(api, params, options);
  const leaseMs = intentOptions.leaseMs ?? 30_000;
  const owner = globalThis.crypto.randomUUID();
  const deadline = Date.now() + (options.totalTimeout ?? 120_000);
  while (!(await store.lease(LEASE + idempotencyKey, owner, leaseMs))) {
    if (Date.now() >= deadline) {
      throw new PaymentOutcomeUnknownError({ idempotencyKey, cause: new ClaimBusyError('Another pay() holds this key') });
    }
    await sleep(POLL_MS, options.signal);
  }
  const renewal = setInterval(() => {
    store.lease(LEASE + idempotencyKey, owner, leaseMs).catch(() => undefined);
  }, leaseMs / 3);
  try {
    const { idempotencyKey: _given, ...rest } = params;
    const intent: OpenIntent = { params: rest, createdAt: new Date().toISOString() };
    await store.set(OPEN + idempotencyKey, await seal(store, OPEN + idempotencyKey, intent));
    let result: PayResult;
    try {
      // With the key given, `pay()` looks the order up first: a second call finds the first's order.
      result = await payCashOut(api, { ...params, idempotencyKey }, options);
    } catch (error) {
      if (notPlaced(error)) await settle(store, idempotencyKey, 'not-placed');
      throw error;
    }
    await settle(store, idempotencyKey, 'placed', result.transfer);
    return result;
  } finally {
    clearInterval(renewal);
    await store.unlease(LEASE + idempotencyKey, owner).catch(() => undefined);
  }
}

/** Settles the intents a crash left open; see `RecoverOptions`. */
export async function recoverIntents(api: CashOutApi, store: Store, options: RecoverOptions = {}): Promise<RecoveredPayment[]> {
  const owner = globalThis.crypto.randomUUID();
  const leaseMs = options.leaseMs ?? 30_000;
  const results: RecoveredPayment[] = [];
  for (const { key, value } of await store.list(OPEN)) {
    const idempotencyKey = key.slice(OPEN.length);
    if (!(await store.lease(LEASE + idempotencyKey, owner, leaseMs))) {
      results.push({ idempotencyKey, outcome: 'in-progress' });
      continue;
    }
    try {
      results.push(await recoverOne(api, store, idempotencyKey, await unseal(store, key, value), options));
    } catch (error) {
      results.push({ idempotencyKey, outcome: 'unsettled', error });
    } finally {
      await store.unlease(LEASE + idempotencyKey, owner).catch(() => undefined);
    }
  }
  return results;
}

async function recoverOne(
  api: CashOutApi,
  store: Store,
  idempotencyKey: string,
  intent: OpenIntent,
  options: RecoverOptions,
): Promise<RecoveredPayment> {
  const request = { ...options.requestOptions, validate: false };
  const find = async (): Promise<Transfer | undefined> => {
    try {
      return await api.payments.getByIdempotencyKey(idempotencyKey, request);
    } catch (error) {
      if (error instanceof TransferNotFoundError) return undefined;
      throw error;
    }
  };
  // An order sent just before the crash may still be landing: ask, wait, ask again.
  const transfer = (await find()) ?? (await sleep(options.settleDelayMs ?? 5_000).then(find));
  if (transfer !== undefined) {
    await settle(store, idempotencyKey, 'placed', transfer);
    return { idempotencyKey, outcome: 'found', transfer };
  }
  if (options.unknown !== 'place') {
    await settle(store, idempotencyKey, 'not-placed');
    return { idempotencyKey, outcome: 'not-placed' };
  }
  try {
    const result = await payCashOut(api, { ...intent.params, idempotencyKey }, options.requestOptions);
    await settle(store, idempotencyKey, 'placed', result.transfer);
    return { idempotencyKey, outcome: 'placed', transfer: result.transfer };
  } catch (error) {
    if (!notPlaced(error)) throw error;
    await settle(store, idempotencyKey, 'not-placed');
    return { idempotencyKey, outcome: 'not-placed', error };
  }
}

/** Records the outcome, then closes the intent (a crash in between leaves it for `recover()`). */
async function settle(store: Store, idempotencyKey: string, state: 'placed' | 'not-placed', transfer?: Transfer): Promise<void> {
  const outcome = { state, transfer, settledAt: new Date().toISOString() };
  await store.set(OUTCOME + idempotencyKey, await seal(store, OUTCOME + idempotencyKey, outcome), OUTCOME_TTL_MS);
  await store.delete(OPEN + idempotencyKey);
}

/** Failures after which no order exists for the key: refused before sending, or by the provider. */
function notPlaced(error: unknown): boolean {
  if (error instanceof InsufficientBalanceError || error instanceof AuthenticationError) return true;
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408;
}

/** Intents name a destination key and a document: sealed when the store has a key. */
async function seal(store: Store, context: string, value: unknown): Promise<string> {
  const json = JSON.stringify(value);
  return store.sealer ? store.sealer.seal(json, context) : json;
}

async function unseal(store: Store, context: string, value: string): Promise<OpenIntent> {
  return JSON.parse(store.sealer && !value.startsWith('{') ? await store.sealer.open(value, context) : value) as OpenIntent;
}
