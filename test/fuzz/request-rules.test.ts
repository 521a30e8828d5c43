/**
 * Arbitrary requests through the client-side rules, by the public methods: charge, batch,
 * location, refund and webhook bodies, the recurring part's (recurrences, confirmation requests,
 * recurring charges and their retries, recurrence locations and webhooks), list queries and path
 * parameters, each field valid,
 * missing, or any value at all. A `fetch` stub answers whatever is sent with a plausible
 * success. Every call settles quickly with either an answer (and then it was sent) or an
 * `InstantError`; a refusal before sending names its violations and sent nothing; every error
 * survives `JSON.stringify` and `util.inspect`.
 */
import fc from 'fast-check';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  InstantClient,
  InstantError,
  addDays,
  todayInBrasilia,
  type CobRSolicitada,
  type CobSolicitada,
  type OwnAccount,
} from '../../src/index.ts';
import { PayerClient } from '../../src/payer.ts';
import { amountArb, anyStringArb, cpfArb, keyArb, numericCnpjArb } from '../lib/arbitraries.ts';
import { FUZZ_RUNS, FUZZ_TIMEOUT } from './settings.ts';

const BASE = 'https://api.example.com/v2';
const OWN_KEY = '7c084cd4-54af-4172-a516-a7d1a12b75cc';
const OWN_ACCOUNT: OwnAccount = { conta: '012682', agencia: '9708', tipoConta: 'CORRENTE' };
const SETTLE_MS = 2_000;

// ---------------------------------------------------------------------------------------------
// Arbitraries: a field is usually of the right kind, sometimes anything at all.

const wild = fc.oneof(
  anyStringArb,
  fc.anything({
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withSparseArray: true,
    withTypedArray: true,
    maxDepth: 2,
  }),
  fc.constantFrom(undefined, null, Number.NaN, -1, 0, 1.5, 2 ** 31, '', ' ', '0.00'),
);
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: wild });
const record = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof({ weight: 12, arbitrary: fc.record(fields, { requiredKeys: [] }) }, { weight: 1, arbitrary: wild });
const text = (max: number) => fc.string({ maxLength: max + 5 });
const civilDate = fc
  .date({ min: new Date('2020-01-01Z'), max: new Date('2035-12-31Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const instant = fc
  .date({ min: new Date('2020-01-01Z'), max: new Date('2035-12-31Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const txid = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{26,35}$/) },
  { weight: 1, arbitrary: anyStringArb },
);
const e2eid = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{32}$/) },
  { weight: 1, arbitrary: anyStringArb },
);
const chave = fc.oneof(fc.constant(OWN_KEY), keyArb);
const infoAdicionais = fc.array(record({ nome: maybe(text(50)), valor: maybe(text(200)) }), { maxLength: 3 });
const person = fc.oneof(
  record({ cpf: maybe(cpfArb), nome: maybe(text(200)) }),
  record({ cnpj: maybe(numericCnpjArb), nome: maybe(text(200)) }),
  record({ cpf: maybe(cpfArb), cnpj: maybe(numericCnpjArb), nome: maybe(text(200)) }),
);
const address = {
  email: maybe(fc.emailAddress()),
  logradouro: maybe(text(200)),
  cidade: maybe(text(200)),
  uf: maybe(text(2)),
  cep: maybe(fc.stringMatching(/^\d{8}$/)),
};
const devedorCobV = fc.oneof(
  fc
    .tuple(person, record(address))
    .map(([p, a]) => (typeof p === 'object' && p !== null && typeof a === 'object' && a !== null ? { ...p, ...a } : p)),
  wild,
);
const modalidade = (max: number) => fc.oneof(fc.integer({ min: 1, max }), fc.integer({ min: -1, max: max + 1 }));

const cobBody = record({
  calendario: maybe(record({ expiracao: maybe(fc.integer({ min: -1, max: 10 ** 7 })) })),
  devedor: maybe(person),
  loc: maybe(record({ id: maybe(fc.integer({ min: -1, max: 10 ** 6 })) })),
  valor: maybe(
    record({
      original: maybe(amountArb),
      modalidadeAlteracao: maybe(fc.constantFrom(0, 1, 2)),
      retirada: maybe(
        record({
          saque: maybe(
            record({
              valor: maybe(amountArb),
              modalidadeAgente: maybe(fc.constantFrom('AGTEC', 'AGTOT', 'AGPSS', 'X')),
              prestadorDoServicoDeSaque: maybe(fc.stringMatching(/^[0-9A-Z]{8}$/)),
            }),
          ),
        }),
      ),
    }),
  ),
  chave: maybe(chave),
  solicitacaoPagador: maybe(text(140)),
  infoAdicionais: maybe(infoAdicionais),
  status: fc.constantFrom('REMOVIDA_PELO_USUARIO_RECEBEDOR', 'ATIVA'),
});

const cobvValor = record({
  original: maybe(amountArb),
  multa: maybe(record({ modalidade: maybe(modalidade(2)), valorPerc: maybe(amountArb) })),
  juros: maybe(record({ modalidade: maybe(modalidade(8)), valorPerc: maybe(amountArb) })),
  abatimento: maybe(record({ modalidade: maybe(modalidade(2)), valorPerc: maybe(amountArb) })),
  desconto: maybe(
    record({
      modalidade: maybe(modalidade(6)),
      valorPerc: maybe(amountArb),
      descontoDataFixa: maybe(
        fc.array(record({ data: maybe(civilDate), valorPerc: maybe(amountArb) }), { maxLength: 4 }),
      ),
    }),
  ),
});
const cobvFields = {
  calendario: maybe(
    record({
      dataDeVencimento: maybe(civilDate),
      validadeAposVencimento: maybe(fc.integer({ min: -1, max: 10 ** 4 })),
    }),
  ),
  devedor: maybe(devedorCobV),
  loc: maybe(record({ id: maybe(fc.nat()) })),
  valor: maybe(cobvValor),
  chave: maybe(chave),
  solicitacaoPagador: maybe(text(140)),
  infoAdicionais: maybe(infoAdicionais),
};
const cobvBody = record(cobvFields);
const loteBody = record({
  descricao: maybe(text(200)),
  cobsv: maybe(fc.array(record({ ...cobvFields, txid: maybe(txid) }), { maxLength: 4 })),
});
/**
 * A list query: half the draws take anything for each field, the other half have a well-formed
 * period (inicio and fim both there, in order), without which a query is refused. Left to chance,
 * a period came out whole and in order in about 3% of draws, and a run of 300 once sent nothing.
 */
const listQueryOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    { weight: 1, arbitrary: record({ inicio: maybe(instant), fim: maybe(instant), ...fields }) },
    {
      weight: 1,
      arbitrary: fc.tuple(instant, instant, fc.record(fields, { requiredKeys: [] })).map(([a, b, rest]) => {
        // ISO instants of one form sort as text in time order.
        const [inicio, fim] = [a, b].sort();
        return { ...rest, inicio, fim };
      }),
    },
  );
const listQuery = listQueryOf({
  cpf: maybe(cpfArb),
  cnpj: maybe(numericCnpjArb),
  status: maybe(fc.constantFrom('ATIVA', 'CONCLUIDA')),
  locationPresente: maybe(fc.boolean()),
  loteCobVId: maybe(fc.nat()),
  txid: maybe(txid),
  txIdPresente: maybe(fc.boolean()),
  devolucaoPresente: maybe(fc.boolean()),
  tipoCob: maybe(fc.constantFrom('cob', 'cobv')),
  paginacao: maybe(
    record({
      paginaAtual: maybe(fc.integer({ min: -1, max: 10 })),
      itensPorPagina: maybe(fc.integer({ min: -1, max: 1001 })),
    }),
  ),
});
const refundBody = record({
  valor: maybe(amountArb),
  natureza: maybe(fc.constantFrom('ORIGINAL', 'RETIRADA', 'OTHER')),
  descricao: maybe(text(140)),
});
const id = fc.oneof(fc.nat(), fc.integer(), anyStringArb, fc.constantFrom('.', '..', '', '1'));
const webhookUrl = fc.oneof(
  fc.webUrl(),
  fc.webUrl().map((u) => u.replace(/^https?/, 'http')),
  anyStringArb,
);
// The recurring part: ids of the formation rule, dates around today, hyphenated ceps.
const idRec = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^R[RN][0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/) },
  { weight: 1, arbitrary: anyStringArb },
);
const idSolicRec = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^SC[0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/) },
  { weight: 1, arbitrary: anyStringArb },
);
const nearDate = fc.oneof(
  civilDate,
  fc.integer({ min: -3, max: 400 }).map((days) => addDays(todayInBrasilia(), days)),
);
const nearInstant = fc.oneof(
  instant,
  nearDate.map((date) => `${date}T12:00:00-03:00`),
);
const recBody = record({
  idRec: maybe(idRec),
  vinculo: maybe(record({ contrato: maybe(text(35)), objeto: maybe(text(35)), devedor: maybe(person) })),
  calendario: maybe(
    record({
      dataInicial: maybe(nearDate),
      dataFinal: maybe(nearDate),
      periodicidade: maybe(fc.constantFrom('SEMANAL', 'MENSAL', 'ANUAL', 'DIARIA')),
    }),
  ),
  valor: maybe(record({ valorRec: maybe(amountArb), valorMinimoRecebedor: maybe(amountArb) })),
  politicaRetentativa: maybe(fc.constantFrom('NAO_PERMITE', 'PERMITE_3R_7D', 'SEMPRE')),
  recebedor: maybe(record({ convenio: maybe(text(60)) })),
  loc: maybe(fc.integer({ min: -1, max: 10 ** 6 })),
  ativacao: maybe(record({ dadosJornada: maybe(record({ txid: maybe(txid) })) })),
  status: maybe(fc.constantFrom('CANCELADA', 'APROVADA')),
});
const solicRecBody = record({
  idRec: maybe(idRec),
  calendario: maybe(record({ dataExpiracaoSolicitacao: maybe(nearInstant) })),
  destinatario: maybe(
    record({
      conta: maybe(text(20)),
      agencia: maybe(text(4)),
      ispbParticipante: maybe(fc.stringMatching(/^[0-9A-Z]{8}$/)),
      cpf: maybe(cpfArb),
      cnpj: maybe(numericCnpjArb),
    }),
  ),
});
const cobRBody = record({
  idRec: maybe(idRec),
  infoAdicional: maybe(text(140)),
  calendario: maybe(record({ dataDeVencimento: maybe(nearDate) })),
  valor: maybe(record({ original: maybe(amountArb) })),
  ajusteDiaUtil: maybe(fc.boolean()),
  recebedor: maybe(
    fc.oneof(
      fc.constant(OWN_ACCOUNT),
      record({
        conta: maybe(fc.stringMatching(/^\d{1,22}$/)),
        agencia: maybe(fc.stringMatching(/^\d{1,5}$/)),
        tipoConta: maybe(fc.constantFrom('CORRENTE', 'POUPANCA', 'PAGAMENTO', 'POUPANÇA')),
      }),
    ),
  ),
  devedor: maybe(
    record({ ...address, cep: maybe(fc.oneof(fc.stringMatching(/^\d{8}$/), fc.stringMatching(/^\d{5}-\d{3}$/))) }),
  ),
  status: maybe(fc.constantFrom('CRIADA', 'PENDENTE')),
});
const recurringListQuery = listQueryOf({
  cpf: maybe(cpfArb),
  cnpj: maybe(numericCnpjArb),
  idRec: maybe(idRec),
  status: maybe(fc.constantFrom('CRIADA', 'ATIVA')),
  convenio: maybe(text(60)),
  locationPresente: maybe(fc.boolean()),
  idRecPresente: maybe(fc.boolean()),
  paginacao: maybe(
    record({
      paginaAtual: maybe(fc.integer({ min: -1, max: 10 })),
      itensPorPagina: maybe(fc.integer({ min: -1, max: 1001 })),
    }),
  ),
});
const callOptions = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant({ validate: false }) },
);

// ---------------------------------------------------------------------------------------------
// The stub service: a plausible success for whatever arrives.

const LIST_PAGE = {
  parametros: {
    inicio: '2026-01-01T00:00:00Z',
    fim: '2026-01-02T00:00:00Z',
    paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 },
  },
  cobs: [],
  recs: [],
  cobsr: [],
  loc: [],
  instant: [],
  webhooks: [],
  lotes: [],
};
const RECORD = {
  txid: 'fuzzcharge00000000000000000001',
  revisao: 0,
  status: 'ATIVA',
  calendario: {
    criacao: '2026-01-01T00:00:00Z',
    expiracao: 3600,
    dataDeVencimento: '2026-02-01',
    validadeAposVencimento: 30,
  },
  valor: { original: '1.00' },
  chave: OWN_KEY,
  devedor: { cpf: '12345678909', nome: 'Test' },
  recebedor: { nome: 'Shop', logradouro: 'Rua', cidade: 'Recife', uf: 'PE', cep: '50000000' },
  id: 1,
  location: 'instant.example.com/qr/v2/abc',
  tipoCob: 'cob',
  criacao: '2026-01-01T00:00:00Z',
  rtrId: 'D12345678202601010000abcdefghijk',
  status_: 'EM_PROCESSAMENTO',
  webhookUrl: 'https://hooks.example.com',
  cobsv: [],
};

function answer(method: string, url: URL): Response {
  const segments = url.pathname
    .replace(/^\/v2\//, '')
    .split('/')
    .filter(Boolean);
  if (segments[0]?.startsWith('webhook') && method !== 'GET') return new Response(null, { status: 204 });
  if (segments[0] === 'lotecobv' && method !== 'GET') return new Response(null, { status: 202 });
  const body = method === 'GET' && segments.length === 1 ? LIST_PAGE : RECORD;
  return Response.json(body);
}

interface Tally {
  sent: number;
  refused: number;
  failedAfterSending: number;
}

/** Runs one call on a fresh client; fails the property on anything but an answer or an InstantError. */
async function judge(
  tally: Tally,
  call: (api: InstantClient) => unknown,
  ownKeys?: readonly string[],
  ownAccounts?: readonly OwnAccount[],
): Promise<void> {
  let requests = 0;
  const api = new InstantClient({
    baseUrl: BASE,
    maxRetries: 0,
    ...(ownKeys && { ownKeys }),
    ...(ownAccounts && { ownAccounts }),
    auth: { getToken: async () => 'fuzz-token' },
    fetch: async (input, init) => {
      requests++;
      const request = new Request(input, init);
      return answer(request.method, new URL(request.url));
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    Promise.resolve()
      .then(() => call(api))
      .then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), SETTLE_MS);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === 'hung') throw new Error(`the call did not settle within ${SETTLE_MS} ms`);
  if (outcome.ok) {
    if (requests === 0) throw new Error('answered without sending anything');
    tally.sent++;
    return;
  }
  const { error } = outcome;
  if (!(error instanceof InstantError)) {
    throw new Error(
      `escaped: ${(error as Error)?.name ?? typeof error}: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  JSON.stringify(error);
  inspect(error, { depth: 5 });
  if (requests === 0) {
    tally.refused++;
    if (error instanceof ApiError) {
      if (error.sentRequest) throw new Error('sentRequest is true but nothing was sent');
      if (error.violacoes.length === 0) throw new Error(`refusal without violacoes: ${error.message}`);
      for (const v of error.violacoes)
        if (typeof v.propriedade !== 'string') throw new Error('violacao without propriedade');
    }
  } else {
    tally.failedAfterSending++;
    if (error instanceof ApiError && !error.sentRequest) throw new Error(`refused after sending: ${error.message}`);
  }
}

type Operation = [name: string, args: fc.Arbitrary<unknown[]>, call: (api: InstantClient, args: unknown[]) => unknown];

const OPERATIONS: Operation[] = [
  [
    'cob.create(txid, body)',
    fc.tuple(txid, cobBody, callOptions),
    (api, [t, b, o]) => api.cob.create(t as string, b as never, o as never),
  ],
  ['cob.create(body)', fc.tuple(cobBody, callOptions), (api, [b, o]) => api.cob.create(b as CobSolicitada, o as never)],
  [
    'cob.update(txid, patch)',
    fc.tuple(txid, cobBody, callOptions),
    (api, [t, b, o]) => api.cob.update(t as string, b as never, o as never),
  ],
  [
    'cob.get(txid, query)',
    fc.tuple(txid, record({ revisao: maybe(fc.integer({ min: -1, max: 100 })) })),
    (api, [t, q]) => api.cob.get(t as string, q as never),
  ],
  ['cob.list(query)', fc.tuple(listQuery), (api, [q]) => api.cob.list(q as never)],
  [
    'cobv.create(txid, body)',
    fc.tuple(txid, cobvBody, callOptions),
    (api, [t, b, o]) => api.cobv.create(t as string, b as never, o as never),
  ],
  [
    'cobv.update(txid, patch)',
    fc.tuple(txid, cobvBody, callOptions),
    (api, [t, b, o]) => api.cobv.update(t as string, b as never, o as never),
  ],
  ['cobv.list(query)', fc.tuple(listQuery), (api, [q]) => api.cobv.list(q as never)],
  [
    'lotecobv.put(id, body)',
    fc.tuple(id, loteBody, callOptions),
    (api, [i, b, o]) => api.lotecobv.put(i as never, b as never, o as never),
  ],
  [
    'lotecobv.update(id, body)',
    fc.tuple(id, loteBody, callOptions),
    (api, [i, b, o]) => api.lotecobv.update(i as never, b as never, o as never),
  ],
  ['lotecobv.list(query)', fc.tuple(listQuery), (api, [q]) => api.lotecobv.list(q as never)],
  [
    'loc.create(body)',
    fc.tuple(record({ tipoCob: maybe(fc.constantFrom('cob', 'cobv')) })),
    (api, [b]) => api.loc.create(b as never),
  ],
  [
    'loc.get(id) / unlink(id)',
    fc.tuple(id, fc.boolean()),
    (api, [i, unlink]) => (unlink ? api.loc.unlink(i as never) : api.loc.get(i as never)),
  ],
  ['loc.list(query)', fc.tuple(listQuery), (api, [q]) => api.loc.list(q as never)],
  [
    'instant.refund(e2eid, id, body)',
    fc.tuple(e2eid, id, refundBody, callOptions),
    (api, [e, i, b, o]) => api.instant.refund(e as string, i as never, b as never, o as never),
  ],
  // One call each: a refusal racing a sent call would blur "refusals send nothing".
  ['instant.get(e2eid)', fc.tuple(e2eid), (api, [e]) => api.instant.get(e as string)],
  [
    'instant.getRefund(e2eid, id)',
    fc.tuple(e2eid, id),
    (api, [e, i]) => api.instant.getRefund(e as string, i as never),
  ],
  ['instant.list(query)', fc.tuple(listQuery), (api, [q]) => api.instant.list(q as never)],
  [
    'webhook.put(chave, url)',
    fc.tuple(maybe(chave), webhookUrl),
    (api, [c, u]) => api.webhook.put(c as string, u as string),
  ],
  [
    'webhook.get / delete(chave)',
    fc.tuple(maybe(chave), fc.boolean()),
    (api, [c, del]) => (del ? api.webhook.delete(c as string) : api.webhook.get(c as string)),
  ],
  ['rec.create(body)', fc.tuple(recBody, callOptions), (api, [b, o]) => api.rec.create(b as never, o as never)],
  [
    'rec.update(idRec, patch)',
    fc.tuple(idRec, recBody, callOptions),
    (api, [i, b, o]) => api.rec.update(i as string, b as never, o as never),
  ],
  [
    'rec.get / cancel(idRec)',
    fc.tuple(idRec, record({ txid: maybe(txid) }), fc.boolean()),
    (api, [i, q, cancel]) => (cancel ? api.rec.cancel(i as string) : api.rec.get(i as string, q as never)),
  ],
  ['rec.list(query)', fc.tuple(recurringListQuery), (api, [q]) => api.rec.list(q as never)],
  [
    'solicrec.create(body)',
    fc.tuple(solicRecBody, callOptions),
    (api, [b, o]) => api.solicrec.create(b as never, o as never),
  ],
  [
    'solicrec.get / cancel(idSolicRec)',
    fc.tuple(idSolicRec, fc.boolean()),
    (api, [i, cancel]) => (cancel ? api.solicrec.cancel(i as string) : api.solicrec.get(i as string)),
  ],
  [
    'cobr.create(txid, body)',
    fc.tuple(txid, cobRBody, callOptions),
    (api, [t, b, o]) => api.cobr.create(t as string, b as never, o as never),
  ],
  [
    'cobr.create(body)',
    fc.tuple(cobRBody, callOptions),
    (api, [b, o]) => api.cobr.create(b as CobRSolicitada, o as never),
  ],
  [
    'cobr.update(txid, patch) / get(txid)',
    fc.tuple(txid, record({ status: maybe(fc.constantFrom('CANCELADA', 'ATIVA')) }), fc.boolean()),
    (api, [t, b, get]) => (get ? api.cobr.get(t as string) : api.cobr.update(t as string, b as never)),
  ],
  [
    'cobr.retry(txid, data)',
    fc.tuple(txid, maybe(nearDate), callOptions),
    (api, [t, d, o]) => api.cobr.retry(t as string, d as string, o as never),
  ],
  ['cobr.list(query)', fc.tuple(recurringListQuery), (api, [q]) => api.cobr.list(q as never)],
  [
    'locrec.create / get / unlink',
    fc.tuple(id, fc.constantFrom('create', 'get', 'unlink')),
    (api, [i, what]) =>
      what === 'create'
        ? api.locrec.create()
        : what === 'get'
          ? api.locrec.get(i as never)
          : api.locrec.unlink(i as never),
  ],
  ['locrec.list(query)', fc.tuple(recurringListQuery), (api, [q]) => api.locrec.list(q as never)],
  [
    'webhookrec / webhookcobr put, get, delete',
    fc.tuple(webhookUrl, fc.boolean(), fc.constantFrom('put', 'get', 'delete')),
    (api, [u, cobr, what]) => {
      const registration = cobr ? api.webhookcobr : api.webhookrec;
      return what === 'put'
        ? registration.put(u as string)
        : what === 'get'
          ? registration.get()
          : registration.delete();
    },
  ],
];

describe('fuzz: requests through the client-side rules', () => {
  for (const [name, args, call] of OPERATIONS) {
    it(
      `${name}: an answer after sending, or an InstantError; refusals send nothing`,
      async () => {
        const tally: Tally = { sent: 0, refused: 0, failedAfterSending: 0 };
        await fc.assert(
          fc.asyncProperty(args, fc.boolean(), async (values, withOwnKeys) => {
            await judge(
              tally,
              (api) => call(api, values),
              withOwnKeys ? [OWN_KEY] : undefined,
              withOwnKeys ? [OWN_ACCOUNT] : undefined,
            );
          }),
          { numRuns: FUZZ_RUNS },
        );
        // The generators reach both sides of the rules.
        expect(tally.refused, 'refused').toBeGreaterThan(0);
        expect(tally.sent + tally.failedAfterSending, 'sent').toBeGreaterThan(0);
      },
      FUZZ_TIMEOUT,
    );
  }
});

describe('fuzz: payer locations', () => {
  it(
    'getCob / getCobv / recPayload.get with any location: only InstantErrors, nothing sent for a refused location',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            anyStringArb,
            fc.webUrl(),
            fc.webUrl().map((u) => u.replace(/^https?:\/\//, '')),
            wild,
          ),
          fc.constantFrom('cob', 'cobv', 'rec'),
          async (location, kind) => {
            let requests = 0;
            const payerClient = new PayerClient({
              maxRetries: 0,
              fetch: async () => {
                requests++;
                return new Response('not a signed payload', {
                  status: 200,
                  headers: { 'content-type': 'application/jose' },
                });
              },
            } as never);
            const read =
              kind === 'rec'
                ? payerClient.recPayload.get(location as string)
                : kind === 'cobv'
                  ? payerClient.cobPayload.getCobv(location as string)
                  : payerClient.cobPayload.getCob(location as string);
            const error = await read.then(
              () => new Error('an unsigned payload was accepted'),
              (e: unknown) => e,
            );
            if (!(error instanceof InstantError)) throw new Error(`escaped: ${String(error)}`, { cause: error });
            if (error.name === 'InvalidLocationError' && requests > 0)
              throw new Error('a refused location was fetched');
            JSON.stringify(error);
          },
        ),
        { numRuns: FUZZ_RUNS },
      );
    },
    FUZZ_TIMEOUT,
  );
});

describe('cases the fuzzing found', () => {
  const counterexamples: Array<[string, (api: InstantClient) => unknown]> = [
    [
      'a lone surrogate as a path parameter (validate: false)',
      (api) => api.cob.create('\ud800', {} as never, { validate: false }),
    ],
    ['a null query of get', (api) => api.cob.get('fuzzcharge00000000000000000001', null as never)],
    ['a null query of cobv.get', (api) => api.cobv.get('fuzzcharge00000000000000000001', null as never)],
    ['an undefined query of cobv.list', (api) => api.cobv.list(undefined as never)],
    ['a txid without a prototype in instant.list', (api) => api.instant.list({ txid: Object.create(null) } as never)],
    ['a BigInt in a checked field', (api) => api.cob.get('fuzzcharge00000000000000000001', { revisao: [0n] } as never)],
    [
      'an object without a prototype as a path parameter (validate: false)',
      (api) => api.cobr.retry('0', Object.create(null) as never, { validate: false }),
    ],
  ];
  it.each(counterexamples)('%s: an InstantError', async (_, call) => {
    await judge({ sent: 0, refused: 0, failedAfterSending: 0 }, call);
  });

  // Known gap, left to the HTTP core (src/core/http.ts): a body JSON cannot carry (a BigInt in a
  // field no rule looks at, or any BigInt with validate: false) escapes as ky's TypeError. When
  // it becomes an InstantError this test fails: then drop `.fails` and add BigInt to `wild`.
  it('a body JSON cannot carry, with no rule to catch it, is refused before sending with the field named', async () => {
    await judge({ sent: 0, refused: 0, failedAfterSending: 0 }, (api) =>
      api.cob.create('fuzzcharge00000000000000000001', { valor: { original: 1n } } as never, { validate: false }),
    );
    const api = new InstantClient({
      baseUrl: BASE,
      auth: { getToken: async () => 't' },
      fetch: async () => Response.json({}),
    });
    const error = await api.cob
      .create('fuzzcharge00000000000000000001', { valor: { original: 1n } } as never, { validate: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'CobOperacaoInvalida',
      sentRequest: false,
      violacoes: [{ propriedade: 'valor.original' }],
    });
  });
});
