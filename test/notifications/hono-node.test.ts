/**
 * The notifications guide's Hono-on-Node recipe: `handler.node(c.env.incoming, c.env.outgoing)`
 * behind `@hono/node-server` over https checks the client certificate the sandbox delivers with;
 * the web form on the same route cannot (no socket: a 500, `onError` told why).
 */
import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type HttpBindings, serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { afterAll, expect, it } from 'vitest';
import { ConfigurationError, InstantClient, generateTxid, receivedPaymentsHandler } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { receiver } from './support.ts';

const sandbox = createSandbox({ seed: 40, webhookClientCertificate: true, webhookServerCa: receiver.ca.cert });
await sandbox.listen();
const key = sandbox.ownKeys[0]!;
const api = new InstantClient(sandbox.clientOptions());
const paid: string[] = [];
const errors: unknown[] = [];
const options = {
  onPayment: (payment: { valor: string }) => void paid.push(payment.valor),
  onError: (error: unknown) => void errors.push(error),
  authenticate: { clientCertificate: { ca: sandbox.webhookCa! } },
};
const payments = receivedPaymentsHandler(api, options);
const app = new Hono<{ Bindings: HttpBindings }>();
app.post('/node/*', async (c) => {
  await payments.node(c.env.incoming, c.env.outgoing);
  return RESPONSE_ALREADY_SENT;
});
app.post('/web/*', (c) => payments(c.req.raw));
const server = serve({
  fetch: app.fetch,
  port: 0,
  hostname: '127.0.0.1',
  createServer,
  serverOptions: { cert: receiver.server.cert, key: receiver.server.key, requestCert: true, rejectUnauthorized: false },
});
await once(server, 'listening');
const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

afterAll(async () => {
  await api.close();
  await sandbox.close();
  await new Promise((resolve) => server.close(resolve));
});

async function payOnce(path: string): Promise<void> {
  await api.webhook.put(key, `${origin}/${path}`);
  const txid = generateTxid();
  await api.cob.create(txid, { calendario: { expiracao: 600 }, valor: { original: '7.00' }, chave: key });
  await sandbox.payCharge(txid);
}

it("handler.node through c.env checks the sandbox's client certificate and takes the payment", async () => {
  await payOnce('node');
  expect(paid).toEqual(['7.00']);
  expect(sandbox.notifications().at(-1)).toMatchObject({ state: 'delivered' });
});

it('the web form on Node cannot see the certificate: 500, onError told it is a configuration matter', async () => {
  errors.length = 0;
  await payOnce('web');
  expect(sandbox.notifications().at(-1)?.attempts[0]).toMatchObject({ status: 500 });
  expect(errors.some((error) => error instanceof ConfigurationError)).toBe(true);
  expect(paid).toEqual(['7.00']);
});
