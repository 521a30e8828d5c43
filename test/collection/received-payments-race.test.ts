/**
 * Concurrent received-payment notifications on real loopback servers: the service's API (whose
 * confirming GET is slow) and the receiver. A forged notification naming a real e2eid must never
 * answer for the genuine one that arrives while it is being checked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  InstantClient,
  receivedPaymentsHandler,
  type InstantPayment,
  type ReceivedPaymentsHandlerOptions,
} from '../../src/index.ts';
import { toNodeHandler } from '../../src/node/adapter.ts';
import { sendJson, startServer, type LoopbackServer } from '../support/loopback.ts';

const LIST = 'recebidos';
const E1 = 'E12345678202610091221abcdef00001';
const genuine: InstantPayment = {
  endToEndId: E1,
  txid: 'cd1fe328c875481285a6f233ae41b662',
  valor: '10.00',
  horario: '2026-10-09T20:15:00.358Z',
};

let api: LoopbackServer | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await api?.close();
  const r = receiver;
  if (r) {
    r.closeAllConnections();
    await new Promise<void>((resolve) => r.close(() => resolve()));
  }
  api = undefined;
  receiver = undefined;
});

/** The service's API: GET /instant/{e2eid} answers the genuine record after `delayMs`. */
async function startApi(delayMs: number) {
  api = await startServer(async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (req.url === `/instant/${E1}`) return sendJson(res, 200, genuine);
    return sendJson(res, 404, {});
  });
  return api;
}

async function startReceiver(options: ReceivedPaymentsHandlerOptions, apiUrl: string) {
  const client = new InstantClient({ baseUrl: apiUrl, auth: { getToken: async () => 't' }, maxRetries: 0 });
  receiver = createServer(toNodeHandler(receivedPaymentsHandler(client, options)));
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook/${LIST}`;
  return (payment: InstantPayment) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ [LIST]: [payment] }),
    });
}

describe('receivedPaymentsHandler under concurrent deliveries', () => {
  it('a forged notification (wrong amount) being checked does not answer for the genuine one arriving meanwhile', async () => {
    const server = await startApi(150);
    const onPayment = vi.fn();
    const onUnconfirmed = vi.fn();
    const deliver = await startReceiver({ onPayment, onUnconfirmed }, server.url);

    const forged = deliver({ ...genuine, valor: '9999.00' });
    // The genuine one arrives while the forged one's confirming GET is running.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    const real = deliver(genuine);
    const [forgedAnswer, realAnswer] = await Promise.all([forged, real]);

    expect(onPayment).toHaveBeenCalledTimes(1);
    expect(onPayment.mock.calls[0]?.[0]).toEqual(genuine);
    expect(realAnswer.status).toBe(200);
    expect(onUnconfirmed).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'mismatch', notified: expect.objectContaining({ valor: '9999.00' }) }),
    );
    expect(forgedAnswer.status).toBe(200);
  });

  it('two different notifications of one genuine payment: onPayment once, and when it fails neither is answered 200', async () => {
    const server = await startApi(50);
    let fail = true;
    const onPayment = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (fail) throw new Error('database down');
    });
    const deliver = await startReceiver({ onPayment }, server.url);

    const first = await Promise.all([
      deliver(genuine),
      deliver({ ...genuine, infoPagador: 'same payment, other wording' }),
    ]);
    expect(first.map((r) => r.status)).toEqual([500, 500]);
    expect(onPayment).toHaveBeenCalledTimes(1);

    fail = false;
    const again = await Promise.all([
      deliver(genuine),
      deliver({ ...genuine, infoPagador: 'same payment, other wording' }),
    ]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(onPayment).toHaveBeenCalledTimes(2);
  });
});
