import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ApiError,
  CobConsultaInvalida,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  NaoEncontrado,
  ServicoIndisponivel,
  type CobRevisada,
  type CobSolicitada,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient();

const TXID = 'k3Jd8s0Qw2Lm5Nb7Vc9Xz1Ty4Ru6Io8P';
const EVP = '7c084cd4-54af-4172-a516-a7d1a12b75cc';
const CPF = '12345678909';
const CNPJ = '11222333000181';
const CNPJ_ALPHANUMERIC = '12ABC34501DE35';

const valid: CobSolicitada = {
  calendario: { expiracao: 3600 },
  devedor: { cpf: CPF, nome: 'Test Person' },
  valor: { original: '37.00' },
  chave: EVP,
  solicitacaoPagador: 'Service rendered.',
  infoAdicionais: [{ nome: 'Field 1', valor: 'Extra information' }],
};

/** The service's answer to a create or revision: the body plus what the service fills. */
function gerada(txid: string, body: object, revisao = 0) {
  return {
    calendario: { criacao: '2026-03-01T12:00:00.000Z', expiracao: 86400 },
    ...body,
    txid,
    revisao,
    status: 'ATIVA',
    location: 'instant.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
  };
}

beforeEach(() => {
  net.server.use(
    http.put(`${BASE_URL}/cob/:txid`, async ({ request, params }) =>
      HttpResponse.json(gerada(String(params['txid']), (await request.json()) as object), { status: 201 }),
    ),
    http.post(`${BASE_URL}/cob`, async ({ request }) =>
      HttpResponse.json(gerada(TXID, (await request.json()) as object), { status: 201 }),
    ),
    http.patch(`${BASE_URL}/cob/:txid`, async ({ request, params }) =>
      HttpResponse.json(gerada(String(params['txid']), (await request.json()) as object, 1)),
    ),
  );
});

describe('cob.create', () => {
  it('PUT /cob/{txid} sends the body as given and returns the created charge', async () => {
    const cob = await api.cob.create(TXID, valid);
    expect(cob).toMatchObject({ txid: TXID, status: 'ATIVA', revisao: 0, valor: { original: '37.00' } });
    expect(net.requests).toHaveLength(1);
    const [request] = net.requests;
    expect(request?.method).toBe('PUT');
    expect(request?.url).toBe(`${BASE_URL}/cob/${TXID}`);
    expect(request?.headers.get('authorization')).toBe('Bearer test-token');
    expect(await request?.json()).toEqual(valid);
  });

  it('POST /cob without a txid lets the service assign it', async () => {
    const cob = await api.cob.create(valid);
    expect(cob.txid).toBe(TXID);
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE_URL}/cob`]);
  });

  it('POST /cob is never retried, even on a 503 with Retry-After', async () => {
    net.server.use(
      http.post(`${BASE_URL}/cob`, () =>
        HttpResponse.json(
          {
            type: 'https://instant.example.com/api/v2/error/ServicoIndisponivel',
            title: 'Serviço Indisponível',
            status: 503,
          },
          {
            status: 503,
            headers: { 'retry-after': '0', 'content-type': 'application/problem+json' },
          },
        ),
      ),
    );
    await expect(api.cob.create(valid)).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it('PUT /cob/{txid} is retried on a 503 (the txid makes it idempotent)', async () => {
    let calls = 0;
    net.server.use(
      http.put(`${BASE_URL}/cob/:txid`, async ({ request }) =>
        ++calls === 1
          ? new HttpResponse(null, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json(gerada(TXID, (await request.json()) as object), { status: 201 }),
      ),
    );
    await expect(api.cob.create(TXID, valid)).resolves.toMatchObject({ txid: TXID });
    expect(net.requests).toHaveLength(2);
  });

  it('reads the answer leniently: unknown fields and statuses pass, integers written as strings become numbers', async () => {
    net.server.use(
      http.put(`${BASE_URL}/cob/:txid`, () =>
        HttpResponse.json(
          {
            ...gerada(TXID, valid),
            calendario: { criacao: '2026-03-01T12:00:00Z', expiracao: '3600' },
            valor: { original: '37.00', modalidadeAlteracao: '1' },
            status: 'SUSPENSA_PELO_PSP',
            instantCopiaECola: '00020101021226...6304ABCD',
            novoCampo: { a: 1 },
          },
          { status: 201 },
        ),
      ),
    );
    const cob = await api.cob.create(TXID, valid);
    expect(cob.calendario.expiracao).toBe(3600);
    expect(cob.valor).toEqual({ original: '37.00', modalidadeAlteracao: 1 });
    expect(cob.status).toBe('SUSPENSA_PELO_PSP');
    expect(cob.instantCopiaECola).toBe('00020101021226...6304ABCD');
    expect(cob['novoCampo']).toEqual({ a: 1 });
  });
});

describe('cob.create refuses what section 7.3 forbids, before sending', () => {
  const long = (n: number) => 'x'.repeat(n);
  const rows: { rule: string; bad: unknown; good: CobSolicitada; propriedade: string; ownKeys?: string[] }[] = [
    {
      rule: 'expiracao zero',
      bad: { ...valid, calendario: { expiracao: 0 } },
      good: { ...valid, calendario: { expiracao: 1 } },
      propriedade: 'cob.calendario.expiracao',
    },
    {
      rule: 'expiracao negative',
      bad: { ...valid, calendario: { expiracao: -60 } },
      good: valid,
      propriedade: 'cob.calendario.expiracao',
    },
    {
      rule: 'expiracao not an integer',
      bad: { ...valid, calendario: { expiracao: 1.5 } },
      good: valid,
      propriedade: 'cob.calendario.expiracao',
    },
    {
      rule: 'original without two decimals',
      bad: { ...valid, valor: { original: '37.0' } },
      good: { ...valid, valor: { original: '37.00' } },
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original with a comma',
      bad: { ...valid, valor: { original: '37,00' } },
      good: valid,
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original as a number',
      bad: { ...valid, valor: { original: 37 } },
      good: valid,
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original over 10 integer digits',
      bad: { ...valid, valor: { original: '12345678901.00' } },
      good: { ...valid, valor: { original: '1234567890.00' } },
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original zero',
      bad: { ...valid, valor: { original: '0.00' } },
      good: { ...valid, valor: { original: '0.01' } },
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original zero (alterable charge is the exception)',
      bad: { ...valid, valor: { original: '0.00', modalidadeAlteracao: 0 } },
      good: { ...valid, valor: { original: '0.00', modalidadeAlteracao: 1 } },
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original not 0.00 with a withdrawal (saque is the other exception)',
      bad: {
        ...valid,
        valor: {
          original: '10.00',
          retirada: { saque: { valor: '5.00', modalidadeAgente: 'AGPSS', prestadorDoServicoDeSaque: '12345678' } },
        },
      },
      good: {
        ...valid,
        valor: {
          original: '0.00',
          retirada: { saque: { valor: '5.00', modalidadeAgente: 'AGPSS', prestadorDoServicoDeSaque: '12345678' } },
        },
      },
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'original zero with change (troco)',
      bad: {
        ...valid,
        valor: {
          original: '0.00',
          retirada: { troco: { valor: '5.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '12345678' } },
        },
      },
      good: {
        ...valid,
        valor: {
          original: '10.00',
          retirada: { troco: { valor: '5.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '12345678' } },
        },
      },
      propriedade: 'cob.valor.original',
    },
    {
      rule: 'saque and troco together',
      bad: {
        ...valid,
        valor: {
          original: '100.00',
          retirada: {
            saque: { valor: '50.00', modalidadeAgente: 'AGPSS', prestadorDoServicoDeSaque: '12345678' },
            troco: { valor: '30.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '12345678' },
          },
        },
      },
      good: valid,
      propriedade: 'cob.valor.retirada',
    },
    {
      rule: 'troco with an agent only saque allows',
      bad: {
        ...valid,
        valor: {
          original: '10.00',
          retirada: { troco: { valor: '5.00', modalidadeAgente: 'AGPSS', prestadorDoServicoDeSaque: '12345678' } },
        },
      },
      good: {
        ...valid,
        valor: {
          original: '10.00',
          retirada: { troco: { valor: '5.00', modalidadeAgente: 'AGTOT', prestadorDoServicoDeSaque: '12345678' } },
        },
      },
      propriedade: 'cob.valor.retirada.troco',
    },
    {
      rule: 'alterable original with a withdrawal',
      bad: {
        ...valid,
        valor: {
          original: '0.00',
          modalidadeAlteracao: 1,
          retirada: {
            saque: {
              valor: '5.00',
              modalidadeAlteracao: 1,
              modalidadeAgente: 'AGPSS',
              prestadorDoServicoDeSaque: '12345678',
            },
          },
        },
      },
      good: {
        ...valid,
        valor: {
          original: '0.00',
          retirada: {
            saque: {
              valor: '5.00',
              modalidadeAlteracao: 1,
              modalidadeAgente: 'AGPSS',
              prestadorDoServicoDeSaque: '12345678',
            },
          },
        },
      },
      propriedade: 'cob.valor.modalidadeAlteracao',
    },
    {
      rule: 'modalidadeAlteracao out of 0..1',
      bad: { ...valid, valor: { original: '1.00', modalidadeAlteracao: 2 } },
      good: { ...valid, valor: { original: '1.00', modalidadeAlteracao: 0 } },
      propriedade: 'cob.valor.modalidadeAlteracao',
    },
    { rule: 'valor missing', bad: { ...valid, valor: undefined }, good: valid, propriedade: 'cob.valor.original' },
    {
      rule: 'devedor with cpf and cnpj',
      bad: { ...valid, devedor: { cpf: CPF, cnpj: CNPJ, nome: 'Test' } },
      good: { ...valid, devedor: { cpf: CPF, nome: 'Test' } },
      propriedade: 'cob.devedor',
    },
    {
      rule: 'devedor with neither cpf nor cnpj',
      bad: { ...valid, devedor: { nome: 'Test' } },
      good: { ...valid, devedor: { cnpj: CNPJ, nome: 'Test' } },
      propriedade: 'cob.devedor',
    },
    { rule: 'devedor without nome', bad: { ...valid, devedor: { cpf: CPF } }, good: valid, propriedade: 'cob.devedor' },
    {
      rule: 'devedor nome over 200',
      bad: { ...valid, devedor: { cpf: CPF, nome: long(201) } },
      good: { ...valid, devedor: { cpf: CPF, nome: long(200) } },
      propriedade: 'cob.devedor',
    },
    {
      rule: 'devedor cpf with wrong check digits',
      bad: { ...valid, devedor: { cpf: '12345678900', nome: 'Test' } },
      good: valid,
      propriedade: 'cob.devedor',
    },
    {
      rule: 'devedor cpf with punctuation',
      bad: { ...valid, devedor: { cpf: '123.456.789-09', nome: 'Test' } },
      good: valid,
      propriedade: 'cob.devedor',
    },
    {
      rule: 'devedor cnpj with wrong check digits',
      bad: { ...valid, devedor: { cnpj: '11222333000180', nome: 'Test' } },
      good: { ...valid, devedor: { cnpj: CNPJ, nome: 'Test' } },
      propriedade: 'cob.devedor',
    },
    {
      rule: 'devedor alphanumeric cnpj with wrong check digits',
      bad: { ...valid, devedor: { cnpj: '12ABC34501DE36', nome: 'Test' } },
      good: { ...valid, devedor: { cnpj: CNPJ_ALPHANUMERIC, nome: 'Test' } },
      propriedade: 'cob.devedor',
    },
    {
      rule: 'devedor cnpj in lowercase',
      bad: { ...valid, devedor: { cnpj: CNPJ_ALPHANUMERIC.toLowerCase(), nome: 'Test' } },
      good: { ...valid, devedor: { cnpj: CNPJ_ALPHANUMERIC, nome: 'Test' } },
      propriedade: 'cob.devedor',
    },
    { rule: 'chave missing', bad: { ...valid, chave: undefined }, good: valid, propriedade: 'cob.chave' },
    {
      rule: 'chave e-mail in uppercase',
      bad: { ...valid, chave: 'Billing@Store.example' },
      good: { ...valid, chave: 'billing@store.example' },
      propriedade: 'cob.chave',
    },
    {
      rule: 'chave e-mail over 77',
      bad: { ...valid, chave: `${long(66)}@store.example` },
      good: { ...valid, chave: `${long(63)}@store.example` },
      propriedade: 'cob.chave',
    },
    {
      rule: 'chave EVP in uppercase',
      bad: { ...valid, chave: EVP.toUpperCase() },
      good: { ...valid, chave: EVP },
      propriedade: 'cob.chave',
    },
    {
      rule: 'chave phone without +',
      bad: { ...valid, chave: '5511987654321' },
      good: { ...valid, chave: '+5511987654321' },
      propriedade: 'cob.chave',
    },
    {
      rule: 'chave cpf with wrong check digits',
      bad: { ...valid, chave: '12345678900' },
      good: { ...valid, chave: CPF },
      propriedade: 'cob.chave',
    },
    {
      rule: 'chave alphanumeric cnpj with wrong check digits',
      bad: { ...valid, chave: '12ABC34501DE36' },
      good: { ...valid, chave: CNPJ_ALPHANUMERIC },
      propriedade: 'cob.chave',
    },
    {
      rule: 'chave not among ownKeys',
      bad: { ...valid, chave: 'other@store.example' },
      good: { ...valid, chave: EVP },
      propriedade: 'cob.chave',
      ownKeys: [EVP, '+5511987654321'],
    },
    {
      rule: 'solicitacaoPagador over 140',
      bad: { ...valid, solicitacaoPagador: long(141) },
      good: { ...valid, solicitacaoPagador: long(140) },
      propriedade: 'cob.solicitacaoPagador',
    },
    {
      rule: 'infoAdicionais over 50 items',
      bad: { ...valid, infoAdicionais: Array.from({ length: 51 }, (_, i) => ({ nome: `n${i}`, valor: 'v' })) },
      good: { ...valid, infoAdicionais: Array.from({ length: 50 }, (_, i) => ({ nome: `n${i}`, valor: 'v' })) },
      propriedade: 'cob.infoAdicionais',
    },
    {
      rule: 'infoAdicionais nome over 50',
      bad: { ...valid, infoAdicionais: [{ nome: long(51), valor: 'v' }] },
      good: { ...valid, infoAdicionais: [{ nome: long(50), valor: 'v' }] },
      propriedade: 'cob.infoAdicionais',
    },
    {
      rule: 'infoAdicionais valor over 200',
      bad: { ...valid, infoAdicionais: [{ nome: 'n', valor: long(201) }] },
      good: { ...valid, infoAdicionais: [{ nome: 'n', valor: long(200) }] },
      propriedade: 'cob.infoAdicionais',
    },
    {
      rule: 'infoAdicionais item without valor',
      bad: { ...valid, infoAdicionais: [{ nome: 'n' }] },
      good: valid,
      propriedade: 'cob.infoAdicionais',
    },
    {
      rule: 'loc.id zero',
      bad: { ...valid, loc: { id: 0 } },
      good: { ...valid, loc: { id: 1 } },
      propriedade: 'cob.loc.id',
    },
    {
      rule: 'loc.id not an integer',
      bad: { ...valid, loc: { id: '7.5' } },
      good: { ...valid, loc: { id: 789 } },
      propriedade: 'cob.loc.id',
    },
  ];

  it.each(rows)('$rule → $propriedade', async ({ bad, good, propriedade, ownKeys }) => {
    const client = ownKeys ? testClient({ ownKeys }) : api;
    await expectRefused(net, client.cob.create(TXID, bad as CobSolicitada), CobOperacaoInvalida, propriedade);
    await expectRefused(net, client.cob.create(bad as CobSolicitada), CobOperacaoInvalida, propriedade);
    await expect(client.cob.create(TXID, good)).resolves.toMatchObject({ txid: TXID });
    expect(net.requests).toHaveLength(1);
  });

  it('refuses a txid that is not 26 to 35 letters or digits, naming txid', async () => {
    await expectRefused(net, api.cob.create('short', valid), CobOperacaoInvalida, 'txid');
    await expectRefused(net, api.cob.create(`${TXID}-`, valid), CobOperacaoInvalida, 'txid');
    await expectRefused(net, api.cob.create('a'.repeat(36), valid), CobOperacaoInvalida, 'txid');
    await expect(api.cob.create('a'.repeat(26), valid)).resolves.toBeDefined();
    await expect(api.cob.create('a'.repeat(35), valid)).resolves.toBeDefined();
    expect(net.requests).toHaveLength(2);
  });

  it('collects every broken rule in one error, without personal data', async () => {
    const error = (await api.cob
      .create(TXID, {
        ...valid,
        calendario: { expiracao: 0 },
        devedor: { cpf: '12345678900', nome: 'Fulano de Tal' },
        chave: 'Someone@Mail.example',
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.violacoes.map((v) => v.propriedade)).toEqual(['cob.calendario.expiracao', 'cob.devedor', 'cob.chave']);
    const serialized = JSON.stringify(error) + error.message + String(error.stack);
    for (const secret of ['12345678900', 'Fulano', 'Someone@Mail.example', 'test-token'])
      expect(serialized).not.toContain(secret);
    expect(net.requests).toHaveLength(0);
  });

  it("a refusal's stack is the caller's code awaiting the call, not the SDK's frames", async () => {
    const refused = { ...valid, valor: { original: '0.00' } };
    async function placeOrder() {
      return await api.cob.create(TXID, refused);
    }
    async function placeOrderWithResponse() {
      return await api.cob.create(TXID, refused).withResponse();
    }
    async function handOver() {
      return api.cob.create(TXID, refused); // not awaited: its caller's frame is shown
    }
    async function checkout() {
      return await handOver();
    }
    for (const [call, first] of [
      [placeOrder, 'placeOrder'],
      [placeOrderWithResponse, 'placeOrderWithResponse'],
      [checkout, 'checkout'],
    ] as const) {
      const error = (await call().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(CobOperacaoInvalida);
      const stack = String(error.stack);
      expect(stack).toMatch(
        /^CobOperacaoInvalida: 400 CobOperacaoInvalida Request refused before sending \(cob\.valor\.original: /,
      );
      // Node's microtask runner may come first (`at process.processTicksAndRejections`).
      const ours = stack
        .split('\n')
        .slice(1)
        .filter((frame) => !frame.includes('node:internal'));
      expect(ours[0], stack).toMatch(new RegExp(`\\bat (async )?${first}\\b`));
      expect(stack).not.toMatch(/src[\\/](core|collection)[\\/]/);
    }
  });

  it('validate: false on the call sends the request and returns the service verdict', async () => {
    const official = {
      type: 'https://instant.example.com/api/v2/error/CobOperacaoInvalida',
      title: 'Cobrança inválida.',
      status: 400,
      detail:
        'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
      violacoes: [{ razao: 'O campo cob.valor.original não respeita o _schema_.', propriedade: 'cob.valor.original' }],
    };
    net.server.use(http.put(`${BASE_URL}/cob/:txid`, () => problem(official)));
    const bad = { ...valid, valor: { original: '37' } };
    const error = (await api.cob.create(TXID, bad, { validate: false }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(CobOperacaoInvalida);
    expect(error).toMatchObject({
      status: 400,
      sentRequest: true,
      title: 'Cobrança inválida.',
      violacoes: official.violacoes,
    });
    expect(error.type).toBe(official.type);
    expect(net.requests).toHaveLength(1);
  });

  it('validate: false on the client skips the rules for every call', async () => {
    const lax = testClient({ validate: false });
    await expect(lax.cob.create(TXID, { ...valid, calendario: { expiracao: 0 } })).resolves.toBeDefined();
    await expect(lax.cob.update(TXID, { status: 'CONCLUIDA' } as never)).resolves.toBeDefined();
    expect(net.requests).toHaveLength(2);
    // ...unless a call turns them back on
    net.requests.length = 0;
    await expectRefused(
      net,
      lax.cob.create(TXID, { ...valid, calendario: { expiracao: 0 } }, { validate: true }),
      CobOperacaoInvalida,
      'cob.calendario.expiracao',
    );
  });
});

describe('cob.update and cob.remove', () => {
  it('PATCH sends only the changes and returns the revised charge', async () => {
    const cob = await api.cob.update(TXID, { valor: { original: '40.00' }, solicitacaoPagador: 'New text' });
    expect(cob.revisao).toBe(1);
    const [request] = net.requests;
    expect(request?.method).toBe('PATCH');
    expect(await request?.json()).toEqual({ valor: { original: '40.00' }, solicitacaoPagador: 'New text' });
  });

  it('remove sends only status REMOVIDA_PELO_USUARIO_RECEBEDOR', async () => {
    await api.cob.remove(TXID);
    const [request] = net.requests;
    expect(request?.method).toBe('PATCH');
    expect(request?.url).toBe(`${BASE_URL}/cob/${TXID}`);
    expect(await request?.json()).toEqual({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  });

  it('refuses removal combined with any other change', async () => {
    const patch = { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' } as unknown as CobRevisada;
    await expectRefused(net, api.cob.update(TXID, patch), CobOperacaoInvalida, 'cob.status');
    const withValor = {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
      valor: { original: '1.00' },
    } as unknown as CobRevisada;
    await expectRefused(net, api.cob.update(TXID, withValor), CobOperacaoInvalida, 'cob.status');
    await expect(api.cob.update(TXID, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });

  it.each(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_PSP', 'removida_pelo_usuario_recebedor'])(
    'refuses status %s',
    async (status) => {
      await expectRefused(
        net,
        api.cob.update(TXID, { status } as unknown as CobRevisada),
        CobOperacaoInvalida,
        'cob.status',
      );
    },
  );

  it('applies the field rules to revisions, with nothing required', async () => {
    await expectRefused(
      net,
      api.cob.update(TXID, { calendario: { expiracao: 0 } }),
      CobOperacaoInvalida,
      'cob.calendario.expiracao',
    );
    await expectRefused(net, api.cob.update(TXID, { chave: 'not a key' }), CobOperacaoInvalida, 'cob.chave');
    await expectRefused(
      net,
      api.cob.update(TXID, { devedor: { cpf: '11111111111', nome: 'Test' } }),
      CobOperacaoInvalida,
      'cob.devedor',
    );
    await expect(api.cob.update(TXID, {})).resolves.toBeDefined();
    // a revision's zero original is the service's call: it knows whether the charge is alterable
    await expect(api.cob.update(TXID, { valor: { original: '0.00' } })).resolves.toBeDefined();
    expect(net.requests).toHaveLength(2);
  });

  it('refuses a bad txid with CobOperacaoInvalida', async () => {
    await expectRefused(net, api.cob.update('../cob', { solicitacaoPagador: 'x' }), CobOperacaoInvalida, 'txid');
    await expectRefused(net, api.cob.remove(''), CobOperacaoInvalida, 'txid');
  });

  it('a bare 404 on PATCH is CobNaoEncontrado', async () => {
    net.server.use(http.patch(`${BASE_URL}/cob/:txid`, () => new HttpResponse(null, { status: 404 })));
    const error = await api.cob.remove(TXID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CobNaoEncontrado);
    expect(error).toMatchObject({ status: 404, sentRequest: true });
  });

  it('a typed answer keeps its type: CobOperacaoInvalida for a charge that is no longer ATIVA', async () => {
    net.server.use(
      http.patch(`${BASE_URL}/cob/:txid`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/CobOperacaoInvalida',
          title: 'Operação inválida.',
          status: 400,
          detail:
            'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
        }),
      ),
    );
    await expect(api.cob.update(TXID, { solicitacaoPagador: 'x' })).rejects.toMatchObject({
      name: 'CobOperacaoInvalida',
      status: 400,
      sentRequest: true,
    });
  });
});

describe('cob.get', () => {
  it('GET /cob/{txid}, with revisao as a query parameter', async () => {
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, ({ request }) =>
        HttpResponse.json({
          ...gerada(TXID, valid, Number(new URL(request.url).searchParams.get('revisao') ?? 3)),
          instant: [
            {
              endToEndId: 'E1234567820260301120000000000001',
              valor: '37.00',
              horario: '2026-03-01T12:05:00Z',
              txid: TXID,
            },
          ],
        }),
      ),
    );
    const latest = await api.cob.get(TXID);
    expect(latest.revisao).toBe(3);
    expect(latest.instant?.[0]?.valor).toBe('37.00');
    const earlier = await api.cob.get(TXID, { revisao: 0 });
    expect(earlier.revisao).toBe(0);
    expect(net.requests.map((r) => r.url)).toEqual([`${BASE_URL}/cob/${TXID}`, `${BASE_URL}/cob/${TXID}?revisao=0`]);
  });

  it('refuses a negative or fractional revisao and a bad txid with CobConsultaInvalida', async () => {
    await expectRefused(net, api.cob.get(TXID, { revisao: -1 }), CobConsultaInvalida, 'revisao');
    await expectRefused(net, api.cob.get(TXID, { revisao: 1.5 }), CobConsultaInvalida, 'revisao');
    await expectRefused(net, api.cob.get('abc'), CobConsultaInvalida, 'txid');
  });

  it('a bare 404 is CobNaoEncontrado; a typed one keeps its type', async () => {
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, () => new HttpResponse('<html>not found</html>', { status: 404 })),
    );
    await expect(api.cob.get(TXID)).rejects.toBeInstanceOf(CobNaoEncontrado);
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/NaoEncontrado',
          title: 'Não Encontrado',
          status: 404,
          detail: 'Entidade não encontrada.',
        }),
      ),
    );
    const error = await api.cob.get(TXID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaoEncontrado);
    expect(error).not.toBeInstanceOf(CobNaoEncontrado);
  });

  it('CobConsultaInvalida from the service keeps its violacoes', async () => {
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/CobConsultaInvalida',
          title: 'Consulta inválida.',
          status: 400,
          violacoes: [{ razao: 'Revisão inexistente.', propriedade: 'revisao', valor: '9' }],
        }),
      ),
    );
    await expect(api.cob.get(TXID, { revisao: 9 })).rejects.toMatchObject({
      name: 'CobConsultaInvalida',
      violacoes: [{ razao: 'Revisão inexistente.', propriedade: 'revisao', valor: '9' }],
    });
  });
});

describe('cob.list', () => {
  const query = { inicio: '2026-03-01T00:00:00Z', fim: '2026-03-31T23:59:59Z' };

  /** A service holding `total` charges, paged as asked. */
  function serveCharges(total: number) {
    net.server.use(
      http.get(`${BASE_URL}/cob`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        const page = Number(params.get('paginacao.paginaAtual') ?? 0);
        const size = Number(params.get('paginacao.itensPorPagina') ?? 100);
        const count = Math.max(0, Math.min(size, total - page * size));
        return HttpResponse.json({
          parametros: {
            inicio: params.get('inicio'),
            fim: params.get('fim'),
            paginacao: {
              paginaAtual: page,
              itensPorPagina: size,
              quantidadeDePaginas: Math.max(1, Math.ceil(total / size)),
              quantidadeTotalDeItens: total,
            },
          },
          cobs: Array.from({ length: count }, (_, i) => ({
            ...gerada(`charge${String(page * size + i).padStart(21, '0')}`, valid),
            status: 'ATIVA',
          })),
        });
      }),
    );
  }

  it('await gives the first page with items and parametros; query names are the wire names', async () => {
    serveCharges(250);
    const page = await api.cob.list({
      ...query,
      cpf: CPF,
      status: 'ATIVA',
      locationPresente: true,
      paginacao: { itensPorPagina: 100 },
    });
    expect(page.items).toHaveLength(100);
    expect(page.parametros.paginacao).toMatchObject({
      paginaAtual: 0,
      quantidadeDePaginas: 3,
      quantidadeTotalDeItens: 250,
    });
    expect(page.hasNextPage()).toBe(true);
    const url = new URL(net.requests[0]!.url);
    expect(url.pathname).toBe('/v2/cob');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      inicio: query.inicio,
      fim: query.fim,
      cpf: CPF,
      status: 'ATIVA',
      locationPresente: 'true',
      'paginacao.itensPorPagina': '100',
    });
  });

  it('for await walks 2,500 charges over several pages', async () => {
    serveCharges(2500);
    const txids: string[] = [];
    for await (const cob of api.cob.list({ ...query, paginacao: { itensPorPagina: 1000 } })) txids.push(cob.txid);
    expect(txids).toHaveLength(2500);
    expect(new Set(txids).size).toBe(2500);
    expect(net.requests.map((r) => new URL(r.url).searchParams.get('paginacao.paginaAtual'))).toEqual([null, '1', '2']);
    expect(net.requests.every((r) => new URL(r.url).searchParams.get('paginacao.itensPorPagina') === '1000')).toBe(
      true,
    );
  });

  it('starts from the page asked for', async () => {
    serveCharges(2500);
    let count = 0;
    for await (const _ of api.cob.list({ ...query, paginacao: { paginaAtual: 20 } })) count++;
    expect(count).toBe(500);
    expect(net.requests).toHaveLength(5);
    expect(new URL(net.requests[0]!.url).searchParams.get('paginacao.paginaAtual')).toBe('20');
  });

  const rows: { rule: string; bad: unknown; good: object; propriedade: string }[] = [
    { rule: 'inicio missing', bad: { fim: query.fim }, good: query, propriedade: 'inicio' },
    {
      rule: 'inicio not RFC 3339',
      bad: { ...query, inicio: '2026-03-01' },
      good: { ...query, inicio: '2026-03-01T00:00:00-03:00' },
      propriedade: 'inicio',
    },
    { rule: 'fim missing', bad: { inicio: query.inicio }, good: query, propriedade: 'fim' },
    { rule: 'fim not RFC 3339', bad: { ...query, fim: '31/03/2026' }, good: query, propriedade: 'fim' },
    {
      rule: 'fim before inicio',
      bad: { inicio: query.fim, fim: query.inicio },
      good: { inicio: query.inicio, fim: query.inicio },
      propriedade: 'fim',
    },
    {
      rule: 'fim before inicio across offsets',
      bad: { inicio: '2026-03-01T12:00:00Z', fim: '2026-03-01T10:00:00-01:00' },
      good: { inicio: '2026-03-01T12:00:00Z', fim: '2026-03-01T10:00:00-02:00' },
      propriedade: 'fim',
    },
    {
      rule: 'cpf and cnpj together',
      bad: { ...query, cpf: CPF, cnpj: CNPJ },
      good: { ...query, cnpj: CNPJ },
      propriedade: 'cpf',
    },
    {
      rule: 'cpf not 11 digits',
      bad: { ...query, cpf: '123.456.789-09' },
      good: { ...query, cpf: CPF },
      propriedade: 'cpf',
    },
    {
      rule: 'cnpj not 14 of 0-9/A-Z',
      bad: { ...query, cnpj: '12abc34501de35' },
      good: { ...query, cnpj: CNPJ_ALPHANUMERIC },
      propriedade: 'cnpj',
    },
    {
      rule: 'paginaAtual negative',
      bad: { ...query, paginacao: { paginaAtual: -1 } },
      good: { ...query, paginacao: { paginaAtual: 0 } },
      propriedade: 'paginacao.paginaAtual',
    },
    {
      rule: 'paginaAtual fractional',
      bad: { ...query, paginacao: { paginaAtual: 0.5 } },
      good: query,
      propriedade: 'paginacao.paginaAtual',
    },
    {
      rule: 'itensPorPagina zero',
      bad: { ...query, paginacao: { itensPorPagina: 0 } },
      good: { ...query, paginacao: { itensPorPagina: 1 } },
      propriedade: 'paginacao.itensPorPagina',
    },
    {
      rule: 'itensPorPagina negative',
      bad: { ...query, paginacao: { itensPorPagina: -10 } },
      good: query,
      propriedade: 'paginacao.itensPorPagina',
    },
    {
      rule: 'itensPorPagina over 1000',
      bad: { ...query, paginacao: { itensPorPagina: 1001 } },
      good: { ...query, paginacao: { itensPorPagina: 1000 } },
      propriedade: 'paginacao.itensPorPagina',
    },
  ];

  it.each(rows)('refuses $rule → CobConsultaInvalida $propriedade', async ({ bad, good, propriedade }) => {
    serveCharges(1);
    await expectRefused(net, api.cob.list(bad as never), CobConsultaInvalida, propriedade);
    const walk = async () => {
      for await (const _ of api.cob.list(bad as never));
    };
    await expectRefused(net, walk(), CobConsultaInvalida, propriedade);
    await expect(api.cob.list(good as never)).resolves.toMatchObject({ items: [expect.anything()] });
    expect(net.requests).toHaveLength(1);
  });

  it('a typed answer from the service keeps its class', async () => {
    net.server.use(
      http.get(`${BASE_URL}/cob`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/CobConsultaInvalida',
          title: 'Consulta inválida.',
          status: 400,
          violacoes: [{ propriedade: 'status' }],
        }),
      ),
    );
    await expect(api.cob.list({ ...query, status: 'NOPE' })).rejects.toMatchObject({
      name: 'CobConsultaInvalida',
      violacoes: [{ propriedade: 'status' }],
    });
  });
});
