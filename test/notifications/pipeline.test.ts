/**
 * The three notification handlers come from one pipeline and agree: the default body limit, the
 * status of a failed confirming query, the store rule (the handler's `store`, else the client's)
 * for every exported way to build one, and the context their confirmed callbacks get.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryStore,
  createTransferNotificationHandler,
  receivedPaymentsHandler,
  recurringHandler,
  type CashOutClient,
  type InstantClient,
  type NotificationHandler,
  type Store,
} from '../../src/index.ts';
import { BY_KEY_URL, cashOutClient, notification, providerError, wireTransfer } from '../cash-out/fixtures.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';
import { sharedStore as fleetStore } from '../support/shared-store.ts';
import { PAYMENT } from './support.ts';

const net = useMsw();

const ID_REC = 'RR1234567820261009pipeline001';
const REC = { idRec: ID_REC, status: 'APROVADA', atualizacao: [{ status: 'APROVADA', data: '2026-10-09T20:15:00Z' }] };

/** Confirming queries the service answered since `serviceAnswers`. */
let gets = 0;

/** Every confirming query answers the genuine record (or `status`, with an error body), counted in `gets`. */
function serviceAnswers(status = 200): void {
  gets = 0;
  const answer = (body: Record<string, unknown>) => {
    gets++;
    return status === 200 ? HttpResponse.json(body) : HttpResponse.json(providerError(status), { status });
  };
  net.server.use(
    http.get(`${BASE_URL}/instant/:e2eid`, () => answer(PAYMENT)),
    http.get(`${BASE_URL}/rec/:idRec`, () => answer(REC)),
    http.get(BY_KEY_URL, ({ params }) =>
      answer({ data: wireTransfer({ idempotencyKey: params['key'], status: 'LIQUIDATED' }) }),
    ),
  );
}

type Callback = (record: unknown, context: { notified?: unknown; signal?: AbortSignal }) => void;
interface Clients {
  api: InstantClient;
  cashOut: CashOutClient;
}
interface Options {
  callback: Callback;
  onError?: (error: unknown, status: number) => void;
}

/** Each exported way to build a handler, with a genuine notification body for it. */
const WAYS: Array<[string, (clients: Clients, options: Options) => NotificationHandler, (pad?: string) => unknown]> = [
  [
    'receivedPaymentsHandler',
    ({ api }, { callback, onError }) =>
      receivedPaymentsHandler(api, { onPayment: callback, ...(onError && { onError }) }),
    (pad) => ({ instant: [{ ...PAYMENT, ...(pad && { pad }) }] }),
  ],
  [
    'recurringHandler',
    ({ api }, { callback, onError }) => recurringHandler(api, { onRec: callback, ...(onError && { onError }) }),
    (pad) => ({ recs: [{ ...REC, ...(pad && { pad }) }] }),
  ],
  [
    'cashOut.notificationHandler',
    ({ cashOut }, { callback, onError }) =>
      cashOut.notificationHandler({
        onConfirmed: callback,
        onSuspicious: () => undefined,
        ...(onError && { onError }),
      }),
    (pad) => notification(pad ? { remittanceInformation: pad } : {}),
  ],
  [
    'createTransferNotificationHandler',
    ({ cashOut }, { callback, onError }) =>
      createTransferNotificationHandler(cashOut, {
        onConfirmed: callback,
        onSuspicious: () => undefined,
        ...(onError && { onError }),
      }),
    (pad) => notification(pad ? { remittanceInformation: pad } : {}),
  ],
];

function clients(store?: Store): Clients {
  return {
    api: testClient({ maxRetries: 0, ...(store && { store }) }),
    cashOut: cashOutClient({ maxRetries: 0, ...(store && { store }) }),
  };
}

const post = (body: unknown) =>
  new Request('https://hooks.example.com/n', { method: 'POST', body: JSON.stringify(body) });

describe.each(WAYS)('%s', (_name, make, body) => {
  it('reads a 100 KiB notification (the one default limit, 1 MiB) and refuses one over 1 MiB with 400', async () => {
    serviceAnswers();
    const callback = vi.fn<Callback>();
    const handler = make(clients(), { callback });
    expect((await handler(post(body('x'.repeat(100 * 1024))))).status).toBe(200);
    expect(callback).toHaveBeenCalledTimes(1);
    expect((await handler(post(body('y'.repeat(1024 * 1024))))).status).toBe(400);
  });

  it('answers 500 when the confirming query fails, telling onError, with no callback', async () => {
    serviceAnswers(503);
    const callback = vi.fn<Callback>();
    const onError = vi.fn();
    const response = await make(clients(), { callback, onError })(post(body()));
    expect(response.status).toBe(500);
    expect(onError).toHaveBeenCalledWith(expect.anything(), 500);
    expect(callback).not.toHaveBeenCalled();
  });

  it("takes the client's store when given none: two processes sharing it run the callback once", async () => {
    serviceAnswers();
    const store = fleetStore();
    const callback = vi.fn<Callback>();
    const [first, second] = [make(clients(store), { callback }), make(clients(store), { callback })];
    expect((await first(post(body()))).status).toBe(200);
    expect((await second(post(body()))).status).toBe(200);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a shared store without claim', fleetStore],
    ['the memory store', () => createMemoryStore()],
  ])(
    'a duplicate reaching another process sharing %s is answered from the done mark: no call to the service, nothing runs',
    async (_store, makeStore) => {
      serviceAnswers();
      const store = makeStore();
      const callback = vi.fn<Callback>();
      const [first, second] = [make(clients(store), { callback }), make(clients(store), { callback })];
      expect((await first(post(body()))).status).toBe(200);
      expect(gets).toBe(1);
      // Reworded (or forged): other content naming the same id and state.
      expect((await second(post(body('reworded')))).status).toBe(200);
      expect((await first(post(body('reworded again')))).status).toBe(200);
      expect(gets).toBe(1);
      expect(callback).toHaveBeenCalledTimes(1);
    },
  );

  it('gives the confirmed callback its claim signal and the item as notified', async () => {
    serviceAnswers();
    const callback = vi.fn<Callback>();
    await make(clients(), { callback })(post(body()));
    const context = callback.mock.calls[0]![1];
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context.notified).toBeTypeOf('object');
  });
});

describe('received payments: the look at the done marks before the confirming call', () => {
  const REFUNDED = {
    ...PAYMENT,
    devolucoes: [
      { id: 'D1', rtrId: 'D12345678202611261200abcdefghijk', valor: '1.00', horario: {}, status: 'DEVOLVIDO' },
    ],
  };
  const answering = (record: Record<string, unknown>) => {
    gets = 0;
    net.server.use(
      http.get(`${BASE_URL}/instant/:e2eid`, () => {
        gets++;
        return HttpResponse.json(record);
      }),
    );
  };

  it('a forged duplicate (another amount, a done id and state) gains nothing: 200, no call, no callback, not even onUnconfirmed', async () => {
    answering(PAYMENT);
    const store = fleetStore();
    const onPayment = vi.fn();
    const onUnconfirmed = vi.fn();
    const handler = () => receivedPaymentsHandler(clients(store).api, { onPayment, onUnconfirmed });
    expect((await handler()(post({ instant: [PAYMENT] }))).status).toBe(200);
    expect((await handler()(post({ instant: [{ ...PAYMENT, valor: '9999.00' }] }))).status).toBe(200);
    expect(gets).toBe(1);
    expect(onPayment).toHaveBeenCalledTimes(1);
    expect(onPayment.mock.calls[0]![0]).toMatchObject({ valor: PAYMENT.valor });
    expect(onUnconfirmed).not.toHaveBeenCalled();
    // A forged id nobody handled is still asked about.
    expect(
      (await handler()(post({ instant: [{ ...PAYMENT, endToEndId: 'E99999999202611261200zzzzzzzzzzz' }] }))).status,
    ).toBe(200);
    expect(gets).toBe(2);
  });

  it("a payment done whose refund failed is not a duplicate: the next process's delivery runs onRefund", async () => {
    answering(REFUNDED);
    const store = fleetStore();
    const onPayment = vi.fn();
    const onRefund = vi.fn().mockRejectedValueOnce(new Error('books unavailable'));
    const handler = () => receivedPaymentsHandler(clients(store).api, { onPayment, onRefund });
    expect((await handler()(post({ instant: [REFUNDED] }))).status).toBe(500);
    expect((await handler()(post({ instant: [REFUNDED] }))).status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(1);
    expect(onRefund).toHaveBeenCalledTimes(2);
    // Both done now: the next one is answered from the marks alone.
    expect((await handler()(post({ instant: [{ ...REFUNDED, pad: 'again' }] }))).status).toBe(200);
    expect(gets).toBe(2);
    expect(onRefund).toHaveBeenCalledTimes(2);
  });
});
