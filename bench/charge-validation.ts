/**
 * Client-side validation of a 10,000-charge due-date batch (`lotecobv.put` judges every charge
 * before sending). Goal: at most 20 µs per charge.
 */
import { todayInBrasilia, addDays } from '../src/lib/dates.ts';
import { ruleContext } from '../src/core/validation.ts';
import { checkLoteCobV } from '../src/rules/lotecobv.ts';
import type { LoteCobVSolicitado } from '../src/index.ts';

const CHARGES = 10_000;
const ROUNDS = 15;

/** A realistic batch: debtor with address, fine, interest, fixed-date discounts, extra info. */
export function buildBatch(size: number, today = todayInBrasilia()): LoteCobVSolicitado {
  const due = addDays(today, 30);
  return {
    descricao: 'Monthly fees',
    cobsv: Array.from({ length: size }, (_, i) => ({
      txid: `batchcharge${String(i).padStart(20, '0')}`,
      calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
      devedor:
        i % 2 === 0
          ? { cpf: '12345678909', nome: 'Test Person', logradouro: 'Rua Um, 1', cidade: 'Recife', uf: 'PE', cep: '70011750' }
          : { cnpj: '12ABC34501DE35', nome: 'Test Company', email: 'billing@company.example' },
      valor: {
        original: '150.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '0.03' },
        desconto: {
          modalidade: 1,
          descontoDataFixa: [
            { data: addDays(today, 10), valorPerc: '10.00' },
            { data: addDays(today, 20), valorPerc: '5.00' },
          ],
        },
      },
      chave: '7c084cd4-54af-4172-a516-a7d1a12b75cc',
      solicitacaoPagador: 'Enrollment number',
      infoAdicionais: [
        { nome: 'Course', valor: 'Evening class' },
        { nome: 'Month', valor: 'March' },
      ],
    })),
  };
}

export async function run(): Promise<void> {
  const today = todayInBrasilia();
  const batch = buildBatch(CHARGES, today);
  const ownKeys = ['7c084cd4-54af-4172-a516-a7d1a12b75cc'];
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ctx = ruleContext(ownKeys);
    const started = performance.now();
    checkLoteCobV(batch, ctx, 'create', () => today);
    timings.push(performance.now() - started);
    if (ctx.out.length > 0) throw new Error(`benchmark batch should be valid: ${ctx.out.length} violations`);
  }
  const sorted = timings.toSorted((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const best = sorted[0] ?? Number.NaN;
  const perCharge = (ms: number) => ((ms * 1000) / CHARGES).toFixed(2);
  console.log(
    `charge-validation: ${CHARGES} charges, median ${median.toFixed(1)} ms (${perCharge(median)} µs/charge), ` +
      `best ${best.toFixed(1)} ms (${perCharge(best)} µs/charge), first ${timings[0]?.toFixed(1)} ms; goal ≤ 20 µs/charge`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
