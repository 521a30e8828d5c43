/**
 * Money moving through the sandbox, over real HTTP: received payments and their webhook
 * notification, refunds, webhook registrations; the cash-out transfer life cycle with its
 * notification, the idempotency key, and both token endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  CashOutClient,
  IdempotencyKeyReusedError,
  InstantClient,
  InstantDevolucaoInvalida,
  InstantNaoEncontrado,
  TransferNotFoundError,
  UnauthorizedError,
  WebhookNaoEncontrado,
} from '../../src/index.ts';
import { generateIdempotencyKey, generateTxid } from '../../src/lib/ids.ts';
import { startServer, type LoopbackServer } from '../support/loopback.ts';
import { CPF, cobBody, cobvBody, range, startSandbox, until, useSandbox, type SandboxHarness } from './support.ts';

let receiver: LoopbackServer;
beforeAll(async () => {
  receiver = await startServer((_req, res) => {
    res.writeHead(200).end();
  });
});
afterAll(() => receiver.close());

const posted = (path: string) =>
  receiver.requests
    .filter((r) => r.method === 'POST' && r.url === path)
    .map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('received payments', () => {
  const s = useSandbox();

  it('payCharge: CONCLUIDA, a payment with a well-formed e2eid under /instant, notified to the key webhook', async () => {
    await s.api.webhook.put(s.key, `${receiver.url}/hooks`);
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key, '42.00'));
    const payment = await s.sandbox.payCharge(txid);
    expect(payment.endToEndId).toMatch(/^E[0-9A-Z]{8}\d{12}[a-zA-Z0-9]{11}$/);
    expect(payment).toMatchObject({ txid, valor: '42.00', chave: s.key });
    expect(await s.api.cob.get(txid)).toMatchObject({
      status: 'CONCLUIDA',
      instant: [expect.objectContaining({ endToEndId: payment.endToEndId })],
    });
    expect(await s.api.instant.get(payment.endToEndId)).toMatchObject({
      endToEndId: payment.endToEndId,
      valor: '42.00',
      txid,
    });
    const listed = await s.api.instant.list({ ...range(), txid });
    expect(listed.items.map((p) => p.endToEndId)).toEqual([payment.endToEndId]);
    expect(posted('/hooks/instant')).toContainEqual({
      instant: [expect.objectContaining({ endToEndId: payment.endToEndId, valor: '42.00' })],
    });
    await expect(s.sandbox.payCharge(txid)).rejects.toThrow(/CONCLUIDA/);
    await expect(s.api.instant.get('E'.padEnd(32, '0'))).rejects.toBeInstanceOf(InstantNaoEncontrado);
  });

  it("embeds only the spec's payment fields in a fetched or listed charge (no internal field leaks)", async () => {
    const SPEC_FIELDS = [
      'endToEndId',
      'txid',
      'valor',
      'componentesValor',
      'chave',
      'horario',
      'infoPagador',
      'devolucoes',
    ];
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key, '8.00'));
    const payment = await s.sandbox.payCharge(txid, { infoPagador: 'pedido 9' });
    // Read over plain HTTP: what leaves the sandbox, not what a client keeps.
    const { access_token: token } = (await (
      await fetch(s.sandbox.credentials.tokenUrl, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: s.sandbox.credentials.clientId,
          client_secret: s.sandbox.credentials.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const read = async (path: string) =>
      (await (
        await fetch(`${s.sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as Record<string, unknown>;
    const fetched = (await read(`/cob/${txid}`))['instant'] as Array<Record<string, unknown>>;
    const listed = (
      (await read(`/cob?${new URLSearchParams(range())}`))['cobs'] as Array<{
        txid: string;
        instant: Array<Record<string, unknown>>;
      }>
    ).find((c) => c.txid === txid)!.instant;
    for (const embedded of [fetched, listed]) {
      expect(embedded).toEqual([
        {
          endToEndId: payment.endToEndId,
          txid,
          valor: '8.00',
          chave: s.key,
          horario: payment.horario,
          infoPagador: 'pedido 9',
        },
      ]);
      for (const field of Object.keys(embedded[0]!)) expect(SPEC_FIELDS).toContain(field);
    }
  });

  it('pays a due-date charge its amount due today, or the amount given', async () => {
    const txid = generateTxid();
    await s.api.cobv.create(txid, {
      ...cobvBody(s.key, '80.00'),
      valor: { original: '80.00', abatimento: { modalidade: 1, valorPerc: '5.00' } },
    });
    expect((await s.sandbox.payCharge(txid)).valor).toBe('75.00');
    const other = generateTxid();
    await s.api.cob.create(other, cobBody(s.key));
    expect((await s.sandbox.payCharge(other, { valor: '9.99' })).valor).toBe('9.99');
  });

  it('refunds: idempotent per id, never beyond the payment, settled later and notified', async () => {
    await s.api.webhook.put(s.key, `${receiver.url}/refunds`);
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key, '30.00'));
    const { endToEndId } = await s.sandbox.payCharge(txid);
    const first = await s.api.instant.refund(endToEndId, 'dev1', { valor: '10.00', descricao: 'troca' });
    expect(first).toMatchObject({
      id: 'dev1',
      valor: '10.00',
      status: 'EM_PROCESSAMENTO',
      rtrId: expect.stringMatching(/^D[a-zA-Z0-9]{31}$/),
    });
    await expect(
      s.api.instant.refund(endToEndId, 'dev1', { valor: '10.00', descricao: 'troca' }),
    ).resolves.toMatchObject({ rtrId: first.rtrId });
    await expect(s.api.instant.refund(endToEndId, 'dev1', { valor: '11.00' })).rejects.toBeInstanceOf(
      InstantDevolucaoInvalida,
    );
    await expect(s.api.instant.refund(endToEndId, 'dev2', { valor: '20.01' })).rejects.toBeInstanceOf(
      InstantDevolucaoInvalida,
    );
    await expect(s.api.instant.refund('E'.padEnd(32, '1'), 'dev1', { valor: '1.00' })).rejects.toBeInstanceOf(
      InstantNaoEncontrado,
    );
    const settled = await until(
      () => s.api.instant.getRefund(endToEndId, 'dev1'),
      (d) => d.status === 'DEVOLVIDO',
    );
    expect(settled.horario).toMatchObject({ liquidacao: expect.any(String) });
    // Two notifications: the payment, then its refund settled.
    await until(
      async () => posted('/refunds/instant').length,
      (n) => n > 1,
    );
    expect(posted('/refunds/instant')[1]).toMatchObject({
      instant: [{ endToEndId, devolucoes: [expect.objectContaining({ id: 'dev1', status: 'DEVOLVIDO' })] }],
    });
    const withRefunds = await s.api.instant.list({ ...range(), devolucaoPresente: true });
    expect(withRefunds.items.map((p) => p.endToEndId)).toContain(endToEndId);
  });

  it('keeps webhooks per own key: put, get, list, delete', async () => {
    await s.api.webhook.put(s.key, 'https://merchant.example/hook');
    expect(await s.api.webhook.get(s.key)).toMatchObject({
      webhookUrl: 'https://merchant.example/hook',
      chave: s.key,
      criacao: expect.any(String),
    });
    expect((await s.api.webhook.list()).items.map((w) => w.webhookUrl)).toEqual(['https://merchant.example/hook']);
    await s.api.webhook.delete(s.key);
    await expect(s.api.webhook.get(s.key)).rejects.toBeInstanceOf(WebhookNaoEncontrado);
    await expect(s.api.webhook.delete(s.key)).rejects.toBeInstanceOf(WebhookNaoEncontrado);
  });
});

describe('cash-out', () => {
  let s: SandboxHarness;
  beforeAll(async () => {
    s = await startSandbox({
      settle: 'manual',
      balance: '100.00',
      transferNotificationUrl: `${receiver.url}/transfer-confirmation`,
    });
  });
  afterAll(() => s.sandbox.close());
  const order = (amount: string) => ({
    instantKey: CPF,
    creditorDocument: CPF,
    payment: { currency: 'BRL' as const, amount },
  });

  it('answers 202 PROCESSING, settles LIQUIDATED debiting the balance, or CANCELED when it no longer covers the order', async () => {
    const k1 = generateIdempotencyKey();
    const k2 = generateIdempotencyKey();
    expect(await s.cashOut.payments.create(order('60.00'), { idempotencyKey: k1 })).toMatchObject({
      status: 'PROCESSING',
      payment: { amount: '60.00' },
    });
    expect(await s.cashOut.payments.create(order('50.00'), { idempotencyKey: k2 })).toMatchObject({
      status: 'PROCESSING',
    });
    // Nothing leaves the account before settlement.
    expect((await s.cashOut.balance.get()).available).toBe('100.00');
    expect(await s.sandbox.settleTransfer(k1, 'LIQUIDATED')).toMatchObject({ status: 'LIQUIDATED' });
    expect((await s.cashOut.balance.get()).available).toBe('40.00');
    expect(await s.sandbox.settleTransfer(k2, 'LIQUIDATED')).toMatchObject({ status: 'CANCELED', errorCode: 'AM04' });
    expect(s.sandbox.balance).toBe('40.00');
    expect(await s.cashOut.payments.getByIdempotencyKey(k2)).toMatchObject({ status: 'CANCELED', errorCode: 'AM04' });
    // Settled orders stay as they are.
    expect(await s.sandbox.settleTransfer(k1, 'CANCELED')).toMatchObject({ status: 'LIQUIDATED' });
    const notified = posted('/transfer-confirmation');
    expect(notified).toContainEqual({
      type: 'TRANSFER',
      data: expect.objectContaining({ idempotencyKey: k1, status: 'LIQUIDATED' }),
    });
    expect(notified).toContainEqual({
      type: 'TRANSFER',
      data: expect.objectContaining({ idempotencyKey: k2, status: 'CANCELED' }),
    });
    // The notification checks out against the status query; a forged one does not.
    const verified = await s.cashOut.verifyNotification(
      notified.find((n) => (n['data'] as { idempotencyKey: string }).idempotencyKey === k1),
    );
    expect(verified.verdict).toBe('confirmed');
    expect(await s.sandbox.forgeTransferNotification({ idempotencyKey: k2, status: 'LIQUIDATED' })).toBe(200);
    const forged = posted('/transfer-confirmation').at(-1);
    expect((await s.cashOut.verifyNotification(forged)).verdict).toBe('suspicious');
  });

  it('never makes a second order under one idempotency key', async () => {
    const key = generateIdempotencyKey();
    const first = await s.cashOut.payments.create(order('1.00'), { idempotencyKey: key });
    const again = await s.cashOut.payments.create(order('1.00'), { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect(again.endToEndId).toBe(first.endToEndId);
    await expect(s.cashOut.payments.create(order('2.00'), { idempotencyKey: key })).rejects.toBeInstanceOf(
      IdempotencyKeyReusedError,
    );
    await expect(s.cashOut.payments.getByIdempotencyKey(generateIdempotencyKey())).rejects.toBeInstanceOf(
      TransferNotFoundError,
    );
    // pay() with a key that named an order returns that order and places nothing.
    const paid = await s.cashOut.pay({ key: CPF, amount: '1.00', creditorDocument: CPF, idempotencyKey: key });
    expect(paid.transfer.id).toBe(first.id);
  });

  it('settles by itself in auto mode', async () => {
    const auto = await startSandbox({ settleDelayMs: 10, balance: '5.00' });
    try {
      const { idempotencyKey } = await auto.cashOut.pay({ key: CPF, amount: '2.50', creditorDocument: CPF });
      const done = await until(
        () => auto.cashOut.payments.getByIdempotencyKey(idempotencyKey),
        (t) => t.status !== 'PROCESSING',
      );
      expect(done.status).toBe('LIQUIDATED');
      expect(auto.sandbox.balance).toBe('2.50');
    } finally {
      await auto.sandbox.close();
    }
  });
});

describe('tokens', () => {
  const s = useSandbox({ tokenLifetime: 300 });

  it('refuses a wrong secret at both token endpoints', async () => {
    const api = new InstantClient({
      ...s.sandbox.clientOptions(),
      auth: { ...s.sandbox.credentials, clientSecret: 'wrong' },
      maxRetries: 0,
    });
    await expect(api.cob.get(generateTxid())).rejects.toBeInstanceOf(AuthenticationError);
    const cashOut = new CashOutClient({
      ...s.sandbox.cashOutOptions(),
      auth: { ...s.sandbox.cashOutCredentials, clientSecret: 'wrong' },
      maxRetries: 0,
    });
    await expect(cashOut.balance.get()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('answers 401 to a missing, unknown, expired or other-audience token; clients refresh an expired one', async () => {
    const noToken = await fetch(`${s.sandbox.baseUrl}/cob/${generateTxid()}`);
    expect(noToken.status).toBe(401);
    const bogus = new InstantClient({
      baseUrl: s.sandbox.baseUrl,
      auth: { getToken: async () => 'bogus' },
      maxRetries: 0,
    });
    await expect(bogus.cob.list(range())).rejects.toBeInstanceOf(UnauthorizedError);
    // A cash-out token does not open the collection API.
    const cashOutToken = await fetch(s.sandbox.cashOutCredentials.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: s.sandbox.cashOutCredentials.clientId,
        client_secret: s.sandbox.cashOutCredentials.clientSecret,
      }),
    });
    expect(cashOutToken.status).toBe(201);
    const { accessToken } = (await cashOutToken.json()) as { accessToken: string };
    const crossed = await fetch(`${s.sandbox.baseUrl}/cob?inicio=${range().inicio}&fim=${range().fim}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(crossed.status).toBe(401);

    await s.api.cob.list(range());
    await s.cashOut.balance.get();
    s.sandbox.expireTokens();
    const stale = await fetch(`${s.sandbox.origin}/api/v2/accounts/balances/`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(stale.status).toBe(401);
    // Both clients meet 401 with their cached token, fetch a new one and go on.
    await expect(s.api.cob.list(range())).resolves.toMatchObject({ items: expect.any(Array) });
    await expect(s.cashOut.balance.get()).resolves.toMatchObject({ available: expect.any(String) });
  });
});
