/**
 * The sandbox's recurring rules and the client's, written apart, give one verdict: each bad
 * request of every recurring endpoint is sent once with the client's checks on (refused before
 * sending) and once with them off (judged by the sandbox over real HTTP); both must be the same
 * error class and status with the same `violacoes` (each `propriedade`, and how many times).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CobRSolicitada, InstantClient, RecSolicitada, SolicRecSolicitada } from '../../src/index.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { CPF, refusal, useSandbox } from '../sandbox/support.ts';
import type { ApiError } from '../../src/index.ts';

const s = useSandbox();
const day = (n: number) => addDays(todayInBrasilia(), n);
const CNPJ = '11222333000181';
let idRec = '';
let _idSolicRec = '';
let cobrTxid = '';

beforeAll(async () => {
  idRec = (await s.api.rec.create(rec())).idRec;
  _idSolicRec = (await s.api.solicrec.create(solicrec())).idSolicRec;
  const approved = (await s.api.rec.create(rec())).idRec;
  await s.sandbox.approveRec(approved);
  cobrTxid = generateTxid();
  await s.api.cobr.create(cobrTxid, { ...cobr(), idRec: approved });
});

const rec = (): RecSolicitada => ({
  vinculo: { contrato: 'C-1', objeto: 'Plan', devedor: { cpf: CPF, nome: 'Fulano de Tal' } },
  calendario: { dataInicial: day(5), periodicidade: 'MENSAL' },
  valor: { valorRec: '29.90' },
  politicaRetentativa: 'PERMITE_3R_7D',
});
const solicrec = (): SolicRecSolicitada => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 86_400_000).toISOString() },
  destinatario: { conta: '550689', agencia: '2569', cpf: CPF, ispbParticipante: '91193552' },
});
const cobr = (): CobRSolicitada => ({
  idRec,
  calendario: { dataDeVencimento: day(10) },
  valor: { original: '29.90' },
  ajusteDiaUtil: true,
  recebedor: { ...s.sandbox.ownAccounts[0]! },
});
const range = () => ({
  inicio: new Date(Date.now() - 3_600_000).toISOString(),
  fim: new Date(Date.now() + 3_600_000).toISOString(),
});
const reversed = { inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' };
const NEW = 'parityCobR0000000000000000001';

type Call = (client: InstantClient) => PromiseLike<unknown>;
const vinculo = (patch: object) => ({ ...rec(), vinculo: { ...rec().vinculo, ...patch } }) as never;
const calendario = (patch: object) => ({ ...rec(), calendario: { ...rec().calendario, ...patch } }) as never;
const destinatario = (patch: object) =>
  ({ ...solicrec(), destinatario: { ...solicrec().destinatario, ...patch } }) as never;
const recebedor = (patch: object) => ({ ...cobr(), recebedor: { ...cobr().recebedor, ...patch } }) as never;

const cases: Array<[string, Call]> = [
  // POST /rec
  ['rec not an object', (c) => c.rec.create(null as never)],
  ['rec vinculo missing', (c) => c.rec.create({ ...rec(), vinculo: undefined } as never)],
  ['rec contrato too long', (c) => c.rec.create(vinculo({ contrato: 'x'.repeat(36) }))],
  ['rec objeto too long', (c) => c.rec.create(vinculo({ objeto: 'x'.repeat(36) }))],
  ['rec devedor with cpf and cnpj', (c) => c.rec.create(vinculo({ devedor: { cpf: CPF, cnpj: CNPJ, nome: 'A' } }))],
  ['rec devedor without a document', (c) => c.rec.create(vinculo({ devedor: { nome: 'A' } }))],
  ['rec devedor cpf out of pattern', (c) => c.rec.create(vinculo({ devedor: { cpf: '123', nome: 'A' } }))],
  ['rec devedor cnpj in lower case', (c) => c.rec.create(vinculo({ devedor: { cnpj: '12abc34501de35', nome: 'A' } }))],
  ['rec devedor nome too long', (c) => c.rec.create(vinculo({ devedor: { cpf: CPF, nome: 'x'.repeat(141) } }))],
  ['rec devedor without nome', (c) => c.rec.create(vinculo({ devedor: { cpf: CPF } }))],
  ['rec calendario missing', (c) => c.rec.create({ ...rec(), calendario: undefined } as never)],
  ['rec dataInicial not a date', (c) => c.rec.create(calendario({ dataInicial: '2026-02-30' }))],
  ['rec dataInicial before today', (c) => c.rec.create(calendario({ dataInicial: day(-2) }))],
  ['rec dataFinal not a date', (c) => c.rec.create(calendario({ dataFinal: 'tomorrow' }))],
  ['rec dataFinal before dataInicial', (c) => c.rec.create(calendario({ dataFinal: day(4) }))],
  ['rec periodicidade unknown', (c) => c.rec.create(calendario({ periodicidade: 'DIARIA' }))],
  ['rec valor not an object', (c) => c.rec.create({ ...rec(), valor: '29.90' } as never)],
  ['rec valorRec out of schema', (c) => c.rec.create({ ...rec(), valor: { valorRec: '29.9' } })],
  [
    'rec valorMinimoRecebedor out of schema',
    (c) => c.rec.create({ ...rec(), valor: { valorMinimoRecebedor: 10 } } as never),
  ],
  [
    'rec valorRec and valorMinimoRecebedor',
    (c) => c.rec.create({ ...rec(), valor: { valorRec: '29.90', valorMinimoRecebedor: '10.00' } } as never),
  ],
  [
    'rec valorRec and a malformed valorMinimoRecebedor',
    (c) => c.rec.create({ ...rec(), valor: { valorRec: '29.90', valorMinimoRecebedor: '10' } } as never),
  ],
  ['rec recebedor convenio too long', (c) => c.rec.create({ ...rec(), recebedor: { convenio: 'x'.repeat(61) } })],
  ['rec recebedor not an object', (c) => c.rec.create({ ...rec(), recebedor: 'x' } as never)],
  ['rec politicaRetentativa missing', (c) => c.rec.create({ ...rec(), politicaRetentativa: undefined } as never)],
  ['rec politicaRetentativa unknown', (c) => c.rec.create({ ...rec(), politicaRetentativa: 'PERMITE' } as never)],
  ['rec loc not an integer', (c) => c.rec.create({ ...rec(), loc: '1' } as never)],
  ['rec loc an object', (c) => c.rec.create({ ...rec(), loc: { id: 1 } } as never)],
  ['rec dadosJornada txid too short', (c) => c.rec.create({ ...rec(), ativacao: { dadosJornada: { txid: 'short' } } })],
  ['rec ativacao not an object', (c) => c.rec.create({ ...rec(), ativacao: 3 } as never)],
  ['rec idRec given, 28 characters', (c) => c.rec.create({ ...rec(), idRec: 'R'.repeat(28) })],
  ['rec idRec given, not a string', (c) => c.rec.create({ ...rec(), idRec: 29 } as never)],
  [
    'rec several at once',
    (c) => c.rec.create({ vinculo: {}, calendario: {}, valor: { valorRec: 'x' }, politicaRetentativa: 'x' } as never),
  ],
  // PATCH /rec/{idRec}
  ['rec PATCH status other than CANCELADA', (c) => c.rec.update(idRec, { status: 'APROVADA' } as never)],
  ['rec PATCH devedor nome too long', (c) => c.rec.update(idRec, { vinculo: { devedor: { nome: 'x'.repeat(141) } } })],
  ['rec PATCH vinculo not an object', (c) => c.rec.update(idRec, { vinculo: 'x' } as never)],
  ['rec PATCH dataInicial not a date', (c) => c.rec.update(idRec, { calendario: { dataInicial: '2026-13-01' } })],
  [
    'rec PATCH dataInicial well before the creation date',
    (c) => c.rec.update(idRec, { calendario: { dataInicial: day(-5) } }),
  ],
  ['rec PATCH calendario not an object', (c) => c.rec.update(idRec, { calendario: 'x' } as never)],
  ['rec PATCH loc not an integer', (c) => c.rec.update(idRec, { loc: 1.5 })],
  [
    'rec PATCH dadosJornada txid malformed',
    (c) => c.rec.update(idRec, { ativacao: { dadosJornada: { txid: 'a-b' } } }),
  ],
  ['rec PATCH idRec malformed', (c) => c.rec.update('R123', { status: 'CANCELADA' })],
  // GET /rec/{idRec}, GET /rec
  ['rec GET idRec malformed', (c) => c.rec.get('R123')],
  ['rec list fim before inicio', (c) => c.rec.list(reversed)],
  ['rec list cpf and cnpj', (c) => c.rec.list({ ...range(), cpf: CPF, cnpj: CNPJ })],
  ['rec list cpf malformed', (c) => c.rec.list({ ...range(), cpf: '123' })],
  ['rec list negative page', (c) => c.rec.list({ ...range(), paginacao: { paginaAtual: -1 } })],
  ['rec list page size 0', (c) => c.rec.list({ ...range(), paginacao: { itensPorPagina: 0 } })],
  ['rec list page size 1001', (c) => c.rec.list({ ...range(), paginacao: { itensPorPagina: 1001 } })],
  ['rec list without inicio', (c) => c.rec.list({ fim: range().fim } as never)],
  ['rec list inicio not RFC 3339', (c) => c.rec.list({ inicio: 'ontem', fim: range().fim })],
  ['rec list convenio too long', (c) => c.rec.list({ ...range(), convenio: 'x'.repeat(61) })],
  ['rec list locationPresente not a boolean', (c) => c.rec.list({ ...range(), locationPresente: 'sim' } as never)],
  // POST /solicrec
  ['solicrec not an object', (c) => c.solicrec.create([] as never)],
  ['solicrec idRec malformed', (c) => c.solicrec.create({ ...solicrec(), idRec: 'R1' })],
  ['solicrec calendario missing', (c) => c.solicrec.create({ ...solicrec(), calendario: undefined } as never)],
  [
    'solicrec expiry not RFC 3339',
    (c) => c.solicrec.create({ ...solicrec(), calendario: { dataExpiracaoSolicitacao: day(3) } }),
  ],
  [
    'solicrec expiry days ago',
    (c) => c.solicrec.create({ ...solicrec(), calendario: { dataExpiracaoSolicitacao: `${day(-3)}T12:00:00Z` } }),
  ],
  ['solicrec destinatario missing', (c) => c.solicrec.create({ ...solicrec(), destinatario: undefined } as never)],
  ['solicrec conta too long', (c) => c.solicrec.create(destinatario({ conta: '1'.repeat(21) }))],
  ['solicrec ispbParticipante malformed', (c) => c.solicrec.create(destinatario({ ispbParticipante: '1234' }))],
  ['solicrec agencia too long', (c) => c.solicrec.create(destinatario({ agencia: '12345' }))],
  ['solicrec cpf and cnpj', (c) => c.solicrec.create(destinatario({ cnpj: CNPJ }))],
  ['solicrec no document', (c) => c.solicrec.create(destinatario({ cpf: undefined }))],
  // GET and PATCH /solicrec/{idSolicRec}
  ['solicrec GET idSolicRec malformed', (c) => c.solicrec.get('SC1')],
  ['solicrec GET idSolicRec with a symbol', (c) => c.solicrec.get(`SC${'1'.repeat(26)}-`)],
  ['solicrec PATCH idSolicRec malformed', (c) => c.solicrec.cancel('SC1')],
  // PUT /cobr/{txid} and POST /cobr
  ['cobr not an object', (c) => c.cobr.create(NEW, 'x' as never)],
  ['cobr idRec malformed', (c) => c.cobr.create(NEW, { ...cobr(), idRec: 'R1' })],
  ['cobr infoAdicional too long', (c) => c.cobr.create(NEW, { ...cobr(), infoAdicional: 'x'.repeat(141) })],
  ['cobr status out of its enum', (c) => c.cobr.create(NEW, { ...cobr(), status: 'PAGA' } as never)],
  ['cobr calendario missing', (c) => c.cobr.create(NEW, { ...cobr(), calendario: undefined } as never)],
  [
    'cobr dataDeVencimento not a date',
    (c) => c.cobr.create(NEW, { ...cobr(), calendario: { dataDeVencimento: '10/12/2026' } }),
  ],
  [
    'cobr dataDeVencimento before today',
    (c) => c.cobr.create(NEW, { ...cobr(), calendario: { dataDeVencimento: day(-2) } }),
  ],
  ['cobr valor missing', (c) => c.cobr.create(NEW, { ...cobr(), valor: undefined } as never)],
  ['cobr original out of schema', (c) => c.cobr.create(NEW, { ...cobr(), valor: { original: '1,00' } })],
  ['cobr ajusteDiaUtil not a boolean', (c) => c.cobr.create(NEW, { ...cobr(), ajusteDiaUtil: 'sim' } as never)],
  ['cobr recebedor missing', (c) => c.cobr.create(NEW, { ...cobr(), recebedor: undefined } as never)],
  ['cobr conta too long', (c) => c.cobr.create(NEW, recebedor({ conta: '1'.repeat(21) }))],
  ['cobr tipoConta unknown', (c) => c.cobr.create(NEW, recebedor({ tipoConta: 'POUPANÇA' }))],
  ['cobr agencia too long', (c) => c.cobr.create(NEW, recebedor({ agencia: '00001' }))],
  ['cobr account not own', (c) => c.cobr.create(NEW, recebedor({ conta: '99999999' }))],
  ['cobr agencia not own', (c) => c.cobr.create(NEW, recebedor({ agencia: '0002' }))],
  ['cobr devedor not an object', (c) => c.cobr.create(NEW, { ...cobr(), devedor: 'x' } as never)],
  ['cobr devedor uf too long', (c) => c.cobr.create(NEW, { ...cobr(), devedor: { uf: 'MGX' } })],
  ['cobr devedor cep too long', (c) => c.cobr.create(NEW, { ...cobr(), devedor: { cep: '892561400' } })],
  [
    'cobr devedor logradouro too long',
    (c) => c.cobr.create(NEW, { ...cobr(), devedor: { logradouro: 'x'.repeat(201) } }),
  ],
  ['cobr txid too short', (c) => c.cobr.create('short', cobr())],
  [
    'cobr by POST, several at once',
    (c) => c.cobr.create({ idRec: 'x', calendario: {}, valor: {}, recebedor: {} } as unknown as CobRSolicitada),
  ],
  // PATCH /cobr/{txid}, GET /cobr/{txid}, GET /cobr, retry
  ['cobr PATCH status other than CANCELADA', (c) => c.cobr.update(cobrTxid, { status: 'CONCLUIDA' } as never)],
  ['cobr PATCH txid malformed', (c) => c.cobr.cancel('short')],
  ['cobr GET txid malformed', (c) => c.cobr.get('short')],
  ['cobr list fim before inicio', (c) => c.cobr.list(reversed)],
  ['cobr list cpf and cnpj', (c) => c.cobr.list({ ...range(), cpf: CPF, cnpj: CNPJ })],
  ['cobr list idRec malformed', (c) => c.cobr.list({ ...range(), idRec: 'R1' })],
  ['cobr list negative page', (c) => c.cobr.list({ ...range(), paginacao: { paginaAtual: -1 } })],
  ['cobr list convenio too long', (c) => c.cobr.list({ ...range(), convenio: 'x'.repeat(61) })],
  ['cobr retry data not a date', (c) => c.cobr.retry(cobrTxid, '2026-02-30')],
  ['cobr retry data today', (c) => c.cobr.retry(cobrTxid, day(0))],
  ['cobr retry data in the past', (c) => c.cobr.retry(cobrTxid, day(-3))],
  ['cobr retry txid malformed', (c) => c.cobr.retry('short', day(3))],
  // locations
  ['locrec GET id not a number', (c) => c.locrec.get('abc')],
  ['locrec GET id of 20 digits', (c) => c.locrec.get('1'.repeat(20))],
  ['locrec unlink id not a number', (c) => c.locrec.unlink('abc')],
  ['locrec unlink id negative', (c) => c.locrec.unlink(-1)],
  ['locrec list fim before inicio', (c) => c.locrec.list(reversed)],
  ['locrec list negative page', (c) => c.locrec.list({ ...range(), paginacao: { paginaAtual: -1 } })],
  ['locrec list idRecPresente not a boolean', (c) => c.locrec.list({ ...range(), idRecPresente: 'sim' } as never)],
  ['locrec list convenio too long', (c) => c.locrec.list({ ...range(), convenio: 'x'.repeat(61) })],
  // webhooks
  ['webhookrec url not https', (c) => c.webhookrec.put('http://merchant.example/hook')],
  ['webhookrec url not a url', (c) => c.webhookrec.put('not a url')],
  ['webhookcobr url not https', (c) => c.webhookcobr.put('ftp://merchant.example/hook')],
];

/** Each `propriedade` with how many violations name it, in order. */
function violations(error: ApiError): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of error.violacoes) counts[v.propriedade ?? ''] = (counts[v.propriedade ?? ''] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

describe('the sandbox judges recurring requests like the client', () => {
  it.each(cases)('%s', async (_name, call) => {
    const client = await refusal(call(s.checked));
    expect(client.sentRequest).toBe(false);
    const service = await refusal(call(s.api));
    expect(service.sentRequest).toBe(true);
    expect({ name: service.name, status: service.status, violacoes: violations(service) }).toEqual({
      name: client.name,
      status: client.status,
      violacoes: violations(client),
    });
    expect(service.type).toBe(`https://instant-sandbox.example/api/v2/error/${client.name}`);
  });
});

/** 29 letters or digits (the schema's idRec and idSolicRec) that no agent formed and nothing is named by. */
const UNFORMED = 'abcdefghijklmnopqrstuvwxyz123';
const accepted = async (promise: PromiseLike<unknown>) =>
  expect(await Promise.resolve(promise).then(() => 'accepted')).toBe('accepted');

describe('what the client leaves to the service', () => {
  // Each is sent by the client with its checks on; the sandbox's verdict depends on its state.
  const cases: Array<[string, Call, string, number, string[]]> = [
    ['an idRec of the schema that names no recurrence (GET)', (c) => c.rec.get(UNFORMED), 'RecNaoEncontrada', 404, []],
    [
      'an idRec of the schema that names no recurrence (PUT /cobr)',
      (c) => c.cobr.create(generateTxid(), { ...cobr(), idRec: UNFORMED }),
      'NaoEncontrado',
      404,
      [],
    ],
    [
      'an idRec of the schema that names no recurrence (POST /cobr)',
      (c) => c.cobr.create({ ...cobr(), idRec: UNFORMED }),
      'CobROperacaoInvalida',
      400,
      ['cobr.idRec'],
    ],
    [
      'an idRec of the schema that names no recurrence (POST /solicrec)',
      (c) => c.solicrec.create({ ...solicrec(), idRec: UNFORMED }),
      'NaoEncontrado',
      404,
      [],
    ],
    [
      'an idSolicRec of the schema that names no request',
      (c) => c.solicrec.get(UNFORMED),
      'SolicRecNaoEncontrada',
      404,
      [],
    ],
    ['a location id of 16 digits', (c) => c.locrec.get('1'.repeat(16)), 'PayloadLocationRecNaoEncontrado', 404, []],
    [
      'a recurrence PATCH moving dataInicial to the day before its creation',
      (c) => c.rec.update(idRec, { calendario: { dataInicial: day(-1) } }),
      'RecOperacaoInvalida',
      400,
      ['rec.calendario.dataInicial'],
    ],
    [
      'a retry of a charge whose attempt is scheduled',
      (c) => c.cobr.retry(cobrTxid, day(12)),
      'CobROperacaoInvalida',
      400,
      ['cobr.tentativas'],
    ],
  ];

  it.each(cases)('%s', async (_name, call, name, status, propriedades) => {
    const service = await refusal(call(s.checked));
    expect(service.sentRequest).toBe(true);
    expect({ name: service.name, status: service.status, propriedades: Object.keys(violations(service)) }).toEqual({
      name,
      status,
      propriedades,
    });
  });

  it("a creation body's status among the charge's statuses respects the field's schema: both accept it (appendix B, item 10)", async () => {
    const txid = generateTxid();
    const approved = (await s.api.rec.create(rec())).idRec;
    await s.sandbox.approveRec(approved);
    await accepted(s.checked.cobr.create(txid, { ...cobr(), idRec: approved, status: 'ATIVA' } as never));
    expect((await s.api.cobr.get(txid)).atualizacao?.[0]?.status).toBe('CRIADA');
  });
});

describe('a confirmation request that expired earlier today, on the sandbox clock at 00:01 and 23:59 in Brasília', () => {
  // The clients share the sandbox's clock (clientOptions): both judge at that time of day.
  afterAll(async () => {
    await s.sandbox.clock.set(new Date().toISOString());
  });

  it.each([
    ['00:01', '00:00:30'],
    ['23:59', '23:58:00'],
  ])(
    'at %s the client sends it (its day is today) and the service refuses it (its instant is past)',
    async (time, expired) => {
      const today = todayInBrasilia();
      await s.sandbox.clock.set(`${today}T${time}:00-03:00`);
      const service = await refusal(
        s.checked.solicrec.create({
          ...solicrec(),
          calendario: { dataExpiracaoSolicitacao: `${today}T${expired}-03:00` },
        }),
      );
      expect(service.sentRequest).toBe(true);
      expect({ name: service.name, status: service.status, propriedades: Object.keys(violations(service)) }).toEqual({
        name: 'SolicRecOperacaoInvalida',
        status: 400,
        propriedades: ['solicrec.calendario.dataExpiracaoSolicitacao'],
      });
    },
  );
});
