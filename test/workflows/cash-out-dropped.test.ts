/**
 * The never-twice guarantee against a real HTTP server on loopback: the provider takes the order
 * and the answer never arrives (socket destroyed, or no answer before the time-out).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CashOutClient, type CashOutClientOptions } from '../../src/index.ts';
import { sendJson, startServer, type LoopbackServer, type RecordedRequest } from '../support/loopback.ts';
import { CPF, EVP, wireTransfer } from '../cash-out/fixtures.ts';

type Behaviour = 'drop-after-recording' | 'drop-before-recording' | 'hang-after-recording' | 'answer';

/** A small provider: token endpoint, balance, orders recorded by idempotency key, status query. */
async function startProvider(behaviours: Behaviour[]) {
  const orders = new Map<string, Record<string, unknown>>();
  let tokenRequests = 0;
  let posts = 0;
  const server = await startServer((req: RecordedRequest, res: ServerResponse) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/api/v2/oauth/token') {
      tokenRequests++;
      return sendJson(res, 201, { accessToken: 'loopback-token', tokenType: 'Bearer', expiresAt: 300 });
    }
    if (req.headers.authorization !== 'Bearer loopback-token') return sendJson(res, 401, { type: 'x/ABC-0001', title: 'Unauthorized' });
    if (req.method === 'GET' && url.pathname === '/api/v2/accounts/balances/') {
      return sendJson(res, 200, { data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { name: 'main', available: 500, blocked: 0, overdraft: 0 } }] });
    }
    if (req.method === 'POST' && url.pathname === '/api/v2/instant/payments/dict') {
      const key = String(req.headers['x-idempotency-key']);
      const body = JSON.parse(req.body) as { instantKey: string; payment: { amount: string } };
      const behaviour = behaviours[posts++] ?? 'answer';
      if (behaviour === 'drop-before-recording') {
        res.socket?.destroy();
        return;
      }
      if (!orders.has(key)) {
        orders.set(key, wireTransfer({ idempotencyKey: key, instantKey: body.instantKey, payment: { currency: 'BRL', amount: Number(body.payment.amount) } }));
      }
      if (behaviour === 'drop-after-recording') {
        res.socket?.destroy();
        return;
      }
      if (behaviour === 'hang-after-recording') return; // never answers; the client times out
      return sendJson(res, 202, { data: orders.get(key) });
    }
    const byKey = /^\/api\/v2\/instant\/payments\/idempotencyKey\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && byKey) {
      const order = orders.get(decodeURIComponent(byKey[1]!));
      return order ? sendJson(res, 200, { data: order }) : sendJson(res, 404, { type: 'x/ABC-0404', title: 'Not found' });
    }
    return sendJson(res, 404, {});
  });
  return { server, orders, tokenRequests: () => tokenRequests };
}

let server: LoopbackServer | undefined;
let client: CashOutClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = undefined;
  client = undefined;
});

function clientFor(url: string, options: Partial<CashOutClientOptions> = {}): CashOutClient {
  return new CashOutClient({ baseUrl: url, auth: { clientId: 'co-id', clientSecret: 'co-secret' }, ...options });
}

const params = { key: EVP, amount: '25.00', creditorDocument: CPF };

describe('pay() against a real server that loses the answer', () => {
  it('processes the order, drops the connection: exactly one order and pay() resolves with it', async () => {
    const provider = await startProvider(['drop-after-recording']);
    server = provider.server;
    client = clientFor(server.url);
    const result = await client.pay(params);

    expect(provider.orders.size).toBe(1);
    expect(provider.orders.has(result.idempotencyKey)).toBe(true);
    expect(result.transfer).toMatchObject({ idempotencyKey: result.idempotencyKey, payment: { amount: '25.00' } });
    const posts = server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/dict'));
    expect(posts).toHaveLength(1);
    const queries = server.requests.filter((r) => r.url.includes('/idempotencyKey/'));
    expect(queries.map((r) => r.url)).toEqual([`/api/v2/instant/payments/idempotencyKey/${result.idempotencyKey}`]);
    expect(provider.tokenRequests()).toBe(1);
  });

  it('the order is lost before the provider records it: status 404, sent again with the same key, one order', async () => {
    const provider = await startProvider(['drop-before-recording']);
    server = provider.server;
    client = clientFor(server.url);
    const result = await client.pay(params);

    expect(provider.orders.size).toBe(1);
    const posts = server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/dict'));
    expect(posts.map((r) => r.headers['x-idempotency-key'])).toEqual([result.idempotencyKey, result.idempotencyKey]);
    const sequence = server.requests
      .filter((r) => !r.url.includes('oauth'))
      .map((r) => `${r.method} ${r.url.includes('idempotencyKey') ? 'status' : r.url.split('/').at(-2) === 'balances' ? 'balance' : 'order'}`);
    expect(sequence).toEqual(['GET balance', 'POST order', 'GET status', 'POST order']);
  });

  it('the answer does not come before the time-out: found by the status query, one order', async () => {
    const provider = await startProvider(['hang-after-recording']);
    server = provider.server;
    client = clientFor(server.url, { timeout: 300 });
    const result = await client.pay(params);

    expect(provider.orders.size).toBe(1);
    expect(result.transfer.idempotencyKey).toBe(result.idempotencyKey);
    expect(server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/dict'))).toHaveLength(1);
  });
});
