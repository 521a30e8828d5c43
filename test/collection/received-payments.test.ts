import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse, passthrough } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReceiver } from '../../examples/webhook-receiver.ts';
import { toNodeHandler } from '../../src/node/adapter.ts';
import {
  InvalidNotificationError,
  parseReceivedPayments,
  receivedPaymentsHandler,
  type InstantPayment,
  type UnconfirmedPayment,
} from '../../src/index.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient({ maxRetries: 0 });

// The service names the notification's array after the payment scheme; any name works here.
const LIST = 'recebidos';
const E1 = 'E12345678202610091221abcdef00001';
const E2 = 'E12345678202610091221abcdef00002';
const pay = (e2eid: string, valor = '10.00', extra: Record<string, unknown> = {}): InstantPayment => ({
  endToEndId: e2eid,
  txid: 'cd1fe328c875481285a6f233ae41b662',
  valor,
  horario: '2026-10-09T20:15:00.358Z',
  ...extra,
});

function notification(...payments: unknown[]): Request {
  return new Request('https://hooks.example.com/instant/webhook/recebidos', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ [LIST]: payments }),
  });
}

/** The service's own records, answered by GET /instant/{e2eid}; counts the queries. */
function records(byId: Record<string, InstantPayment | number>) {
  const queried: string[] = [];
  net.server.use(
    http.get(`${BASE_URL}/instant/:e2eid`, ({ params }) => {
      const id = String(params['e2eid']);
      queried.push(id);
      const record = byId[id];
      if (record === undefined) return new HttpResponse(null, { status: 404 });
      if (typeof record === 'number') return new HttpResponse(null, { status: record });
      return HttpResponse.json(record);
    }),
  );
  return queried;
}

describe('parseReceivedPayments', () => {
  it('reads the one array-valued property, whatever its name, from text or a parsed value', () => {
    expect(parseReceivedPayments(JSON.stringify({ [LIST]: [pay(E1)] }))).toEqual([pay(E1)]);
    expect(parseReceivedPayments({ anything: [pay(E1), pay(E2)] })).toHaveLength(2);
    expect(parseReceivedPayments({ [LIST]: [] })).toEqual([]);
  });

  it('reads a lone devolucoes object as a one-item array', () => {
    const refund = { id: 'D1', status: 'DEVOLVIDO' };
    expect(parseReceivedPayments({ [LIST]: [pay(E1, '1.00', { devolucoes: refund })] })[0]?.devolucoes).toEqual([
      refund,
    ]);
  });

  it.each([
    ['not json', '{'],
    ['an array', '[]'],
    ['no array', '{"a":1}'],
    ['two arrays', JSON.stringify({ a: [], b: [] })],
    ['an item without endToEndId', JSON.stringify({ [LIST]: [{ valor: '1.00' }] })],
    ['an item with a numeric valor', JSON.stringify({ [LIST]: [{ endToEndId: E1, valor: 1 }] })],
    ['null', 'null'],
  ])('throws InvalidNotificationError for %s', (_what, body) => {
    expect(() => parseReceivedPayments(body)).toThrow(InvalidNotificationError);
  });
});

describe('receivedPaymentsHandler', () => {
  it('confirms each payment with GET /instant/{e2eid} and hands the service record to onPayment', async () => {
    const queried = records({ [E1]: pay(E1, '10.00', { infoPagador: 'from the service' }), [E2]: pay(E2, '20.00') });
    const onPayment = vi.fn();
    const handler = receivedPaymentsHandler(api, { onPayment });
    const response = await handler(notification(pay(E1), pay(E2, '20.00')));
    expect(response.status).toBe(200);
    expect(queried).toEqual([E1, E2]);
    expect(onPayment).toHaveBeenCalledTimes(2);
    expect(onPayment.mock.calls[0]?.[0]).toMatchObject({ endToEndId: E1, infoPagador: 'from the service' });
    expect(onPayment.mock.calls[0]?.[1]).toEqual({ notified: pay(E1), signal: expect.any(AbortSignal) });
  });

  it('ignores a duplicate delivery of the same payment', async () => {
    const queried = records({ [E1]: pay(E1) });
    const onPayment = vi.fn();
    const handler = receivedPaymentsHandler(api, { onPayment });
    expect((await handler(notification(pay(E1)))).status).toBe(200);
    expect((await handler(notification(pay(E1)))).status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(1);
    expect(queried).toEqual([E1]);
  });

  it('a reworded re-notification of a handled payment is not handed over twice', async () => {
    records({ [E1]: pay(E1) });
    const onPayment = vi.fn();
    const handler = receivedPaymentsHandler(api, { onPayment });
    expect((await handler(notification(pay(E1)))).status).toBe(200);
    // The same payment in other words: a field the first one lacked, the time written another way.
    const reworded = { ...pay(E1), infoPagador: 'pedido 42', horario: '2026-10-09T17:15:00.358-03:00' };
    expect((await handler(notification(reworded))).status).toBe(200);
    expect((await handler(notification({ valor: '10.00', endToEndId: E1 }))).status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(1);
  });

  it('delivers a payment once when two deliveries of it arrive at the same time', async () => {
    records({ [E1]: pay(E1) });
    const onPayment = vi.fn(async () => new Promise<void>((resolve) => setTimeout(resolve, 20)));
    const handler = receivedPaymentsHandler(api, { onPayment });
    const [a, b] = await Promise.all([handler(notification(pay(E1))), handler(notification(pay(E1)))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(onPayment).toHaveBeenCalledTimes(1);
  });

  it('delivers the same e2eid again when a refund reached a new status', async () => {
    const refunded = pay(E1, '10.00', {
      devolucoes: [{ id: 'D1', rtrId: 'D'.repeat(32), valor: '1.00', status: 'DEVOLVIDO', horario: {} }],
    });
    records({ [E1]: pay(E1) });
    const onPayment = vi.fn();
    const handler = receivedPaymentsHandler(api, { onPayment });
    await handler(notification(pay(E1)));
    records({ [E1]: refunded });
    await handler(notification(refunded));
    await handler(notification(refunded));
    expect(onPayment).toHaveBeenCalledTimes(2);
    expect(onPayment.mock.calls[1]?.[0]).toEqual(refunded);
  });

  it('remembers a bounded number of payments (least recent forgotten first)', async () => {
    records({ [E1]: pay(E1), [E2]: pay(E2) });
    const onPayment = vi.fn();
    const handler = receivedPaymentsHandler(api, { onPayment, maxRemembered: 2 });
    await handler(notification(pay(E1)));
    await handler(notification(pay(E2)));
    await handler(notification(pay(E1)));
    expect(onPayment).toHaveBeenCalledTimes(2);
  });

  it('does not hand a payment the service does not know to onPayment (onUnconfirmed: not-found)', async () => {
    records({});
    const onPayment = vi.fn();
    const unconfirmed: UnconfirmedPayment[] = [];
    const handler = receivedPaymentsHandler(api, { onPayment, onUnconfirmed: (e) => void unconfirmed.push(e) });
    expect((await handler(notification(pay(E1)))).status).toBe(200);
    expect(onPayment).not.toHaveBeenCalled();
    expect(unconfirmed).toEqual([{ reason: 'not-found', notified: pay(E1) }]);
  });

  it('treats a malformed e2eid as not found, without querying', async () => {
    const queried = records({});
    const unconfirmed: UnconfirmedPayment[] = [];
    const handler = receivedPaymentsHandler(api, {
      onPayment: vi.fn(),
      onUnconfirmed: (e) => void unconfirmed.push(e),
    });
    expect((await handler(notification(pay('../../cob/x')))).status).toBe(200);
    expect(unconfirmed.map((u) => u.reason)).toEqual(['not-found']);
    expect(queried).toEqual([]);
  });

  it('treats an e2eid that cannot be a path segment as not found, even with validate: false', async () => {
    const unconfirmed: UnconfirmedPayment[] = [];
    const handler = receivedPaymentsHandler(testClient({ validate: false }), {
      onPayment: vi.fn(),
      onUnconfirmed: (e) => void unconfirmed.push(e),
    });
    expect((await handler(notification(pay('..')))).status).toBe(200);
    expect(unconfirmed.map((u) => u.reason)).toEqual(['not-found']);
    expect(net.requests).toHaveLength(0);
  });

  it('does not hand a payment whose amount differs to onPayment (onUnconfirmed: mismatch)', async () => {
    records({ [E1]: pay(E1, '1.00') });
    const onPayment = vi.fn();
    const unconfirmed: UnconfirmedPayment[] = [];
    const handler = receivedPaymentsHandler(api, { onPayment, onUnconfirmed: (e) => void unconfirmed.push(e) });
    await handler(notification(pay(E1, '1000.00')));
    expect(onPayment).not.toHaveBeenCalled();
    expect(unconfirmed[0]).toMatchObject({
      reason: 'mismatch',
      actual: { valor: '1.00' },
      notified: { valor: '1000.00' },
    });
  });

  it('flags a txid that differs as a mismatch', async () => {
    records({ [E1]: pay(E1, '10.00', { txid: 'anothertxid0000000000000000' }) });
    const onUnconfirmed = vi.fn();
    const onPayment = vi.fn();
    await receivedPaymentsHandler(api, { onPayment, onUnconfirmed })(notification(pay(E1)));
    expect(onPayment).not.toHaveBeenCalled();
    expect(onUnconfirmed).toHaveBeenCalledWith(expect.objectContaining({ reason: 'mismatch' }));
  });

  it('answers 500 when onPayment throws, and delivers again on the next attempt', async () => {
    records({ [E1]: pay(E1) });
    let fail = true;
    const onPayment = vi.fn(() => {
      if (fail) throw new Error('database down');
    });
    const handler = receivedPaymentsHandler(api, { onPayment });
    expect((await handler(notification(pay(E1)))).status).toBe(500);
    fail = false;
    expect((await handler(notification(pay(E1)))).status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(2);
  });

  it('answers 500 when the confirmation query fails (503), so the service sends again', async () => {
    records({ [E1]: 503 });
    const onPayment = vi.fn();
    const response = await receivedPaymentsHandler(api, { onPayment })(notification(pay(E1)));
    expect(response.status).toBe(500);
    expect(onPayment).not.toHaveBeenCalled();
  });

  it('answers 500 when onUnconfirmed throws', async () => {
    records({});
    const handler = receivedPaymentsHandler(api, {
      onPayment: vi.fn(),
      onUnconfirmed: () => {
        throw new Error('alerting down');
      },
    });
    expect((await handler(notification(pay(E1)))).status).toBe(500);
  });

  it('answers 400 for a malformed body and 405 for another method, never throwing', async () => {
    const onPayment = vi.fn();
    const handler = receivedPaymentsHandler(api, { onPayment });
    for (const body of ['{', '[]', '{"a":1}', '', JSON.stringify({ [LIST]: [{ valor: '1.00' }] })]) {
      const response = await handler(new Request('https://hooks.example.com/x', { method: 'POST', body }));
      expect(response.status).toBe(400);
    }
    expect((await handler(new Request('https://hooks.example.com/x'))).status).toBe(405);
    expect(onPayment).not.toHaveBeenCalled();
    expect(net.requests).toHaveLength(0);
  });
});

describe('receivedPaymentsHandler behind toNodeHandler', () => {
  let server: Server | undefined;
  afterEach(async () => {
    const s = server;
    server = undefined;
    if (s) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it('serves the notification on a real loopback server', async () => {
    records({ [E1]: pay(E1) });
    net.server.use(http.all('http://127.0.0.1:*/*', () => passthrough()));
    const onPayment = vi.fn();
    server = createServer(toNodeHandler(receivedPaymentsHandler(api, { onPayment }), { maxBodyBytes: 64 * 1024 }));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ok = await fetch(`${base}/webhook/${LIST}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ [LIST]: [pay(E1)] }),
    });
    expect(ok.status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(1);
    const bad = await fetch(`${base}/webhook/${LIST}`, { method: 'POST', body: 'garbage' });
    expect(bad.status).toBe(400);
    const huge = await fetch(`${base}/webhook/${LIST}`, { method: 'POST', body: 'x'.repeat(65 * 1024) });
    expect(huge.status).toBe(413);
  });

  it('examples/webhook-receiver.ts records a confirmed payment once', async () => {
    records({ [E1]: pay(E1) });
    net.server.use(http.all('http://127.0.0.1:*/*', () => passthrough()));
    const recorded: string[] = [];
    server = createReceiver(api, async (p) => void recorded.push(p.endToEndId));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback/${LIST}`;
    for (let i = 0; i < 2; i++) {
      const response = await fetch(url, { method: 'POST', body: JSON.stringify({ [LIST]: [pay(E1)] }) });
      expect(response.status).toBe(200);
    }
    expect(recorded).toEqual([E1]);
  });
});
