import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  CashOutResponseError,
  createMemoryStore,
  InvalidNotificationError,
  verifyTransferNotification,
  type ConfirmedNotification,
  type SuspiciousNotification,
} from '../../src/index.ts';
import { useMsw } from '../support/msw.ts';
import { BY_KEY_URL, KEY, cashOutClient, heldAnswer, notification, providerError, wireTransfer } from './fixtures.ts';

const net = useMsw();

/** The provider's status query answers `status` for every key (404 when undefined). */
function providerSays(status: string | undefined, extra: Record<string, unknown> = {}) {
  net.server.use(
    http.get(BY_KEY_URL, ({ params }) =>
      status === undefined
        ? HttpResponse.json(providerError(404), { status: 404 })
        : HttpResponse.json({ data: wireTransfer({ idempotencyKey: params['key'], status, ...extra }) }),
    ),
  );
}

const statusQueries = () => net.requests.filter((r) => r.url.includes('/idempotencyKey/'));

describe('verifyNotification()', () => {
  it('confirmed: the queried status is LIQUIDATED and equals the notified one', async () => {
    providerSays('LIQUIDATED');
    const result = await cashOutClient().verifyNotification(notification({ status: 'LIQUIDATED' }));
    expect(result.verdict).toBe('confirmed');
    expect(result.actual).toMatchObject({ idempotencyKey: KEY, status: 'LIQUIDATED', payment: { amount: '10.50' } });
    expect(result.notified).toMatchObject({ idempotencyKey: KEY, status: 'LIQUIDATED' });
    expect(new URL(statusQueries()[0]!.url).pathname).toBe(`/api/v2/instant/payments/idempotencyKey/${KEY}`);
  });

  it('confirmed: CANCELED with its errorCode', async () => {
    providerSays('CANCELED', { errorCode: 'AB03' });
    const result = await cashOutClient().verifyNotification(notification({ status: 'CANCELED', errorCode: 'AB03' }));
    expect(result).toMatchObject({ verdict: 'confirmed', actual: { status: 'CANCELED', errorCode: 'AB03' } });
  });

  it('forged: notified LIQUIDATED, provider says CANCELED → suspicious (status-mismatch)', async () => {
    providerSays('CANCELED');
    const result = await cashOutClient().verifyNotification(notification({ status: 'LIQUIDATED' }));
    expect(result).toMatchObject({ verdict: 'suspicious', reason: 'status-mismatch', actual: { status: 'CANCELED' } });
  });

  it('forged: notified LIQUIDATED while the provider still says PROCESSING → suspicious', async () => {
    providerSays('PROCESSING');
    const result = await cashOutClient().verifyNotification(notification({ status: 'LIQUIDATED' }));
    expect(result).toMatchObject({ verdict: 'suspicious', reason: 'status-mismatch' });
  });

  it('forged: unknown idempotency key (404) → suspicious (unknown-transfer)', async () => {
    providerSays(undefined);
    const result = await cashOutClient().verifyNotification(notification());
    expect(result).toMatchObject({ verdict: 'suspicious', reason: 'unknown-transfer', actual: undefined });
  });

  it('forged: a notified status other than LIQUIDATED or CANCELED → suspicious, nothing queried', async () => {
    for (const status of ['PROCESSING', 'REFUNDED', 'SOMETHING_NEW']) {
      const result = await cashOutClient().verifyNotification(notification({ status }));
      expect(result).toMatchObject({ verdict: 'suspicious', reason: 'not-final-status' });
    }
    expect(statusQueries()).toHaveLength(0);
  });

  it('reads a JSON string, bytes or the parsed object alike', async () => {
    providerSays('LIQUIDATED');
    const client = cashOutClient();
    const text = JSON.stringify(notification());
    for (const body of [text, new TextEncoder().encode(text), notification()]) {
      expect((await client.verifyNotification(body)).verdict).toBe('confirmed');
    }
  });

  it('throws InvalidNotificationError for an unreadable body, before any query', async () => {
    const bad: unknown[] = [
      'not json',
      '[]',
      { type: 'TRANSFER' },
      { data: { status: 'LIQUIDATED' } },
      { data: { idempotencyKey: '../../accounts', status: 'LIQUIDATED' } },
      { data: { idempotencyKey: 'k'.repeat(51), status: 'LIQUIDATED' } },
      { data: { idempotencyKey: KEY } },
      new Uint8Array([0xff, 0xfe]),
    ];
    for (const body of bad) {
      await expect(cashOutClient().verifyNotification(body)).rejects.toBeInstanceOf(InvalidNotificationError);
    }
    expect(net.requests).toHaveLength(0);
  });

  it('is also a plain function over any client with the public resources', async () => {
    providerSays('LIQUIDATED');
    expect((await verifyTransferNotification(cashOutClient(), notification())).verdict).toBe('confirmed');
  });
});

describe('notificationHandler() (web-standard)', () => {
  const URL_ = 'https://merchant.example/webhook/transfer-confirmation';

  function post(body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) {
    return new Request(URL_, { method: 'POST', body, headers });
  }

  function handlerWithSpies(client = cashOutClient()) {
    const onConfirmed = vi.fn<(r: ConfirmedNotification) => void>();
    const onSuspicious = vi.fn<(r: SuspiciousNotification) => void>();
    const onError = vi.fn<(e: unknown, status: number) => void>();
    const handler = client.notificationHandler({ onConfirmed, onSuspicious, onError });
    return { handler, onConfirmed, onSuspicious, onError };
  }

  it('a genuine notification: 200, onConfirmed with the queried transfer', async () => {
    providerSays('LIQUIDATED');
    const { handler, onConfirmed, onSuspicious } = handlerWithSpies();
    const response = await handler(post(JSON.stringify(notification())));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(onConfirmed).toHaveBeenCalledTimes(1);
    expect(onConfirmed.mock.calls[0]![0].actual).toMatchObject({ idempotencyKey: KEY, status: 'LIQUIDATED' });
    expect(onSuspicious).not.toHaveBeenCalled();
  });

  it('forged notifications (mismatch, unknown key, non-final status): 200, onSuspicious with the reason', async () => {
    const { handler, onConfirmed, onSuspicious } = handlerWithSpies();
    providerSays('CANCELED');
    await handler(post(JSON.stringify(notification({ status: 'LIQUIDATED' }))));
    providerSays(undefined);
    await handler(post(JSON.stringify(notification())));
    const last = await handler(post(JSON.stringify(notification({ status: 'PROCESSING' }))));
    expect(last.status).toBe(200);
    expect(onSuspicious.mock.calls.map(([r]) => r.reason)).toEqual([
      'status-mismatch',
      'unknown-transfer',
      'not-final-status',
    ]);
    expect(onConfirmed).not.toHaveBeenCalled();
  });

  it('a malformed body: 400, no callback, no query, no throw', async () => {
    const { handler, onConfirmed, onSuspicious, onError } = handlerWithSpies();
    for (const body of ['{', '"just a string"', JSON.stringify({ data: { status: 'LIQUIDATED' } }), '']) {
      const response = await handler(post(body));
      expect(response.status).toBe(400);
    }
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(onSuspicious).not.toHaveBeenCalled();
    expect(
      onError.mock.calls.every(([error, status]) => error instanceof InvalidNotificationError && status === 400),
    ).toBe(true);
    expect(net.requests).toHaveLength(0);
  });

  it('an oversized body: 400, whether announced by content-length or streamed', async () => {
    const client = cashOutClient();
    const handler = client.notificationHandler({
      onConfirmed: () => undefined,
      onSuspicious: () => undefined,
      maxBodyBytes: 1024,
    });
    const big = JSON.stringify(notification({ remittanceInformation: 'x'.repeat(2000) }));
    expect((await handler(post(big, { 'content-length': String(big.length) }))).status).toBe(400);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(512).fill(0x20));
        controller.close();
      },
    });
    const streamed = new Request(URL_, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect((await handler(streamed)).status).toBe(400);
    expect(net.requests).toHaveLength(0);
  });

  it("the default limit is 1 MiB, as every handler's", async () => {
    const { handler } = handlerWithSpies();
    const big = JSON.stringify(notification({ remittanceInformation: 'x'.repeat(1024 * 1024) }));
    expect((await handler(post(big))).status).toBe(400);
  });

  it('a callback that throws: 500 so the provider sends again', async () => {
    providerSays('LIQUIDATED');
    const onError = vi.fn();
    const handler = cashOutClient().notificationHandler({
      onConfirmed: async () => {
        throw new Error('database down');
      },
      onSuspicious: () => undefined,
      onError,
    });
    const response = await handler(post(JSON.stringify(notification())));
    expect(response.status).toBe(500);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database down' }), 500);
  });

  it('the status query failing: 500 as every handler answers, no callback', async () => {
    net.server.use(http.get(BY_KEY_URL, () => HttpResponse.json(providerError(500), { status: 500 })));
    const { handler, onConfirmed, onSuspicious } = handlerWithSpies(cashOutClient({ maxRetries: 0 }));
    const response = await handler(post(JSON.stringify(notification())));
    expect(response.status).toBe(500);
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(onSuspicious).not.toHaveBeenCalled();
  });

  it('a method other than POST: 405 with Allow', async () => {
    const { handler } = handlerWithSpies();
    const response = await handler(new Request(URL_, { method: 'GET' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('transfer notifications: what the caller and the operator are told', () => {
  const URL_ = 'https://merchant.example/webhook/transfer-confirmation';
  const post = (body: unknown, init: RequestInit = {}) =>
    new Request(URL_, { method: 'POST', body: JSON.stringify(body), ...init });

  it('says what is wrong with a body it cannot read', async () => {
    const client = cashOutClient();
    const cases: Array<[unknown, RegExp]> = [
      [{ idempotencyKey: KEY, status: 'LIQUIDATED', type: 'TRANSFER' }, /no data object/],
      [{ data: { idempotencyKey: 12345, status: 'LIQUIDATED' } }, /no valid data\.idempotencyKey/],
      [{ data: { idempotencyKey: KEY } }, /no data\.status/],
    ];
    for (const [body, message] of cases) {
      const error = await client.verifyNotification(body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidNotificationError);
      expect((error as Error).message).toMatch(message);
    }
    const amount = await client
      .verifyNotification(notification({ payment: { currency: 'BRL', amount: 1e20 } }))
      .catch((e: unknown) => e);
    expect(amount).toBeInstanceOf(InvalidNotificationError);
    expect((amount as Error).message).toMatch(/unreadable amount/);
    expect((amount as Error).cause).toBeInstanceOf(CashOutResponseError);
    expect(net.requests).toHaveLength(0);
  });

  it('logs each notification (counts only), a confirmation, a duplicate, and why one is suspicious', async () => {
    const info: Array<[string, unknown]> = [];
    const warn: Array<[string, unknown]> = [];
    const logger = {
      info: (message: string, fields?: unknown) => void info.push([message, fields]),
      warn: (message: string, fields?: unknown) => void warn.push([message, fields]),
    };
    const handler = cashOutClient().notificationHandler({
      onConfirmed: () => undefined,
      onSuspicious: () => undefined,
      logger,
    });
    providerSays('LIQUIDATED');
    expect((await handler(post(notification()))).status).toBe(200);
    expect((await handler(post(notification({ remittanceInformation: 'again' })))).status).toBe(200);
    providerSays('CANCELED');
    expect((await handler(post(notification({ idempotencyKey: 'forged1' })))).status).toBe(200);
    expect(info).toContainEqual(['notification received', { transfers: 1 }]);
    expect(info.map(([message]) => message)).toContain('notification confirmed');
    expect(info.map(([message]) => message).some((m) => /^notification duplicate: .*onConfirmed/.test(m))).toBe(true);
    expect(warn).toEqual([['notification suspicious', { reason: 'status-mismatch' }]]);
  });

  it('a logger without warn: a suspicious notification is still answered and reported', async () => {
    providerSays('CANCELED');
    const onSuspicious = vi.fn();
    const handler = cashOutClient().notificationHandler({
      onConfirmed: () => undefined,
      onSuspicious,
      logger: { info: () => undefined },
    });
    expect((await handler(post(notification()))).status).toBe(200);
    expect(onSuspicious).toHaveBeenCalledTimes(1);
  });

  it('onSuspicious gets the transfer as notified and a signal that never aborts', async () => {
    providerSays(undefined);
    const onSuspicious = vi.fn<(r: SuspiciousNotification, c: { notified: unknown; signal: AbortSignal }) => void>();
    const handler = cashOutClient().notificationHandler({ onConfirmed: () => undefined, onSuspicious });
    await handler(post(notification()));
    const [result, context] = onSuspicious.mock.calls[0]!;
    expect(context.notified).toEqual(result.notified);
    expect(context.signal.aborted).toBe(false);
  });

  it('each transfer and status is its own delivery: two keys, or a key reaching another status, both delivered', async () => {
    net.server.use(
      http.get(BY_KEY_URL, ({ params }) =>
        HttpResponse.json({
          data: wireTransfer({
            idempotencyKey: params['key'],
            status: params['key'] === 'late1' ? 'CANCELED' : 'LIQUIDATED',
          }),
        }),
      ),
    );
    const confirmed: string[] = [];
    const handler = cashOutClient().notificationHandler({
      onConfirmed: (r) => void confirmed.push(`${r.actual.idempotencyKey}:${r.actual.status}`),
      onSuspicious: () => undefined,
    });
    await handler(post(notification({ idempotencyKey: 'first1' })));
    await handler(post(notification({ idempotencyKey: 'second1' })));
    await handler(post(notification({ idempotencyKey: 'late1', status: 'CANCELED' })));
    expect(confirmed).toEqual(['first1:LIQUIDATED', 'second1:LIQUIDATED', 'late1:CANCELED']);
  });

  it('a duplicate delivered to another handler sharing the store is answered from its done mark, the service not asked', async () => {
    providerSays('LIQUIDATED');
    const store = createMemoryStore();
    const onConfirmed = vi.fn();
    const one = cashOutClient({ store }).notificationHandler({ onConfirmed, onSuspicious: () => undefined });
    const other = cashOutClient({ store }).notificationHandler({ onConfirmed, onSuspicious: () => undefined });
    expect((await one(post(notification()))).status).toBe(200);
    expect((await other(post(notification()))).status).toBe(200);
    expect(onConfirmed).toHaveBeenCalledTimes(1);
    expect(statusQueries()).toHaveLength(1);
  });

  it('the delivery given up (its request aborted): the status query is given up with it, not waited for', async () => {
    const controller = new AbortController();
    let queryAnswered = false;
    const { held, release } = heldAnswer();
    net.server.use(
      http.get(BY_KEY_URL, async () => {
        controller.abort(new Error('the service hung up'));
        await held;
        queryAnswered = true;
        return HttpResponse.json({ data: wireTransfer({ status: 'LIQUIDATED' }) });
      }),
    );
    const onConfirmed = vi.fn();
    const handler = cashOutClient().notificationHandler({ onConfirmed, onSuspicious: () => undefined });
    const response = await handler(post(notification(), { signal: controller.signal }));
    expect(queryAnswered).toBe(false);
    expect(response.status).not.toBe(200);
    release();
    expect(onConfirmed).not.toHaveBeenCalled();
  });
});

describe('transfer notifications: telemetry', () => {
  it('one SERVER span per notification, named cashOut.notification', async () => {
    providerSays('LIQUIDATED');
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const handler = cashOutClient({ telemetry: { tracerProvider } }).notificationHandler({
      onConfirmed: () => undefined,
      onSuspicious: () => undefined,
    });
    const request = new Request('https://merchant.example/webhook/transfer-confirmation', {
      method: 'POST',
      body: JSON.stringify(notification()),
    });
    expect((await handler(request)).status).toBe(200);
    const served = spans.getFinishedSpans().filter((span) => span.kind === 1);
    expect(served.map((span) => span.name)).toEqual(['cashOut.notification']);
  });
});
