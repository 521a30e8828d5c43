/**
 * A batch of due-date charges: create it, follow each charge request until the service has
 * processed it (CRIADA or NEGADA with the reason), move every due date with `alter` (which
 * checks the batch still holds exactly the same charges), revise one charge, and list the
 * batch's charges.
 *
 * Run: `node examples/due-date-batch.ts`: against an in-process sandbox with no credentials in
 * the environment, against your provider with them (see examples/setup.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApiError,
  LoteCobVOperacaoInvalida,
  type LoteCobVCobSolicitada,
  type LoteCobVConsultado,
  addDays,
  generateTxid,
  todayInBrasilia,
} from '../src/index.ts';
import { connect, runMain } from './setup.ts';

/** Sandbox-looking debtors (synthetic documents with valid check digits). */
const STUDENTS = [
  { cpf: '12345678909', nome: 'Student One', fee: '450.00' },
  { cnpj: '11222333000181', nome: 'Sponsor Company', fee: '900.00' },
  { cnpj: '12ABC34501DE35', nome: 'Alphanumeric Sponsor', fee: '900.00' },
] as const;

export async function main(): Promise<void> {
  const { api, sandbox, receiverKey, close } = await connect();
  // You choose the batch id; GET /cobv filters by it as a 32-bit integer (`loteCobVId`).
  const batchId = String(Math.floor(Date.now() / 1000) % 2_000_000_000);
  const pause = sandbox ? 20 : 1_000; // between reads of asynchronous work (a sandbox takes milliseconds)

  // Due dates are Brasília calendar days: never derive them from a UTC timestamp.
  const due = addDays(todayInBrasilia(), 10);
  const cobsv: LoteCobVCobSolicitada[] = STUDENTS.map((student) => ({
    txid: generateTxid(),
    calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
    devedor: 'cpf' in student ? { cpf: student.cpf, nome: student.nome } : { cnpj: student.cnpj, nome: student.nome },
    valor: {
      original: student.fee,
      multa: { modalidade: 2, valorPerc: '2.00' }, // 2 % fine after the due date
      juros: { modalidade: 2, valorPerc: '0.03' }, // 0.03 % a calendar day
      desconto: { modalidade: 1, descontoDataFixa: [{ data: addDays(due, -5), valorPerc: '20.00' }] }, // 20.00 off if paid 5 days early
    },
    chave: receiverKey,
    solicitacaoPagador: 'Tuition, March',
  }));

  try {
    // 1. Create: 202, the charges are processed asynchronously.
    await api.lotecobv.put(batchId, { descricao: 'Tuition, March', cobsv });

    // 2. Follow the charge requests until none is EM_PROCESSAMENTO.
    let lote: LoteCobVConsultado = await api.lotecobv.get(batchId);
    for (let attempt = 0; attempt < 20 && lote.cobsv.some((c) => c.status === 'EM_PROCESSAMENTO'); attempt++) {
      await sleep(pause);
      lote = await api.lotecobv.get(batchId);
    }
    for (const item of lote.cobsv) {
      const why = item.problema?.violacoes?.map((v) => v.propriedade).join(', ');
      console.log(`${item.txid}: ${item.status}${why ? ` (${why})` : ''}`);
    }

    // 3. Alter the whole batch: exactly the same charges, a later due date. `alter` reads the
    //    batch first and refuses (nothing written) a body that adds or drops a charge.
    const later = addDays(due, 5);
    await api.lotecobv.alter(batchId, {
      descricao: 'Tuition, March (extended)',
      cobsv: cobsv.map((c) => ({ ...c, calendario: { ...c.calendario, dataDeVencimento: later } })),
    });

    // 4. Revise one charge only; `checkBatch` refuses a txid that is not in the batch.
    //    Changes to a batch are applied asynchronously too: read the charge to see one applied.
    const [first] = cobsv;
    if (first) {
      await api.lotecobv.update(
        batchId,
        { cobsv: [{ txid: first.txid, valor: { original: '430.00' } }] },
        { checkBatch: true },
      );
      for (let attempt = 0; attempt < 20 && (await api.cobv.get(first.txid)).valor.original !== '430.00'; attempt++)
        await sleep(pause);
    }

    // 5. The batch's charges that exist (CRIADA), as due-date charges.
    const fim = new Date().toISOString();
    const inicio = new Date(Date.now() - 3600_000).toISOString();
    for await (const cobv of api.cobv.list({ inicio, fim, loteCobVId: Number(batchId) })) {
      console.log(`${cobv.txid} due ${cobv.calendario.dataDeVencimento}: ${cobv.valor.original} (${cobv.status})`);
    }
  } catch (error) {
    if (error instanceof LoteCobVOperacaoInvalida) {
      console.error(`batch refused (${error.sentRequest ? 'by the service' : 'before sending'}):`);
      for (const v of error.violacoes) console.error(`  ${v.propriedade}: ${v.razao}`);
    } else if (error instanceof ApiError) {
      console.error(`service said ${error.status} ${error.errorType ?? ''}`);
    } else {
      throw error;
    }
    process.exitCode = 1;
  } finally {
    await close();
  }
}

runMain(import.meta, main);
