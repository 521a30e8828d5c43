/**
 * A loopback stand-in for the service and the cash-out provider, as much as the fleet tests
 * need: both token endpoints (counting and timing requests per client; tokens expire and can
 * be revoked; a client's token requests can be failed or held unanswered), the received-payment
 * query, the balance, and payment orders deduplicated by idempotency key (counting the POSTs,
 * and able to hold one without answering).
 */
import type { ServerResponse } from 'node:http';
import { sendJson, startServer, type LoopbackServer, type RecordedRequest } from '../support/loopback.ts';

export interface Order {
  idempotencyKey: string;
  instantKey: string;
  amount: string;
}

export interface FleetProvider {
  url: string;
  /** Token requests answered, per endpoint. */
  tokenRequests: { form: number; json: number };
  /** Token requests answered, per client id. */
  tokenRequestsBy: Map<string, number>;
  /** Calls answered 401 because their token was expired or revoked. */
  refused: number;
  /** The same, per client id of the refused token. */
  refusedBy: Map<string, number>;
  /** When each token request arrived (epoch ms), per client id (form endpoint). */
  tokenTimes: Map<string, number[]>;
  /** Clients whose token requests fail with this status (and `Retry-After`, in seconds, when given). */
  tokenFailures: Map<string, { status: number; retryAfterS?: number }>;
  /** Clients whose token requests are never answered. */
  tokenHeld: Set<string>;
  /** Token lifetime in seconds for one client's next tokens (else `tokenLifetimeS`). */
  tokenLifetimeBy: Map<string, number>;
  /** Received-payment queries (`GET /instant/<e2eid>`) answered, per e2eid. */
  paymentGets: Map<string, number>;
  /** POSTs of payment orders received (a duplicate key counts too). */
  orderPosts: number;
  orders: Map<string, Order>;
  /** Every token issued so far becomes invalid. */
  revokeTokens(): void;
  /** Token lifetime in seconds for the next tokens. */
  tokenLifetimeS: number;
  /** Epoch ms of the last token issued. */
  lastIssuedAt: number;
  /** Called when a payment order arrives; resolve `'hold'` to never answer it. */
  onOrder: ((order: Order) => 'answer' | 'hold') | undefined;
  /**
   * Called when a payment order arrives, before it is recorded; `'lose'` holds it unanswered and
   * never records it (the order was lost on its way).
   */
  beforeRecord: ((order: Order) => 'record' | 'lose') | undefined;
  /** Called when a balance request arrives. */
  onBalance: (() => void) | undefined;
  /** Delay before the balance is answered, in ms. */
  balanceDelayMs: number;
  close(): Promise<void>;
}

export async function startFleetProvider(): Promise<FleetProvider> {
  const tokens = new Map<string, { until: number; clientId: string }>();
  let issued = 0;
  const held: ServerResponse[] = [];
  const provider: FleetProvider = {
    url: '',
    tokenRequests: { form: 0, json: 0 },
    tokenRequestsBy: new Map(),
    refused: 0,
    refusedBy: new Map(),
    tokenTimes: new Map(),
    tokenFailures: new Map(),
    tokenHeld: new Set(),
    tokenLifetimeBy: new Map(),
    paymentGets: new Map(),
    orderPosts: 0,
    orders: new Map(),
    tokenLifetimeS: 300,
    lastIssuedAt: 0,
    onOrder: undefined,
    beforeRecord: undefined,
    onBalance: undefined,
    balanceDelayMs: 0,
    revokeTokens: () => tokens.clear(),
    close: async () => {
      for (const res of held) res.destroy();
      await server.close();
    },
  };

  const issue = (clientId = ''): { value: string; lifetime: number } => {
    const value = `tok-${++issued}-${Math.random().toString(36).slice(2)}`;
    const lifetime = provider.tokenLifetimeBy.get(clientId) ?? provider.tokenLifetimeS;
    provider.lastIssuedAt = Date.now();
    tokens.set(value, { until: provider.lastIssuedAt + lifetime * 1000, clientId });
    return { value, lifetime };
  };
  const authorized = (req: RecordedRequest): boolean => {
    const token = /^Bearer (.+)$/.exec(String(req.headers['authorization']))?.[1];
    const issuedTo = token === undefined ? undefined : tokens.get(token);
    if (issuedTo !== undefined && issuedTo.until > Date.now()) return true;
    provider.refused++;
    if (issuedTo) provider.refusedBy.set(issuedTo.clientId, (provider.refusedBy.get(issuedTo.clientId) ?? 0) + 1);
    return false;
  };

  const server: LoopbackServer = await startServer(async (req, res) => {
    const path = req.url.split('?')[0] ?? '';
    if (req.method === 'POST' && path === '/oauth/token') {
      provider.tokenRequests.form++;
      const clientId = new URLSearchParams(req.body).get('client_id') ?? '';
      provider.tokenRequestsBy.set(clientId, (provider.tokenRequestsBy.get(clientId) ?? 0) + 1);
      provider.tokenTimes.set(clientId, [...(provider.tokenTimes.get(clientId) ?? []), Date.now()]);
      if (provider.tokenHeld.has(clientId)) {
        held.push(res);
        return;
      }
      const failure = provider.tokenFailures.get(clientId);
      if (failure) {
        const headers: Record<string, string> =
          failure.retryAfterS === undefined ? {} : { 'retry-after': String(failure.retryAfterS) };
        return sendJson(res, failure.status, { error: 'temporarily_unavailable' }, headers);
      }
      const { value, lifetime } = issue(clientId);
      return sendJson(res, 200, { access_token: value, token_type: 'Bearer', expires_in: lifetime });
    }
    if (req.method === 'POST' && path === '/api/v2/oauth/token') {
      provider.tokenRequests.json++;
      const { value, lifetime } = issue();
      return sendJson(res, 201, { accessToken: value, expiresAt: lifetime });
    }
    if (!authorized(req)) return sendJson(res, 401, { title: 'Unauthorized' });

    const payment = /^\/instant\/([A-Za-z0-9]{32})$/.exec(path);
    if (req.method === 'GET' && payment) {
      provider.paymentGets.set(payment[1]!, (provider.paymentGets.get(payment[1]!) ?? 0) + 1);
      return sendJson(res, 200, {
        endToEndId: payment[1],
        txid: 'fleettxid0000000000000000001',
        valor: '10.00',
        horario: '2026-10-09T20:15:00.358Z',
      });
    }
    if (req.method === 'GET' && path === '/api/v2/accounts/balances/') {
      provider.onBalance?.();
      if (provider.balanceDelayMs > 0) await new Promise((r) => setTimeout(r, provider.balanceDelayMs));
      return sendJson(res, 200, {
        data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 1000, blocked: 0, overdraft: 0 } }],
      });
    }
    const byKey = /^\/api\/v2\/instant\/payments\/idempotencyKey\/([A-Za-z0-9]+)$/.exec(path);
    if (req.method === 'GET' && byKey) {
      const order = provider.orders.get(byKey[1]!);
      if (!order) return sendJson(res, 404, { type: 'https://errors.example/NF-0001', title: 'Not found' });
      return sendJson(res, 200, { data: wire(order) });
    }
    if (req.method === 'POST' && path === '/api/v2/instant/payments/dict') {
      provider.orderPosts++;
      const key = String(req.headers['x-idempotency-key']);
      const body = JSON.parse(req.body) as { instantKey: string; payment: { amount: string } };
      const existing = provider.orders.get(key);
      if (existing)
        return sendJson(res, 409, { type: 'https://errors.example/CF-0009', title: 'Duplicate idempotency key' });
      const order = { idempotencyKey: key, instantKey: body.instantKey, amount: body.payment.amount };
      if (provider.beforeRecord?.(order) === 'lose') {
        held.push(res);
        return;
      }
      provider.orders.set(key, order);
      if (provider.onOrder?.(order) === 'hold') {
        held.push(res);
        return;
      }
      return sendJson(res, 202, { data: wire(order) });
    }
    return sendJson(res, 404, { title: 'No route' });
  });
  provider.url = server.url;
  return provider;
}

function wire(order: Order): Record<string, unknown> {
  return {
    idempotencyKey: order.idempotencyKey,
    instantKey: order.instantKey,
    payment: { currency: 'BRL', amount: Number(order.amount) },
    status: 'PROCESSING',
    refunds: [],
  };
}
