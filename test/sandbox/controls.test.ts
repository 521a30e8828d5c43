/**
 * The test controls as HTTP routes (`/sandbox/...`), driven the way a client in any language
 * drives them: plain `fetch` over real HTTP on 127.0.0.1, JSON in and out, no credentials. Each
 * route does what its method does; a body that does not fit is a 400 problem document naming
 * every field at fault. And the sandbox's routing: a path it does not know is 404 before any
 * token is looked at; a known path without a token is still 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTxid } from '../../src/lib/ids.ts';
import { startServer, type LoopbackServer } from '../support/loopback.ts';
import { cobBody, startSandbox, type SandboxHarness } from './support.ts';

let receiver: LoopbackServer;
let s: SandboxHarness;
beforeAll(async () => {
  receiver = await startServer((_req, res) => void res.writeHead(200).end());
  s = await startSandbox({ settle: 'manual', balance: '100.00', transferNotificationUrl: `${receiver.url}/transfers` });
});
afterAll(async () => {
  await s.sandbox.close();
  await receiver.close();
});

/** A JSON request to the sandbox, as any HTTP client sends it (no token). */
async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  const response = await fetch(`${s.sandbox.origin}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** The `propriedade`s of a problem document's `violacoes`. */
const fields = (body: Record<string, unknown>) =>
  ((body['violacoes'] ?? []) as Array<{ propriedade: string }>).map((v) => v.propriedade).sort();

const PAYMENT = { key: '+5561912345678', creditorDocument: '52998224725' };

describe('POST /sandbox/charges/{txid}/pay', () => {
  it('pays the charge as payCharge does and answers the received payment', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key, '12.00'));
    const paid = await call('POST', `/sandbox/charges/${txid}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      txid,
      valor: '12.00',
      chave: s.key,
      endToEndId: expect.stringMatching(/^E\w{31}$/),
    });
    expect(await s.api.cob.get(txid)).toMatchObject({
      status: 'CONCLUIDA',
      instant: [{ endToEndId: paid.body['endToEndId'] }],
    });
    // The same charge again: refused as payCharge refuses it.
    const again = await call('POST', `/sandbox/charges/${txid}/pay`, {});
    expect(again).toMatchObject({
      status: 400,
      type: 'application/problem+json',
      body: { type: expect.stringMatching(/\/CobOperacaoInvalida$/) },
    });
  });

  it('takes valor and infoPagador', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key, '12.00'));
    const paid = await call('POST', `/sandbox/charges/${txid}/pay`, { valor: '11.50', infoPagador: 'obrigado' });
    expect(paid).toMatchObject({ status: 200, body: { valor: '11.50', infoPagador: 'obrigado' } });
  });

  it('refuses a body that does not fit, naming every field, and changes nothing', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key));
    const bad = await call('POST', `/sandbox/charges/${txid}/pay`, {
      valor: 10,
      infoPagador: 'x'.repeat(141),
      value: '1.00',
    });
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('application/problem+json');
    expect(bad.body).toMatchObject({
      type: expect.stringMatching(/\/RequisicaoInvalida$/),
      status: 400,
      detail: expect.any(String),
    });
    expect(fields(bad.body)).toEqual(['infoPagador', 'valor', 'value']);
    const zero = await call('POST', `/sandbox/charges/${txid}/pay`, { valor: '0.00' });
    expect(zero).toMatchObject({ status: 400, body: { detail: expect.stringContaining('positive') } });
    const notJson = await call('POST', `/sandbox/charges/${txid}/pay`, '{valor');
    expect(notJson).toMatchObject({ status: 400, body: { type: expect.stringMatching(/\/RequisicaoInvalida$/) } });
    const list = await call('POST', `/sandbox/charges/${txid}/pay`, ['10.00']);
    expect(list.status).toBe(400);
    expect((await s.api.cob.get(txid)).status).toBe('ATIVA');
  });

  it('answers 404 for a charge that does not exist', async () => {
    const missing = await call('POST', `/sandbox/charges/${generateTxid()}/pay`);
    expect(missing).toMatchObject({ status: 404, body: { type: expect.stringMatching(/\/NaoEncontrado$/) } });
  });
});

describe('transfers', () => {
  it('POST /sandbox/transfers/{idempotencyKey}/settle settles as settleTransfer does, and notifies', async () => {
    const { idempotencyKey } = await s.cashOut.pay({ ...PAYMENT, amount: '7.00' });
    const settled = await call('POST', `/sandbox/transfers/${idempotencyKey}/settle`, { status: 'LIQUIDATED' });
    expect(settled).toMatchObject({
      status: 200,
      body: { idempotencyKey, status: 'LIQUIDATED', payment: { amount: 7 } },
    });
    expect((await s.cashOut.payments.getByIdempotencyKey(idempotencyKey)).status).toBe('LIQUIDATED');
    expect(
      receiver.requests
        .map((r) => JSON.parse(r.body) as { data: { idempotencyKey: string } })
        .filter((n) => n.data.idempotencyKey === idempotencyKey),
    ).toHaveLength(1);

    const other = await s.cashOut.pay({ ...PAYMENT, amount: '1.00' });
    const canceled = await call('POST', `/sandbox/transfers/${other.idempotencyKey}/settle`, {
      status: 'CANCELED',
      errorCode: 'AC03',
    });
    expect(canceled).toMatchObject({ status: 200, body: { status: 'CANCELED', errorCode: 'AC03' } });
  });

  it('refuses a settle status that is not LIQUIDATED or CANCELED, and an unknown key (404)', async () => {
    const { idempotencyKey } = await s.cashOut.pay({ ...PAYMENT, amount: '1.00' });
    const bad = await call('POST', `/sandbox/transfers/${idempotencyKey}/settle`, { status: 'DONE' });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['status']);
    const missing = await call('POST', `/sandbox/transfers/${idempotencyKey}/settle`, {});
    expect(fields(missing.body)).toEqual(['status']);
    expect((await s.cashOut.payments.getByIdempotencyKey(idempotencyKey)).status).toBe('PROCESSING');
    expect(await call('POST', '/sandbox/transfers/neverplaced9/settle', { status: 'LIQUIDATED' })).toMatchObject({
      status: 404,
    });
  });

  it('POST /sandbox/transfers/{idempotencyKey}/forge sends a forged confirmation and answers it with the receiver answer', async () => {
    const forged = await call('POST', '/sandbox/transfers/forged123/forge', { status: 'LIQUIDATED' });
    expect(forged).toMatchObject({
      status: 200,
      body: {
        url: `${receiver.url}/transfers`,
        body: { type: 'TRANSFER', data: { idempotencyKey: 'forged123', status: 'LIQUIDATED' } },
        state: 'delivered',
        attempts: [{ at: expect.any(String), status: 200 }],
        lastAnswer: { status: 200 },
      },
    });
    expect(JSON.parse(receiver.requests.at(-1)!.body)).toEqual({
      type: 'TRANSFER',
      data: { idempotencyKey: 'forged123', status: 'LIQUIDATED' },
    });
    expect((await call('POST', '/sandbox/transfers/forged123/forge', { status: '' })).status).toBe(400);
  });
});

describe('PUT /sandbox/balance', () => {
  it('sets the balance as setBalance does', async () => {
    expect(await call('PUT', '/sandbox/balance', { balance: '55.10' })).toMatchObject({
      status: 200,
      body: { balance: '55.10' },
    });
    expect(s.sandbox.balance).toBe('55.10');
    expect((await s.cashOut.balance.get()).available).toBe('55.10');
    const bad = await call('PUT', '/sandbox/balance', { balance: 10 });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['balance']);
    expect((await call('PUT', '/sandbox/balance', { balance: '1,00' })).status).toBe(400);
    expect(s.sandbox.balance).toBe('55.10');
  });
});

describe('POST /sandbox/faults', () => {
  it('injects faults as injectFaults does, and rate 0 stops them; the controls themselves never fault', async () => {
    const on = await call('POST', '/sandbox/faults', { rate: 1, kinds: ['503'] });
    expect(on.status).toBe(200);
    const before = s.sandbox.faultCounts()['503'] ?? 0;
    const faulted = await fetch(`${s.sandbox.baseUrl}/cob/${generateTxid()}`);
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('1');
    expect(s.sandbox.faultCounts()['503']).toBe(before + 1);
    // Under rate 1 the controls still answer.
    expect((await call('GET', '/sandbox/notifications')).status).toBe(200);
    expect((await call('POST', '/sandbox/faults', { rate: 0 })).status).toBe(200);
    expect((await fetch(`${s.sandbox.baseUrl}/cob/${generateTxid()}`)).status).toBe(401);
  });

  it('refuses a rate out of range and an unknown kind', async () => {
    const bad = await call('POST', '/sandbox/faults', { rate: 2, kinds: ['503', 'meteor'] });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['kinds.1', 'rate']);
    expect((await call('POST', '/sandbox/faults', {})).status).toBe(400);
  });
});

describe('POST /sandbox/tokens/expire', () => {
  it('expires every token issued so far, as expireTokens does: the next call refreshes', async () => {
    await s.api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z' });
    const token = await fetch(s.sandbox.credentials.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: s.sandbox.credentials.clientId,
        client_secret: s.sandbox.credentials.clientSecret,
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const withToken = () =>
      fetch(`${s.sandbox.baseUrl}/cob/${generateTxid()}`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
    expect((await withToken()).status).toBe(404);
    const expired = await call('POST', '/sandbox/tokens/expire');
    expect(expired).toMatchObject({ status: 200, body: { expired: expect.any(Number) } });
    expect(expired.body['expired']).toBeGreaterThanOrEqual(2);
    expect((await withToken()).status).toBe(401);
    // The SDK's client refreshes its token once and carries on.
    await expect(
      s.api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z' }),
    ).resolves.toBeDefined();
  });
});

describe('GET /sandbox/notifications', () => {
  it('lists every notification sent, as notifications() does', async () => {
    await call('POST', '/sandbox/transfers/listed123/forge', { status: 'CANCELED', errorCode: 'AM04' });
    const listed = await call('GET', '/sandbox/notifications');
    expect(listed.status).toBe(200);
    const notifications = listed.body['notifications'] as Array<Record<string, unknown>>;
    expect(notifications).toEqual(s.sandbox.notifications());
    expect(notifications.at(-1)).toMatchObject({
      url: `${receiver.url}/transfers`,
      body: { data: { idempotencyKey: 'listed123', errorCode: 'AM04' } },
      state: 'delivered',
    });
    expect(notifications.map((n) => n['id'])).toEqual(notifications.map((_, i) => i + 1));
  });
});

describe('routing', () => {
  it('answers 404 with a problem document for a /sandbox/ path no control has, listing the controls', async () => {
    const missing = await call('POST', '/sandbox/charges/x/refund');
    expect(missing).toMatchObject({
      status: 404,
      type: 'application/problem+json',
      body: { type: expect.stringMatching(/\/NaoEncontrado$/) },
    });
    expect(missing.body['detail']).toContain('POST /sandbox/charges/{txid}/pay');
  });

  it('answers 405 with Allow for a control path called with another method', async () => {
    const response = await fetch(`${s.sandbox.origin}/sandbox/balance`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('PUT');
    expect(await response.json()).toMatchObject({ status: 405, detail: expect.stringContaining('PUT') });
  });

  it.each([
    ['a cash-out path with a typo', 'GET', '/api/v2/accounts/balance'],
    ['a cash-out path the provider does not have', 'POST', '/api/v2/instant/payments/key'],
    ['a collection resource that does not exist', 'GET', '/v2/cobranca/abc'],
    ['a collection path too deep', 'GET', '/v2/cob/abc/def'],
    ['a path outside every part', 'GET', '/v3/cob'],
  ])('answers 404, not 401, for %s (no token sent)', async (_, method, path) => {
    const response = await call(method, path);
    expect(response).toMatchObject({
      status: 404,
      type: 'application/problem+json',
      body: { status: 404, type: expect.stringMatching(/\/NaoEncontrado$/) },
    });
  });

  it.each([
    ['GET', '/api/v2/accounts/balances/'],
    ['GET', '/api/v2/instant/payments/idempotencyKey/abc'],
    ['POST', '/api/v2/instant/payments/dict'],
    ['GET', '/v2/cob/abcdefghijklmnopqrstuvwxyz1'],
    ['GET', '/v2/instant'],
    ['GET', '/v2/loc/1/txid'],
  ])('still answers 401 for a known path without a token: %s %s', async (method, path) => {
    expect((await call(method, path)).status).toBe(401);
  });
});
