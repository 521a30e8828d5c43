/**
 * The never-twice guarantee against a real HTTP server on loopback: the provider takes the order
 * and the answer never arrives (socket destroyed, or no answer before the time-out).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CashOutClient, type CashOutClientOptions } from '../../src/index.ts';
import type { LoopbackServer } from '../support/loopback.ts';
import { CPF, EVP } from './fixtures.ts';
import { startProvider as startFaultyProvider, type PostFault } from './loopback-provider.ts';

/** The provider with `faults` for its first POSTs. */
function startProvider(faults: PostFault[]) {
  return startFaultyProvider({ postFault: (n) => faults[n] ?? 'ok' }).then((provider) => ({
    server: provider.server,
    orders: provider.orders,
    tokenRequests: () => provider.tokenRequests().length,
  }));
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
    const provider = await startProvider(['cut-after-record']);
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
    const provider = await startProvider(['cut-before-record']);
    server = provider.server;
    client = clientFor(server.url);
    const result = await client.pay(params);

    expect(provider.orders.size).toBe(1);
    const posts = server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/dict'));
    expect(posts.map((r) => r.headers['x-idempotency-key'])).toEqual([result.idempotencyKey, result.idempotencyKey]);
    const sequence = server.requests
      .filter((r) => !r.url.includes('oauth'))
      .map(
        (r) =>
          `${r.method} ${r.url.includes('idempotencyKey') ? 'status' : r.url.split('/').at(-2) === 'balances' ? 'balance' : 'order'}`,
      );
    expect(sequence).toEqual(['GET balance', 'POST order', 'GET status', 'POST order']);
  });

  it('the answer does not come before the time-out: found by the status query, one order', async () => {
    const provider = await startProvider(['hang-after-record']);
    server = provider.server;
    client = clientFor(server.url, { timeout: 300 });
    const result = await client.pay(params);

    expect(provider.orders.size).toBe(1);
    expect(result.transfer.idempotencyKey).toBe(result.idempotencyKey);
    expect(server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/dict'))).toHaveLength(1);
  });
});
