import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AcessoNegado,
  ApiError,
  CashOutClient,
  CashOutConflictError,
  CashOutPreconditionFailedError,
  CashOutRateLimitedError,
  CashOutResponseError,
  CashOutUnprocessableError,
  ErroInternoDoServidor,
  NaoEncontrado,
  RequisicaoInvalida,
  TransferNotFoundError,
  UnauthorizedError,
  TRANSFER_ERROR_CODES,
  TRANSFER_STATUSES,
  type CashOutPaymentRequest,
  type TransferErrorCode,
  type TransferStatus,
} from '../../src/index.ts';
import { useMsw } from '../support/msw.ts';
import {
  BALANCE_URL,
  BY_KEY_URL,
  CASH_OUT_URL,
  CPF,
  DICT_URL,
  EVP,
  KEY,
  TOKEN_URL,
  cashOutClient,
  heldAnswer,
  providerError,
  wireTransfer,
} from './fixtures.ts';

const net = useMsw();

const order: CashOutPaymentRequest = {
  instantKey: EVP,
  creditorDocument: CPF,
  payment: { currency: 'BRL', amount: '10.50' },
};

describe('balance.get()', () => {
  it('GETs the trailing-slash path with the bearer token and converts floats to decimal strings', async () => {
    net.server.use(
      http.get(BALANCE_URL, () =>
        HttpResponse.json({
          data: [
            {
              eventDate: '2026-01-01T10:00:00Z',
              balanceAmount: { name: 'main', available: 0.1 + 0.2, blocked: 1234.5, overdraft: -12.3 },
            },
          ],
        }),
      ),
    );
    const balance = await cashOutClient().balance.get();
    expect(balance).toMatchObject({
      available: '0.30',
      blocked: '1234.50',
      overdraft: '-12.30',
      name: 'main',
      eventDate: '2026-01-01T10:00:00Z',
    });
    expect(balance.entries).toHaveLength(1);
    expect(balance.raw).toMatchObject({ data: [{ balanceAmount: { available: 0.1 + 0.2 } }] });
    const request = net.requests[0]!;
    expect(new URL(request.url).pathname).toBe('/api/v2/accounts/balances/');
    expect(request.headers.get('authorization')).toBe('Bearer co-token');
  });

  it('takes the entry with the latest eventDate when the provider lists several', async () => {
    net.server.use(
      http.get(BALANCE_URL, () =>
        HttpResponse.json({
          data: [
            { eventDate: '2026-01-01T10:00:00Z', balanceAmount: { available: 1 } },
            { eventDate: '2026-01-02T10:00:00Z', balanceAmount: { available: 2 } },
            { eventDate: 'not a date', balanceAmount: { available: 3 } },
          ],
        }),
      ),
    );
    const balance = await cashOutClient().balance.get();
    expect(balance.available).toBe('2.00');
    expect(balance.entries.map((e) => e.available)).toEqual(['1.00', '2.00', '3.00']);
  });

  it('throws CashOutResponseError for an answer without a balance', async () => {
    net.server.use(http.get(BALANCE_URL, () => HttpResponse.json({ data: [] })));
    await expect(cashOutClient().balance.get()).rejects.toBeInstanceOf(CashOutResponseError);
  });
});

describe('payments.create()', () => {
  it('POSTs the order with x-idempotency-key, the amount as a string, and reads the 202', async () => {
    net.server.use(
      http.post(DICT_URL, () =>
        HttpResponse.json(
          { data: wireTransfer({ payment: { currency: 'BRL', amount: 10.5 }, refunds: [2.5] }) },
          { status: 202 },
        ),
      ),
    );
    const transfer = await cashOutClient().payments.create(order, { idempotencyKey: KEY });
    const request = net.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.headers.get('x-idempotency-key')).toBe(KEY);
    const sent = (await request.json()) as { payment: { amount: unknown } };
    expect(sent.payment.amount).toBe('10.50');
    expect(transfer).toMatchObject({
      idempotencyKey: KEY,
      status: 'PROCESSING',
      payment: { currency: 'BRL', amount: '10.50' },
    });
    expect(transfer.refunds).toEqual([{ instantRefundAmount: { amount: '2.50' } }]);
  });

  it('after a lost answer asks for the order by its key, and sends it again with the same key only when the provider has none', async () => {
    let calls = 0;
    net.server.use(
      http.post(DICT_URL, () =>
        ++calls === 1 ? HttpResponse.error() : HttpResponse.json({ data: wireTransfer() }, { status: 202 }),
      ),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    await cashOutClient().payments.create(order, { idempotencyKey: KEY });
    expect(
      net.requests.map((r) => `${r.method} ${r.headers.get('x-idempotency-key') ?? new URL(r.url).pathname}`),
    ).toEqual([`POST ${KEY}`, `GET /api/v2/instant/payments/idempotencyKey/${KEY}`, `POST ${KEY}`]);
  });

  it('refuses a bad order or idempotency key before sending', async () => {
    const client = cashOutClient();
    const bad = { ...order, instantKey: '52998224700', payment: { currency: 'BRL' as const, amount: '10.5' } };
    const error = await client.payments.create(bad, { idempotencyKey: 'has-dash' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequisicaoInvalida);
    expect(error).toMatchObject({ sentRequest: false });
    expect((error as RequisicaoInvalida).violacoes.map((v) => v.propriedade).sort()).toEqual([
      'idempotencyKey',
      'instantKey',
      'payment.amount',
    ]);
    expect(net.requests).toHaveLength(0);
  });

  it('sends anyway with validate: false', async () => {
    net.server.use(
      http.post(DICT_URL, () => HttpResponse.json({ data: wireTransfer({ instantKey: 'whatever' }) }, { status: 202 })),
    );
    const bad = { ...order, instantKey: 'whatever' };
    await cashOutClient().payments.create(bad, { idempotencyKey: KEY, validate: false });
    expect(net.requests).toHaveLength(1);
  });
});

describe('payments.create(): the lookup after a lost answer', () => {
  it("carries the caller's signal: an abort while the provider keeps it waiting ends the call at once", async () => {
    const controller = new AbortController();
    let lookupAnswered = false;
    const { held, release } = heldAnswer();
    net.server.use(
      http.post(DICT_URL, () => HttpResponse.json(providerError(503), { status: 503 })),
      http.get(BY_KEY_URL, async () => {
        controller.abort(new Error('caller gave up'));
        await held;
        lookupAnswered = true;
        return HttpResponse.json(providerError(404), { status: 404 });
      }),
    );
    const error = await cashOutClient()
      .payments.create(order, { idempotencyKey: KEY, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(lookupAnswered).toBe(false);
    release();
    expect(error).toMatchObject({ name: 'PaymentOutcomeUnknownError', idempotencyKey: KEY });
  });

  it("the client's maxRetries: with 0, one POST, then the lookup, and the key when it finds nothing", async () => {
    net.server.use(
      http.post(DICT_URL, () => HttpResponse.json(providerError(503), { status: 503 })),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    const error = await cashOutClient({ maxRetries: 0 })
      .payments.create(order, { idempotencyKey: KEY })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PaymentOutcomeUnknownError', idempotencyKey: KEY });
    expect(net.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('with validate: false the lookup asks for the key as sent, unchecked, as the order carried it', async () => {
    let posts = 0;
    net.server.use(
      http.post(DICT_URL, () =>
        ++posts === 1
          ? HttpResponse.json(providerError(503), { status: 503 })
          : HttpResponse.json({ data: wireTransfer({ idempotencyKey: 'not_checked' }) }, { status: 202 }),
      ),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    const transfer = await cashOutClient().payments.create(order, { idempotencyKey: 'not_checked', validate: false });
    expect(transfer.idempotencyKey).toBe('not_checked');
    expect(net.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('a key outside the rule is refused saying what the rule is', async () => {
    const error = (await cashOutClient()
      .payments.create(order, { idempotencyKey: 'has-dash' })
      .catch((e: unknown) => e)) as RequisicaoInvalida;
    expect(error.violacoes).toContainEqual({
      propriedade: 'idempotencyKey',
      razao: 'must be 1 to 50 letters or digits ([a-zA-Z0-9]{1,50})',
    });
  });
});

describe('payments.getByIdempotencyKey()', () => {
  it('reads the status query, normalising refund objects and money', async () => {
    net.server.use(
      http.get(BY_KEY_URL, ({ params }) =>
        HttpResponse.json({
          data: wireTransfer({
            idempotencyKey: params['key'],
            status: 'PARTIALLY_REFUNDED',
            refunds: [
              { endToEndId: 'D1', status: 'LIQUIDATED', instantRefundAmount: { currency: 'BRL', amount: 0.7 } },
            ],
            someNewField: { kept: true },
          }),
        }),
      ),
    );
    const transfer = await cashOutClient().payments.getByIdempotencyKey(KEY);
    expect(new URL(net.requests[0]!.url).pathname).toBe(`/api/v2/instant/payments/idempotencyKey/${KEY}`);
    expect(transfer.status).toBe('PARTIALLY_REFUNDED');
    expect(transfer.refunds).toEqual([
      { endToEndId: 'D1', status: 'LIQUIDATED', instantRefundAmount: { currency: 'BRL', amount: '0.70' } },
    ]);
    expect(transfer['someNewField']).toEqual({ kept: true });
  });

  it('an answer that leaves the key out is read under the key asked for', async () => {
    const { idempotencyKey: _key, ...withoutKey } = wireTransfer({ status: 'LIQUIDATED' });
    net.server.use(http.get(BY_KEY_URL, () => HttpResponse.json({ data: withoutKey })));
    const transfer = await cashOutClient().payments.getByIdempotencyKey(KEY);
    expect(transfer).toMatchObject({ idempotencyKey: KEY, status: 'LIQUIDATED' });
  });

  it('throws TransferNotFoundError on 404', async () => {
    net.server.use(http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })));
    const error = await cashOutClient()
      .payments.getByIdempotencyKey(KEY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferNotFoundError);
    expect(error).toMatchObject({ status: 404, errorType: 'ABC-0042', instance: '/api/v2/instant/payments/dict' });
  });

  it('refuses a key outside [a-zA-Z0-9]{1,50} before sending', async () => {
    for (const key of ['../balances', 'a'.repeat(51), '']) {
      await expect(cashOutClient().payments.getByIdempotencyKey(key)).rejects.toBeInstanceOf(RequisicaoInvalida);
    }
    expect(net.requests).toHaveLength(0);
  });
});

describe('provider errors map to typed classes', () => {
  const table = [
    [400, RequisicaoInvalida],
    [403, AcessoNegado],
    [404, NaoEncontrado],
    [409, CashOutConflictError],
    [412, CashOutPreconditionFailedError],
    [422, CashOutUnprocessableError],
    [429, CashOutRateLimitedError],
    [500, ErroInternoDoServidor],
  ] as const;

  for (const [status, Class] of table) {
    // A 409 or a 500 does not say whether the order was taken: it is looked up by its key first.
    const unsure = status === 409 || status === 500;
    it(`${status} → ${Class.name}${unsure ? ' (the cause of PaymentOutcomeUnknownError when the order is not found)' : ''}`, async () => {
      net.server.use(
        http.post(DICT_URL, () => HttpResponse.json(providerError(status), { status })),
        http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
      );
      const thrown = await cashOutClient({ maxRetries: 0 })
        .payments.create(order, { idempotencyKey: KEY })
        .catch((e: unknown) => e);
      if (unsure) expect(thrown).toMatchObject({ name: 'PaymentOutcomeUnknownError', idempotencyKey: KEY });
      const error = unsure ? (thrown as Error).cause : thrown;
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status,
        errorType: 'ABC-0042',
        title: `Error ${status}`,
        detail: 'Something about the request',
        instance: '/api/v2/instant/payments/dict',
        sentRequest: true,
      });
    });
  }

  it('a body without a type still maps by status', async () => {
    net.server.use(
      http.get(
        BALANCE_URL,
        () => new HttpResponse('<html>busy</html>', { status: 429, headers: { 'content-type': 'text/html' } }),
      ),
    );
    await expect(cashOutClient({ maxRetries: 0 }).balance.get()).rejects.toBeInstanceOf(CashOutRateLimitedError);
  });

  it('401 twice → UnauthorizedError (the token is refreshed once in between)', async () => {
    net.server.use(http.get(BALANCE_URL, () => HttpResponse.json(providerError(401), { status: 401 })));
    let tokens = 0;
    const client = cashOutClient({ auth: { getToken: async () => `t${++tokens}`, invalidate: () => undefined } });
    await expect(client.balance.get()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(net.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
  });
});

describe('authentication', () => {
  it('uses the provider JSON token endpoint under baseUrl by default, with its own credentials', async () => {
    net.server.use(
      http.post(TOKEN_URL, () =>
        HttpResponse.json({ accessToken: 'from-json', tokenType: 'Bearer', expiresAt: 300 }, { status: 201 }),
      ),
      http.get(BALANCE_URL, () => HttpResponse.json({ data: [{ balanceAmount: { available: 1 } }] })),
    );
    const client = new CashOutClient({
      baseUrl: `${CASH_OUT_URL}/`,
      auth: { clientId: 'co-id', clientSecret: 'co-secret' },
    });
    await client.balance.get();
    const [token, balance] = net.requests;
    expect(token!.url).toBe(TOKEN_URL);
    expect(token!.headers.get('content-type')).toContain('application/json');
    expect(await token!.json()).toEqual({
      grant_type: 'client_credentials',
      client_id: 'co-id',
      client_secret: 'co-secret',
    });
    expect(balance!.headers.get('authorization')).toBe('Bearer from-json');
  });

  it('the default token endpoint whatever trailing slashes baseUrl has', async () => {
    net.server.use(
      http.post(TOKEN_URL, () =>
        HttpResponse.json({ accessToken: 'from-json', tokenType: 'Bearer', expiresAt: 300 }, { status: 201 }),
      ),
      http.get(BALANCE_URL, () => HttpResponse.json({ data: [{ balanceAmount: { available: 1 } }] })),
    );
    await new CashOutClient({ baseUrl: `${CASH_OUT_URL}//`, auth: { clientId: 'a', clientSecret: 'b' } }).balance.get();
    expect(net.requests[0]!.url).toBe(TOKEN_URL);
  });

  it('a token provider written as a class is used as it is', async () => {
    class Tokens {
      calls = 0;
      async getToken(): Promise<string> {
        this.calls++;
        return 'from-class';
      }
    }
    const tokens = new Tokens();
    net.server.use(http.get(BALANCE_URL, () => HttpResponse.json({ data: [{ balanceAmount: { available: 1 } }] })));
    await new CashOutClient({ baseUrl: CASH_OUT_URL, auth: tokens }).balance.get();
    expect(tokens.calls).toBe(1);
    expect(net.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer from-class']);
  });

  it('options it cannot work with are refused at construction, naming them', () => {
    expect(() => new CashOutClient({ baseUrl: 'not a url', auth: { getToken: async () => 't' } })).toThrow(
      expect.objectContaining({ name: 'ConfigurationError', option: 'baseUrl' }),
    );
  });

  it("its default store runs on the client's clock", async () => {
    let ms = Date.parse('2030-01-01T00:00:00Z');
    const store = cashOutClient({ now: () => new Date(ms) }).store;
    await store.set('k', 'v', 1_000);
    ms += 2_000;
    expect(await store.get('k')).toBeUndefined();
  });

  it('honours an explicit tokenUrl', async () => {
    const other = 'https://auth.psp.example/oauth/token';
    net.server.use(
      http.post(other, () => HttpResponse.json({ access_token: 'snake', expires_in: 300 })),
      http.get(BALANCE_URL, () => HttpResponse.json({ data: [{ balanceAmount: { available: 1 } }] })),
    );
    const client = new CashOutClient({
      baseUrl: CASH_OUT_URL,
      auth: { tokenUrl: other, clientId: 'a', clientSecret: 'b' },
    });
    await client.balance.get();
    expect(net.requests[0]!.url).toBe(other);
  });

  it('50 concurrent operations make exactly one token request', async () => {
    let tokenRequests = 0;
    net.server.use(
      http.post(TOKEN_URL, async () => {
        tokenRequests++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return HttpResponse.json({ accessToken: 'shared', expiresAt: 300 }, { status: 201 });
      }),
      http.get(BALANCE_URL, () => HttpResponse.json({ data: [{ balanceAmount: { available: 100 } }] })),
      http.get(BY_KEY_URL, ({ params }) =>
        HttpResponse.json({ data: wireTransfer({ idempotencyKey: params['key'] }) }),
      ),
    );
    const client = new CashOutClient({ baseUrl: CASH_OUT_URL, auth: { clientId: 'co-id', clientSecret: 'co-secret' } });
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? client.balance.get() : client.payments.getByIdempotencyKey(`k${i}`),
    );
    await Promise.all(calls);
    expect(tokenRequests).toBe(1);
    const bearers = new Set(net.requests.filter((r) => r.method === 'GET').map((r) => r.headers.get('authorization')));
    expect([...bearers]).toEqual(['Bearer shared']);
  });
});

describe('types', () => {
  it('transfer statuses and error codes are open unions with the documented values listed', () => {
    expectTypeOf<'LIQUIDATED'>().toExtend<TransferStatus>();
    expectTypeOf<'A_FUTURE_STATUS'>().toExtend<TransferStatus>();
    expectTypeOf<'AB03'>().toExtend<TransferErrorCode>();
    expect(TRANSFER_STATUSES).toEqual(['PROCESSING', 'LIQUIDATED', 'CANCELED', 'REFUNDED', 'PARTIALLY_REFUNDED']);
    expect(Object.keys(TRANSFER_ERROR_CODES)).toHaveLength(26);
    expect(TRANSFER_ERROR_CODES.AC03).toMatch(/account/);
  });
});
