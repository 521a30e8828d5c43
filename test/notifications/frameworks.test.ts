/**
 * Both notification handlers behind the frameworks people use (Express 5, Fastify 5 with its
 * default parsers, Hono, a web-standard route handler as in Next.js), each receiving what a
 * listening sandbox POSTs: a paid charge's notification and a transfer confirmation. The
 * framework code is the README's recipe for it.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CashOutClient,
  InstantClient,
  InvalidNotificationError,
  generateTxid,
  receivedPaymentsHandler,
  type NotificationHandler,
} from '../../src/index.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';

/** The two handlers a merchant mounts. */
interface Handlers {
  payments: NotificationHandler;
  transfers: NotificationHandler;
}

/** A framework app serving the handlers on loopback: its origin and how to stop it. */
interface Receiver {
  url: string;
  close(): Promise<void>;
}

async function listening(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closing(server: Server | ServerType): Promise<void> {
  (server as Server).closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// ---------------------------------------------------------------------------------------------
// The recipes

async function expressApp({ payments, transfers }: Handlers): Promise<Receiver> {
  const app = express();
  app.use(express.json()); // the usual global parser: the handler takes the parsed req.body
  app.post('/webhook/instant', payments.node);
  app.post('/webhook/transfer-confirmation', transfers.node);
  const server = createServer(app);
  return { url: await listening(server), close: () => closing(server) };
}

async function fastifyApp({ payments, transfers }: Handlers): Promise<Receiver> {
  const app = Fastify(); // default parsers on: application/json is parsed before the handler
  app.post('/webhook/instant', payments.node);
  app.post('/webhook/transfer-confirmation', transfers.node);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

async function honoApp({ payments, transfers }: Handlers): Promise<Receiver> {
  const app = new Hono();
  app.post('/webhook/instant', (c) => payments(c.req.raw));
  app.post('/webhook/transfer-confirmation', (c) => transfers(c.req.raw));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closing(server) };
}

/**
 * Route modules as a Next.js app has them (`app/webhook/instant/route.ts` exporting `POST`),
 * served the way such a framework does: the Node request becomes a web `Request` whose body
 * streams from the socket.
 */
async function routeHandlers({ payments, transfers }: Handlers): Promise<Receiver> {
  const routes: Record<string, { POST(request: Request): Promise<Response> }> = {
    '/webhook/instant': { POST: async (request: Request) => payments(request) },
    '/webhook/transfer-confirmation': { POST: async (request: Request) => transfers(request) },
  };
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route === undefined || req.method !== 'POST') return void res.writeHead(404).end();
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    void route.POST(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  return { url: await listening(server), close: () => closing(server) };
}

// ---------------------------------------------------------------------------------------------

/** Where the sandbox is told to send transfer confirmations before the receiver has a port. */
const RECEIVER = 'http://receiver.invalid';

interface Answer {
  path: string;
  status: number | undefined;
}

interface World {
  sandbox: Sandbox;
  api: InstantClient;
  cashOut: CashOutClient;
  receiver: Receiver;
  /** What the receiver answered to each notification the sandbox POSTed. */
  answers: Answer[];
  payments: string[];
  confirmed: string[];
  errors: unknown[];
}

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** A sandbox, both clients, both handlers, and the framework app serving them. */
async function world(mount: (handlers: Handlers) => Promise<Receiver>): Promise<World> {
  const answers: Answer[] = [];
  let origin = '';
  const sandbox = createSandbox({
    seed: 7,
    settle: 'manual',
    transferNotificationUrl: `${RECEIVER}/webhook/transfer-confirmation`,
    // Every notification goes to the receiver over real HTTP; its answer is noted.
    fetch: async (url, init) => {
      const target = url.replace(RECEIVER, origin);
      try {
        const response = await fetch(target, init);
        answers.push({ path: new URL(target).pathname, status: response.status });
        return response;
      } catch (error) {
        answers.push({ path: new URL(target).pathname, status: undefined });
        throw error;
      }
    },
  });
  await sandbox.listen({ port: 0 });
  opened.push(() => sandbox.close());
  const api = new InstantClient(sandbox.clientOptions());
  const cashOut = new CashOutClient(sandbox.cashOutOptions());
  opened.push(async () => {
    await api.close();
    await cashOut.close();
  });
  const payments: string[] = [];
  const confirmed: string[] = [];
  const errors: unknown[] = [];
  const onError = (error: unknown) => void errors.push(error);
  const receiver = await mount({
    payments: receivedPaymentsHandler(api, { onPayment: (payment) => void payments.push(payment.txid ?? ''), onError }),
    transfers: cashOut.notificationHandler({
      onConfirmed: ({ actual }) => void confirmed.push(`${actual.idempotencyKey} ${actual.status}`),
      onSuspicious: ({ reason }) => void errors.push(new Error(`suspicious: ${reason}`)),
      onError,
    }),
  });
  opened.push(() => receiver.close());
  origin = receiver.url;
  return { sandbox, api, cashOut, receiver, answers, payments, confirmed, errors };
}

const FRAMEWORKS = [
  ['Express 5', expressApp],
  ['Fastify 5 (default parsers)', fastifyApp],
  ['Hono', honoApp],
  ['a web-standard route handler (Next.js)', routeHandlers],
] as const;

describe.each(FRAMEWORKS)('%s', (_name, mount) => {
  it('receives a paid charge: onPayment once, answered 200', async () => {
    const w = await world(mount);
    const [key] = w.sandbox.ownKeys;
    await w.api.webhook.put(key!, `${w.receiver.url}/webhook`);
    const txid = generateTxid();
    await w.api.cob.create(txid, { valor: { original: '25.00' }, chave: key! });

    const started = Date.now();
    await w.sandbox.payCharge(txid);
    await expect.poll(() => w.answers).toEqual([{ path: '/webhook/instant', status: 200 }]);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(w.payments).toEqual([txid]);
    expect(w.errors).toEqual([]);
  });

  it('receives a transfer confirmation: onConfirmed once, answered 200', async () => {
    const w = await world(mount);
    const { idempotencyKey } = await w.cashOut.pay({
      key: 'someone@example.com',
      amount: '12.34',
      creditorDocument: '12345678909',
    });

    const started = Date.now();
    await w.sandbox.settleTransfer(idempotencyKey, 'LIQUIDATED');
    await expect.poll(() => w.answers).toEqual([{ path: '/webhook/transfer-confirmation', status: 200 }]);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(w.confirmed).toEqual([`${idempotencyKey} LIQUIDATED`]);
    expect(w.errors).toEqual([]);
  });
});

describe('a body the framework already read, with nothing parsed to take', () => {
  it("Fastify's raw request (handler.node(request.raw, reply.raw)): a 500 at once, onError told why", async () => {
    const w = await world(async ({ payments, transfers }) => {
      const app = Fastify();
      app.post('/webhook/instant', (request, reply) => payments.node(request.raw, reply.raw));
      app.post('/webhook/transfer-confirmation', (request, reply) => transfers.node(request.raw, reply.raw));
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url, close: () => app.close() };
    });
    const [key] = w.sandbox.ownKeys;
    await w.api.webhook.put(key!, `${w.receiver.url}/webhook`);
    const txid = generateTxid();
    await w.api.cob.create(txid, { valor: { original: '25.00' }, chave: key! });

    const started = Date.now();
    await w.sandbox.payCharge(txid);
    await expect.poll(() => w.answers).toEqual([{ path: '/webhook/instant', status: 500 }]);
    expect(Date.now() - started).toBeLessThan(4_000); // the sandbox gives up at 5 s; before the fix, 20 s
    expect(w.payments).toEqual([]);
    expect(w.errors).toHaveLength(1);
    expect(w.errors[0]).toBeInstanceOf(InvalidNotificationError);
    expect((w.errors[0] as Error).message).toMatch(/already read.*handler\.node\(request, reply\)/s);
  });

  it('Hono after a middleware read the body: a 500 at once, onError told why', async () => {
    const w = await world(async ({ payments, transfers }) => {
      const app = new Hono();
      app.use(async (c, next) => {
        await c.req.raw.clone().text(); // a clone leaves the body to the handler...
        await next();
      });
      app.post('/webhook/instant', async (c) => {
        await c.req.raw.text(); // ...a read of the request itself does not
        return payments(c.req.raw);
      });
      app.post('/webhook/transfer-confirmation', (c) => transfers(c.req.raw));
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
      await once(server, 'listening');
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closing(server) };
    });
    const [key] = w.sandbox.ownKeys;
    await w.api.webhook.put(key!, `${w.receiver.url}/webhook`);
    const txid = generateTxid();
    await w.api.cob.create(txid, { valor: { original: '25.00' }, chave: key! });

    await w.sandbox.payCharge(txid);
    await expect.poll(() => w.answers).toEqual([{ path: '/webhook/instant', status: 500 }]);
    expect(w.payments).toEqual([]);
    expect(w.errors).toHaveLength(1);
    expect(w.errors[0]).toBeInstanceOf(InvalidNotificationError);
    expect((w.errors[0] as Error).message).toMatch(/already read/);

    // The transfer route, which reads nothing first, still works behind the same middleware.
    const { idempotencyKey } = await w.cashOut.pay({
      key: 'someone@example.com',
      amount: '1.00',
      creditorDocument: '12345678909',
    });
    await w.sandbox.settleTransfer(idempotencyKey, 'LIQUIDATED');
    await expect.poll(() => w.confirmed).toEqual([`${idempotencyKey} LIQUIDATED`]);
  });
});
