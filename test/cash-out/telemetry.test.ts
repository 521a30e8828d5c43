/**
 * What an operator's tracing shows of cash-out workflows (msw, in-memory exporter): one span per
 * `pay()` with its outcome, one per `recover()` with the count recovered, a refused `pay()`.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  TimeoutError,
  type Store,
} from '../../src/index.ts';
import { useMsw } from '../support/msw.ts';
import {
  BALANCE_URL,
  BY_KEY_URL,
  CPF,
  DICT_URL,
  EVP,
  cashOutClient,
  providerError,
  sharedMemoryStore,
  wireTransfer,
} from './fixtures.ts';

const net = useMsw();
const params = { key: EVP, amount: '10.00', creditorDocument: CPF };

function provider() {
  net.server.use(
    http.get(BALANCE_URL, () =>
      HttpResponse.json({ data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 1000 } }] }),
    ),
    http.post(DICT_URL, ({ request }) =>
      HttpResponse.json(
        { data: wireTransfer({ idempotencyKey: request.headers.get('x-idempotency-key'), payment: { amount: 10 } }) },
        { status: 202 },
      ),
    ),
    http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
  );
}

function traced(store?: Store) {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const client = cashOutClient({ telemetry: { tracerProvider }, ...(store && { store }) });
  return { client, named: (name: string) => spans.getFinishedSpans().filter((span) => span.name === name) };
}

describe('cash-out workflow spans', () => {
  for (const [what, store] of [
    ['without a shared store', undefined],
    ['with a shared store', sharedMemoryStore()],
  ] as const) {
    it(`pay() ${what}: one CLIENT span cashOut.pay, outcome placed`, async () => {
      provider();
      const { client, named } = traced(store);
      const { idempotencyKey } = await client.pay(params);
      const [pay] = named('cashOut.pay');
      expect(pay).toMatchObject({ kind: 2, attributes: { 'instant_payments.outcome': 'placed' } });
      // Traced or not, a shared store gets the payment's record.
      if (store) expect(await store.get(`intent:${idempotencyKey}`)).toBeDefined();
    });
  }

  it('a pay() that fails: its span ends failed, naming the error', async () => {
    net.server.use(
      http.get(BALANCE_URL, () =>
        HttpResponse.json({ data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 1 } }] }),
      ),
    );
    const { client, named } = traced();
    await expect(client.pay(params)).rejects.toThrow(InsufficientBalanceError);
    expect(named('cashOut.pay')).toMatchObject([
      {
        status: { code: 2 },
        attributes: { 'instant_payments.outcome': 'failed', 'error.type': 'InsufficientBalanceError' },
      },
    ]);
  });

  it('pay() without its params: a refused cashOut.pay span naming the error', async () => {
    const { client, named } = traced();
    await expect(client.pay(undefined as never)).rejects.toThrow(ConfigurationError);
    expect(named('cashOut.pay')).toMatchObject([{ attributes: { 'error.type': 'ConfigurationError' } }]);
  });

  it('recover(): one span cashOut.recover, the count recovered as an event, outcome recovered', async () => {
    const store = sharedMemoryStore();
    await store.set('intent-open:bad1!', '{}');
    const { client, named } = traced(store);
    expect(await client.recover()).toHaveLength(1);
    const [recover] = named('cashOut.recover');
    expect(recover?.attributes['instant_payments.outcome']).toBe('recovered');
    expect(recover?.events.find((event) => event.name === 'recovered')?.attributes).toEqual({ count: 1 });
    // The call's options reach it, traced as untraced.
    await expect(client.recover({ leaseMs: 50 })).rejects.toThrow(ConfigurationError);
  });
});

describe("the client's totalTimeout", () => {
  it('bounds a whole pay(), not each call: two calls of 200 ms do not fit in 300 ms', async () => {
    net.server.use(
      http.get(BALANCE_URL, async () => {
        await delay(200);
        return HttpResponse.json({ data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 1000 } }] });
      }),
      http.post(DICT_URL, async ({ request }) => {
        await delay(200);
        const idempotencyKey = request.headers.get('x-idempotency-key');
        return HttpResponse.json({ data: wireTransfer({ idempotencyKey, payment: { amount: 10 } }) }, { status: 202 });
      }),
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
    );
    const error = await cashOutClient({ totalTimeout: 300 })
      .pay(params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(TimeoutError);
    // A call's own time wins over the client's.
    const paid = await cashOutClient({ totalTimeout: 300 }).pay(params, { totalTimeout: 5_000 });
    expect(paid.transfer.idempotencyKey).toBe(paid.idempotencyKey);
  });
});
