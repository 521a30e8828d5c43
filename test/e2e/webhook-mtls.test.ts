/**
 * The sandbox delivering as a production service (`webhookClientCertificate`): over HTTPS with
 * a client certificate of its own CA, to an https receiver whose three handlers check it
 * (`authenticate.clientCertificate.ca: sandbox.webhookCa`) and the secret kept in the
 * registered URLs. The receiver's own server certificate is trusted through `webhookServerCa`.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateTxid,
  receivedPaymentsHandler,
  recurringHandler,
  webhookUrl,
  type NotificationHandler,
  type WebhookAuthentication,
} from '../../src/index.ts';
import { receiver, service } from '../notifications/support.ts';
import { useSandbox } from './harness.ts';

const SECRET = 'e2e-webhook-secret-0123456789';
const received: string[] = [];
const refused: string[] = [];
let handlers: Record<string, NotificationHandler> = {};

// The receiver listens before the sandbox starts: the sandbox is told where to POST transfer confirmations.
const server = createServer(
  { cert: receiver.server.cert, key: receiver.server.key, requestCert: true, rejectUnauthorized: false },
  (req, res) => {
    const part = req.url?.split('/')[1] ?? '';
    const handler = handlers[part];
    if (handler) void handler.node(req, res);
    else res.writeHead(404).end();
  },
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

const s = useSandbox({
  webhookClientCertificate: true,
  webhookServerCa: receiver.ca.cert,
  settle: 'manual',
  transferNotificationUrl: webhookUrl(`${origin}/transfers`, SECRET),
  redelivery: { attempts: 1 },
});

beforeAll(async () => {
  const authenticate: WebhookAuthentication = { clientCertificate: { ca: s.sandbox.webhookCa! }, secret: SECRET };
  const onError = (error: unknown) => void refused.push((error as Error).name);
  handlers = {
    payments: receivedPaymentsHandler(s.api, {
      authenticate,
      onError,
      onPayment: (p) => void received.push(`payment ${p.valor}`),
    }),
    recurring: recurringHandler(s.api, {
      authenticate,
      onError,
      onRec: (rec) => void received.push(`rec ${rec.status}`),
    }),
    transfers: s.cashOut.notificationHandler({
      authenticate,
      onError,
      onConfirmed: (result) => void received.push(`transfer ${result.actual.status}`),
      onSuspicious: () => undefined,
    }),
  };
  await s.api.webhook.put(s.receiverKey, webhookUrl(`${origin}/payments`, SECRET));
  await s.api.webhookrec.put(webhookUrl(`${origin}/recurring`, SECRET));
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('the sandbox over mTLS, end to end', () => {
  it('prints its webhook CA, keeps the registered secret, and all three handlers accept its certificate', async () => {
    expect(s.sandbox.webhookCa).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect((await s.api.webhook.get(s.receiverKey)).webhookUrl).toBe(`${origin}/payments/whs_${SECRET}`);

    const txid = generateTxid();
    await s.api.cob.create(txid, {
      calendario: { expiracao: 3600 },
      valor: { original: '12.34' },
      chave: s.receiverKey,
    });
    await s.sandbox.payCharge(txid);
    await expect.poll(() => received).toContain('payment 12.34');

    const { idRec } = await s.api.rec.create({
      vinculo: { contrato: 'C-9', objeto: 'Plano', devedor: { cpf: '12345678909', nome: 'Fulano de Tal' } },
      calendario: {
        dataInicial: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
        periodicidade: 'MENSAL',
      },
      valor: { valorRec: '29.90' },
      politicaRetentativa: 'NAO_PERMITE',
    });
    await s.sandbox.approveRec(idRec);
    await expect.poll(() => received).toContain('rec APROVADA');

    const { idempotencyKey } = await s.cashOut.pay({
      key: '+5561912345678',
      creditorDocument: '52998224725',
      amount: '1.00',
    });
    await s.sandbox.settleTransfer(idempotencyKey, 'LIQUIDATED');
    await expect.poll(() => received).toContain('transfer LIQUIDATED');
    expect(refused).toEqual([]);
    expect(s.sandbox.notifications().every((n) => n.state === 'delivered')).toBe(true);
  });

  it('a receiver trusting another CA refuses the sandbox (403), and the attempt is logged as such', async () => {
    const strict = receivedPaymentsHandler(s.api, {
      authenticate: { clientCertificate: { ca: service.ca.cert } },
      onPayment: () => void received.push('never'),
    });
    handlers['strict'] = strict;
    await s.api.webhook.put(s.receiverKey, `${origin}/strict`);
    const txid = generateTxid();
    await s.api.cob.create(txid, {
      calendario: { expiracao: 3600 },
      valor: { original: '2.00' },
      chave: s.receiverKey,
    });
    await s.sandbox.payCharge(txid);
    await expect.poll(() => s.sandbox.notifications().at(-1)?.lastAnswer?.status).toBe(403);
    expect(received).not.toContain('never');
  });
});
