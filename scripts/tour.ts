/**
 * `npm start`: a tour of the SDK against an in-process sandbox over real HTTP on 127.0.0.1. No
 * credentials, no network. Every step below is an ordinary SDK call; the sandbox plays the
 * service, the payer's bank and the cash-out provider.
 */
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CashOutClient,
  CobOperacaoInvalida,
  InstantClient,
  InsufficientBalanceError,
  addDays,
  addMonths,
  brcode,
  generateTxid,
  receivedPaymentsHandler,
  recurringHandler,
  todayInBrasilia,
  toNodeHandler,
  type CobRCompleta,
  type InstantPayment,
  type LoteCobVConsultado,
  type NotificationVerification,
  type RecCompleta,
} from '../src/index.ts';
import { PayerClient } from '../src/payer.ts';
import { createSandbox } from '../src/sandbox.ts';
import { listenOnLoopback, within } from '../examples/setup.ts';

const started = performance.now();
const section = (title: string) => console.log(`\n${title}`);
const say = (text: string) => console.log(`  ${text}`);
const short = (id: string) => `${id.slice(0, 8)}…`;

/** Values pushed by a callback, taken in order; `next` fails after 3 s so the tour never hangs. */
function inbox<T>(what: string) {
  const waiting: ((value: T) => void)[] = [];
  const queued: T[] = [];
  return {
    push(value: T) {
      const next = waiting.shift();
      if (next) next(value);
      else queued.push(value);
    },
    next(): Promise<T> {
      if (queued.length > 0) return Promise.resolve(queued.shift() as T);
      return within(new Promise<T>((resolve) => waiting.push(resolve)), 3_000, what);
    },
  };
}

// Our own backend's receiver: transfer confirmations on /webhook/transfer-confirmation,
// recurring notifications under /recurring, received-payment notifications on any other path. It listens first so that the sandbox knows
// where to send the transfer confirmations.
const receiver = createServer();
const receiverUrl = await listenOnLoopback(receiver);

const sandbox = createSandbox({
  balance: '1000.00',
  settle: 'manual',
  transferNotificationUrl: `${receiverUrl}/webhook/transfer-confirmation`,
  seed: 42,
});
await sandbox.listen({ port: 0 });
const api = new InstantClient(sandbox.clientOptions());
const cashOut = new CashOutClient(sandbox.cashOutOptions());
const payer = new PayerClient(sandbox.payerOptions());
const [key] = sandbox.ownKeys;
if (key === undefined) throw new Error('the sandbox has no key');

const payments = inbox<InstantPayment>('payment notification');
const transfers = inbox<NotificationVerification>('transfer notification');
const recurring = inbox<RecCompleta | CobRCompleta>('recurring notification');
const paymentsHandler = toNodeHandler(receivedPaymentsHandler(api, { onPayment: (payment) => payments.push(payment) }));
const transfersHandler = cashOut.notificationHandler({
  onConfirmed: (result) => transfers.push(result),
  onSuspicious: (result) => transfers.push(result),
});
const recurringNotifications = recurringHandler(api, {
  onRec: (rec) => recurring.push(rec),
  onCobr: (cobr) => recurring.push(cobr),
});
receiver.on('request', (req, res) => {
  if (req.url === '/webhook/transfer-confirmation') transfersHandler.node(req, res);
  else if (req.url?.startsWith('/recurring/')) recurringNotifications.node(req, res);
  else paymentsHandler(req, res);
});

console.log(`instant-payments tour: a sandbox at ${sandbox.clientOptions().baseUrl} (no credentials, no network)`);

try {
  section('Immediate charges (cob)');
  const txid = generateTxid();
  const cob = await api.cob.create(txid, {
    calendario: { expiracao: 3600 },
    valor: { original: '120.00' },
    chave: key,
    solicitacaoPagador: 'Order 1001',
  });
  say(`PUT  /cob/${short(txid)}  rev ${cob.revisao} ${cob.status} ${cob.valor.original}`);
  const revised = await api.cob.update(txid, {
    valor: { original: '100.00' },
    solicitacaoPagador: 'Order 1001, 20.00 off',
  });
  say(
    `PATCH revised: rev ${revised.revisao} ${revised.valor.original}; revision 0 still reads ${(await api.cob.get(txid, { revisao: 0 })).valor.original}`,
  );
  const posted = await api.cob.create({ calendario: { expiracao: 600 }, valor: { original: '15.00' }, chave: key });
  const removed = await api.cob.remove(posted.txid);
  say(`POST /cob  the service chose txid ${short(posted.txid)}; removed: ${removed.status}`);
  try {
    await api.cob.create(generateTxid(), { calendario: { expiracao: 0 }, valor: { original: '10.00' }, chave: key });
  } catch (error) {
    if (!(error instanceof CobOperacaoInvalida)) throw error;
    say(`refused before sending: ${error.name} on ${error.violacoes.map((v) => v.propriedade).join(', ')}`);
  }

  section('Due-date charges in a batch (lotecobv)');
  const due = addDays(todayInBrasilia(), 10);
  const charge = (fee: string) => ({
    calendario: { dataDeVencimento: due },
    devedor: { cpf: '12345678909', nome: 'Student One' },
    valor: { original: fee },
    chave: key,
  });
  // A due-date charge made on its own by PUT /cobv can never join a batch: the service denies it.
  const loner = generateTxid();
  await api.cobv.create(loner, charge('300.00'));
  const cobsv = [
    { txid: generateTxid(), ...charge('450.00') },
    { txid: generateTxid(), ...charge('450.00') },
    { txid: loner, ...charge('300.00') },
  ];
  await api.lotecobv.put('1001', { descricao: 'Tuition, March', cobsv });
  let lote: LoteCobVConsultado = await api.lotecobv.get('1001');
  while (lote.cobsv.some((c) => c.status === 'EM_PROCESSAMENTO')) {
    await sleep(20);
    lote = await api.lotecobv.get('1001');
  }
  say(`PUT /lotecobv/1001  3 charges, processed asynchronously: ${lote.cobsv.map((c) => c.status).join(', ')}`);
  for (const item of lote.cobsv.filter((c) => c.status === 'NEGADA')) {
    const problem = `${item.problema?.type?.split('/').at(-1)} on ${item.problema?.violacoes?.map((v) => v.propriedade).join(', ')}`;
    say(`denied ${short(item.txid)}, made earlier by PUT /cobv: ${problem}`);
  }

  section('Payer side');
  const code = brcode.parse(revised.instantCopiaECola ?? '');
  const payload = await payer.cobPayload.getCob(code.url ?? '');
  say(`BR Code parsed (CRC ok): location ${code.url}`);
  say(
    `payload signature verified (JWS, key from its jku): ${payload.valor.original} to ${payload.chave}, "${payload.solicitacaoPagador}"`,
  );

  section('Payment, webhook and refund');
  await api.webhook.put(key, `${receiverUrl}/webhook`);
  say(`PUT /webhook/{chave}  -> ${receiverUrl}/webhook`);
  const paid = await sandbox.payCharge(txid);
  const received = await payments.next();
  say(`the payer paid ${paid.valor}: e2eid ${received.endToEndId}`);
  say(
    `webhook received, confirmed with GET /instant/{e2eid}: ${received.valor} for txid ${short(received.txid ?? '')}`,
  );
  say(`the charge is now ${(await api.cob.get(txid)).status}`);
  const refund = await api.instant.refund(received.endToEndId, 'D1', { valor: '20.00', descricao: 'Damaged item' });
  let settled = refund;
  while (settled.status === 'EM_PROCESSAMENTO') {
    await sleep(20);
    settled = await api.instant.getRefund(received.endToEndId, 'D1');
  }
  say(`PUT /instant/{e2eid}/devolucao/D1  20.00: ${refund.status}, then ${settled.status}`);

  section('Recurring charges (rec, cobr)');
  await api.webhookrec.put(`${receiverUrl}/recurring`);
  await api.webhookcobr.put(`${receiverUrl}/recurring`);
  const firstMonth = generateTxid();
  await api.cob.create(firstMonth, { calendario: { expiracao: 3600 }, valor: { original: '29.90' }, chave: key });
  const start = addDays(todayInBrasilia(), 5);
  const rec = await api.rec.create({
    vinculo: { contrato: 'PLAN-1001', devedor: { cpf: '12345678909', nome: 'Fulano de Tal' } },
    calendario: { dataInicial: start, periodicidade: 'MENSAL' },
    valor: { valorRec: '29.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
    loc: (await api.locrec.create()).id,
    ativacao: { dadosJornada: { txid: firstMonth } },
  });
  const composite = brcode.parse((await api.rec.get(rec.idRec, { txid: firstMonth })).dadosQR?.instantCopiaECola ?? '');
  say(
    `POST /rec  ${short(rec.idRec)} ${rec.status} 29.90 MENSAL; GET /rec/{idRec}?txid: one code with the first month's charge`,
  );
  const terms = await payer.recPayload.get(composite.recurrenceUrl ?? '');
  say(
    `payer side: composite code parsed, recurrence payload verified: ${terms.valor?.valorRec} ${terms.calendario.periodicidade}, ${terms.politicaRetentativa}`,
  );
  await sandbox.payCharge(firstMonth);
  const approved = (await recurring.next()) as RecCompleta;
  say(
    `the payer paid the first month: recurrence ${approved.status} (${approved.ativacao?.tipoJornada}), confirmed with GET /rec/{idRec}`,
  );
  const months: CobRCompleta[] = [];
  for (let month = 0; month < 3; month++) {
    const txid = generateTxid();
    const body = {
      idRec: rec.idRec,
      calendario: { dataDeVencimento: addMonths(start, month) },
      valor: { original: '29.90' },
      recebedor: sandbox.ownAccounts[0]!,
    };
    await api.cobr.create(txid, body);
    months.push((await recurring.next()) as CobRCompleta);
  }
  const [one, two, three] = months.map((c) => c.txid) as [string, string, string];
  const states: Array<RecCompleta | CobRCompleta> = [approved, ...months];
  // Each step waits for its notification to be handled, so the states arrive one by one.
  const next = async () => {
    const state = await recurring.next();
    states.push(state);
    return state as CobRCompleta;
  };
  const last = (c: CobRCompleta) => `${c.tentativas?.at(-1)?.tipo} ${c.tentativas?.at(-1)?.status}`;
  await sandbox.settleCobr(one, 'PAGA');
  await next();
  await sandbox.settleCobr(two, 'REJEITADA');
  const rejected = await next();
  await api.cobr.retry(two, addDays(addMonths(start, 1), 2));
  const retried = await next();
  say(
    `PUT /cobr x3, monthly: ${months.map((c) => c.status).join(', ')}; month 2 ${last(rejected)}, then POST …/retentativa/{data}: ${last(retried)}`,
  );
  await sandbox.settleCobr(two, 'PAGA');
  await next();
  await sandbox.settleCobr(three, 'PAGA');
  await next();
  const now = await Promise.all(months.map((c) => api.cobr.get(c.txid)));
  say(
    `${states.length} states notified, each handled once by recurringHandler; charges ${now.map((c) => c.status).join(', ')}`,
  );

  section('Cash-out');
  const balance = await cashOut.balance.get();
  say(`balance: ${balance.available}`);
  const order = await cashOut.pay({
    key: '+5561912345678',
    amount: '250.00',
    creditorDocument: '52998224725',
    description: 'Supplier 7',
  });
  say(`pay 250.00 -> 202, order ${order.idempotencyKey} ${order.transfer.status}`);
  await sandbox.settleTransfer(order.idempotencyKey, 'LIQUIDATED');
  const confirmation = await transfers.next();
  say(
    `notification: ${confirmation.notified.status}, checked against GET …/idempotencyKey/{key}: ${confirmation.verdict}`,
  );
  try {
    await cashOut.pay({ key: '+5561912345678', amount: '5000.00', creditorDocument: '52998224725' });
  } catch (error) {
    if (!(error instanceof InsufficientBalanceError)) throw error;
    say(`pay 5000.00 -> ${error.name}: available ${error.available}, no order placed`);
  }
  await sandbox.forgeTransferNotification({ idempotencyKey: order.idempotencyKey, status: 'CANCELED' });
  const forged = await transfers.next();
  say(
    `a forged "CANCELED" notification for that order: ${forged.verdict}${forged.verdict === 'suspicious' ? ` (${forged.reason})` : ''}`,
  );

  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await Promise.all([api.close(), cashOut.close()]);
  await sandbox.close();
  receiver.closeAllConnections();
  receiver.close();
}
