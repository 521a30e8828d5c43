import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import {
  LoteCobVConsultaInvalida,
  LoteCobVNaoEncontrado,
  LoteCobVOperacaoInvalida,
  type LoteCobVCobSolicitada,
  type LoteCobVRevisado,
  type LoteCobVSolicitado,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient();

const EVP = '7c084cd4-54af-4172-a516-a7d1a12b75cc';
const today = todayInBrasilia();
const due = addDays(today, 20);
const TXIDS = [
  'fb2761260e554ad593c7226beb5cb650',
  '7978c0c97ea847e78e8849634473c1f1',
  '06601eaa3822423fbe897f613b983e01',
] as const;

function charge(txid: string, original = '100.00'): LoteCobVCobSolicitada {
  return {
    txid,
    calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
    devedor: { cpf: '12345678909', nome: 'Test Person', cidade: 'Recife', uf: 'PE' },
    valor: { original },
    chave: EVP,
    solicitacaoPagador: 'Enrollment number',
  };
}

const batch: LoteCobVSolicitado = { descricao: 'Evening class fees', cobsv: TXIDS.map((t) => charge(t)) };

/** GET /lotecobv/{id} answers this batch: created `createdDaysAgo` days ago with TXIDS. */
function serveBatch(createdDaysAgo = 40, statuses: string[] = ['CRIADA', 'CRIADA', 'CRIADA']) {
  const criacao = `${addDays(today, -createdDaysAgo)}T15:00:00.000Z`;
  net.server.use(
    http.get(`${BASE_URL}/lotecobv/:id`, ({ params }) =>
      HttpResponse.json({
        id: Number(params['id']),
        descricao: batch.descricao,
        criacao,
        cobsv: TXIDS.map((txid, i) => ({ txid, status: statuses[i], criacao })),
      }),
    ),
  );
}

beforeEach(() => {
  net.server.use(
    http.put(`${BASE_URL}/lotecobv/:id`, () => new HttpResponse(null, { status: 202 })),
    http.patch(`${BASE_URL}/lotecobv/:id`, () => new HttpResponse(null, { status: 202 })),
  );
});

const methods = () => net.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);

describe('lotecobv.put', () => {
  it('PUT /lotecobv/{id} sends the batch and resolves to nothing on 202', async () => {
    await expect(api.lotecobv.put('101', batch)).resolves.toBeUndefined();
    expect(methods()).toEqual(['PUT /v2/lotecobv/101']);
    expect(await net.requests[0]?.json()).toEqual(batch);
  });

  it('accepts a numeric id', async () => {
    await api.lotecobv.put(101, batch);
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/lotecobv/101`);
  });

  const rows: { rule: string; bad: unknown; propriedade: string; ownKeys?: string[] }[] = [
    { rule: 'descricao missing', bad: { cobsv: batch.cobsv }, propriedade: 'loteCobV.descricao' },
    { rule: 'descricao not a string', bad: { ...batch, descricao: 2026 }, propriedade: 'loteCobV.descricao' },
    { rule: 'cobsv missing', bad: { descricao: 'x' }, propriedade: 'loteCobV.cobsV' },
    { rule: 'cobsv empty', bad: { ...batch, cobsv: [] }, propriedade: 'loteCobV.cobsV' },
    { rule: 'cobsv not an array', bad: { ...batch, cobsv: charge(TXIDS[0]) }, propriedade: 'loteCobV.cobsV' },
    {
      rule: 'an item without txid',
      bad: { ...batch, cobsv: [charge(TXIDS[0]), { ...charge(TXIDS[1]), txid: undefined }] },
      propriedade: 'loteCobV.cobsV[1].txid',
    },
    {
      rule: 'an item with a short txid',
      bad: { ...batch, cobsv: [charge(TXIDS[0]), charge('abc')] },
      propriedade: 'loteCobV.cobsV[1].txid',
    },
    {
      rule: 'a txid twice',
      bad: { ...batch, cobsv: [charge(TXIDS[0]), charge(TXIDS[1]), charge(TXIDS[0])] },
      propriedade: 'loteCobV.cobsV[2].txid',
    },
    {
      rule: 'an item with original zero',
      bad: { ...batch, cobsv: [charge(TXIDS[0], '0.00'), charge(TXIDS[1])] },
      propriedade: 'loteCobV.cobsV[0].valor.original',
    },
    {
      rule: 'an item without devedor',
      bad: { ...batch, cobsv: [{ ...charge(TXIDS[0]), devedor: undefined }] },
      propriedade: 'loteCobV.cobsV[0].devedor',
    },
    {
      rule: 'an item with an alphanumeric CNPJ with wrong check digits',
      bad: { ...batch, cobsv: [{ ...charge(TXIDS[0]), devedor: { cnpj: '12ABC34501DE34', nome: 'Test Company' } }] },
      propriedade: 'loteCobV.cobsV[0].devedor',
    },
    {
      rule: 'an item whose chave is not among ownKeys',
      bad: { ...batch, cobsv: [{ ...charge(TXIDS[0]), chave: 'fees@school.example' }] },
      propriedade: 'loteCobV.cobsV[0].chave',
      ownKeys: [EVP],
    },
    {
      rule: 'an item with an abatimento of 100%',
      bad: {
        ...batch,
        cobsv: [
          charge(TXIDS[0]),
          { ...charge(TXIDS[1]), valor: { original: '1.00', abatimento: { modalidade: 2, valorPerc: '100.00' } } },
        ],
      },
      propriedade: 'loteCobV.cobsV[1].valor.abatimento',
    },
  ];

  it.each(rows)('refuses $rule → LoteCobVOperacaoInvalida $propriedade', async ({ bad, propriedade, ownKeys }) => {
    const client = ownKeys ? testClient({ ownKeys }) : api;
    await expectRefused(
      net,
      client.lotecobv.put('101', bad as LoteCobVSolicitado),
      LoteCobVOperacaoInvalida,
      propriedade,
    );
    await expect(client.lotecobv.put('101', batch)).resolves.toBeUndefined();
    expect(net.requests).toHaveLength(1);
  });

  it('sends an item already due: the batch may exist, and only the service knows when its charges were created', async () => {
    const overdue = {
      ...batch,
      cobsv: [
        charge(TXIDS[0]),
        { ...charge(TXIDS[1]), calendario: { dataDeVencimento: addDays(today, -5), validadeAposVencimento: 30 } },
      ],
    };
    await expect(api.lotecobv.put('101', overdue)).resolves.toBeUndefined();
    expect(methods()).toEqual(['PUT /v2/lotecobv/101']);
    expect(await net.requests[0]?.json()).toEqual(overdue);
  });

  it('accepts alphanumeric CNPJs with correct check digits in the items', async () => {
    await api.lotecobv.put('101', {
      ...batch,
      cobsv: [
        { ...charge(TXIDS[0]), devedor: { cnpj: '12ABC34501DE35', nome: 'Test Company' }, chave: '12ABC34501DE35' },
      ],
    });
    expect(net.requests).toHaveLength(1);
  });

  it('validate: false sends an invalid batch and the service verdict comes back as LoteCobVOperacaoInvalida', async () => {
    const official = {
      type: 'https://instant.example.com/api/v2/error/LoteCobVOperacaoInvalida',
      title: 'Lote de cobranças inválido.',
      status: 400,
      detail:
        'A requisição que busca alterar ou criar um lote de cobranças com vencimento não respeita o _schema_ ou está semanticamente errada.',
      violacoes: [
        { razao: 'O objeto loteCobV.cobsV não respeita o _schema_.', propriedade: 'loteCobV.cobsV' },
        { razao: 'O campo loteCobV.descricao não respeita o _schema_.', propriedade: 'loteCobV.descricao' },
      ],
    };
    net.server.use(http.put(`${BASE_URL}/lotecobv/:id`, () => problem(official)));
    const error = await api.lotecobv
      .put('101', { descricao: '', cobsv: [] }, { validate: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoteCobVOperacaoInvalida);
    expect(error).toMatchObject({ sentRequest: true, status: 400, violacoes: official.violacoes });
  });

  it('judges every charge of a 10,000-charge batch (timing: bench/rules.ts)', async () => {
    const big = {
      descricao: 'big',
      cobsv: Array.from({ length: 10_000 }, (_, i) => charge(`bigbatch${String(i).padStart(20, '0')}`)),
    };
    await api.lotecobv.put('102', big);
    expect(net.requests).toHaveLength(1);
    net.requests.length = 0;
    big.cobsv[9_999] = charge(big.cobsv[0]!.txid);
    await expectRefused(net, api.lotecobv.put('102', big), LoteCobVOperacaoInvalida, 'loteCobV.cobsV[9999].txid');
  });
});

describe('lotecobv.alter', () => {
  it('reads the batch, then PUTs the same set of charges', async () => {
    serveBatch();
    const reordered = {
      ...batch,
      cobsv: [charge(TXIDS[2], '120.00'), charge(TXIDS[0], '120.00'), charge(TXIDS[1], '120.00')],
    };
    await expect(api.lotecobv.alter('101', reordered)).resolves.toBeUndefined();
    expect(methods()).toEqual(['GET /v2/lotecobv/101', 'PUT /v2/lotecobv/101']);
    expect(await net.requests[1]?.json()).toEqual(reordered);
  });

  it('refuses adding a charge, naming the new item; the PUT is never sent', async () => {
    serveBatch();
    const grown = { ...batch, cobsv: [...batch.cobsv, charge('4e07059760d54cf493de6e7f1fbfad9a')] };
    const error = await api.lotecobv.alter('101', grown).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoteCobVOperacaoInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'loteCobV.cobsV[3].txid' }] });
    expect(methods()).toEqual(['GET /v2/lotecobv/101']);
  });

  it('refuses removing a charge; the PUT is never sent', async () => {
    serveBatch();
    const shrunk = { ...batch, cobsv: batch.cobsv.slice(0, 2) };
    const error = await api.lotecobv.alter('101', shrunk).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoteCobVOperacaoInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'loteCobV.cobsV' }] });
    expect(methods()).toEqual(['GET /v2/lotecobv/101']);
  });

  it('judges due dates against each charge creation date, not today', async () => {
    serveBatch(40);
    const sinceCreation = {
      ...batch,
      cobsv: TXIDS.map((t) => ({ ...charge(t), calendario: { dataDeVencimento: addDays(today, -10) } })),
    };
    await expect(api.lotecobv.alter('101', sinceCreation)).resolves.toBeUndefined();
    net.requests.length = 0;
    const beforeCreation = {
      ...batch,
      cobsv: TXIDS.map((t, i) => ({
        ...charge(t),
        calendario: { dataDeVencimento: addDays(today, i === 1 ? -41 : 5) },
      })),
    };
    const error = await api.lotecobv.alter('101', beforeCreation).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'LoteCobVOperacaoInvalida',
      violacoes: [{ propriedade: 'loteCobV.cobsV[1].calendario.dataDeVencimento' }],
    });
    expect(methods()).toEqual(['GET /v2/lotecobv/101']);
  });

  it('the refusal of a due date names the creation date the batch reports, not today', async () => {
    serveBatch(40);
    const created = addDays(today, -40);
    const early = {
      ...batch,
      cobsv: TXIDS.map((t, i) => ({
        ...charge(t),
        calendario: { dataDeVencimento: addDays(today, i === 0 ? -41 : 5) },
      })),
    };
    const error = await api.lotecobv.alter('101', early).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoteCobVOperacaoInvalida);
    const [violacao] = (error as LoteCobVOperacaoInvalida).violacoes;
    expect(violacao).toMatchObject({
      propriedade: 'loteCobV.cobsV[0].calendario.dataDeVencimento',
      valor: addDays(today, -41),
    });
    expect(violacao?.razao).toContain(created);
    expect(violacao?.razao).not.toContain(today);
  });

  it('an unknown batch is LoteCobVNaoEncontrado (bare 404 on the GET)', async () => {
    net.server.use(http.get(`${BASE_URL}/lotecobv/:id`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.lotecobv.alter('999', batch)).rejects.toBeInstanceOf(LoteCobVNaoEncontrado);
    expect(methods()).toEqual(['GET /v2/lotecobv/999']);
  });

  it('with validate: false it is a plain PUT', async () => {
    await api.lotecobv.alter('101', { ...batch, cobsv: [charge(TXIDS[0])] }, { validate: false });
    expect(methods()).toEqual(['PUT /v2/lotecobv/101']);
  });
});

describe('lotecobv.update', () => {
  it('PATCH may send a subset of the charges and resolves to nothing on 202', async () => {
    const patch: LoteCobVRevisado = {
      cobsv: [{ txid: TXIDS[1], valor: { original: '110.00' }, calendario: { dataDeVencimento: due } }],
    };
    await expect(api.lotecobv.update('101', patch)).resolves.toBeUndefined();
    expect(methods()).toEqual(['PATCH /v2/lotecobv/101']);
    expect(await net.requests[0]?.json()).toEqual(patch);
  });

  it.each([
    {
      rule: 'an item with a bad txid',
      bad: { cobsv: [{ txid: 'x', valor: { original: '1.00' } }] },
      propriedade: 'loteCobV.cobsV[0].txid',
    },
    {
      rule: 'an item with original zero',
      bad: { cobsv: [{ txid: TXIDS[0], valor: { original: '0.00' } }] },
      propriedade: 'loteCobV.cobsV[0].valor.original',
    },
    {
      rule: 'an item removing and changing at once',
      bad: { cobsv: [{ txid: TXIDS[0], status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } }] },
      propriedade: 'loteCobV.cobsV[0].status',
    },
    { rule: 'a descricao that is not a string', bad: { descricao: ['March'] }, propriedade: 'loteCobV.descricao' },
  ])('refuses $rule → $propriedade', async ({ bad, propriedade }) => {
    await expectRefused(
      net,
      api.lotecobv.update('101', bad as LoteCobVRevisado),
      LoteCobVOperacaoInvalida,
      propriedade,
    );
  });

  it('an item may be removed alone', async () => {
    await api.lotecobv.update('101', { cobsv: [{ txid: TXIDS[0], status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }] });
    expect(net.requests).toHaveLength(1);
  });

  it('checkBatch reads the batch and refuses a txid that is not in it', async () => {
    serveBatch();
    const stranger = {
      cobsv: [
        { txid: TXIDS[0], valor: { original: '1.00' } },
        { txid: '4e07059760d54cf493de6e7f1fbfad9a', valor: { original: '1.00' } },
      ],
    };
    const error = await api.lotecobv.update('101', stranger, { checkBatch: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'LoteCobVOperacaoInvalida',
      sentRequest: false,
      violacoes: [{ propriedade: 'loteCobV.cobsV[1].txid' }],
    });
    expect(methods()).toEqual(['GET /v2/lotecobv/101']);
    net.requests.length = 0;
    await api.lotecobv.update('101', { cobsv: [stranger.cobsv[0]!] }, { checkBatch: true });
    expect(methods()).toEqual(['GET /v2/lotecobv/101', 'PATCH /v2/lotecobv/101']);
  });

  it('a bare 404 is LoteCobVNaoEncontrado', async () => {
    net.server.use(http.patch(`${BASE_URL}/lotecobv/:id`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.lotecobv.update('101', { descricao: 'x' })).rejects.toBeInstanceOf(LoteCobVNaoEncontrado);
  });
});

describe('lotecobv.get and lotecobv.list', () => {
  it('GET /lotecobv/{id}: each charge request with its status and, when NEGADA, its problema', async () => {
    net.server.use(
      http.get(`${BASE_URL}/lotecobv/:id`, () =>
        HttpResponse.json({
          id: 101,
          descricao: 'Evening class fees',
          criacao: '2026-03-01T20:15:00.358Z',
          cobsv: [
            { criacao: '2026-03-01T20:15:00.358Z', txid: TXIDS[0], status: 'CRIADA' },
            {
              txid: TXIDS[1],
              status: 'NEGADA',
              problema: {
                type: 'https://instant.example.com/api/v2/error/CobVOperacaoInvalida',
                title: 'Cobrança inválida.',
                status: 400,
                violacoes: [{ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' }],
              },
            },
            { txid: TXIDS[2], status: 'EM_ANALISE' },
          ],
        }),
      ),
    );
    const lote = await api.lotecobv.get('101');
    expect(lote.cobsv.map((c) => c.status)).toEqual(['CRIADA', 'NEGADA', 'EM_ANALISE']);
    expect(lote.cobsv[1]?.problema?.violacoes?.[0]?.propriedade).toBe('cobv.devedor');
  });

  it('a bare 404 on GET is LoteCobVNaoEncontrado', async () => {
    net.server.use(http.get(`${BASE_URL}/lotecobv/:id`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.lotecobv.get('101')).rejects.toBeInstanceOf(LoteCobVNaoEncontrado);
  });

  it('GET /lotecobv: the array is lotes, walked across pages', async () => {
    net.server.use(
      http.get(`${BASE_URL}/lotecobv`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('paginacao.paginaAtual') ?? 0);
        return HttpResponse.json({
          parametros: {
            inicio: '2026-01-01T00:00:00Z',
            fim: '2026-12-31T00:00:00Z',
            paginacao: { paginaAtual: page, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 },
          },
          lotes: (page === 0 ? [1, 2] : [3]).map((id) => ({
            id,
            descricao: `batch ${id}`,
            criacao: '2026-03-01T20:15:00Z',
            cobsv: [],
          })),
        });
      }),
    );
    const first = await api.lotecobv.list({
      inicio: '2026-01-01T00:00:00Z',
      fim: '2026-12-31T00:00:00Z',
      paginacao: { itensPorPagina: 2 },
    });
    expect(first.items.map((l) => l.id)).toEqual([1, 2]);
    const ids: number[] = [];
    for await (const lote of api.lotecobv.list({
      inicio: '2026-01-01T00:00:00Z',
      fim: '2026-12-31T00:00:00Z',
      paginacao: { itensPorPagina: 2 },
    }))
      ids.push(lote.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it.each([
    { bad: { inicio: '2026-02-01T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, propriedade: 'fim' },
    { bad: { inicio: '2026-01-01', fim: '2026-02-01T00:00:00Z' }, propriedade: 'inicio' },
    {
      bad: { inicio: '2026-01-01T00:00:00Z', fim: '2026-02-01T00:00:00Z', paginacao: { paginaAtual: -1 } },
      propriedade: 'paginacao.paginaAtual',
    },
    {
      bad: { inicio: '2026-01-01T00:00:00Z', fim: '2026-02-01T00:00:00Z', paginacao: { itensPorPagina: 0 } },
      propriedade: 'paginacao.itensPorPagina',
    },
  ])('list refuses with LoteCobVConsultaInvalida naming $propriedade', async ({ bad, propriedade }) => {
    await expectRefused(net, api.lotecobv.list(bad), LoteCobVConsultaInvalida, propriedade);
  });
});
