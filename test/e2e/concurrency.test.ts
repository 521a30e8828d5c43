/**
 * 200 charges at once over real HTTP: created, revised by two concurrent PATCHes each, paid and
 * notified. Nothing is lost: 200 distinct charges, both changes of every charge kept, revisions
 * that tell a consistent story, 200 distinct payments, each notified and confirmed once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  fromCents,
  generateTxid,
  receivedPaymentsHandler,
  toNodeHandler,
  type InstantPayment,
} from '../../src/index.ts';
import { aroundNow, startReceiver, useSandbox, type Receiver } from './harness.ts';

const N = 200;
const s = useSandbox({ seed: 200 });
const notified: InstantPayment[] = [];
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver(
    toNodeHandler(receivedPaymentsHandler(s.api, { onPayment: (p) => void notified.push(p) })),
  );
  await s.api.webhook.put(s.receiverKey, `${receiver.url}/hook`);
});
afterAll(() => receiver.close());

it(`${N} concurrent charge creations, revisions and payments lose nothing`, { timeout: 60_000 }, async () => {
  const txids = Array.from({ length: N }, () => generateTxid());
  const original = (i: number) => fromCents(1_000 + i);
  const revised = (i: number) => fromCents(5_000 + i);

  const payments = await Promise.all(
    txids.map(async (txid, i) => {
      await s.api.cob.create(txid, {
        calendario: { expiracao: 3600 },
        valor: { original: original(i) },
        chave: s.receiverKey,
        solicitacaoPagador: `charge ${i}`,
      });
      // Two revisions of the same charge at once, each changing a different field.
      const [byValor, byText] = await Promise.all([
        s.api.cob.update(txid, { valor: { original: revised(i) } }),
        s.api.cob.update(txid, { solicitacaoPagador: `revised ${i}` }),
      ]);
      // The one applied first saw only its own change; the second saw both.
      const [first, second] = byValor.revisao < byText.revisao ? [byValor, byText] : [byText, byValor];
      expect([first.revisao, second.revisao]).toEqual([1, 2]);
      expect(second).toMatchObject({ valor: { original: revised(i) }, solicitacaoPagador: `revised ${i}` });
      if (first === byValor)
        expect(first).toMatchObject({ valor: { original: revised(i) }, solicitacaoPagador: `charge ${i}` });
      else expect(first).toMatchObject({ valor: { original: original(i) }, solicitacaoPagador: `revised ${i}` });
      return s.sandbox.payCharge(txid);
    }),
  );

  // Every charge once, with both changes, paid once; its revisions as the PATCH answers said.
  const finals = await Promise.all(txids.map((txid) => s.api.cob.get(txid)));
  finals.forEach((cob, i) => {
    expect(cob).toMatchObject({
      txid: txids[i],
      revisao: 2,
      status: 'CONCLUIDA',
      valor: { original: revised(i) },
      solicitacaoPagador: `revised ${i}`,
    });
    expect(cob.instant?.map((p) => p.endToEndId)).toEqual([payments[i]?.endToEndId]);
  });
  const revisionOne = await Promise.all(txids.map((txid) => s.api.cob.get(txid, { revisao: 1 })));
  revisionOne.forEach((cob, i) => {
    const valorChanged = cob.valor.original === revised(i);
    const textChanged = cob.solicitacaoPagador === `revised ${i}`;
    expect(valorChanged !== textChanged, `revision 1 of charge ${i} holds exactly one of the two changes`).toBe(true);
  });

  const e2eids = new Set(payments.map((p) => p.endToEndId));
  expect(e2eids.size).toBe(N);
  for (const [i, p] of payments.entries()) expect(p).toMatchObject({ txid: txids[i], valor: revised(i) });

  const listed = new Map<string, number>();
  for await (const cob of s.api.cob.list({ ...aroundNow(), paginacao: { itensPorPagina: 50 } }))
    listed.set(cob.txid, (listed.get(cob.txid) ?? 0) + 1);
  expect(txids.filter((txid) => listed.get(txid) !== 1)).toEqual([]);

  await expect.poll(() => notified.length, { timeout: 10_000 }).toBe(N);
  expect(new Set(notified.map((p) => p.endToEndId))).toEqual(e2eids);
});
