/**
 * The transfer-confirmation handler behind a real node:http server on loopback. The provider's
 * status query is answered through the client's `fetch` option (no msw in this file: the test
 * itself talks to the loopback server).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CashOutClient, type ConfirmedNotification, type SuspiciousNotification } from '../../src/index.ts';
import { CASH_OUT_URL, KEY, notification, wireTransfer } from './fixtures.ts';

/** A client whose provider says `status` for every status query (404 when undefined). */
function clientWhereProviderSays(status: string | undefined, queries: string[]) {
  return new CashOutClient({
    baseUrl: CASH_OUT_URL,
    auth: { getToken: async () => 'co-token' },
    fetch: async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      queries.push(new URL(url).pathname);
      if (status === undefined) return Response.json({ type: 'x/ABC-0404', title: 'Not found' }, { status: 404 });
      return Response.json({ data: wireTransfer({ status }) });
    },
  });
}

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
});

async function receiver(
  client: CashOutClient,
  events: string[],
  options: { maxBodyBytes?: number; throwInCallback?: boolean } = {},
) {
  const handler = client.notificationHandler({
    onConfirmed: (r: ConfirmedNotification) => {
      if (options.throwInCallback) throw new Error('store failed');
      events.push(`confirmed ${r.actual.idempotencyKey} ${r.actual.status}`);
    },
    onSuspicious: (r: SuspiciousNotification) => {
      events.push(`suspicious ${r.reason}`);
    },
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
  });
  server = createServer((req, res) => {
    if (req.url === '/webhook/transfer-confirmation') return void handler.node(req, res);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/transfer-confirmation`;
}

const send = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('notificationHandler().node on node:http', () => {
  it('a genuine notification: 200 and onConfirmed, after the status query by its key', async () => {
    const queries: string[] = [];
    const events: string[] = [];
    const url = await receiver(clientWhereProviderSays('LIQUIDATED', queries), events);
    const response = await send(url, JSON.stringify(notification()));
    expect(response.status).toBe(200);
    expect(events).toEqual([`confirmed ${KEY} LIQUIDATED`]);
    expect(queries).toEqual([`/api/v2/instant/payments/idempotencyKey/${KEY}`]);
  });

  it('forged notifications are reported as suspicious', async () => {
    const events: string[] = [];
    const url = await receiver(clientWhereProviderSays('CANCELED', []), events);
    await send(url, JSON.stringify(notification({ status: 'LIQUIDATED' })));
    await send(url, JSON.stringify(notification({ status: 'PROCESSING' })));
    expect(events).toEqual(['suspicious status-mismatch', 'suspicious not-final-status']);
  });

  it('unknown key → suspicious', async () => {
    const events: string[] = [];
    const url = await receiver(clientWhereProviderSays(undefined, []), events);
    expect((await send(url, JSON.stringify(notification()))).status).toBe(200);
    expect(events).toEqual(['suspicious unknown-transfer']);
  });

  it('malformed: 400; over the limit: 400 too; the server keeps serving', async () => {
    const queries: string[] = [];
    const events: string[] = [];
    const url = await receiver(clientWhereProviderSays('LIQUIDATED', queries), events, { maxBodyBytes: 2048 });
    expect((await send(url, 'not json')).status).toBe(400);
    expect((await send(url, JSON.stringify(notification({ remittanceInformation: 'x'.repeat(4096) })))).status).toBe(
      400,
    );
    expect((await send(url, JSON.stringify(notification()))).status).toBe(200);
    expect(queries).toHaveLength(1);
  });

  it('a callback that throws: 500', async () => {
    const url = await receiver(clientWhereProviderSays('LIQUIDATED', []), [], { throwInCallback: true });
    expect((await send(url, JSON.stringify(notification()))).status).toBe(500);
  });
});
