/**
 * Property: whatever a server answers (any status, truncated, non-JSON, huge, hanging,
 * redirecting, problem documents with random types and titles), every client call either
 * resolves or rejects with an `InstantError`, and never outlives its timeout: a server that
 * trickles a body never stops by itself, so a call settling at all says its time limit ended it
 * (no elapsed-time bound, which a loaded machine could break), and the connection it gave up is
 * closed.
 */
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import { InstantClient } from '../../src/client.ts';
import { CashOutClient } from '../../src/cash-out/client.ts';
import { ERROR_CATALOGUE } from '../../src/errors/catalogue.ts';
import { InstantError } from '../../src/errors/base.ts';
import { PayerClient } from '../../src/payer.ts';
import { startServer, type LoopbackServer } from '../support/loopback.ts';
import { settles } from '../support/settles.ts';

type Answer =
  | { kind: 'body'; status: number; contentType: string | undefined; body: string }
  | { kind: 'truncated'; status: number; body: string }
  | { kind: 'huge'; status: number; size: number }
  | { kind: 'hang'; status: number }
  | { kind: 'drop' }
  | { kind: 'redirect'; status: number };

const TIMEOUT_MS = 100;
const MAX_BYTES = 64 * 1024;
const TXID = 'a'.repeat(26);

const status = fc.oneof(
  fc.constantFrom(200, 201, 202, 204, 400, 401, 403, 404, 409, 410, 412, 422, 429, 500, 502, 503, 504),
  fc.integer({ min: 200, max: 599 }),
);
const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/problem+json',
    'text/plain',
    'text/html',
    'application/jose',
    'application/json; charset=utf-8',
  ),
  { nil: undefined },
);
const problem = fc
  .record(
    {
      type: fc.oneof(
        fc.constantFrom(
          'about:blank',
          '',
          '/',
          'urn:x',
          ...Object.keys(ERROR_CATALOGUE).map((t) => `https://psp.example/error/${t}`),
        ),
        fc.string(),
        fc.webUrl(),
      ),
      title: fc.oneof(fc.string(), fc.constant('Documento 12345678909 invalido')),
      status: fc.oneof(status, fc.string()),
      detail: fc.oneof(fc.string(), fc.integer()),
      violacoes: fc.oneof(
        fc.array(
          fc.record({ razao: fc.string(), propriedade: fc.string(), valor: fc.oneof(fc.string(), fc.integer()) }),
        ),
        fc.anything(),
      ),
      correlationId: fc.string(),
    },
    { requiredKeys: [] },
  )
  .map((doc) => JSON.stringify(doc));
const body = fc.oneof(
  problem,
  fc.json(),
  fc.string(),
  fc.constant(''),
  fc.constant('{"txid": "abc", "valor": {"original": "1.00"}}'),
);

const answer: fc.Arbitrary<Answer> = fc.oneof(
  { weight: 14, arbitrary: fc.record({ kind: fc.constant('body' as const), status, contentType, body }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncated' as const), status, body }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge' as const),
      status,
      size: fc.integer({ min: MAX_BYTES + 1, max: 4 * MAX_BYTES }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hang' as const), status }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'drop' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('redirect' as const), status: fc.constantFrom(301, 302, 303, 307, 308) }),
  },
);

let server: LoopbackServer;
let current: Answer = { kind: 'drop' };
/** Resolves when the connection of the last trickled ('hang') answer closes: the server never ends it. */
let trickleClosed: Promise<void> | undefined;

function respond(res: ServerResponse, a: Answer): void {
  switch (a.kind) {
    case 'body': {
      res.writeHead(a.status, a.contentType === undefined ? {} : { 'content-type': a.contentType });
      res.end(a.body);
      return;
    }
    case 'truncated': {
      res.writeHead(a.status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(a.body) + 10),
      });
      res.write(a.body);
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    case 'huge': {
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(a.size, 0x20));
      return;
    }
    case 'hang': {
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 20);
      trickleClosed = new Promise((resolve) =>
        res.on('close', () => {
          clearInterval(timer);
          resolve();
        }),
      );
      return;
    }
    case 'drop':
      res.socket?.destroy();
      return;
    case 'redirect':
      res.writeHead(a.status, { location: 'http://127.0.0.1:9/elsewhere?x=1' });
      res.end();
  }
}

beforeAll(async () => {
  server = await startServer((_req, res) => respond(res, current));
});
afterAll(() => server.close());

const token = { getToken: async () => 'tok' };
const limits = { timeout: TIMEOUT_MS, maxRetries: 0, maxResponseBytes: MAX_BYTES };

function calls(): Array<() => Promise<unknown>> {
  const api = new InstantClient({ baseUrl: `${server.url}/v2`, auth: token, ...limits });
  const cashOut = new CashOutClient({ baseUrl: server.url, auth: token, ...limits });
  const payer = new PayerClient({
    allowPrivateHosts: true,
    timeout: TIMEOUT_MS,
    maxRetries: 0,
    maxResponseBytes: MAX_BYTES,
  });
  const devPayer = new PayerClient({
    allowPrivateHosts: true,
    allowUnsignedPayloads: true,
    timeout: TIMEOUT_MS,
    maxRetries: 0,
    maxResponseBytes: MAX_BYTES,
  });
  const cob = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'k@example.com' };
  const order = {
    instantKey: 'payee@example.com',
    creditorDocument: '52998224725',
    payment: { currency: 'BRL' as const, amount: '10.00' },
  };
  return [
    () => api.cob.get(TXID),
    () => api.cob.create(TXID, cob),
    () => api.cob.create(cob),
    async () => api.cob.list({ inicio: '2026-03-01T00:00:00Z', fim: '2026-03-31T23:59:59Z' }),
    () => api.cobv.get(TXID),
    () => api.loc.get(7),
    () => api.loc.create({ tipoCob: 'cob' }),
    () => api.instant.get('E12345678202610091221abcdef12345'),
    () => api.webhook.get('k@example.com'),
    () => api.lotecobv.get(1),
    () => cashOut.balance.get(),
    () => cashOut.payments.getByIdempotencyKey('order42'),
    () => cashOut.payments.create(order, { idempotencyKey: 'order42' }),
    () => payer.cobPayload.getCob(`${server.url}/qr/v2/abc`),
    () => devPayer.cobPayload.getCob(`${server.url}/qr/v2/abc`),
    () => devPayer.cobPayload.getCobv(`${server.url}/qr/v2/cobv/abc`),
  ];
}

it('only InstantErrors escape, and no call outlives its timeout', async () => {
  const operations = calls();
  await fc.assert(
    fc.asyncProperty(answer, fc.integer({ min: 0, max: operations.length - 1 }), async (a, index) => {
      current = a;
      trickleClosed = undefined;
      // One attempt (maxRetries 0): only its time limit can end a trickled body. A body read
      // outside the timeout never settles here (it ran until the server gave up, before).
      const outcome = await settles(operations[index]!(), `call ${index} against ${a.kind}`);
      if (!outcome.ok && !(outcome.error instanceof InstantError)) {
        throw new Error(`call ${index} escaped with ${String(outcome.error)}`, { cause: outcome.error });
      }
      // A call that timed out on a trickled body gave its connection up, not only its promise.
      if (!outcome.ok && (outcome.error as InstantError).name === 'TimeoutError' && trickleClosed !== undefined)
        await settles(trickleClosed, `the connection of call ${index} after its timeout`);
    }),
    { numRuns: 300 },
  );
}, 120_000);
