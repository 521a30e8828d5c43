/**
 * The order loop on its own (`placeOrder`), against a scripted provider: which answer is the
 * order, which is looked up, which is sent again and which is final, and what the caller gets
 * when the outcome cannot be learnt. The same rules through `pay()` and msw: pay.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Budget } from '../../src/cash-out/budget.ts';
import {
  CashOutResponseError,
  IdempotencyKeyReusedError,
  PaymentOutcomeUnknownError,
} from '../../src/cash-out/errors.ts';
import { placeOrder, type OrderChannel } from '../../src/cash-out/order.ts';
import type { CashOutPaymentRequest, Transfer } from '../../src/cash-out/types.ts';
import { transferFrom } from '../../src/cash-out/wire.ts';
import type { RequestOptions } from '../../src/core/types.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import { RequisicaoInvalida } from '../../src/errors/catalogue.ts';
import { AuthenticationError, InvalidResponseError, TimeoutError } from '../../src/errors/failures.ts';
import { CPF, EMAIL, EVP, KEY, PHONE, wireTransfer } from './fixtures.ts';

const body: CashOutPaymentRequest = {
  instantKey: EVP,
  creditorDocument: CPF,
  payment: { currency: 'BRL', amount: '10.50' },
};

/** The provider's record of the order asked for, in SDK shape. */
const placed: Transfer = transferFrom(wireTransfer(), {});

/** An answer of the provider: a value is the body of a 2xx, an `Error` the failure the HTTP core throws. */
type Answer = unknown;

/**
 * A provider that answers the POSTs and the status queries from two scripts, one entry per call;
 * a call past the end of its script is a call the test did not expect.
 */
function provider(posts: Answer[], lookups: Array<Transfer | undefined | Error> = []) {
  const sent: RequestOptions[] = [];
  const asked: RequestOptions[] = [];
  const answer = <T>(script: Array<T | Error>, calls: number, what: string): T => {
    if (calls > script.length) throw new Error(`unexpected ${what} #${calls}`);
    const next = script[calls - 1];
    if (next instanceof Error) throw next;
    return next as T;
  };
  const channel: OrderChannel = {
    post: async (options) => {
      sent.push(options);
      return answer(posts, sent.length, 'POST');
    },
    find: async (options) => {
      asked.push(options);
      return answer<Transfer | undefined>(lookups, asked.length, 'status query');
    },
  };
  return { channel, sent, asked };
}

const failure = (status: number, headers?: Record<string, string>) =>
  new ApiError({ status, ...(headers && { response: new Response(null, { status, headers }) }) });

/** The caller's time, on the system clock (`totalTimeout` in ms; none by default). */
const budgetOf = (options: RequestOptions = {}) => new Budget(options, Infinity);

const outcome = (promise: Promise<Transfer>) => promise.catch((error: unknown) => error);

beforeEach(() => {
  // Backoff pauses of 0 ms: the scripts, not the clock, decide what happens.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('placeOrder: a 2xx answer', () => {
  it('a readable transfer under the key is the order: returned, nothing looked up', async () => {
    const p = provider([{ data: wireTransfer() }]);
    expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
    expect(p.asked).toHaveLength(0);
  });

  it('an answer that names the key without a status is the order, PROCESSING', async () => {
    const p = provider([{ idempotencyKey: KEY, payment: { currency: 'BRL', amount: 10.5 } }]);
    const transfer = await placeOrder(p.channel, body, KEY, budgetOf(), 2);
    expect(transfer).toMatchObject({ idempotencyKey: KEY, status: 'PROCESSING', payment: { amount: '10.50' } });
    expect(p.asked).toHaveLength(0);
  });

  it('an answer with a status but without the key is the order under the key sent', async () => {
    const p = provider([{ status: 'PROCESSING', endToEndId: 'E1', payment: { currency: 'BRL', amount: 10.5 } }]);
    const transfer = await placeOrder(p.channel, body, KEY, budgetOf(), 2);
    expect(transfer).toMatchObject({ idempotencyKey: KEY, status: 'PROCESSING', endToEndId: 'E1' });
    expect(p.asked).toHaveLength(0);
  });

  const unreadable: Array<[string, unknown]> = [
    ['an empty body', ''],
    ['a body that is not an object', null],
    ['an object with neither status nor key', { data: {} }],
    ['a transfer under another key', { data: wireTransfer({ idempotencyKey: 'another1' }) }],
    ['an amount out of range', { data: wireTransfer({ payment: { currency: 'BRL', amount: 1e20 } }) }],
  ];
  for (const [what, answer] of unreadable) {
    it(`${what}: the provider holds the order, so it is looked up, never sent again`, async () => {
      const p = provider([answer], [placed]);
      expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
      expect(p.sent).toHaveLength(1);
      expect(p.asked).toHaveLength(1);
    });
  }

  it('unreadable and not found yet: looked for again each attempt, never sent again; then the key', async () => {
    const p = provider([{}], [undefined, undefined, undefined]);
    const error = await outcome(placeOrder(p.channel, body, KEY, budgetOf(), 2));
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: KEY });
    const cause = (error as PaymentOutcomeUnknownError).cause;
    expect(cause).toBeInstanceOf(CashOutResponseError);
    expect((cause as Error).message).toMatch(/accepted the order without a readable transfer/);
    expect(p.sent).toHaveLength(1);
    expect(p.asked).toHaveLength(3);
  });

  for (const status of [200, 202]) {
    it(`a ${status} the SDK cannot read (InvalidResponseError) is an accepted order: looked up until found, never sent again`, async () => {
      const p = provider([new InvalidResponseError('malformed', status, 'not JSON')], [undefined, placed]);
      expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
      expect(p.sent).toHaveLength(1);
      expect(p.asked).toHaveLength(2);
    });
  }
});

describe('placeOrder: a failed attempt', () => {
  it('409: the provider holds the order; looked for until it appears, never sent again', async () => {
    const p = provider([failure(409)], [undefined, undefined, placed]);
    expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
    expect(p.sent).toHaveLength(1);
    expect(p.asked).toHaveLength(3);
  });

  for (const status of [300, 302, 0]) {
    // 0: the opaque answer a browser gives for a redirect under `redirect: 'manual'`.
    it(`an answer ${status} (never followed) proves nothing: looked up, and sent again when the provider has none`, async () => {
      const p = provider(
        [new InvalidResponseError('redirect', status, 'redirect'), { data: wireTransfer() }],
        [undefined],
      );
      expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
      expect(p.sent).toHaveLength(2);
      expect(p.asked).toHaveLength(1);
    });
  }

  for (const status of [408, 500, 503]) {
    it(`${status}: the answer is lost; looked up, and sent again with the same key when the provider has none`, async () => {
      const p = provider([failure(status), { data: wireTransfer() }], [undefined]);
      expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
      expect(p.sent).toHaveLength(2);
      expect(p.asked).toHaveLength(1);
    });
  }

  it('429: waited out and sent again, nothing looked up', async () => {
    const p = provider([failure(429, { 'retry-after': '0' }), { data: wireTransfer() }]);
    expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toEqual(placed);
    expect(p.sent).toHaveLength(2);
    expect(p.asked).toHaveLength(0);
  });

  const final: Array<[string, Error]> = [
    ['a 422', failure(422)],
    ['a 400', failure(400)],
    ['no token (AuthenticationError)', new AuthenticationError('token endpoint refused')],
    [
      'a refusal before sending',
      new RequisicaoInvalida({ sentRequest: false, violacoes: [{ propriedade: 'x', razao: 'y' }] }),
    ],
  ];
  for (const [what, error] of final) {
    it(`${what} placed nothing: thrown as is, nothing looked up or sent again`, async () => {
      const p = provider([error]);
      expect(await outcome(placeOrder(p.channel, body, KEY, budgetOf(), 2))).toBe(error);
      expect(p.sent).toHaveLength(1);
      expect(p.asked).toHaveLength(0);
    });
  }

  it("a lookup that fails is final: PaymentOutcomeUnknownError with the lookup's failure, nothing sent again", async () => {
    const lookupFailure = failure(403);
    const p = provider([failure(503)], [lookupFailure, placed]);
    const error = await outcome(placeOrder(p.channel, body, KEY, budgetOf(), 2));
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: KEY, cause: lookupFailure });
    expect(p.sent).toHaveLength(1);
    expect(p.asked).toHaveLength(1);
  });

  it("the caller's abort while the order is out: PaymentOutcomeUnknownError with the abort reason, whatever came back", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const p = provider([]);
    p.channel.post = async (options) => {
      p.sent.push(options);
      controller.abort(reason);
      throw failure(429, { 'retry-after': '0' });
    };
    const error = await outcome(placeOrder(p.channel, body, KEY, budgetOf({ signal: controller.signal }), 2));
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: KEY, cause: reason });
    expect(p.sent).toHaveLength(1);
    expect(p.asked).toHaveLength(0);
  });
});

describe('placeOrder: the time of the whole', () => {
  it('a pause longer than the time left ends it: after a 429 nothing was placed, so TimeoutError', async () => {
    const p = provider([failure(429, { 'retry-after': '60' }), { data: wireTransfer() }]);
    const error = await outcome(placeOrder(p.channel, body, KEY, budgetOf({ totalTimeout: 30 }), 2));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(p.sent).toHaveLength(1);
    expect(p.asked).toHaveLength(0);
  });

  it('a pause longer than the time left after a lost answer: PaymentOutcomeUnknownError with the key', async () => {
    const p = provider([failure(503, { 'retry-after': '60' }), { data: wireTransfer() }], [placed]);
    const error = await outcome(placeOrder(p.channel, body, KEY, budgetOf({ totalTimeout: 30 }), 2));
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: KEY });
    expect((error as Error).cause).toBeInstanceOf(TimeoutError);
    expect(p.sent).toHaveLength(1);
  });

  it('every call is given the time left of the whole, not the whole again', async () => {
    let ms = Date.parse('2026-11-28T12:00:00Z');
    const budget = new Budget({ totalTimeout: 10_000 }, undefined, () => new Date(ms));
    const p = provider([]);
    p.channel.post = async (options) => {
      p.sent.push(options);
      ms += 3_000; // the answer takes 3 s and is lost
      if (p.sent.length === 1) throw failure(503);
      return { data: wireTransfer() };
    };
    p.channel.find = async (options) => {
      p.asked.push(options);
      ms += 1_000;
      return undefined;
    };
    await placeOrder(p.channel, body, KEY, budget, 2);
    expect([...p.sent, ...p.asked].map((o) => o.totalTimeout)).toEqual([10_000, 6_000, 7_000]);
  });
});

describe('placeOrder: the last attempt failed', () => {
  it('its answer lost: the provider is asked after a pause (an order in flight can land), and the order found is returned', async () => {
    vi.useFakeTimers();
    vi.mocked(Math.random).mockReturnValue(0.5);
    const p = provider([failure(503)], [placed]);
    const result = placeOrder(p.channel, body, KEY, new Budget({}, Infinity, () => new Date()), 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(p.sent).toHaveLength(1);
    expect(p.asked).toHaveLength(0);
    await vi.runAllTimersAsync();
    expect(await result).toEqual(placed);
    expect(p.asked).toHaveLength(1);
  });

  it('refused after an earlier lost answer: the provider is asked at once, and the earlier order is returned', async () => {
    vi.useFakeTimers();
    vi.mocked(Math.random).mockReturnValue(0.5);
    const p = provider([failure(503), failure(422)], [undefined, placed]);
    const result = placeOrder(p.channel, body, KEY, new Budget({}, Infinity, () => new Date()), 1);
    // The one pause after the first attempt (250 ms at this backoff); none before the last lookup.
    await vi.advanceTimersByTimeAsync(250);
    expect(p.sent).toHaveLength(2);
    expect(p.asked).toHaveLength(2);
    expect(await result).toEqual(placed);
  });

  it('refused after an earlier lost answer, and the provider has none: PaymentOutcomeUnknownError with the refusal', async () => {
    const refusal = failure(422);
    const p = provider([failure(503), refusal], [undefined, undefined]);
    const error = await outcome(placeOrder(p.channel, body, KEY, budgetOf(), 1));
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: KEY, cause: refusal });
  });
});

describe('placeOrder: the order found must be the one asked for', () => {
  const reused = async (found: Record<string, unknown>) => {
    const p = provider([{ data: wireTransfer(found) }]);
    return outcome(placeOrder(p.channel, body, KEY, budgetOf(), 2));
  };

  it('another amount or destination key under the key: IdempotencyKeyReusedError naming the key', async () => {
    for (const found of [
      { payment: { currency: 'BRL', amount: 99 } },
      { instantKey: '223e4567-e89b-12d3-a456-426614174000' },
      { instantKey: PHONE },
    ]) {
      const error = await reused(found);
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(error).toMatchObject({ idempotencyKey: KEY, sentRequest: true, status: 409 });
      expect((error as IdempotencyKeyReusedError).violacoes).toEqual([
        { propriedade: 'idempotencyKey', razao: expect.stringMatching(/another destination key or amount/) },
      ]);
    }
  });

  it('keys told apart by their letters, not only their digits', async () => {
    const p = provider([{ data: wireTransfer({ instantKey: 'other@example.com' }) }]);
    const error = await outcome(placeOrder(p.channel, { ...body, instantKey: EMAIL }, KEY, budgetOf(), 2));
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('the same key as the provider writes it (case, spaces, dashes, dots) and an amount it leaves out are ours', async () => {
    const same: Array<[string, string]> = [
      [PHONE, '+55 11 98765-4321'],
      [CPF, '529.982.247-25'],
      [EVP, EVP.toUpperCase()],
    ];
    for (const [ours, theirs] of same) {
      const p = provider([{ data: wireTransfer({ instantKey: theirs }) }]);
      const transfer = await placeOrder(p.channel, { ...body, instantKey: ours }, KEY, budgetOf(), 2);
      expect(transfer.instantKey).toBe(theirs);
    }
    const p = provider([{ data: wireTransfer({ payment: undefined }) }]);
    expect(await placeOrder(p.channel, body, KEY, budgetOf(), 2)).toMatchObject({ idempotencyKey: KEY });
  });
});
