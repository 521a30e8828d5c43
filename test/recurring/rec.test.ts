/** `api.rec` over msw: every call's success, its section 7.3 refusals before sending, paging, retries. */
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  RecConsultaInvalida,
  RecNaoEncontrada,
  RecOperacaoInvalida,
  ServicoIndisponivel,
  todayInBrasilia,
  type ApiError,
  type RecRevisada,
  type RecSolicitada,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';
import { CNPJ, EXAMPLE_CPF, ID_REC, RANGE, bare, inDays, pagedList, recBody, recGerada } from './fixtures.ts';

const net = useMsw();
const api = testClient();

beforeEach(() => {
  net.server.use(
    http.post(`${BASE_URL}/rec`, async ({ request }) =>
      HttpResponse.json(recGerada((await request.json()) as object), { status: 201 }),
    ),
    http.patch(`${BASE_URL}/rec/:idRec`, async ({ request }) =>
      HttpResponse.json(recGerada({ ...recBody(), ...((await request.json()) as object) })),
    ),
    http.get(`${BASE_URL}/rec/:idRec`, () => HttpResponse.json(recGerada())),
  );
});

describe('rec.create', () => {
  it('POST /rec sends the body as given and returns the recurrence with its idRec', async () => {
    const body = recBody();
    const rec = await api.rec.create(body);
    expect(rec).toMatchObject({ idRec: ID_REC, status: 'CRIADA', ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' } });
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE_URL}/rec`]);
    expect(await net.requests[0]?.json()).toEqual(body);
  });

  it('is never retried, even on a 503 with Retry-After 0', async () => {
    net.server.use(http.post(`${BASE_URL}/rec`, () => bare(503)));
    await expect(api.rec.create(recBody())).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it('reads the answer leniently: unknown fields, statuses and journeys pass', async () => {
    net.server.use(
      http.post(`${BASE_URL}/rec`, () =>
        HttpResponse.json(
          {
            ...recGerada(),
            status: 'SUSPENSA',
            ativacao: { tipoJornada: 'JORNADA_9' },
            atualizacao: [{ data: '2026-01-01T00:00:00Z', nome: 'CRIADA' }],
            novo: 1,
          },
          { status: 201 },
        ),
      ),
    );
    const rec = await api.rec.create(recBody());
    expect(rec.status).toBe('SUSPENSA');
    expect(rec.ativacao?.tipoJornada).toBe('JORNADA_9');
    expect(rec['novo']).toBe(1);
  });

  it('accepts a recurrence without idRec, valor, dataFinal or objeto (only the schema requires idRec: appendix B item 1)', async () => {
    const minimal: RecSolicitada = {
      vinculo: { contrato: 'c', devedor: { cnpj: CNPJ, nome: 'ACME' } },
      calendario: { dataInicial: todayInBrasilia(), periodicidade: 'ANUAL' },
      politicaRetentativa: 'PERMITE_3R_7D',
    };
    await expect(api.rec.create(minimal)).resolves.toBeDefined();
    await expect(api.rec.create({ ...minimal, valor: {} })).resolves.toBeDefined();
    await expect(api.rec.create({ ...minimal, idRec: ID_REC })).resolves.toBeDefined();
    expect(net.requests).toHaveLength(3);
  });

  const valid = recBody();
  const long = (n: number) => 'x'.repeat(n);
  const rows: { rule: string; bad: unknown; good: RecSolicitada; propriedade: string }[] = [
    {
      rule: 'valorRec and valorMinimoRecebedor both',
      bad: { ...valid, valor: { valorRec: '35.00', valorMinimoRecebedor: '10.00' } },
      good: { ...valid, valor: { valorMinimoRecebedor: '10.00' } },
      propriedade: 'rec.valor.valorMinimoRecebedor',
    },
    {
      rule: 'valorRec without two decimals',
      bad: { ...valid, valor: { valorRec: '35' } },
      good: valid,
      propriedade: 'rec.valor.valorRec',
    },
    {
      rule: 'valorRec as a number',
      bad: { ...valid, valor: { valorRec: 35 } },
      good: valid,
      propriedade: 'rec.valor.valorRec',
    },
    {
      rule: 'valorMinimoRecebedor with a comma',
      bad: { ...valid, valor: { valorMinimoRecebedor: '10,00' } },
      good: valid,
      propriedade: 'rec.valor.valorMinimoRecebedor',
    },
    { rule: 'valor not an object', bad: { ...valid, valor: '35.00' }, good: valid, propriedade: 'rec.valor' },
    {
      rule: 'dataInicial before today',
      bad: { ...valid, calendario: { ...valid.calendario, dataInicial: inDays(-1) } },
      good: { ...valid, calendario: { ...valid.calendario, dataInicial: inDays(0) } },
      propriedade: 'rec.calendario.dataInicial',
    },
    {
      rule: 'dataInicial not a real day',
      bad: { ...valid, calendario: { ...valid.calendario, dataInicial: '2031-02-30' } },
      good: valid,
      propriedade: 'rec.calendario.dataInicial',
    },
    {
      rule: 'dataInicial missing',
      bad: { ...valid, calendario: { periodicidade: 'MENSAL' } },
      good: valid,
      propriedade: 'rec.calendario.dataInicial',
    },
    {
      rule: 'dataFinal before dataInicial',
      bad: { ...valid, calendario: { ...valid.calendario, dataFinal: inDays(9) } },
      good: { ...valid, calendario: { ...valid.calendario, dataFinal: inDays(10) } },
      propriedade: 'rec.calendario.dataFinal',
    },
    {
      rule: 'dataFinal a date-time',
      bad: { ...valid, calendario: { ...valid.calendario, dataFinal: `${inDays(60)}T00:00:00Z` } },
      good: valid,
      propriedade: 'rec.calendario.dataFinal',
    },
    {
      rule: 'periodicidade unknown',
      bad: { ...valid, calendario: { ...valid.calendario, periodicidade: 'QUINZENAL' } },
      good: { ...valid, calendario: { ...valid.calendario, periodicidade: 'SEMANAL' } },
      propriedade: 'rec.calendario.periodicidade',
    },
    {
      rule: 'politicaRetentativa missing',
      bad: { ...valid, politicaRetentativa: undefined },
      good: valid,
      propriedade: 'rec.politicaRetentativa',
    },
    {
      rule: 'politicaRetentativa unknown',
      bad: { ...valid, politicaRetentativa: 'PERMITE' },
      good: { ...valid, politicaRetentativa: 'PERMITE_3R_7D' },
      propriedade: 'rec.politicaRetentativa',
    },
    { rule: 'vinculo missing', bad: { ...valid, vinculo: undefined }, good: valid, propriedade: 'rec.vinculo' },
    {
      rule: 'contrato over 35',
      bad: { ...valid, vinculo: { ...valid.vinculo, contrato: long(36) } },
      good: { ...valid, vinculo: { ...valid.vinculo, contrato: long(35) } },
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'objeto over 35',
      bad: { ...valid, vinculo: { ...valid.vinculo, objeto: long(36) } },
      good: { ...valid, vinculo: { ...valid.vinculo, objeto: long(35) } },
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'devedor with cpf and cnpj',
      bad: { ...valid, vinculo: { ...valid.vinculo, devedor: { cpf: EXAMPLE_CPF, cnpj: CNPJ, nome: 'A' } } },
      good: valid,
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'devedor without nome',
      bad: { ...valid, vinculo: { ...valid.vinculo, devedor: { cpf: EXAMPLE_CPF } } },
      good: valid,
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'devedor nome over 140',
      bad: { ...valid, vinculo: { ...valid.vinculo, devedor: { cpf: EXAMPLE_CPF, nome: long(141) } } },
      good: { ...valid, vinculo: { ...valid.vinculo, devedor: { cpf: EXAMPLE_CPF, nome: long(140) } } },
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'devedor cpf punctuated',
      bad: { ...valid, vinculo: { ...valid.vinculo, devedor: { cpf: '451.646.324-81', nome: 'A' } } },
      good: valid,
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'devedor cnpj lowercase',
      bad: { ...valid, vinculo: { ...valid.vinculo, devedor: { cnpj: '12abc34501de35', nome: 'A' } } },
      good: { ...valid, vinculo: { ...valid.vinculo, devedor: { cnpj: '12ABC34501DE35', nome: 'A' } } },
      propriedade: 'rec.vinculo',
    },
    {
      rule: 'recebedor.convenio over 60',
      bad: { ...valid, recebedor: { convenio: long(61) } },
      good: { ...valid, recebedor: { convenio: long(60) } },
      propriedade: 'rec.recebedor',
    },
    {
      rule: 'loc as an object (the charges form)',
      bad: { ...valid, loc: { id: 108 } },
      good: { ...valid, loc: 108 },
      propriedade: 'rec.loc',
    },
    { rule: 'loc negative', bad: { ...valid, loc: -1 }, good: valid, propriedade: 'rec.loc' },
    {
      rule: 'dadosJornada.txid too short',
      bad: { ...valid, ativacao: { dadosJornada: { txid: 'short' } } },
      good: { ...valid, ativacao: { dadosJornada: { txid: '33beb661beda44a8928fef47dbeb2dc5' } } },
      propriedade: 'rec.ativacao.dadosJornada.txid',
    },
    {
      rule: 'idRec of 28 characters',
      bad: { ...valid, idRec: ID_REC.slice(1) },
      good: { ...valid, idRec: ID_REC },
      propriedade: 'rec.idRec',
    },
    {
      rule: 'idRec with a symbol',
      bad: { ...valid, idRec: `${ID_REC.slice(1)}-` },
      good: { ...valid, idRec: 'abcdefghijklmnopqrstuvwxyz123' },
      propriedade: 'rec.idRec',
    },
  ];

  it.each(rows)('$rule → $propriedade', async ({ bad, good, propriedade }) => {
    const error = await expectRefused(net, api.rec.create(bad as RecSolicitada), RecOperacaoInvalida, propriedade);
    expect(error.violacoes).toHaveLength(1);
    await expect(api.rec.create(good)).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });

  it('collects every broken rule in one error, with no personal data in it', async () => {
    const bad = {
      ...valid,
      vinculo: { contrato: 'c', devedor: { cpf: '123', nome: 'Fulano Secreto' } },
      calendario: { dataInicial: inDays(-3), periodicidade: 'DIARIA' },
      valor: { valorRec: '1.00', valorMinimoRecebedor: '2.00' },
    } as unknown as RecSolicitada;
    const error = (await api.rec.create(bad).catch((e: unknown) => e)) as ApiError;
    expect(error.violacoes.map((v) => v.propriedade)).toEqual([
      'rec.vinculo',
      'rec.calendario.dataInicial',
      'rec.calendario.periodicidade',
      'rec.valor.valorMinimoRecebedor',
    ]);
    expect(error.type).toBe('urn:instant-payments:error/RecOperacaoInvalida');
    expect(JSON.stringify(error) + error.message).not.toMatch(/Fulano|"123"/);
    expect(net.requests).toHaveLength(0);
  });

  it('validate: false sends it anyway, and the service verdict keeps its class and violacoes', async () => {
    const official = {
      type: 'https://instant.example.com/api/v2/error/RecOperacaoInvalida',
      title: 'Operação inválida.',
      status: 400,
      detail: 'A recorrência não respeita o schema.',
      violacoes: [
        {
          razao: 'O campo rec.calendario.dataInicial não respeita o schema.',
          propriedade: 'rec.calendario.dataInicial',
        },
      ],
    };
    net.server.use(http.post(`${BASE_URL}/rec`, () => problem(official)));
    const bad = { ...valid, calendario: { ...valid.calendario, dataInicial: 'soon' } };
    const error = (await api.rec.create(bad, { validate: false }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(RecOperacaoInvalida);
    expect(error).toMatchObject({ sentRequest: true, violacoes: official.violacoes, type: official.type });
  });
});

describe('rec.get', () => {
  it('GET /rec/{idRec}, with txid for the composite QR of journey 3', async () => {
    const dadosQR = { jornada: 'JORNADA_3', instantCopiaECola: '00020101021226...63047741' };
    net.server.use(http.get(`${BASE_URL}/rec/:idRec`, () => HttpResponse.json({ ...recGerada(), dadosQR })));
    const rec = await api.rec.get(ID_REC, { txid: '33beb661beda44a8928fef47dbeb2dc5' });
    expect(rec.dadosQR).toEqual(dadosQR);
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/rec/${ID_REC}?txid=33beb661beda44a8928fef47dbeb2dc5`);
    await api.rec.get(ID_REC);
    expect(net.requests[1]?.url).toBe(`${BASE_URL}/rec/${ID_REC}`);
  });

  it('is retried on a 503 (a GET is safe)', async () => {
    let calls = 0;
    net.server.use(
      http.get(`${BASE_URL}/rec/:idRec`, () => (++calls === 1 ? bare(503) : HttpResponse.json(recGerada()))),
    );
    await expect(api.rec.get(ID_REC)).resolves.toMatchObject({ idRec: ID_REC });
    expect(net.requests).toHaveLength(2);
  });

  it.each(['', '..', '../cob', 'RR1234567820240115abcdefghij', 'RR1234567820240115abcdefghij_', `${ID_REC}/x`])(
    'refuses the idRec %j before it reaches a path (RecConsultaInvalida)',
    async (idRec) => {
      await expectRefused(net, api.rec.get(idRec), RecConsultaInvalida, 'idRec');
    },
  );

  it('a bare 404 is RecNaoEncontrada', async () => {
    net.server.use(http.get(`${BASE_URL}/rec/:idRec`, () => bare(404)));
    const error = await api.rec.get(ID_REC).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecNaoEncontrada);
    expect(error).toMatchObject({ status: 404, sentRequest: true });
  });
});

describe('rec.update and rec.cancel', () => {
  it('PATCH /rec/{idRec} sends only the changes', async () => {
    const patch: RecRevisada = {
      loc: 108,
      vinculo: { devedor: { nome: 'Fulano de Tal' } },
      calendario: { dataInicial: inDays(5) },
      ativacao: { dadosJornada: { txid: '33beb661beda44a8928fef47dbeb2dc5' } },
    };
    await api.rec.update(ID_REC, patch);
    expect(net.requests[0]?.method).toBe('PATCH');
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/rec/${ID_REC}`);
    expect(await net.requests[0]?.json()).toEqual(patch);
  });

  it('cancel sends only status CANCELADA', async () => {
    await api.rec.cancel(ID_REC);
    expect(await net.requests[0]?.json()).toEqual({ status: 'CANCELADA' });
  });

  it('is never retried on a 503', async () => {
    net.server.use(http.patch(`${BASE_URL}/rec/:idRec`, () => bare(503)));
    await expect(api.rec.cancel(ID_REC)).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it.each([
    ['status other than CANCELADA', { status: 'APROVADA' }, 'rec.status'],
    ['devedor.nome over 140', { vinculo: { devedor: { nome: 'x'.repeat(141) } } }, 'rec.vinculo'],
    ['devedor without nome', { vinculo: { devedor: {} } }, 'rec.vinculo'],
    ['loc as a string', { loc: '108' }, 'rec.loc'],
    ['dataInicial not a date', { calendario: { dataInicial: '01/04/2031' } }, 'rec.calendario.dataInicial'],
    [
      'dataInicial more than a day before the creation date in the idRec (2024-01-15)',
      { calendario: { dataInicial: '2024-01-13' } },
      'rec.calendario.dataInicial',
    ],
    ['dadosJornada.txid malformed', { ativacao: { dadosJornada: { txid: 'a-b' } } }, 'rec.ativacao.dadosJornada.txid'],
  ])('refuses %s', async (_rule, patch, propriedade) => {
    await expectRefused(net, api.rec.update(ID_REC, patch as RecRevisada), RecOperacaoInvalida, propriedade);
  });

  it('leaves what depends on the recurrence to the service: a date a day before its creation, an empty revision, vinculo.devedor with only nome', async () => {
    // One day of margin for an agent that wrote the creation date in another zone.
    await expect(api.rec.update(ID_REC, { calendario: { dataInicial: '2024-01-14' } })).resolves.toBeDefined();
    await expect(api.rec.update(ID_REC, {})).resolves.toBeDefined();
    await expect(api.rec.update(ID_REC, { calendario: {} })).resolves.toBeDefined();
    // Appendix B item 7: both oneOf branches are `{ nome }`; the client judges the field, not the oneOf.
    await expect(api.rec.update(ID_REC, { vinculo: { devedor: { nome: 'Beltrano' } } })).resolves.toBeDefined();
    expect(net.requests).toHaveLength(4);
  });

  it('refuses a bad idRec with RecOperacaoInvalida; a bare 404 is RecNaoEncontrada', async () => {
    await expectRefused(net, api.rec.cancel('RR12'), RecOperacaoInvalida, 'idRec');
    net.server.use(http.patch(`${BASE_URL}/rec/:idRec`, () => new HttpResponse('no', { status: 404 })));
    await expect(api.rec.cancel(ID_REC)).rejects.toBeInstanceOf(RecNaoEncontrada);
  });

  it('a typed answer keeps its type: RecOperacaoInvalida for a cancelled recurrence', async () => {
    net.server.use(
      http.patch(`${BASE_URL}/rec/:idRec`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/RecOperacaoInvalida',
          title: 'Operação inválida.',
          status: 400,
          detail: 'A recorrência encontra-se cancelada.',
        }),
      ),
    );
    await expect(api.rec.update(ID_REC, { loc: 5 })).rejects.toMatchObject({
      name: 'RecOperacaoInvalida',
      sentRequest: true,
      detail: 'A recorrência encontra-se cancelada.',
    });
  });
});

describe('rec.list', () => {
  it('await gives the first page; for await walks every recurrence across pages (recs)', async () => {
    const list = pagedList('/rec', 'recs', 5, 2, (i) => ({
      ...recGerada(),
      idRec: `RN12345678202401150000000000${i}`,
    }));
    net.server.use(list.handler);
    const page = await api.rec.list({ ...RANGE, paginacao: { itensPorPagina: 2 } });
    expect(page.items).toHaveLength(2);
    expect(page.parametros.paginacao.quantidadeDePaginas).toBe(3);
    const ids: string[] = [];
    for await (const rec of api.rec.list({
      ...RANGE,
      locationPresente: true,
      convenio: 'Master',
      paginacao: { itensPorPagina: 2 },
    }))
      ids.push(rec.idRec);
    expect(ids).toHaveLength(5);
    expect(list.asked).toEqual([null, null, '1', '2']);
    const url = new URL(net.requests[1]!.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ...RANGE,
      locationPresente: 'true',
      convenio: 'Master',
      'paginacao.itensPorPagina': '2',
    });
  });

  it.each([
    ['fim before inicio', { inicio: '2026-02-01T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, 'fim'],
    ['cpf and cnpj', { ...RANGE, cpf: EXAMPLE_CPF, cnpj: CNPJ }, 'cpf'],
    ['negative page', { ...RANGE, paginacao: { paginaAtual: -1 } }, 'paginacao.paginaAtual'],
    ['page size 1001', { ...RANGE, paginacao: { itensPorPagina: 1001 } }, 'paginacao.itensPorPagina'],
    ['no inicio', { fim: RANGE.fim }, 'inicio'],
    ['convenio over 60', { ...RANGE, convenio: 'x'.repeat(61) }, 'convenio'],
    ['locationPresente not a boolean', { ...RANGE, locationPresente: 'yes' }, 'locationPresente'],
  ])('refuses %s with RecConsultaInvalida', async (_rule, query, propriedade) => {
    await expectRefused(net, api.rec.list(query as never), RecConsultaInvalida, propriedade);
  });
});
