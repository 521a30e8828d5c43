/**
 * Many concurrent pay() calls against a loopback provider that cuts connections (before the
 * order is recorded, after it, halfway through the body), never answers, answers 500, empty or
 * non-JSON 202s, lags in its status query and delays everything; some callers abort. Seeded.
 * Every caller ends with its order (found at the provider) or with PaymentOutcomeUnknownError
 * carrying a key (an aborted caller may also get its own reason when nothing was sent; any call
 * may fail before its order left, which the provider's log then shows), and paying again with
 * every unknown key leaves exactly one order per call.
 *
 * No verdict depends on how fast the machine is: a failure is judged by what the provider
 * received, not by when; each amount is unique so the provider's log tells the calls apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  CashOutClient,
  CashOutUnprocessableError,
  fromCents,
  InstantError,
  PaymentOutcomeUnknownError,
  type PayParams,
  type PayResult,
} from '../../src/index.ts';
import { CPF, EVP } from './fixtures.ts';
import { startProvider, TOKEN, type LookupFault, type PostFault, type Provider } from './loopback-provider.ts';
import { seededRandom } from '../support/random.ts';

function pick<T extends string>(next: () => number, weights: Record<T, number>): T {
  const entries = Object.entries(weights) as Array<[T, number]>;
  let roll = next() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[0]![0];
}

const POST_FAULTS: Record<PostFault, number> = {
  ok: 30,
  'empty-202': 8,
  'garbage-202': 8,
  'text-202': 5,
  'cut-mid-body': 12,
  'cut-before-record': 8,
  'cut-after-record': 10,
  'hang-after-record': 6,
  '500-after-record': 7,
  '500-before-record': 6,
  'redirect-after-record': 4,
  'redirect-before-record': 3,
  '422': 3,
};
const LOOKUP_FAULTS: Record<LookupFault, number> = {
  ok: 60,
  lag: 10,
  cut: 8,
  'cut-mid-body': 8,
  '500': 8,
  hang: 6,
  '401': 2,
  '403': 2,
  '429': 2,
};

const SEED = Number(process.env['CHAOS_SEED'] ?? 20_260_101);
/**
 * The faults that never answer are ended by an attempt's timeout. Any other request that meets it
 * on a loaded machine (a balance read did, at 400 ms) fails its call before the order left,
 * which the test accepts when the provider received no order of that call.
 */
const ATTEMPT_TIMEOUT_MS = 1_000;
/** Paying again with a key after the provider healed: a loaded machine may still time a try out. */
const PAY_AGAIN_TRIES = 5;
const CALLS = 40;
const CONCURRENCY = 10;

let provider: Provider | undefined;
let client: CashOutClient | undefined;
afterEach(async () => {
  await client?.close();
  await provider?.close();
});

type Outcome =
  | { call: number; kind: 'paid'; result: PayResult }
  | { call: number; kind: 'unknown'; error: PaymentOutcomeUnknownError }
  /** The provider refused the first attempt: nothing may exist. */
  | { call: number; kind: 'refused'; error: CashOutUnprocessableError }
  | { call: number; kind: 'aborted'; error: unknown }
  /** Failed before its order left (a balance read timed out): the provider must have received none. */
  | { call: number; kind: 'not sent'; error: InstantError };

describe(`pay() under random faults (seed ${SEED})`, () => {
  it('every caller gets its order or its key; paying again with the keys leaves one order per call', {
    timeout: 60_000,
  }, async () => {
    const next = seededRandom(SEED);
    provider = await startProvider({
      postFault: () => pick(next, POST_FAULTS),
      lookupFault: () => pick(next, LOOKUP_FAULTS),
      delay: () => (next() < 0.2 ? Math.floor(next() * 150) : 0),
    });
    client = new CashOutClient({
      baseUrl: provider.url,
      auth: { getToken: async () => TOKEN },
      timeout: ATTEMPT_TIMEOUT_MS,
      maxRetries: 1,
    });
    const cents: number[] = [];
    for (let call = 0; call < CALLS; call++) {
      let c = 1 + Math.floor(next() * 5000);
      while (cents.includes(c)) c++;
      cents.push(c);
    }
    const calls: PayParams[] = cents.map((c) => ({ key: EVP, creditorDocument: CPF, amount: fromCents(c) }));
    const aborts = calls.map(() => (next() < 0.1 ? Math.floor(next() * 200) : undefined));

    const outcomes: Outcome[] = [];
    let cursor = 0;
    const worker = async () => {
      for (let call = cursor++; call < CALLS; call = cursor++) {
        const controller = new AbortController();
        const timer =
          aborts[call] === undefined
            ? undefined
            : setTimeout(() => controller.abort(new Error(`caller ${call} gave up`)), aborts[call]);
        try {
          outcomes.push({ call, kind: 'paid', result: await client!.pay(calls[call]!, { signal: controller.signal }) });
        } catch (error) {
          if (error instanceof PaymentOutcomeUnknownError) outcomes.push({ call, kind: 'unknown', error });
          else if (error instanceof CashOutUnprocessableError) outcomes.push({ call, kind: 'refused', error });
          else if (controller.signal.aborted && error === controller.signal.reason)
            outcomes.push({ call, kind: 'aborted', error });
          else if (error instanceof InstantError) outcomes.push({ call, kind: 'not sent', error });
          else
            throw new Error(`call ${call} failed with neither its order nor its key (seed ${SEED})`, { cause: error });
        } finally {
          clearTimeout(timer);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(outcomes).toHaveLength(CALLS);

    const amountOf = (call: number) => cents[call]! / 100;
    const sentOrders = (call: number) =>
      provider!.posts().filter((post) => JSON.parse(post.body).payment.amount === fromCents(cents[call]!));
    for (const outcome of outcomes) {
      if (outcome.kind === 'paid') {
        const { idempotencyKey, transfer } = outcome.result;
        expect(transfer.idempotencyKey).toBe(idempotencyKey);
        expect(provider.orders.get(idempotencyKey)?.['payment']).toEqual({
          currency: 'BRL',
          amount: amountOf(outcome.call),
        });
      }
      if (outcome.kind === 'unknown') {
        expect(outcome.error.idempotencyKey).toMatch(/^[a-zA-Z0-9]{1,50}$/);
        // An abort after the POST left carries the caller's reason.
        if (
          aborts[outcome.call] !== undefined &&
          outcome.error.cause instanceof Error &&
          outcome.error.cause.message.includes('gave up')
        ) {
          expect(outcome.error.cause.message).toBe(`caller ${outcome.call} gave up`);
        }
      }
    }

    // A call aborted with its caller's own reason, or failed otherwise, sent no order (every
    // request has arrived by now).
    for (const outcome of outcomes) {
      if (outcome.kind === 'not sent' || outcome.kind === 'aborted')
        expect(sentOrders(outcome.call), `${outcome.kind}: ${String(outcome.error)}`).toEqual([]);
    }

    // The provider recovers; every unknown key is paid again with the same payment, until the
    // outcome is known (a try the loaded machine timed out is unknown again, under the same key).
    provider.heal();
    const payAgain = async (call: number, idempotencyKey: string, tries = PAY_AGAIN_TRIES): Promise<PayResult> => {
      try {
        return await client!.pay({ ...calls[call]!, idempotencyKey });
      } catch (error) {
        if (!(error instanceof PaymentOutcomeUnknownError) || tries === 1) throw error;
        return payAgain(call, idempotencyKey, tries - 1);
      }
    };
    for (const outcome of outcomes) {
      if (outcome.kind !== 'unknown') continue;
      const again = await payAgain(outcome.call, outcome.error.idempotencyKey);
      expect(again.transfer.idempotencyKey).toBe(outcome.error.idempotencyKey);
      expect(provider.orders.get(outcome.error.idempotencyKey)?.['payment']).toEqual({
        currency: 'BRL',
        amount: amountOf(outcome.call),
      });
    }

    const keyOf = (o: Outcome) =>
      o.kind === 'paid' ? o.result.idempotencyKey : o.kind === 'unknown' ? o.error.idempotencyKey : undefined;
    const keys = outcomes.map(keyOf).filter((k): k is string => k !== undefined);
    // One order per call that may have placed one, none for a call that sent nothing, none twice.
    expect(new Set(keys).size).toBe(keys.length);
    expect([...provider.orders.keys()].sort()).toEqual([...keys].sort());
    const paid = outcomes
      .filter((o) => o.kind === 'paid' || o.kind === 'unknown')
      .reduce((sum, o) => sum + cents[o.call]!, 0);
    expect(provider.balanceCents()).toBe(100_000_000 - paid);
    // The faults did happen.
    expect(outcomes.some((o) => o.kind === 'unknown') || provider.posts().length > CALLS).toBe(true);
  });
});
