/** `CashOutClient.close()` over mTLS, against a real HTTPS server that demands a client certificate. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CashOutClient } from '../../src/index.ts';
import { sendJson, startServer, type LoopbackServer } from '../support/loopback.ts';

const pem = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
let server: LoopbackServer;

beforeAll(async () => {
  server = await startServer(
    (req, res) =>
      req.url === '/api/v2/oauth/token'
        ? sendJson(res, 201, { accessToken: 'tls-token', tokenType: 'Bearer', expiresAt: 300 })
        : sendJson(res, 200, {
            data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 12.5, blocked: 0 } }],
          }),
    { cert: pem('server.pem'), key: pem('server.key'), ca: pem('ca.pem'), requestCert: true, rejectUnauthorized: true },
  );
});
afterAll(() => server.close());

it('close() ends the keep-alive connections the client opened, at once', async () => {
  const cashOut = new CashOutClient({
    baseUrl: server.url,
    auth: { clientId: 'id', clientSecret: 'secret' },
    tls: { cert: pem('client.pem'), key: pem('client.key'), ca: pem('ca.pem') },
  });
  expect((await cashOut.balance.get()).available).toBe('12.50');
  expect(server.openConnections()).toBeGreaterThan(0);
  await cashOut.close();
  // Left open, a kept-alive connection lasts seconds (the client's and the server's idle limits).
  await vi.waitFor(() => expect(server.openConnections()).toBe(0), { timeout: 1_000, interval: 20 });
});
