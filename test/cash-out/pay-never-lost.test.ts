/**
 * An order's key is never lost and an order never placed twice, against a real loopback provider
 * that keeps orders by idempotency key and a balance: odd 202s, bodies cut short, time-outs,
 * the caller's abort, a 409 after a lost answer, a typed 404 from the status query, a reused key.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CashOutClient,
  IdempotencyKeyReusedError,
  InstantError,
  PaymentOutcomeUnknownError,
  type CashOutClientOptions,
  type PayParams,
} from '../../src/index.ts';
import { CPF, EVP, notification } from './fixtures.ts';
import { startProvider, TOKEN, type Provider, type ProviderOptions } from './loopback-provider.ts';

let provider: Provider | undefined;
let client: CashOutClient | undefined;
afterEach(async () => {
  await client?.close();
  await provider?.close();
  provider = undefined;
  client = undefined;
});

async function setUp(options: ProviderOptions, clientOptions: Partial<CashOutClientOptions> = {}) {
  provider = await startProvider(options);
  client = new CashOutClient({ baseUrl: provider.url, auth: { getToken: async () => TOKEN }, ...clientOptions });
  return { provider, client };
}

/** Faults for the first requests, then none. */
const first =
  <T extends string>(...faults: T[]) =>
  (n: number): T | 'ok' =>
    faults[n] ?? 'ok';

const params: PayParams = { key: EVP, amount: '25.00', creditorDocument: CPF };
const wireOrder = { instantKey: EVP, creditorDocument: CPF, payment: { currency: 'BRL' as const, amount: '25.00' } };

describe('pay(): an accepted order with an odd 202 is found by its key', () => {
  for (const fault of ['empty-202', 'garbage-202', 'text-202'] as const) {
    it(`${fault}: resolves with the order looked up by key, one order, one POST`, async () => {
      const { provider, client } = await setUp({ postFault: first(fault) });
      const result = await client.pay(params);
      expect(provider.orders.size).toBe(1);
      expect(provider.orders.has(result.idempotencyKey)).toBe(true);
      expect(result.transfer).toMatchObject({
        idempotencyKey: result.idempotencyKey,
        payment: { amount: '25.00' },
        endToEndId: expect.any(String),
      });
      expect(provider.posts()).toHaveLength(1);
      expect(provider.lookups().map((r) => r.url)).toEqual([
        `/api/v2/instant/payments/idempotencyKey/${result.idempotencyKey}`,
      ]);
      expect(provider.balanceCents()).toBe(100_000_000 - 2500);
    });
  }
});

describe('pay() and payments.create(): a lost answer is settled by key', () => {
  it('the connection is destroyed halfway through the 202 (order recorded): resolves with the order, one POST', async () => {
    const { provider, client } = await setUp({ postFault: first('cut-mid-body') });
    const result = await client.pay(params);
    expect([...provider.orders.keys()]).toEqual([result.idempotencyKey]);
    expect(result.transfer.payment?.amount).toBe('25.00');
    expect(provider.posts()).toHaveLength(1);
  });

  it('payments.create(): the POST times out after the provider recorded the order: resolves with it, one order', async () => {
    const { provider, client } = await setUp({ postFault: first('hang-after-record') }, { timeout: 300 });
    const transfer = await client.payments.create(wireOrder, { idempotencyKey: 'timeout1' });
    expect(transfer).toMatchObject({ idempotencyKey: 'timeout1', payment: { amount: '25.00' } });
    expect([...provider.orders.keys()]).toEqual(['timeout1']);
    expect(provider.posts()).toHaveLength(1);
  });

  it('payments.create(): a 409 on the resend after a lost answer is the order it placed, not a failure', async () => {
    // The first answer is lost; the status query lags, so the order is sent again and meets its own key.
    const { provider, client } = await setUp({ postFault: first('cut-after-record'), lookupFault: first('lag') });
    const transfer = await client.payments.create(wireOrder, { idempotencyKey: 'dup409' });
    expect(transfer).toMatchObject({ idempotencyKey: 'dup409', payment: { amount: '25.00' } });
    expect(provider.posts()).toHaveLength(2);
    expect(provider.orders.size).toBe(1);
    expect(provider.balanceCents()).toBe(100_000_000 - 2500);
  });

  it('when nothing settles it: PaymentOutcomeUnknownError with the key, and pay() again with it makes no second order', async () => {
    const { provider, client } = await setUp(
      { postFault: first('cut-mid-body'), lookupFault: () => '500' },
      { maxRetries: 0 },
    );
    const error = (await client.pay(params).catch((e: unknown) => e)) as PaymentOutcomeUnknownError;
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toBeInstanceOf(InstantError);
    expect(provider.orders.has(error.idempotencyKey)).toBe(true);
    provider.heal();
    const again = await client.pay({ ...params, idempotencyKey: error.idempotencyKey });
    expect(again.transfer.idempotencyKey).toBe(error.idempotencyKey);
    expect(provider.orders.size).toBe(1);
    expect(provider.posts()).toHaveLength(1);
  });
});

describe('pay(): an answer that does not prove a refusal is settled by key (a redirect too)', () => {
  it('a 302 after the provider recorded the order: resolves with the order found by key, one POST', async () => {
    const { provider, client } = await setUp({ postFault: first('redirect-after-record') });
    const result = await client.pay(params);
    expect([...provider.orders.keys()]).toEqual([result.idempotencyKey]);
    expect(result.transfer).toMatchObject({ idempotencyKey: result.idempotencyKey, payment: { amount: '25.00' } });
    expect(provider.posts()).toHaveLength(1);
    expect(provider.lookups().map((r) => r.url)).toEqual([
      `/api/v2/instant/payments/idempotencyKey/${result.idempotencyKey}`,
    ]);
  });

  it('a 307 before anything was recorded: the lookup finds none, the order is sent again with the same key, one order', async () => {
    const { provider, client } = await setUp({ postFault: first('redirect-before-record') });
    const transfer = await client.payments.create(wireOrder, { idempotencyKey: 'redirected1' });
    expect(transfer.idempotencyKey).toBe('redirected1');
    expect(provider.posts().map((r) => r.headers['x-idempotency-key'])).toEqual(['redirected1', 'redirected1']);
    expect([...provider.orders.keys()]).toEqual(['redirected1']);
  });

  it('a redirect and no answer from the lookup: PaymentOutcomeUnknownError with the key, never "refused"', async () => {
    const { provider, client } = await setUp(
      { postFault: () => 'redirect-after-record', lookupFault: () => '500' },
      { maxRetries: 0 },
    );
    const error = await client.payments.create(wireOrder, { idempotencyKey: 'redirected2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'redirected2' });
    expect(provider.orders.has('redirected2')).toBe(true);
  });
});

describe("pay(): the caller's abort while the POST is in flight", () => {
  it('rejects at once with PaymentOutcomeUnknownError (the reason as cause); pay() with that key makes exactly one order', async () => {
    const { provider, client } = await setUp({ postFault: first('hang-after-record') });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const pending = client.pay(params, { signal: controller.signal });
    await vi.waitFor(() => expect(provider.posts()).toHaveLength(1));
    controller.abort(reason);
    // The provider never answers that POST: the rejection cannot have waited for it.
    const error = (await pending.catch((e: unknown) => e)) as PaymentOutcomeUnknownError;
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error.cause).toBe(reason);
    expect(error.idempotencyKey).toMatch(/^[a-zA-Z0-9]{1,50}$/);
    expect(provider.lookups()).toHaveLength(0);

    const again = await client.pay({ ...params, idempotencyKey: error.idempotencyKey });
    expect(again.transfer).toMatchObject({ idempotencyKey: error.idempotencyKey, payment: { amount: '25.00' } });
    expect(provider.orders.size).toBe(1);
    expect(provider.posts()).toHaveLength(1);
    expect(provider.balanceCents()).toBe(100_000_000 - 2500);
  });

  it('an abort before anything was sent is the reason itself, and no order exists', async () => {
    const { provider, client } = await setUp({});
    const controller = new AbortController();
    controller.abort(new Error('never mind'));
    await expect(
      client.payments.create(wireOrder, { idempotencyKey: 'k1', signal: controller.signal }),
    ).rejects.toThrow('never mind');
    expect(provider.posts()).toHaveLength(0);
  });
});

describe('a 404 typed NaoEncontrado from the status query is "no such transfer"', () => {
  const notFoundType = 'https://api.psp.example/v2/error/NaoEncontrado';

  it('verifyNotification: suspicious (unknown-transfer)', async () => {
    const { client } = await setUp({ notFoundType });
    const result = await client.verifyNotification(notification({ idempotencyKey: 'nosuchorder' }));
    expect(result).toMatchObject({ verdict: 'suspicious', reason: 'unknown-transfer', actual: undefined });
  });

  it('the handler calls onSuspicious and answers 200, not 503', async () => {
    const { client } = await setUp({ notFoundType });
    const onSuspicious = vi.fn();
    const onError = vi.fn();
    const handler = client.notificationHandler({ onConfirmed: vi.fn(), onSuspicious, onError });
    const response = await handler(
      new Request('http://hooks.example/transfer', {
        method: 'POST',
        body: JSON.stringify(notification({ idempotencyKey: 'nosuchorder' })),
      }),
    );
    expect(response.status).toBe(200);
    expect(onSuspicious).toHaveBeenCalledWith(expect.objectContaining({ reason: 'unknown-transfer' }), {
      signal: expect.any(AbortSignal),
      notified: expect.objectContaining({ idempotencyKey: 'nosuchorder' }),
    });
    expect(onError).not.toHaveBeenCalled();
  });

  it('pay({ idempotencyKey }) for a new order places it', async () => {
    const { provider, client } = await setUp({ notFoundType });
    const result = await client.pay({ ...params, idempotencyKey: 'freshkey1' });
    expect(result.transfer.idempotencyKey).toBe('freshkey1');
    expect([...provider.orders.keys()]).toEqual(['freshkey1']);
  });
});

describe('pay(): a key reused for a different payment never resolves as success', () => {
  for (const duplicate of ['conflict', 'echo'] as const) {
    it(`the provider answers a duplicate key with ${duplicate === 'conflict' ? '409' : 'a 202 of the existing order'}: IdempotencyKeyReusedError`, async () => {
      // The status query lags, so the pre-check misses the first order and the second one is sent.
      const { provider, client } = await setUp({ duplicate, lookupFault: (n) => (n === 0 ? 'lag' : 'ok') });
      await client.payments.create(wireOrder, { idempotencyKey: 'reused1' });
      const error = await client
        .pay({ ...params, amount: '30.00', idempotencyKey: 'reused1' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'IdempotencyKeyReusedError',
        idempotencyKey: 'reused1',
        sentRequest: true,
        status: 409,
      });
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(provider.orders.size).toBe(1);
      expect(provider.balanceCents()).toBe(100_000_000 - 2500);
    });
  }

  it('another destination key under the same key: IdempotencyKeyReusedError before anything is sent', async () => {
    const { provider, client } = await setUp({});
    await client.pay({ ...params, idempotencyKey: 'reused2' });
    const error = await client.pay({ ...params, key: CPF, idempotencyKey: 'reused2' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'IdempotencyKeyReusedError', idempotencyKey: 'reused2', sentRequest: false });
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(JSON.stringify(error)).not.toContain(CPF);
    expect(provider.posts()).toHaveLength(1);
  });
});
