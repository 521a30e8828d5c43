/**
 * What a flood costs: forged deliveries are refused before any call to the service, and the
 * confirming calls of genuine ones are shared (the same notification in flight: one GET) and
 * bounded (`maxConcurrentConfirmations`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import {
  DEFAULT_MAX_CONCURRENT_CONFIRMATIONS,
  createTransferNotificationHandler,
  parseTransferNotification,
  receivedPaymentsHandler,
  webhookUrl,
  type InstantPayment,
} from '../../src/index.ts';
import { Telemetry } from '../../src/core/telemetry.ts';
import { notification } from '../cash-out/fixtures.ts';
import { countingApi, PAYMENT, paymentBody, post } from './support.ts';

const SECRET = 'flood-test-secret-0123456789';
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

// 2,000 connections: seconds on an idle machine, more on a loaded one.
it('2,000 forged deliveries at concurrency 50: all refused, no call to the service; a genuine one in the middle is handled', {
  timeout: 90_000,
}, async () => {
  const api = countingApi();
  const paid: string[] = [];
  const refusals: number[] = [];
  const handler = receivedPaymentsHandler(api, {
    authenticate: { secret: SECRET },
    onPayment: (payment) => void paid.push(payment.endToEndId),
    onError: (_error, status) => void refusals.push(status),
  });
  server = createServer((req, res) => void handler.node(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const forged = [`${origin}/webhook/instant`, `${webhookUrl(`${origin}/webhook`, `${SECRET}-guess`)}/instant`];

  const statuses: number[] = [];
  let genuine: number | undefined;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < 2000; i = next++) {
      if (i === 1000)
        genuine = await post(
          `${webhookUrl(`${origin}/webhook`, SECRET)}/instant`,
          paymentBody('E00000000202611261200genuine0001'),
        );
      statuses.push(
        await post(forged[i % 2]!, paymentBody(`E00000000202611261200forged${String(i).padStart(5, '0')}`)),
      );
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));

  expect(statuses).toHaveLength(2000);
  expect(statuses.filter((s) => s === 401)).toHaveLength(1000);
  expect(statuses.filter((s) => s === 403)).toHaveLength(1000);
  expect(refusals).toHaveLength(2000);
  expect(genuine).toBe(200);
  expect(paid).toEqual(['E00000000202611261200genuine0001']);
  expect(api.calls).toBe(1);
});

it('one genuine notification replayed 200 times at once: one GET, the callback once', async () => {
  const api = countingApi(20);
  let paid = 0;
  const handler = receivedPaymentsHandler(api, { onPayment: () => void paid++ });
  const deliver = () =>
    handler(new Request('https://shop.example/webhook/instant', { method: 'POST', body: paymentBody() }));
  const statuses = await Promise.all(Array.from({ length: 200 }, deliver).map(async (r) => (await r).status));
  expect(statuses.every((s) => s === 200)).toBe(true);
  expect(api.calls).toBe(1);
  expect(paid).toBe(1);
});

it('one transfer confirmation replayed 200 times at once: one status query, onConfirmed once (the shared path)', async () => {
  const body = JSON.stringify(notification());
  let calls = 0;
  const api = {
    payments: {
      getByIdempotencyKey: async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return parseTransferNotification(body);
      },
    },
  };
  let confirmed = 0;
  const handler = createTransferNotificationHandler(api as never, {
    onConfirmed: () => void confirmed++,
    onSuspicious: () => undefined,
  });
  const deliver = () =>
    handler(new Request('https://shop.example/webhook/transfer-confirmation', { method: 'POST', body }));
  const statuses = await Promise.all(Array.from({ length: 200 }, deliver).map(async (r) => (await r).status));
  expect(statuses.every((s) => s === 200)).toBe(true);
  expect(calls).toBe(1);
  expect(confirmed).toBe(1);
});

it(`different notifications at once: at most maxConcurrentConfirmations GETs in flight (default ${DEFAULT_MAX_CONCURRENT_CONFIRMATIONS}), the rest queued, all handled`, async () => {
  for (const [max, expected] of [
    [3, 3],
    [undefined, DEFAULT_MAX_CONCURRENT_CONFIRMATIONS],
  ] as const) {
    const api = countingApi(10);
    let paid = 0;
    const handler = receivedPaymentsHandler(api, {
      onPayment: () => void paid++,
      ...(max !== undefined && { maxConcurrentConfirmations: max }),
    });
    const deliver = (i: number) =>
      handler(
        new Request('https://shop.example/webhook/instant', {
          method: 'POST',
          body: paymentBody(`E00000000202611261200distinct${String(i).padStart(3, '0')}`),
        }),
      );
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => deliver(i).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(api.calls).toBe(40);
    expect(paid).toBe(40);
    expect(api.maxInFlight).toBe(expected);
  }
  expect(() =>
    receivedPaymentsHandler(countingApi(), { onPayment: () => undefined, maxConcurrentConfirmations: 0 }),
  ).toThrow(expect.objectContaining({ option: 'maxConcurrentConfirmations' }));
  expect(() => receivedPaymentsHandler(countingApi(), { onPayment: () => undefined, deliveryTimeoutMs: -1 })).toThrow(
    expect.objectContaining({ option: 'deliveryTimeoutMs' }),
  );
});

it('a delivery waiting for its turn gives up when its sender goes away', async () => {
  const api = countingApi(50);
  const handler = receivedPaymentsHandler(api, { onPayment: () => undefined, maxConcurrentConfirmations: 1 });
  const first = handler(
    new Request('https://shop.example/w', { method: 'POST', body: paymentBody('E00000000202611261200first000001') }),
  );
  const gone = new AbortController();
  const second = handler(
    new Request('https://shop.example/w', {
      method: 'POST',
      body: paymentBody('E00000000202611261200second00001'),
      signal: gone.signal,
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  gone.abort();
  expect((await second).status).toBe(500);
  expect((await first).status).toBe(200);
  expect(api.calls).toBe(1);
});

it('deliveries queued behind maxConcurrentConfirmations as long as the delivery timeout: said once, by a warn line and a span event', async () => {
  let clock = Date.parse('2026-11-29T12:00:00Z');
  const now = () => new Date(clock);
  const events: Array<{ name: string; attributes: Record<string, unknown> | undefined }> = [];
  const span = {
    setAttribute: () => undefined,
    addEvent: (name: string, attributes?: Record<string, unknown>) => void events.push({ name, attributes }),
    setStatus: () => undefined,
    end: () => undefined,
  };
  const tracerProvider = { getTracer: () => ({ startSpan: () => span }) };
  // Each confirming GET answers when the test says.
  const answers: Array<() => void> = [];
  const api = {
    now,
    telemetry: Telemetry.resolve({ tracerProvider }, now),
    instant: {
      get: (e2eid: string) =>
        new Promise<InstantPayment>((resolve) => answers.push(() => resolve({ ...PAYMENT, endToEndId: e2eid }))),
    },
  };
  const warnings: Array<[string, unknown]> = [];
  const handler = receivedPaymentsHandler(api, {
    onPayment: () => undefined,
    maxConcurrentConfirmations: 2,
    deliveryTimeoutMs: 3_000,
    logger: { warn: (message: string, fields?: unknown) => void warnings.push([message, fields]) },
  });
  const deliver = (i: number) =>
    handler(
      new Request('https://shop.example/w', {
        method: 'POST',
        body: paymentBody(`E00000000202611291200queued${String(i).padStart(5, '0')}`),
      }),
    ).then((response) => response.status);
  const overdue = () => events.filter((event) => event.name.startsWith('confirmations queued past'));
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
  };

  // Two take the slots, two wait their turn.
  const statuses = [0, 1, 2, 3].map(deliver);
  await until(() => answers.length === 2);
  clock += 2_999;
  answers.shift()!();
  // The third got its turn after 2,999 ms: within the timeout, nothing said.
  await until(() => answers.length === 2);
  expect(warnings).toEqual([]);
  clock += 1;
  answers.shift()!();
  await until(() => answers.length === 2);
  expect(warnings).toEqual([
    [
      expect.stringContaining('maxConcurrentConfirmations'),
      { waitedMs: 3_000, maxConcurrentConfirmations: 2, deliveryTimeoutMs: 3_000 },
    ],
  ]);
  expect(overdue()).toEqual([
    {
      name: expect.any(String),
      attributes: {
        'instant_payments.waited_ms': 3_000,
        'instant_payments.max_concurrent_confirmations': 2,
        'instant_payments.delivery_timeout_ms': 3_000,
      },
    },
  ]);
  // Queued long again: said once only.
  const more = [4, 5].map(deliver);
  clock += 10_000;
  let settled = false;
  const all = Promise.all([...statuses, ...more]).finally(() => (settled = true));
  while (!settled) {
    answers.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(await all).toEqual([200, 200, 200, 200, 200, 200]);
  expect(warnings).toHaveLength(1);
  expect(overdue()).toHaveLength(1);
});
