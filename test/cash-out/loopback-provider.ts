/**
 * A cash-out provider on a real loopback server that keeps state like the real one: orders by
 * idempotency key (a duplicate key places nothing), a balance debited once per order, the status
 * query by key. Faults are injected per request: connections cut before or after the order is
 * recorded or halfway through the 202's body, answers that never come, empty or non-JSON 202s,
 * a status query that lags behind the orders. Its token endpoint hands out `TOKEN`.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, startServer, type LoopbackServer, type RecordedRequest } from '../support/loopback.ts';
import { wireTransfer } from './fixtures.ts';

export type PostFault =
  | 'ok'
  /** 202 with no body at all. */
  | 'empty-202'
  /** 202 labelled JSON whose body is not JSON. */
  | 'garbage-202'
  /** 202 as text/plain. */
  | 'text-202'
  /** Order recorded, 202 headers and half the body sent, then the connection destroyed. */
  | 'cut-mid-body'
  | 'cut-before-record'
  | 'cut-after-record'
  /** Order recorded, no answer ever. */
  | 'hang-after-record'
  | '500-after-record'
  | '500-before-record'
  /** Order recorded, answered with a redirect elsewhere (which the SDK never follows). */
  | 'redirect-after-record'
  | 'redirect-before-record'
  /** The provider refuses the order (nothing recorded). */
  | '422';

export type LookupFault =
  | 'ok'
  /** 404 although the order exists (the status query lags behind the orders). */
  | 'lag'
  | 'cut'
  | 'cut-mid-body'
  | '500'
  | 'hang'
  /** The lookup is refused: the provider says nothing about the order. */
  | '401'
  | '403'
  | '429';

export interface ProviderOptions {
  /** Fault of the n-th POST (0-based, over the whole server), of an order under `idempotencyKey`. */
  postFault?: (n: number, idempotencyKey: string) => PostFault;
  /** Fault of the n-th status query, for `idempotencyKey`. */
  lookupFault?: (n: number, idempotencyKey: string) => LookupFault;
  /** A POST with a key that already has an order: 409 (default), or 202 with the existing order. */
  duplicate?: 'conflict' | 'echo';
  /** The `type` of the status query's 404 body. */
  notFoundType?: string;
  /** Starting balance in cents (default 1 000 000 00). */
  balanceCents?: number;
  /** Milliseconds to wait before handling each order or status query. */
  delay?: () => number;
  /** Milliseconds to wait before answering a balance request. */
  balanceDelay?: () => number;
  /** Called when an order arrives, before anything is done with it; awaited. */
  onOrder?: (idempotencyKey: string) => void | Promise<void>;
  /** Called when an order is recorded (the first under its key). */
  onRecorded?: (idempotencyKey: string) => void;
}

export interface Provider {
  server: LoopbackServer;
  url: string;
  /** Orders by idempotency key, as the provider keeps them (float money). */
  orders: Map<string, Record<string, unknown>>;
  balanceCents(): number;
  setBalanceCents(cents: number): void;
  posts(): RecordedRequest[];
  tokenRequests(): RecordedRequest[];
  lookups(): RecordedRequest[];
  /** From now on: no faults. */
  heal(): void;
  close(): Promise<void>;
}

export const TOKEN = 'loopback-token';
const LOOKUP = /^\/api\/v2\/instant\/payments\/idempotencyKey\/([^/]+)$/;

export async function startProvider(options: ProviderOptions = {}): Promise<Provider> {
  const orders = new Map<string, Record<string, unknown>>();
  let balance = options.balanceCents ?? 100_000_000;
  let postCount = 0;
  let lookupCount = 0;
  let healed = false;

  const place = (key: string, body: { instantKey: string; payment: { amount: string } }) => {
    if (orders.has(key)) return;
    const [units = '0', cents = '0'] = body.payment.amount.split('.');
    balance -= Number(units) * 100 + Number(cents);
    orders.set(
      key,
      wireTransfer({
        idempotencyKey: key,
        instantKey: body.instantKey,
        payment: { currency: 'BRL', amount: Number(body.payment.amount) },
      }),
    );
    options.onRecorded?.(key);
  };

  const cutMidBody = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
    res.write(text.slice(0, Math.floor(text.length / 2)));
    setTimeout(() => res.socket?.destroy(), 20);
  };

  const server = await startServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/api/v2/oauth/token') {
      return sendJson(res, 201, { accessToken: TOKEN, tokenType: 'Bearer', expiresAt: 300 });
    }
    const delay = healed || url.pathname.endsWith('/balances/') ? 0 : (options.delay?.() ?? 0);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return sendJson(res, 401, { type: 'x/ABC-0001', title: 'Unauthorized' });

    if (req.method === 'GET' && url.pathname === '/api/v2/accounts/balances/') {
      const balanceDelay = healed ? 0 : (options.balanceDelay?.() ?? 0);
      if (balanceDelay > 0) await new Promise((resolve) => setTimeout(resolve, balanceDelay));
      return sendJson(res, 200, {
        data: [
          {
            eventDate: '2026-01-01T00:00:00Z',
            balanceAmount: { name: 'main', available: balance / 100, blocked: 0, overdraft: 0 },
          },
        ],
      });
    }

    if (req.method === 'POST' && url.pathname === '/api/v2/instant/payments/dict') {
      const key = String(req.headers['x-idempotency-key']);
      const body = JSON.parse(req.body) as { instantKey: string; payment: { amount: string } };
      await options.onOrder?.(key);
      const fault = healed ? 'ok' : (options.postFault?.(postCount, key) ?? 'ok');
      postCount++;
      if (fault === 'cut-before-record') return void res.socket?.destroy();
      if (fault === '500-before-record') return sendJson(res, 500, { type: 'x/ABC-0500', title: 'Internal error' });
      if (fault === 'redirect-before-record')
        return sendJson(res, 307, {}, { location: 'https://elsewhere.example/dict' });
      if (fault === '422') return sendJson(res, 422, { type: 'x/ABC-0422', title: 'Unprocessable' });
      if (orders.has(key)) {
        if (options.duplicate === 'echo') return sendJson(res, 202, { data: orders.get(key) });
        return sendJson(res, 409, { type: 'x/ABC-0409', title: 'Duplicate idempotency key' });
      }
      place(key, body);
      const answer = { data: orders.get(key) };
      switch (fault) {
        case 'empty-202':
          res.writeHead(202, { 'content-length': '0' });
          return void res.end();
        case 'garbage-202':
          res.writeHead(202, { 'content-type': 'application/json' });
          return void res.end('Accepted');
        case 'text-202':
          res.writeHead(202, { 'content-type': 'text/plain' });
          return void res.end('OK');
        case 'cut-mid-body':
          return cutMidBody(res, 202, answer);
        case 'cut-after-record':
          return void res.socket?.destroy();
        case 'hang-after-record':
          return;
        case '500-after-record':
          return sendJson(res, 500, { type: 'x/ABC-0500', title: 'Internal error' });
        case 'redirect-after-record':
          return sendJson(res, 302, {}, { location: 'https://elsewhere.example/dict' });
        default:
          return sendJson(res, 202, answer);
      }
    }

    const byKey = LOOKUP.exec(url.pathname);
    if (req.method === 'GET' && byKey) {
      const key = decodeURIComponent(byKey[1]!);
      const fault = healed ? 'ok' : (options.lookupFault?.(lookupCount, key) ?? 'ok');
      lookupCount++;
      const order = orders.get(key);
      switch (fault) {
        case 'cut':
          return void res.socket?.destroy();
        case 'cut-mid-body':
          return cutMidBody(res, 200, { data: order ?? {} });
        case '500':
          return sendJson(res, 500, { type: 'x/ABC-0500', title: 'Internal error' });
        case 'hang':
          return;
        case '401':
        case '403':
        case '429':
          return sendJson(res, Number(fault), { type: `x/ABC-0${fault}`, title: 'Refused' });
        default:
          if (order && fault !== 'lag') return sendJson(res, 200, { data: order });
          return sendJson(res, 404, { type: options.notFoundType ?? 'x/ABC-0404', title: 'Not found' });
      }
    }
    return sendJson(res, 404, {});
  });

  return {
    server,
    url: server.url,
    orders,
    balanceCents: () => balance,
    setBalanceCents: (cents) => {
      balance = cents;
    },
    posts: () => server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/dict')),
    lookups: () => server.requests.filter((r) => LOOKUP.test(r.url)),
    tokenRequests: () => server.requests.filter((r) => r.url === '/api/v2/oauth/token'),
    heal: () => {
      healed = true;
    },
    close: () => server.close(),
  };
}
