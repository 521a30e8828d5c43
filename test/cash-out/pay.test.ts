import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  IdempotencyKeyReusedError,
  CashOutUnprocessableError,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  RequisicaoInvalida,
  type PayParams,
} from '../../src/index.ts';
import { useMsw } from '../support/msw.ts';
import {
  BALANCE_URL,
  BY_KEY_URL,
  CNPJ,
  CPF,
  DICT_URL,
  EMAIL,
  EVP,
  KEY,
  PHONE,
  cashOutClient,
  providerError,
  wireTransfer,
} from './fixtures.ts';

const net = useMsw();

const params: PayParams = { key: EVP, amount: '10.00', creditorDocument: CPF };

function balanceOf(available: number) {
  return http.get(BALANCE_URL, () =>
    HttpResponse.json({
      data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available, blocked: 0, overdraft: 0 } }],
    }),
  );
}

/** A provider that records orders by key and answers the status query from them. */
function provider(postAnswers: Array<'ok' | 'drop' | number> = []) {
  const orders = new Map<string, Record<string, unknown>>();
  const bodies: unknown[] = [];
  let posts = 0;
  net.server.use(
    balanceOf(1000),
    http.post(DICT_URL, async ({ request }) => {
      const key = request.headers.get('x-idempotency-key')!;
      const body = (await request.json()) as { instantKey: string; payment: { amount: string } };
      bodies.push(body);
      const answer = postAnswers[posts++] ?? 'ok';
      if (typeof answer === 'number' && answer >= 400 && answer < 500)
        return HttpResponse.json(providerError(answer), { status: answer });
      if (!orders.has(key)) {
        orders.set(
          key,
          wireTransfer({
            idempotencyKey: key,
            instantKey: body.instantKey,
            payment: { currency: 'BRL', amount: Number(body.payment.amount) },
          }),
        );
      }
      if (answer === 'drop') return HttpResponse.error();
      if (typeof answer === 'number') return HttpResponse.json(providerError(answer), { status: answer });
      return HttpResponse.json({ data: orders.get(key) }, { status: 202 });
    }),
    http.get(BY_KEY_URL, ({ params: p }) => {
      const order = orders.get(String(p['key']));
      return order ? HttpResponse.json({ data: order }) : HttpResponse.json(providerError(404), { status: 404 });
    }),
  );
  return { orders, bodies, posts: () => net.requests.filter((r) => r.method === 'POST') };
}

describe('pay(): validation before any request', () => {
  const cases: Array<[string, Partial<PayParams>, string]> = [
    ['CPF key with a wrong check digit', { key: '52998224724' }, 'instantKey'],
    ['phone without +', { key: '5511987654321' }, 'instantKey'],
    ['upper-case e-mail', { key: 'Payee@Example.com' }, 'instantKey'],
    ['EVP in upper case', { key: EVP.toUpperCase() }, 'instantKey'],
    ['CNPJ key with a wrong check digit', { key: '11222333000182' }, 'instantKey'],
    ['float amount', { amount: 10.5 as unknown as string }, 'payment.amount'],
    ['integer amount', { amount: 1050 as unknown as string }, 'payment.amount'],
    ['three decimals', { amount: '10.001' }, 'payment.amount'],
    ['comma separator', { amount: '10,00' }, 'payment.amount'],
    ['zero', { amount: '0.00' }, 'payment.amount'],
    ['zero as a number', { amount: 0 as unknown as string }, 'payment.amount'],
    ['a negative number', { amount: -100 as unknown as string }, 'payment.amount'],
    ['NaN', { amount: Number.NaN as unknown as string }, 'payment.amount'],
    ['creditorDocument with wrong check digits', { creditorDocument: '52998224700' }, 'creditorDocument'],
    ['punctuated creditorDocument', { creditorDocument: '529.982.247-25' }, 'creditorDocument'],
    ['idempotency key with a dash', { idempotencyKey: 'a-b' }, 'idempotencyKey'],
    ['expiration out of range', { expiration: 10_801 }, 'expiration'],
  ];

  for (const [name, change, property] of cases) {
    it(`refuses ${name} (${property})`, async () => {
      const error = await cashOutClient()
        .pay({ ...params, ...change })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequisicaoInvalida);
      expect(error).toMatchObject({ sentRequest: false });
      expect((error as RequisicaoInvalida).violacoes.map((v) => v.propriedade)).toContain(property);
      expect(net.requests).toHaveLength(0);
    });
  }

  it('money is never a number: pay({ amount: 10 }) is refused with the string to use, nothing sent', async () => {
    // Plain JavaScript (or a cast) can pass a number: 10 must never become R$ 0.10, nor R$ 10.00 by a guess.
    provider();
    const error = (await cashOutClient()
      .pay({ ...params, amount: 10 as unknown as string })
      .catch((e: unknown) => e)) as RequisicaoInvalida;
    expect(error).toBeInstanceOf(RequisicaoInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'payment.amount' }] });
    expect(error.message).toContain('"10.00"');
    expect(net.requests).toHaveLength(0);
    const cents = (await cashOutClient()
      .pay({ ...params, amount: 10.5 as unknown as string })
      .catch((e: unknown) => e)) as RequisicaoInvalida;
    expect(cents.message).toContain('"10.50"');
    const odd = (await cashOutClient()
      .pay({ ...params, amount: 1.005 as unknown as string })
      .catch((e: unknown) => e)) as RequisicaoInvalida;
    expect(odd.violacoes[0]?.razao).toMatch(/decimal string in reais, such as "10.50"/);
    expect(net.requests).toHaveLength(0);
  });

  it('says why a number amount is refused and never leaks the key or document', async () => {
    const error = (await cashOutClient()
      .pay({ ...params, key: '52998224724', amount: 10.5 as unknown as string })
      .catch((e: unknown) => e)) as RequisicaoInvalida;
    expect(error.violacoes.find((v) => v.propriedade === 'payment.amount')?.razao).toMatch(/never a number/);
    expect(JSON.stringify(error)).not.toContain('52998224724');
    expect(error.message).not.toContain('52998224724');
  });

  it('accepts every key type and reais as a string with 0 to 2 decimals', async () => {
    const p = provider();
    const client = cashOutClient();
    for (const key of [CPF, CNPJ, PHONE, EMAIL, EVP]) await client.pay({ ...params, key });
    await client.pay({ ...params, amount: '7.5' });
    await client.pay({ ...params, amount: '105' });
    const amounts = p.bodies.map((b) => (b as { payment: { amount: unknown } }).payment.amount);
    expect(amounts).toEqual(['10.00', '10.00', '10.00', '10.00', '10.00', '7.50', '105.00']);
  });
});

describe('pay(): balance', () => {
  it('throws InsufficientBalanceError with both figures and places no order', async () => {
    net.server.use(balanceOf(9.99));
    const error = await cashOutClient()
      .pay(params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error).toMatchObject({ available: '9.99', amount: '10.00' });
    expect(net.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('pays when available equals the amount exactly', async () => {
    const p = provider();
    net.server.use(balanceOf(10));
    await cashOutClient().pay(params);
    expect(p.posts()).toHaveLength(1);
  });

  it('a negative available balance covers nothing', async () => {
    net.server.use(balanceOf(-5));
    await expect(cashOutClient().pay({ ...params, amount: '0.01' })).rejects.toMatchObject({
      available: '-5.00',
      amount: '0.01',
    });
  });
});

describe('pay(): placing the order', () => {
  it('generates one idempotency key, sends it, and returns it with the transfer', async () => {
    const p = provider();
    const result = await cashOutClient().pay({
      ...params,
      description: 'rent',
      priority: 'NORM',
      expiration: 600,
      ispbDeny: ['12345678'],
    });
    expect(result.idempotencyKey).toMatch(/^[a-zA-Z0-9]{1,50}$/);
    expect(result.transfer).toMatchObject({
      idempotencyKey: result.idempotencyKey,
      status: 'PROCESSING',
      payment: { amount: '10.00' },
    });
    const [post] = p.posts();
    expect(post!.headers.get('x-idempotency-key')).toBe(result.idempotencyKey);
    expect(p.bodies[0]).toEqual({
      instantKey: EVP,
      creditorDocument: CPF,
      payment: { currency: 'BRL', amount: '10.00' },
      priority: 'NORM',
      description: 'rent',
      expiration: 600,
      ispbDeny: ['12345678'],
    });
  });

  it('two calls without a key are two orders with different keys', async () => {
    const p = provider();
    const client = cashOutClient();
    const [a, b] = [await client.pay(params), await client.pay(params)];
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(p.orders.size).toBe(2);
  });

  it('with a given key that already has an order, returns it without reading the balance or posting', async () => {
    const p = provider();
    const client = cashOutClient();
    await client.pay({ ...params, idempotencyKey: KEY });
    net.requests.length = 0;
    const again = await client.pay({ ...params, idempotencyKey: KEY });
    expect(again.idempotencyKey).toBe(KEY);
    expect(net.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      `GET /api/v2/instant/payments/idempotencyKey/${KEY}`,
    ]);
    expect(p.orders.size).toBe(1);
  });

  it('a given key that names another order is an IdempotencyKeyReusedError, nothing posted', async () => {
    const p = provider();
    const client = cashOutClient();
    await client.pay({ ...params, idempotencyKey: KEY });
    const error = await client.pay({ ...params, amount: '99.00', idempotencyKey: KEY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error).toMatchObject({ sentRequest: false, status: 409, idempotencyKey: KEY });
    expect(p.posts()).toHaveLength(1);
  });

  it('a 4xx answer is final: thrown as is, no status query, no second order', async () => {
    const p = provider([422]);
    await expect(cashOutClient().pay(params)).rejects.toBeInstanceOf(CashOutUnprocessableError);
    expect(p.posts()).toHaveLength(1);
    expect(net.requests.filter((r) => r.url.includes('idempotencyKey'))).toHaveLength(0);
  });
});

describe('pay(): never a second order', () => {
  it('5xx after the provider took the order: the status query finds it, no second POST', async () => {
    const p = provider([503]);
    const result = await cashOutClient().pay(params);
    expect(p.posts()).toHaveLength(1);
    expect(p.orders.size).toBe(1);
    expect(result.transfer.idempotencyKey).toBe(result.idempotencyKey);
  });

  it('dropped connection after the order was taken: found by the status query', async () => {
    const p = provider(['drop']);
    const result = await cashOutClient().pay(params);
    expect(p.posts()).toHaveLength(1);
    expect([...p.orders.keys()]).toEqual([result.idempotencyKey]);
  });

  it('status query 404 → the order is sent again with the same key', async () => {
    let posts = 0;
    const keys: string[] = [];
    net.server.use(
      balanceOf(100),
      http.post(DICT_URL, ({ request }) => {
        keys.push(request.headers.get('x-idempotency-key')!);
        // The first order is lost before the provider records it.
        if (++posts === 1) return HttpResponse.json(providerError(500), { status: 500 });
        return HttpResponse.json(
          { data: wireTransfer({ idempotencyKey: keys[0], payment: { currency: 'BRL', amount: 10 } }) },
          { status: 202 },
        );
      }),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    const result = await cashOutClient().pay(params);
    expect(keys).toEqual([result.idempotencyKey, result.idempotencyKey]);
    const order = net.requests.map((r) => r.method + (r.url.includes('idempotencyKey') ? ' status' : ''));
    expect(order).toEqual(['GET', 'POST', 'GET status', 'POST']);
  });

  it('when the status query cannot answer, it throws PaymentOutcomeUnknownError and does not post again', async () => {
    net.server.use(
      balanceOf(100),
      http.post(DICT_URL, () => HttpResponse.error()),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(403), { status: 403 })),
    );
    const error = await cashOutClient()
      .pay(params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as PaymentOutcomeUnknownError).idempotencyKey).toMatch(/^[a-zA-Z0-9]+$/);
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('when every attempt is lost and the provider has none, it gives up with PaymentOutcomeUnknownError', async () => {
    const keys: string[] = [];
    net.server.use(
      balanceOf(100),
      http.post(DICT_URL, ({ request }) => {
        keys.push(request.headers.get('x-idempotency-key')!);
        return HttpResponse.json(providerError(500), { status: 500 });
      }),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    const error = await cashOutClient()
      .pay(params, { maxRetries: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(keys).toHaveLength(2);
    expect(new Set(keys)).toEqual(new Set([(error as PaymentOutcomeUnknownError).idempotencyKey]));
    // A status query after each lost answer.
    expect(net.requests.filter((r) => r.url.includes('idempotencyKey'))).toHaveLength(2);
  });

  for (const status of [401, 403, 429]) {
    it(`pay() with a given key whose lookup is refused (${status}): PaymentOutcomeUnknownError with the key, never a "not placed" refusal, nothing posted`, async () => {
      // An earlier call may have placed an order under the key: only the provider's 404 says it did not.
      net.server.use(
        balanceOf(100),
        http.get(BY_KEY_URL, () => HttpResponse.json(providerError(status), { status })),
      );
      const error = await cashOutClient({ maxRetries: 0 })
        .pay({ ...params, idempotencyKey: KEY })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(error).toMatchObject({ idempotencyKey: KEY, cause: { status } });
      expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    });
  }

  it('totalTimeout bounds the whole order, attempts, pauses and lookups together', async () => {
    net.server.use(
      balanceOf(100),
      http.post(DICT_URL, () => HttpResponse.json(providerError(503), { status: 503 })),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    const started = Date.now();
    const error = await cashOutClient()
      .pay(params, { maxRetries: 8, totalTimeout: 1_000 })
      .catch((e: unknown) => e);
    // Eight pauses of 250 ms doubling up to 4 s would take over 20 s; the budget ends it at 1 s
    // (the bound leaves a loaded machine room and still tells the two apart).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
  });

  it('429 is waited out (Retry-After) and the order sent again without a status query', async () => {
    let posts = 0;
    net.server.use(
      balanceOf(100),
      http.post(DICT_URL, ({ request }) =>
        ++posts === 1
          ? HttpResponse.json(providerError(429), { status: 429, headers: { 'retry-after': '0' } })
          : HttpResponse.json(
              {
                data: wireTransfer({
                  idempotencyKey: request.headers.get('x-idempotency-key'),
                  payment: { currency: 'BRL', amount: 10 },
                }),
              },
              { status: 202 },
            ),
      ),
    );
    await cashOutClient().pay(params);
    expect(posts).toBe(2);
    expect(net.requests.filter((r) => r.url.includes('idempotencyKey'))).toHaveLength(0);
  });
});

describe('pay(): what a refusal before sending says', () => {
  const refused = async (change: Partial<PayParams>, options?: { validate?: boolean }) =>
    (await cashOutClient()
      .pay({ ...params, ...change }, options)
      .catch((e: unknown) => e)) as RequisicaoInvalida;

  it('an amount that does not parse is reported once, saying how to write it', async () => {
    const error = await refused({ amount: '10,00' });
    expect(error.message).toMatch(/Payment refused before sending/);
    const amounts = error.violacoes.filter((v) => v.propriedade === 'payment.amount');
    expect(amounts).toHaveLength(1);
    expect(amounts[0]!.razao).toBe('must be a decimal string with a dot and at most two decimals, such as "10.50"');
    const both = await refused({ amount: '10,00', creditorDocument: '52998224700' });
    expect(both.violacoes.map((v) => v.propriedade).sort()).toEqual(['creditorDocument', 'payment.amount']);
  });

  it('no amount at all: a decimal string in reais is asked for', async () => {
    const error = await refused({ amount: undefined as unknown as string });
    expect(error.violacoes.filter((v) => v.propriedade === 'payment.amount')).toEqual([
      { propriedade: 'payment.amount', razao: 'must be a decimal string in reais, such as "10.50"' },
    ]);
    expect(net.requests).toHaveLength(0);
  });

  it('pay() without its params: ConfigurationError naming them, nothing sent', async () => {
    const error = await cashOutClient()
      .pay(undefined as unknown as PayParams)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: 'params' });
    expect((error as Error).message).toMatch(/needs its params: \{ key, amount, creditorDocument \}/);
    expect(net.requests).toHaveLength(0);
  });

  it('validate: false sends what the rules would refuse (the service judges); the key is still checked', async () => {
    const p = provider();
    const document = '52998224700';
    await cashOutClient().pay({ ...params, creditorDocument: document }, { validate: false });
    await cashOutClient({ validate: false }).pay({ ...params, creditorDocument: document });
    expect(p.bodies.map((b) => (b as { creditorDocument: string }).creditorDocument)).toEqual([document, document]);
    const badKey = await refused({ idempotencyKey: 'a-b' }, { validate: false });
    expect(badKey).toBeInstanceOf(RequisicaoInvalida);
  });

  it("with a given key, the caller's abort before anything is sent is thrown as it is, not as an unknown outcome", async () => {
    provider();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    const error = await cashOutClient()
      .pay({ ...params, idempotencyKey: KEY }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});
