/** Webhooks, payments, refunds, payer-side payloads and tokens: the SDK against a sandbox over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CobPayloadNaoEncontrado,
  CobPayloadOperacaoInvalida,
  InstantDevolucaoInvalida,
  InstantNaoEncontrado,
  WebhookNaoEncontrado,
  addDays,
  brcode,
  generateTxid,
  nextBusinessDay,
  receivedPaymentsHandler,
  toNodeHandler,
  todayInBrasilia,
  type InstantPayment,
} from '../../src/index.ts';
import { aroundNow, startReceiver, useSandbox, type Receiver } from './harness.ts';

const s = useSandbox();
const received: InstantPayment[] = [];
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver(
    toNodeHandler(receivedPaymentsHandler(s.api, { onPayment: (p) => void received.push(p) })),
  );
});
afterAll(() => receiver.close());

async function newCob(original: string): Promise<string> {
  const txid = generateTxid();
  await s.api.cob.create(txid, { calendario: { expiracao: 3600 }, valor: { original }, chave: s.receiverKey });
  return txid;
}

describe('webhook', () => {
  it('registers, reads, lists and deletes', async () => {
    await s.api.webhook.put(s.receiverKey, `${receiver.url}/hook`);
    expect((await s.api.webhook.get(s.receiverKey)).webhookUrl).toBe(`${receiver.url}/hook`);
    expect((await s.api.webhook.list()).items.map((w) => w.webhookUrl)).toContain(`${receiver.url}/hook`);
    await s.api.webhook.delete(s.receiverKey);
    await expect(s.api.webhook.get(s.receiverKey)).rejects.toBeInstanceOf(WebhookNaoEncontrado);
  });
});

describe('payment, notification, refund', () => {
  it('pays a charge: CONCLUIDA, listed under /instant, notified and confirmed through the handler', async () => {
    await s.api.webhook.put(s.receiverKey, `${receiver.url}/hook`);
    const txid = await newCob('50.00');
    const paid = await s.sandbox.payCharge(txid);
    expect(paid).toMatchObject({ txid, valor: '50.00', endToEndId: expect.stringMatching(/^E[a-zA-Z0-9]{31}$/) });

    await expect.poll(() => received.map((p) => p.txid)).toContain(txid);
    expect(received.find((p) => p.txid === txid)).toMatchObject({ endToEndId: paid.endToEndId, valor: '50.00' });
    const cob = await s.api.cob.get(txid);
    expect(cob.status).toBe('CONCLUIDA');
    expect(cob.instant?.map((p) => p.endToEndId)).toEqual([paid.endToEndId]);
    expect(await s.api.instant.get(paid.endToEndId)).toMatchObject({ txid, valor: '50.00' });
    const listed: string[] = [];
    for await (const p of s.api.instant.list({ ...aroundNow(), txid })) listed.push(p.endToEndId);
    expect(listed).toEqual([paid.endToEndId]);
  });

  it('refunds up to the amount paid, idempotently by id', async () => {
    const txid = await newCob('30.00');
    const { endToEndId } = await s.sandbox.payCharge(txid);
    const first = await s.api.instant.refund(endToEndId, 'R1', { valor: '10.00' });
    expect(first).toMatchObject({ id: 'R1', valor: '10.00' });
    // The same id again is the same refund (a retried PUT), not a second one.
    expect(await s.api.instant.refund(endToEndId, 'R1', { valor: '10.00' })).toMatchObject({
      id: 'R1',
      rtrId: first.rtrId,
    });
    await expect(s.api.instant.refund(endToEndId, 'R2', { valor: '25.00' })).rejects.toBeInstanceOf(
      InstantDevolucaoInvalida,
    );
    expect(await s.api.instant.getRefund(endToEndId, 'R1')).toMatchObject({ id: 'R1', valor: '10.00' });
    expect((await s.api.instant.get(endToEndId)).devolucoes?.map((d) => d.id)).toEqual(['R1']);
  });

  it('answers InstantNaoEncontrado for an unknown e2eid', async () => {
    await expect(s.api.instant.get(`E12345678202601011200${'a'.repeat(11)}`)).rejects.toBeInstanceOf(
      InstantNaoEncontrado,
    );
  });
});

describe('payer side', () => {
  it('fetches a signed cob payload at the location of its BR Code, and 410 once removed', async () => {
    const txid = await newCob('19.90');
    const cob = await s.api.cob.get(txid);
    const { url } = brcode.parse(cob.instantCopiaECola ?? '');
    const payload = await s.payer.cobPayload.getCob(url ?? '');
    expect(payload).toMatchObject({ txid, valor: { original: '19.90' }, chave: s.receiverKey, status: 'ATIVA' });

    await s.api.cob.remove(txid);
    const gone = await s.payer.cobPayload.getCob(url ?? '').catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(CobPayloadNaoEncontrado);
    expect(gone).toMatchObject({ status: 410 });
  });

  it('fetches a cobv payload with codMun and DPP; the service checks them too', async () => {
    const txid = generateTxid();
    const due = nextBusinessDay(addDays(todayInBrasilia(), 3)); // a business day: no roll
    const cobv = await s.api.cobv.create(txid, {
      calendario: { dataDeVencimento: due, validadeAposVencimento: 5 },
      devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
      valor: { original: '200.00' },
      chave: s.receiverKey,
    });
    const url = brcode.parse(cobv.instantCopiaECola ?? '').url ?? '';
    const payload = await s.payer.cobPayload.getCobv(url, { codMun: '5300108', DPP: todayInBrasilia() });
    expect(payload).toMatchObject({ txid, valor: { final: '200.00' } });
    // Past the due date plus its validity (moved to a business day): the service refuses.
    await expect(
      s.payer.cobPayload.getCobv(url, { DPP: addDays(nextBusinessDay(addDays(due, 5)), 1) }),
    ).rejects.toBeInstanceOf(CobPayloadOperacaoInvalida);
  });
});

describe('tokens', () => {
  it('gets a new token after the sandbox expires every issued one', async () => {
    const txid = await newCob('1.00');
    s.sandbox.expireTokens();
    expect((await s.api.cob.get(txid)).txid).toBe(txid);
    s.sandbox.expireTokens();
    expect((await s.cashOut.balance.get()).available).toMatch(/^\d+\.\d{2}$/);
  });
});
