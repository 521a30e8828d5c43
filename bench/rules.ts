/**
 * The client-side rules, through the public API with a `fetch` that answers at once (no
 * network): a 10,000-charge due-date batch sent with the rules on against the same call with
 * `validate: false` (the difference is the rule checks), and the cost of a refused charge
 * against throwing a plain Error from an async function. The refusal's goal is judged as the
 * throughput goals are, by the median of the per-round ratios over many short rounds (each
 * round runs both, one after the other): the ratio of the medians of 5 rounds of 5,000 calls
 * moved from 1.10x to 1.19x between two runs of the same code, as far as the goal's margin.
 */
import type * as Main from '../src/index.ts';
import { fmt, interleave, loadSdk, median, pairedRatio, perCallUs, type Row } from './support.ts';
import { CHARGE } from './throughput.ts';

const CHARGES = 10_000;
const ROUNDS = 5;
/** Refusals per contender per round (about 15 ms), and rounds. */
const REFUSALS = 2_000;
const REFUSAL_ROUNDS = 31;
/** A refusal may cost this many times an async throw of a plain Error, measured in the same run. */
const REFUSAL_OVER_PLAIN_THROW = 1.2;
const KEY = '7c084cd4-54af-4172-a516-a7d1a12b75cc';

/** A realistic batch: debtor with address, fine, interest, fixed-date discounts, extra info. */
export function buildBatch(sdk: typeof Main, size: number): Main.LoteCobVSolicitado {
  const today = sdk.todayInBrasilia();
  const due = sdk.addDays(today, 30);
  return {
    descricao: 'Monthly fees',
    cobsv: Array.from({ length: size }, (_, i) => ({
      txid: `batchcharge${String(i).padStart(20, '0')}`,
      calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
      devedor:
        i % 2 === 0
          ? {
              cpf: '12345678909',
              nome: 'Test Person',
              logradouro: 'Rua Um, 1',
              cidade: 'Recife',
              uf: 'PE',
              cep: '70011750',
            }
          : { cnpj: '12ABC34501DE35', nome: 'Test Company', email: 'billing@company.example' },
      valor: {
        original: '150.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '0.03' },
        desconto: {
          modalidade: 1,
          descontoDataFixa: [
            { data: sdk.addDays(today, 10), valorPerc: '10.00' },
            { data: sdk.addDays(today, 20), valorPerc: '5.00' },
          ],
        },
      },
      chave: KEY,
      solicitacaoPagador: 'Enrollment number',
      infoAdicionais: [
        { nome: 'Course', valor: 'Evening class' },
        { nome: 'Month', valor: 'March' },
      ],
    })),
  };
}

export async function measure(): Promise<Row[]> {
  const sdk = await loadSdk();
  const answered = offlineClient(sdk, async () => new Response(null, { status: 202 }));
  const batch = buildBatch(sdk, CHARGES);
  const timed = (options: Main.RequestOptions) => async () => {
    const t0 = performance.now();
    await answered.lotecobv.put(1, batch, options);
    return performance.now() - t0;
  };
  await timed({})(); // warm-up
  const runs = await interleave(ROUNDS, { checked: timed({}), unchecked: timed({ validate: false }) });
  const checked = median(runs['checked'] ?? []);
  const unchecked = median(runs['unchecked'] ?? []);
  const perCharge = ((checked - unchecked) * 1000) / CHARGES;

  const offline = offlineClient(sdk, async () => {
    throw new Error('a refused call must not reach fetch');
  });
  const invalid = { ...CHARGE, valor: { original: '0.00' } };
  const refuse = async () => {
    const error = await offline.cob.create('benchcharge0000000000000000004', invalid).catch((e: unknown) => e);
    if (!(error instanceof sdk.CobOperacaoInvalida)) throw new Error('expected a refusal');
  };
  const plain = async () =>
    (async () => {
      throw new Error('refused');
    })().catch((e: unknown) => e);
  await perCallUs(2_000, refuse);
  await perCallUs(2_000, plain);
  const stackless = async () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return await perCallUs(REFUSALS, refuse);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  const refusals = await interleave(REFUSAL_ROUNDS, {
    refusal: () => perCallUs(REFUSALS, refuse),
    plain: () => perCallUs(REFUSALS, plain),
    stackless,
  });
  const refusal = median(refusals['refusal'] ?? []);
  const plainUs = median(refusals['plain'] ?? []);
  const stacklessUs = median(refusals['stackless'] ?? []);
  const refusalOverPlain = pairedRatio(refusals, 'refusal', 'plain', (us) => us);
  const stacklessOverRefusal = pairedRatio(refusals, 'stackless', 'refusal', (us) => us);
  const spread = (r: { q1: number; q3: number }) => `rounds' IQR ${r.q1.toFixed(2)}–${r.q3.toFixed(2)}`;
  await Promise.all([answered.close(), offline.close()]);

  return [
    {
      measure: `rule checks per charge (${fmt.int(CHARGES)}-charge lotecobv.put, checked minus unchecked)`,
      value: `${fmt.fixed(perCharge, 2)} µs`,
      baseline: `unchecked call ${fmt.fixed(unchecked, 1)} ms, checked ${fmt.fixed(checked, 1)} ms`,
      ratio: fmt.ratio(checked / unchecked),
      goal: '(for reference)',
      holds: undefined,
    },
    {
      measure: `cost of a refusal (cob.create with valor.original "0.00", rejected before I/O; ${REFUSAL_ROUNDS} rounds of ${fmt.int(REFUSALS)})`,
      value: `${fmt.fixed(refusal, 2)} µs`,
      baseline: `async throw of a plain Error ${fmt.fixed(plainUs, 2)} µs`,
      ratio: `${fmt.ratio(refusalOverPlain.median)} (${spread(refusalOverPlain)})`,
      goal: `≤ ${REFUSAL_OVER_PLAIN_THROW}x a plain async throw`,
      holds: refusalOverPlain.median <= REFUSAL_OVER_PLAIN_THROW,
    },
    {
      measure: 'same refusal with Error.stackTraceLimit = 0 (share of the stack)',
      value: `${fmt.fixed(stacklessUs, 2)} µs`,
      baseline: `with stacks ${fmt.fixed(refusal, 2)} µs`,
      ratio: `${fmt.ratio(stacklessOverRefusal.median)} (${spread(stacklessOverRefusal)})`,
      goal: '(diagnostic)',
      holds: undefined,
    },
  ];
}

/** An InstantClient whose every request goes to `fetch` (no network), with a fixed token. */
function offlineClient(sdk: typeof Main, fetch: Main.FetchLike): Main.InstantClient {
  return new sdk.InstantClient({
    baseUrl: 'http://bench.invalid',
    fetch,
    ownKeys: [KEY],
    auth: { getToken: async () => 'bench-token' },
  });
}
