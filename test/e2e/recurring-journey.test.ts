/**
 * A whole subscription, journey 3, through the SDK against a sandbox over real HTTP on 127.0.0.1:
 * an immediate charge and a recurrence in one composite code, read by the payer's side (the code
 * parsed, the recurrence payload fetched and its signature verified), the charge paid (which
 * approves the recurrence), then three monthly recurring charges, one attempt rejected and
 * retried, then paid. The receiving user's backend handles every notification with
 * `receivedPaymentsHandler` and `recurringHandler` on a shared store: each state once, a callback
 * that fails answered 500 and redelivered by the sandbox, and every notification replayed to a
 * second process changes nothing.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  brcode,
  createMemoryStore,
  generateTxid,
  receivedPaymentsHandler,
  recurringHandler,
  todayInBrasilia,
  type CobRCompleta,
  type InstantPayment,
  type NotificationHandler,
  type RecCompleta,
} from '../../src/index.ts';
import { listenOnLoopback } from '../../examples/setup.ts';
import { useSandbox } from './harness.ts';

const s = useSandbox({ redelivery: { attempts: 3, delayMs: 30 } });
const store = createMemoryStore();

/** What the backend recorded, in order: one line per callback run. */
const recorded: string[] = [];
const describeCharge = (c: CobRCompleta) =>
  `cobr ${c.txid.slice(0, 6)} ${c.status} ${(c.tentativas ?? []).map((t) => `${t.tipo}-${t.status}`).join('+')}`;
let failNextRejection = true;

/** One process of the backend: its two handlers on the shared store. */
function backend(): { payments: NotificationHandler; recurring: NotificationHandler } {
  return {
    payments: receivedPaymentsHandler(s.api, {
      store,
      onPayment: (p: InstantPayment) => void recorded.push(`payment ${p.txid?.slice(0, 6)} ${p.valor}`),
    }),
    recurring: recurringHandler(s.api, {
      store,
      onRec: (rec: RecCompleta) => void recorded.push(`rec ${rec.status} ${rec.ativacao?.tipoJornada}`),
      onCobr: (cobr) => {
        // The mail server is down the first time a rejection is to be told: answered 500, sent again.
        if (cobr.tentativas?.some((t) => t.status === 'REJEITADA') && failNextRejection) {
          failNextRejection = false;
          throw new Error('mail server down');
        }
        recorded.push(describeCharge(cobr));
      },
    }),
  };
}

let first: ReturnType<typeof backend>;
const receiver = createServer((req, res) => {
  if (req.url?.startsWith('/payments/')) void first.payments.node(req, res);
  else void first.recurring.node(req, res);
});
let receiverUrl = '';

beforeAll(async () => {
  first = backend();
  receiverUrl = await listenOnLoopback(receiver);
  await s.api.webhook.put(s.receiverKey, `${receiverUrl}/payments`);
  await s.api.webhookrec.put(`${receiverUrl}/recurring`);
  await s.api.webhookcobr.put(`${receiverUrl}/recurring`);
});
afterAll(() => {
  receiver.closeAllConnections();
  receiver.close();
});

describe('journey 3: a monthly subscription started by paying an immediate charge', () => {
  it('from the composite code to three paid charges, every notification handled once', {
    timeout: 15_000,
  }, async () => {
    const { api, payer, sandbox } = s;
    // The receiving user: the first month's immediate charge, a recurrence location, and the
    // recurrence naming the charge (journey 3).
    const cobTxid = generateTxid();
    await api.cob.create(cobTxid, {
      calendario: { expiracao: 3600 },
      valor: { original: '29.90' },
      chave: s.receiverKey,
      solicitacaoPagador: 'Plano mensal, 1º mês',
    });
    const loc = await api.locrec.create();
    const start = addDays(todayInBrasilia(), 5);
    const rec = await api.rec.create({
      vinculo: {
        contrato: 'ASSINATURA-42',
        objeto: 'Plano mensal',
        devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
      },
      calendario: { dataInicial: start, periodicidade: 'MENSAL' },
      valor: { valorRec: '29.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      loc: loc.id,
      ativacao: { dadosJornada: { txid: cobTxid } },
    });
    const { dadosQR } = await api.rec.get(rec.idRec, { txid: cobTxid });
    expect(dadosQR?.jornada).toBe('JORNADA_3');

    // The payer's app reads the composite code: the charge's location and the recurrence's.
    const code = brcode.parse(dadosQR!.instantCopiaECola);
    expect(code.recurrenceUrl).toBe(loc.location);
    const payload = await payer.recPayload.get(code.recurrenceUrl!);
    expect(payload).toMatchObject({
      idRec: rec.idRec,
      valor: { valorRec: '29.90' },
      calendario: { periodicidade: 'MENSAL' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });
    expect((await payer.cobPayload.getCob(code.url!)).valor.original).toBe('29.90');

    // The payer pays the immediate charge: the payment is notified, and the recurrence is approved by journey 3.
    await sandbox.payCharge(cobTxid);
    expect(await api.rec.get(rec.idRec)).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cobTxid } },
    });

    // Three monthly charges; each is scheduled (ATIVA, an AGND attempt) before the payer's bank acts.
    const dues = [0, 1, 2].map((month) => addMonths(start, month));
    const txids: string[] = [];
    for (const due of dues) {
      const txid = generateTxid();
      await api.cobr.create(txid, {
        idRec: rec.idRec,
        calendario: { dataDeVencimento: due },
        valor: { original: '29.90' },
        recebedor: { ...sandbox.ownAccounts[0]! },
      });
      txids.push(txid);
      await expect.poll(() => recorded).toContain(`cobr ${txid.slice(0, 6)} ATIVA AGND-AGENDADA`);
    }
    const [one, two, three] = txids as [string, string, string];
    await sandbox.settleCobr(one, 'PAGA');
    // The second month's attempt is rejected (AM02: the charge stays open), retried, then paid.
    await sandbox.settleCobr(two, 'REJEITADA');
    await expect.poll(() => recorded, { timeout: 5_000 }).toContain(`cobr ${two.slice(0, 6)} ATIVA AGND-REJEITADA`);
    await api.cobr.retry(two, addDays(dues[1]!, 2));
    await expect.poll(() => recorded).toContain(`cobr ${two.slice(0, 6)} ATIVA AGND-REJEITADA+NTAG-AGENDADA`);
    await sandbox.settleCobr(two, 'PAGA');
    await sandbox.settleCobr(three, 'PAGA');

    const final = await Promise.all(txids.map((txid) => api.cobr.get(txid)));
    expect(final.map((c) => `${c.status} ${c.tentativas?.map((t) => `${t.tipo}-${t.status}`).join('+')}`)).toEqual([
      'CONCLUIDA AGND-PAGA',
      'CONCLUIDA AGND-REJEITADA+NTAG-PAGA',
      'CONCLUIDA AGND-PAGA',
    ]);
    expect(final.map((c) => c.instant?.map((p) => p.valor))).toEqual([['29.90'], ['29.90'], ['29.90']]);

    const expected = [
      `payment ${cobTxid.slice(0, 6)} 29.90`,
      'rec APROVADA JORNADA_3',
      ...txids.map((txid) => `cobr ${txid.slice(0, 6)} ATIVA AGND-AGENDADA`),
      `cobr ${one.slice(0, 6)} CONCLUIDA AGND-PAGA`,
      `cobr ${two.slice(0, 6)} ATIVA AGND-REJEITADA`,
      `cobr ${two.slice(0, 6)} ATIVA AGND-REJEITADA+NTAG-AGENDADA`,
      `cobr ${two.slice(0, 6)} CONCLUIDA AGND-REJEITADA+NTAG-PAGA`,
      `cobr ${three.slice(0, 6)} CONCLUIDA AGND-PAGA`,
    ];
    await expect.poll(() => recorded.length).toBe(expected.length);
    expect(recorded).toEqual(expected);

    // The rejection's notification was answered 500 once (the callback threw), then redelivered and handled.
    const sent = sandbox.notifications();
    const rejected = sent.find((n) => JSON.stringify(n.body).includes('"REJEITADA"'))!;
    expect(rejected.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(sent.every((n) => n.state === 'delivered')).toBe(true);

    // Another process of the backend receives every notification again: all answered 200, nothing runs twice.
    const second = backend();
    for (const n of sent) {
      const handler = new URL(n.url).pathname.startsWith('/payments/') ? second.payments : second.recurring;
      const response = await handler(
        new Request(n.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(n.body),
        }),
      );
      expect(response.status).toBe(200);
    }
    expect(recorded).toEqual(expected);
  });
});
