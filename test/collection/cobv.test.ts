import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import {
  CobVConsultaInvalida,
  CobVNaoEncontrada,
  CobVOperacaoInvalida,
  type CobVRevisada,
  type CobVListQuery,
  type CobVSolicitada,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient();

const TXID = 'fb2761260e554ad593c7226beb5cb650';
const EVP = '7c084cd4-54af-4172-a516-a7d1a12b75cc';
const CPF = '12345678909';
const CNPJ_ALPHANUMERIC = '12ABC34501DE35';
const today = todayInBrasilia();
const due = addDays(today, 30);

const valid: CobVSolicitada = {
  calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
  devedor: { cpf: CPF, nome: 'Test Person', logradouro: 'Rua Um, 80', cidade: 'Recife', uf: 'PE', cep: '70011750' },
  valor: { original: '100.00' },
  chave: EVP,
  solicitacaoPagador: 'Enrollment number',
};

function gerada(txid: string, body: object, revisao = 0) {
  return {
    ...body,
    calendario: {
      criacao: '2026-03-01T12:00:00.000Z',
      dataDeVencimento: due,
      validadeAposVencimento: 30,
      ...(body as { calendario?: object }).calendario,
    },
    txid,
    revisao,
    status: 'ATIVA',
    recebedor: {
      cnpj: '11222333000181',
      nome: 'Test Store',
      logradouro: 'Av. Dois, 2',
      cidade: 'Recife',
      uf: 'PE',
      cep: '70000000',
    },
    loc: { id: 789, location: 'instant.example.com/qr/v2/cobv/2353c790eefb11eaadc10242ac120002', tipoCob: 'cobv' },
  };
}

beforeEach(() => {
  net.server.use(
    http.put(`${BASE_URL}/cobv/:txid`, async ({ request, params }) =>
      HttpResponse.json(gerada(String(params['txid']), (await request.json()) as object), { status: 201 }),
    ),
    http.patch(`${BASE_URL}/cobv/:txid`, async ({ request, params }) =>
      HttpResponse.json(gerada(String(params['txid']), (await request.json()) as object, 1)),
    ),
  );
});

describe('cobv.create', () => {
  it('PUT /cobv/{txid} sends the body as given and returns the charge', async () => {
    const cobv = await api.cobv.create(TXID, valid);
    expect(cobv).toMatchObject({
      txid: TXID,
      status: 'ATIVA',
      recebedor: { nome: 'Test Store' },
      valor: { original: '100.00' },
    });
    const [request] = net.requests;
    expect(`${request?.method} ${request?.url}`).toBe(`PUT ${BASE_URL}/cobv/${TXID}`);
    expect(await request?.json()).toEqual(valid);
  });

  it('reads modalidade written as a string as a number, money stays a string', async () => {
    net.server.use(
      http.put(`${BASE_URL}/cobv/:txid`, () =>
        HttpResponse.json(
          {
            ...gerada(TXID, valid),
            calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: due, validadeAposVencimento: '30' },
            valor: {
              original: '100.00',
              multa: { modalidade: '2', valorPerc: '15.00' },
              juros: { modalidade: '2', valorPerc: '2.00' },
            },
          },
          { status: 201 },
        ),
      ),
    );
    const cobv = await api.cobv.create(TXID, valid);
    expect(cobv.calendario.validadeAposVencimento).toBe(30);
    expect(cobv.valor).toEqual({
      original: '100.00',
      multa: { modalidade: 2, valorPerc: '15.00' },
      juros: { modalidade: 2, valorPerc: '2.00' },
    });
  });
});

describe('cobv.create refuses what section 7.3 forbids, before sending', () => {
  const withValor = (valor: object) => ({ ...valid, valor: { original: '100.00', ...valor } });
  const rows: { rule: string; bad: unknown; good: CobVSolicitada; propriedade: string; ownKeys?: string[] }[] = [
    {
      rule: 'dataDeVencimento not YYYY-MM-DD',
      bad: { ...valid, calendario: { dataDeVencimento: due.replaceAll('-', '/') } },
      good: { ...valid, calendario: { dataDeVencimento: due } },
      propriedade: 'cobv.calendario.dataDeVencimento',
    },
    {
      rule: 'dataDeVencimento not a real day',
      bad: { ...valid, calendario: { dataDeVencimento: '2027-02-30' } },
      good: { ...valid, calendario: { dataDeVencimento: '2099-02-28' } },
      propriedade: 'cobv.calendario.dataDeVencimento',
    },
    {
      rule: 'calendario missing',
      bad: { ...valid, calendario: undefined },
      good: valid,
      propriedade: 'cobv.calendario.dataDeVencimento',
    },
    {
      rule: 'validadeAposVencimento negative',
      bad: { ...valid, calendario: { dataDeVencimento: due, validadeAposVencimento: -1 } },
      good: { ...valid, calendario: { dataDeVencimento: due, validadeAposVencimento: 0 } },
      propriedade: 'cobv.calendario.validadeAposVencimento',
    },
    {
      rule: 'validadeAposVencimento not an integer',
      bad: { ...valid, calendario: { dataDeVencimento: due, validadeAposVencimento: 1.5 } },
      good: valid,
      propriedade: 'cobv.calendario.validadeAposVencimento',
    },
    {
      rule: 'validadeAposVencimento a string that is no integer',
      bad: { ...valid, calendario: { dataDeVencimento: due, validadeAposVencimento: '30 days' } },
      good: valid,
      propriedade: 'cobv.calendario.validadeAposVencimento',
    },
    { rule: 'devedor missing', bad: { ...valid, devedor: undefined }, good: valid, propriedade: 'cobv.devedor' },
    {
      rule: 'devedor with cpf and cnpj',
      bad: { ...valid, devedor: { cpf: CPF, cnpj: CNPJ_ALPHANUMERIC, nome: 'T' } },
      good: { ...valid, devedor: { cnpj: CNPJ_ALPHANUMERIC, nome: 'T' } },
      propriedade: 'cobv.devedor',
    },
    {
      rule: 'devedor cpf with wrong check digits',
      bad: { ...valid, devedor: { cpf: '12345678910', nome: 'T' } },
      good: { ...valid, devedor: { cpf: CPF, nome: 'T' } },
      propriedade: 'cobv.devedor',
    },
    {
      rule: 'devedor uf over 2',
      bad: { ...valid, devedor: { cpf: CPF, nome: 'T', uf: 'PER' } },
      good: { ...valid, devedor: { cpf: CPF, nome: 'T', uf: 'PE' } },
      propriedade: 'cobv.devedor',
    },
    {
      rule: 'devedor cep over 8',
      bad: { ...valid, devedor: { cpf: CPF, nome: 'T', cep: '70011-750' } },
      good: { ...valid, devedor: { cpf: CPF, nome: 'T', cep: '70011750' } },
      propriedade: 'cobv.devedor',
    },
    {
      rule: 'devedor logradouro over 200',
      bad: { ...valid, devedor: { cpf: CPF, nome: 'T', logradouro: 'x'.repeat(201) } },
      good: { ...valid, devedor: { cpf: CPF, nome: 'T', logradouro: 'x'.repeat(200) } },
      propriedade: 'cobv.devedor',
    },
    {
      rule: 'original zero',
      bad: withValor({ original: '0.00' }),
      good: withValor({ original: '0.01' }),
      propriedade: 'cobv.valor.original',
    },
    {
      rule: 'original breaks the pattern',
      bad: withValor({ original: '100' }),
      good: withValor({ original: '100.00' }),
      propriedade: 'cobv.valor.original',
    },
    { rule: 'original missing', bad: { ...valid, valor: {} }, good: valid, propriedade: 'cobv.valor.original' },
    {
      rule: 'multa modalidade 3',
      bad: withValor({ multa: { modalidade: 3, valorPerc: '2.00' } }),
      good: withValor({ multa: { modalidade: 2, valorPerc: '2.00' } }),
      propriedade: 'cobv.valor.multa',
    },
    {
      rule: 'multa without valorPerc',
      bad: withValor({ multa: { modalidade: 1 } }),
      good: withValor({ multa: { modalidade: 1, valorPerc: '5.00' } }),
      propriedade: 'cobv.valor.multa',
    },
    {
      rule: 'multa modalidade a string out of range',
      bad: withValor({ multa: { modalidade: '3', valorPerc: '2.00' } }),
      good: withValor({ multa: { modalidade: '2', valorPerc: '2.00' } }),
      propriedade: 'cobv.valor.multa',
    },
    {
      rule: 'juros modalidade 9',
      bad: withValor({ juros: { modalidade: 9, valorPerc: '1.00' } }),
      good: withValor({ juros: { modalidade: 8, valorPerc: '1.00' } }),
      propriedade: 'cobv.valor.juros',
    },
    {
      rule: 'juros modalidade 0',
      bad: withValor({ juros: { modalidade: 0, valorPerc: '1.00' } }),
      good: withValor({ juros: { modalidade: 1, valorPerc: '1.00' } }),
      propriedade: 'cobv.valor.juros',
    },
    {
      rule: 'juros valorPerc breaks the pattern',
      bad: withValor({ juros: { modalidade: 2, valorPerc: '0.5' } }),
      good: withValor({ juros: { modalidade: 2, valorPerc: '0.50' } }),
      propriedade: 'cobv.valor.juros',
    },
    {
      rule: 'abatimento amount equal to original',
      bad: withValor({ abatimento: { modalidade: 1, valorPerc: '100.00' } }),
      good: withValor({ abatimento: { modalidade: 1, valorPerc: '99.99' } }),
      propriedade: 'cobv.valor.abatimento',
    },
    {
      rule: 'abatimento 100 percent',
      bad: withValor({ original: '1000.00', abatimento: { modalidade: 2, valorPerc: '100.00' } }),
      good: withValor({ original: '1000.00', abatimento: { modalidade: 2, valorPerc: '99.99' } }),
      propriedade: 'cobv.valor.abatimento',
    },
    {
      rule: 'abatimento modalidade 3',
      bad: withValor({ abatimento: { modalidade: 3, valorPerc: '1.00' } }),
      good: withValor({ abatimento: { modalidade: 2, valorPerc: '1.00' } }),
      propriedade: 'cobv.valor.abatimento',
    },
    {
      rule: 'desconto 1 with valorPerc',
      bad: withValor({
        desconto: { modalidade: 1, valorPerc: '5.00', descontoDataFixa: [{ data: due, valorPerc: '5.00' }] },
      }),
      good: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '5.00' }] } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto 2 with an empty descontoDataFixa',
      bad: withValor({ desconto: { modalidade: 2, descontoDataFixa: [] } }),
      good: withValor({ desconto: { modalidade: 2, descontoDataFixa: [{ data: due, valorPerc: '5.00' }] } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto 1 without descontoDataFixa',
      bad: withValor({ desconto: { modalidade: 1 } }),
      good: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '5.00' }] } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto 1 with four dates',
      bad: withValor({
        desconto: {
          modalidade: 1,
          descontoDataFixa: [1, 2, 3, 4].map((n) => ({ data: addDays(today, n), valorPerc: '5.00' })),
        },
      }),
      good: withValor({
        desconto: {
          modalidade: 1,
          descontoDataFixa: [1, 2, 3].map((n) => ({ data: addDays(today, n), valorPerc: '5.00' })),
        },
      }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto date after the due date',
      bad: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: addDays(due, 1), valorPerc: '5.00' }] } }),
      good: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '5.00' }] } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto date repeated',
      bad: withValor({
        desconto: {
          modalidade: 1,
          descontoDataFixa: [
            { data: due, valorPerc: '5.00' },
            { data: due, valorPerc: '3.00' },
          ],
        },
      }),
      good: withValor({
        desconto: {
          modalidade: 1,
          descontoDataFixa: [
            { data: addDays(due, -1), valorPerc: '5.00' },
            { data: due, valorPerc: '3.00' },
          ],
        },
      }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto fixed amount equal to original',
      bad: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '100.00' }] } }),
      good: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '99.99' }] } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto fixed percentage of 100',
      bad: withValor({
        original: '500.00',
        desconto: { modalidade: 2, descontoDataFixa: [{ data: due, valorPerc: '100.00' }] },
      }),
      good: withValor({
        original: '500.00',
        desconto: { modalidade: 2, descontoDataFixa: [{ data: due, valorPerc: '99.99' }] },
      }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto date not a date',
      bad: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-13-01', valorPerc: '5.00' }] } }),
      good: withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: today, valorPerc: '5.00' }] } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto 3 without valorPerc',
      bad: withValor({ desconto: { modalidade: 3 } }),
      good: withValor({ desconto: { modalidade: 3, valorPerc: '0.50' } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto 4 with descontoDataFixa',
      bad: withValor({
        desconto: { modalidade: 4, valorPerc: '0.50', descontoDataFixa: [{ data: due, valorPerc: '5.00' }] },
      }),
      good: withValor({ desconto: { modalidade: 4, valorPerc: '0.50' } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto per-day amount equal to original',
      bad: withValor({ desconto: { modalidade: 3, valorPerc: '100.00' } }),
      good: withValor({ desconto: { modalidade: 3, valorPerc: '99.99' } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto per-day percentage of 100',
      bad: withValor({ original: '500.00', desconto: { modalidade: 6, valorPerc: '100.00' } }),
      good: withValor({ original: '500.00', desconto: { modalidade: 6, valorPerc: '99.99' } }),
      propriedade: 'cobv.valor.desconto',
    },
    {
      rule: 'desconto modalidade 7',
      bad: withValor({ desconto: { modalidade: 7, valorPerc: '1.00' } }),
      good: withValor({ desconto: { modalidade: 5, valorPerc: '1.00' } }),
      propriedade: 'cobv.valor.desconto',
    },
    { rule: 'chave missing', bad: { ...valid, chave: undefined }, good: valid, propriedade: 'cobv.chave' },
    {
      rule: 'chave not a directory key',
      bad: { ...valid, chave: 'store' },
      good: { ...valid, chave: CNPJ_ALPHANUMERIC },
      propriedade: 'cobv.chave',
    },
    {
      rule: 'chave not among ownKeys',
      bad: { ...valid, chave: '+5511987654321' },
      good: valid,
      propriedade: 'cobv.chave',
      ownKeys: [EVP],
    },
    {
      rule: 'solicitacaoPagador over 140',
      bad: { ...valid, solicitacaoPagador: 'x'.repeat(141) },
      good: valid,
      propriedade: 'cobv.solicitacaoPagador',
    },
    {
      rule: 'infoAdicionais not an array',
      bad: { ...valid, infoAdicionais: { nome: 'n', valor: 'v' } },
      good: { ...valid, infoAdicionais: [{ nome: 'n', valor: 'v' }] },
      propriedade: 'cobv.infoAdicionais',
    },
    {
      rule: 'loc.id negative',
      bad: { ...valid, loc: { id: -789 } },
      good: { ...valid, loc: { id: 789 } },
      propriedade: 'cobv.loc.id',
    },
  ];

  it.each(rows)('$rule → $propriedade', async ({ bad, good, propriedade, ownKeys }) => {
    const client = ownKeys ? testClient({ ownKeys }) : api;
    await expectRefused(net, client.cobv.create(TXID, bad as CobVSolicitada), CobVOperacaoInvalida, propriedade);
    await expect(client.cobv.create(TXID, good)).resolves.toMatchObject({ txid: TXID });
    expect(net.requests).toHaveLength(1);
  });

  it('refuses a bad txid with CobVOperacaoInvalida', async () => {
    await expectRefused(net, api.cobv.create(TXID.slice(0, 25), valid), CobVOperacaoInvalida, 'txid');
    await expectRefused(net, api.cobv.create(`${TXID}/..`, valid), CobVOperacaoInvalida, 'txid');
  });

  it('validate: false sends what the rules would refuse', async () => {
    await expect(
      api.cobv.create(TXID, { ...valid, valor: { original: '0.00' } }, { validate: false }),
    ).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });
});

describe('cobv.create also alters existing charges: a due date is left to the service', () => {
  const overdue: CobVSolicitada = {
    ...valid,
    calendario: { dataDeVencimento: addDays(today, -5), validadeAposVencimento: 30 },
  };

  it('sends a re-PUT of an overdue charge still payable (due 5 days ago, valid 30 days after)', async () => {
    await expect(api.cobv.create(TXID, overdue)).resolves.toMatchObject({ txid: TXID });
    expect(net.requests).toHaveLength(1);
    expect(await net.requests[0]?.json()).toEqual(overdue);
  });

  it("the service's own refusal of the date comes back as CobVOperacaoInvalida, sent", async () => {
    net.server.use(
      http.put(`${BASE_URL}/cobv/:txid`, () =>
        problem({
          type: 'https://example.test/errors/CobVOperacaoInvalida',
          title: 'Cobrança inválida.',
          status: 400,
          violacoes: [
            { razao: 'dataDeVencimento anterior à data de criação.', propriedade: 'cobv.calendario.dataDeVencimento' },
          ],
        }),
      ),
    );
    const error = await api.cobv.create(TXID, overdue).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CobVOperacaoInvalida);
    expect(error).toMatchObject({
      sentRequest: true,
      violacoes: [{ propriedade: 'cobv.calendario.dataDeVencimento' }],
    });
  });
});

describe('cobv.update and cobv.remove', () => {
  it('remove sends only the removal status', async () => {
    await api.cobv.remove(TXID);
    expect(await net.requests[0]?.json()).toEqual({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  });

  it('refuses removal combined with other changes, and any other status', async () => {
    const combined = {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
      calendario: { dataDeVencimento: due },
    } as unknown as CobVRevisada;
    await expectRefused(net, api.cobv.update(TXID, combined), CobVOperacaoInvalida, 'cobv.status');
    await expectRefused(
      net,
      api.cobv.update(TXID, { status: 'ATIVA' } as unknown as CobVRevisada),
      CobVOperacaoInvalida,
      'cobv.status',
    );
    await expect(api.cobv.update(TXID, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });

  it('judges the fields a revision carries; a past due date is left to the service', async () => {
    await expectRefused(
      net,
      api.cobv.update(TXID, { valor: { original: '0.00' } }),
      CobVOperacaoInvalida,
      'cobv.valor.original',
    );
    await expectRefused(
      net,
      api.cobv.update(TXID, { calendario: { validadeAposVencimento: -1 } }),
      CobVOperacaoInvalida,
      'cobv.calendario.validadeAposVencimento',
    );
    await expectRefused(
      net,
      api.cobv.update(TXID, {
        calendario: { dataDeVencimento: due },
        valor: { desconto: { modalidade: 1, descontoDataFixa: [{ data: addDays(due, 2), valorPerc: '1.00' }] } },
      }),
      CobVOperacaoInvalida,
      'cobv.valor.desconto',
    );
    // the charge may have been created before that date: only the service knows
    await expect(
      api.cobv.update(TXID, { calendario: { dataDeVencimento: addDays(today, -3) } }),
    ).resolves.toBeDefined();
    // without the original in the patch, abatimento is only judged as a percentage
    await expect(
      api.cobv.update(TXID, { valor: { abatimento: { modalidade: 1, valorPerc: '500.00' } } }),
    ).resolves.toBeDefined();
    expect(net.requests).toHaveLength(2);
  });

  it('the service refusing a txid whose batch item is EM_PROCESSAMENTO or NEGADA is CobVOperacaoInvalida', async () => {
    for (const status of ['EM_PROCESSAMENTO', 'NEGADA']) {
      net.server.use(
        http.patch(`${BASE_URL}/cobv/:txid`, () =>
          problem({
            type: 'https://instant.example.com/api/v2/error/CobVOperacaoInvalida',
            title: 'Cobrança inválida.',
            status: 400,
            detail: `Este txid está associado a um lote e no referido lote o status desta cobrança é ${status}.`,
            violacoes: [{ razao: `Cobrança em lote com status ${status}.`, propriedade: 'cobv.txid', valor: TXID }],
          }),
        ),
      );
      const error = await api.cobv.update(TXID, { solicitacaoPagador: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CobVOperacaoInvalida);
      expect(error).toMatchObject({
        sentRequest: true,
        status: 400,
        violacoes: [{ propriedade: 'cobv.txid', valor: TXID }],
      });
    }
  });

  it('the official CobVOperacaoInvalida example keeps its violacoes', async () => {
    const official = {
      type: 'https://instant.example.com/api/v2/error/CobVOperacaoInvalida',
      title: 'Cobrança inválida.',
      status: 400,
      detail:
        'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.',
      violacoes: [{ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' }],
    };
    net.server.use(http.put(`${BASE_URL}/cobv/:txid`, () => problem(official)));
    await expect(api.cobv.create(TXID, valid)).rejects.toMatchObject({
      name: 'CobVOperacaoInvalida',
      detail: official.detail,
      violacoes: official.violacoes,
    });
  });

  it('a bare 404 is CobVNaoEncontrada', async () => {
    net.server.use(http.patch(`${BASE_URL}/cobv/:txid`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.cobv.remove(TXID)).rejects.toBeInstanceOf(CobVNaoEncontrada);
  });
});

describe('cobv.get', () => {
  it('GET /cobv/{txid}?revisao; a bare 404 is CobVNaoEncontrada', async () => {
    net.server.use(
      http.get(`${BASE_URL}/cobv/:txid`, () => HttpResponse.json({ ...gerada(TXID, valid, 2), instant: [] })),
    );
    await expect(api.cobv.get(TXID, { revisao: 2 })).resolves.toMatchObject({ revisao: 2, instant: [] });
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/cobv/${TXID}?revisao=2`);
    net.server.use(http.get(`${BASE_URL}/cobv/:txid`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.cobv.get(TXID)).rejects.toBeInstanceOf(CobVNaoEncontrada);
  });

  it('refuses a bad revisao or txid with CobVConsultaInvalida', async () => {
    await expectRefused(net, api.cobv.get(TXID, { revisao: -2 }), CobVConsultaInvalida, 'revisao');
    await expectRefused(net, api.cobv.get('x'), CobVConsultaInvalida, 'txid');
  });
});

describe('cobv.list', () => {
  const query = { inicio: '2026-03-01T00:00:00Z', fim: '2026-04-01T00:00:00Z' };

  beforeEach(() => {
    net.server.use(
      http.get(`${BASE_URL}/cobv`, () =>
        HttpResponse.json({
          parametros: {
            ...query,
            paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
          },
          cobs: [gerada(TXID, valid)],
        }),
      ),
    );
  });

  it('the array is cobs; loteCobVId and paging go out under their wire names', async () => {
    const page = await api.cobv.list({
      ...query,
      cnpj: CNPJ_ALPHANUMERIC,
      loteCobVId: 42,
      paginacao: { paginaAtual: 0, itensPorPagina: 10 },
    });
    expect(page.items.map((c) => c.txid)).toEqual([TXID]);
    expect(page.hasNextPage()).toBe(false);
    expect(Object.fromEntries(new URL(net.requests[0]!.url).searchParams)).toEqual({
      ...query,
      cnpj: CNPJ_ALPHANUMERIC,
      loteCobVId: '42',
      'paginacao.paginaAtual': '0',
      'paginacao.itensPorPagina': '10',
    });
  });

  it.each([
    { bad: { ...query, fim: '2026-02-01T00:00:00Z' }, propriedade: 'fim' },
    { bad: { ...query, inicio: 'yesterday' }, propriedade: 'inicio' },
    { bad: { ...query, cpf: CPF, cnpj: CNPJ_ALPHANUMERIC }, propriedade: 'cpf' },
    { bad: { ...query, paginacao: { paginaAtual: -1 } }, propriedade: 'paginacao.paginaAtual' },
    { bad: { ...query, paginacao: { itensPorPagina: 5000 } }, propriedade: 'paginacao.itensPorPagina' },
    { bad: { ...query, loteCobVId: -1 }, propriedade: 'loteCobVId' },
    { bad: { ...query, loteCobVId: 1.5 }, propriedade: 'loteCobVId' },
  ])('refuses with CobVConsultaInvalida naming $propriedade', async ({ bad, propriedade }) => {
    await expectRefused(net, api.cobv.list(bad), CobVConsultaInvalida, propriedade);
    await expect(api.cobv.list(bad, { validate: false })).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });

  it('refuses a missing query with CobVConsultaInvalida, not a TypeError', async () => {
    await expectRefused(net, api.cobv.list(undefined as unknown as CobVListQuery), CobVConsultaInvalida, 'inicio');
  });
});
