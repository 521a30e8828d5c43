/** `api.cobr` over msw: create (POST and PUT), cancel, fetch, list, retry; their refusals, wire form and retries. */
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CobRConsultaInvalida,
  CobRNaoEncontrado,
  CobROperacaoInvalida,
  ConfigurationError,
  ConnectionError,
  InstantClient,
  NaoEncontrado,
  ServicoIndisponivel,
  type CobRSolicitada,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';
import { CNPJ, EXAMPLE_CPF, ID_REC, RANGE, TXID, bare, cobRBody, cobRGerada, inDays, pagedList } from './fixtures.ts';

const net = useMsw();
const api = testClient();
const SERVICE_TXID = 'fc9a4366ff3d4964b5dbc6c91a8722d3';

beforeEach(() => {
  net.server.use(
    http.put(`${BASE_URL}/cobr/:txid`, async ({ request, params }) =>
      HttpResponse.json(cobRGerada(String(params['txid']), (await request.json()) as object), { status: 201 }),
    ),
    http.post(`${BASE_URL}/cobr`, async ({ request }) =>
      HttpResponse.json(cobRGerada(SERVICE_TXID, (await request.json()) as object), { status: 201 }),
    ),
    http.patch(`${BASE_URL}/cobr/:txid`, () => HttpResponse.json({ ...cobRGerada(), status: 'CANCELADA' })),
    http.get(`${BASE_URL}/cobr/:txid`, () =>
      HttpResponse.json({ ...cobRGerada(), politicaRetentativa: 'PERMITE_3R_7D', tentativas: [] }),
    ),
    http.post(`${BASE_URL}/cobr/:txid/retentativa/:data`, ({ params }) =>
      HttpResponse.json(
        {
          ...cobRGerada(),
          tentativas: [
            {
              dataLiquidacao: String(params['data']),
              tipo: 'NTAG',
              status: 'AGENDADA',
              endToEndId: 'E12345678202406201221abcdef12345',
            },
          ],
        },
        { status: 201 },
      ),
    ),
  );
});

describe('cobr.create', () => {
  it('PUT /cobr/{txid} sends the body and returns the charge', async () => {
    const body = cobRBody();
    await expect(api.cobr.create(TXID, body)).resolves.toMatchObject({ txid: TXID, status: 'CRIADA' });
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`PUT ${BASE_URL}/cobr/${TXID}`]);
    expect(await net.requests[0]?.json()).toEqual(body);
  });

  it('POST /cobr lets the service choose the txid', async () => {
    await expect(api.cobr.create(cobRBody())).resolves.toMatchObject({ txid: SERVICE_TXID });
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE_URL}/cobr`]);
  });

  it("sends the schema form: a hyphenated cep as its 8 digits, an absent ajusteDiaUtil as true; the caller's object untouched", async () => {
    const { ajusteDiaUtil: _left, ...rest } = cobRBody();
    const body: CobRSolicitada = { ...rest, devedor: { ...rest.devedor, cep: '89256-140' } };
    const before = JSON.stringify(body);
    await api.cobr.create(TXID, body);
    await api.cobr.create(body, { validate: false });
    for (const request of net.requests) {
      expect(await request.json()).toMatchObject({ ajusteDiaUtil: true, devedor: { cep: '89256140' } });
    }
    expect(JSON.stringify(body)).toBe(before);
    await api.cobr.create(TXID, { ...cobRBody(), ajusteDiaUtil: false });
    expect(await net.requests[2]?.json()).toMatchObject({ ajusteDiaUtil: false });
  });

  it('POST /cobr is never retried on a 503', async () => {
    net.server.use(http.post(`${BASE_URL}/cobr`, () => bare(503)));
    await expect(api.cobr.create(cobRBody())).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it('PUT /cobr/{txid} is retried on a 503 (it creates only: no retry makes a second charge)', async () => {
    let calls = 0;
    net.server.use(
      http.put(`${BASE_URL}/cobr/:txid`, async ({ request }) =>
        ++calls === 1
          ? bare(503)
          : HttpResponse.json(cobRGerada(TXID, (await request.json()) as object), { status: 201 }),
      ),
    );
    await expect(api.cobr.create(TXID, cobRBody())).resolves.toMatchObject({ txid: TXID });
    expect(net.requests).toHaveLength(2);
  });

  it('a lost answer to PUT: the charge the service holds under the txid is read before any replay, and is the answer', async () => {
    const created = new Map<string, object>();
    net.server.use(
      http.put(`${BASE_URL}/cobr/:txid`, async ({ request, params }) => {
        const txid = String(params['txid']);
        if (created.has(txid)) {
          return problem({
            type: 'https://instant.example.com/api/v2/error/CobROperacaoInvalida',
            title: 'Operação inválida.',
            status: 400,
            violacoes: [{ razao: 'txid em uso', propriedade: 'cobr.txid' }],
          });
        }
        created.set(txid, cobRGerada(txid, (await request.json()) as object));
        return HttpResponse.error(); // the charge exists, its answer never arrives
      }),
      http.get(`${BASE_URL}/cobr/:txid`, ({ params }) => {
        const charge = created.get(String(params['txid']));
        return charge ? HttpResponse.json(charge) : bare(404);
      }),
    );
    const body = cobRBody();
    await expect(api.cobr.create(TXID, body)).resolves.toMatchObject({
      idRec: body.idRec,
      valor: body.valor,
      txid: TXID,
    });
    expect(net.requests.map((r) => r.method)).toEqual(['PUT', 'GET']);
  });

  it('a network failure on POST is a ConnectionError, sent once', async () => {
    net.server.use(http.post(`${BASE_URL}/cobr`, () => HttpResponse.error()));
    await expect(api.cobr.create(cobRBody())).rejects.toBeInstanceOf(ConnectionError);
    expect(net.requests).toHaveLength(1);
  });

  const valid = cobRBody();
  const rows: { rule: string; bad: unknown; good: CobRSolicitada; propriedade: string }[] = [
    { rule: 'idRec missing', bad: { ...valid, idRec: undefined }, good: valid, propriedade: 'cobr.idRec' },
    {
      rule: 'idRec of 30 characters',
      bad: { ...valid, idRec: 'RR12345abc20240115abcdefghijkl' },
      good: valid,
      propriedade: 'cobr.idRec',
    },
    {
      rule: 'infoAdicional over 140',
      bad: { ...valid, infoAdicional: 'x'.repeat(141) },
      good: { ...valid, infoAdicional: 'x'.repeat(140) },
      propriedade: 'cobr.infoAdicional',
    },
    {
      rule: 'status outside the charge statuses',
      bad: { ...valid, status: 'PENDENTE' },
      good: valid,
      propriedade: 'cobr.status',
    },
    {
      rule: 'calendario missing',
      bad: { ...valid, calendario: undefined },
      good: valid,
      propriedade: 'cobr.calendario',
    },
    {
      rule: 'dataDeVencimento not a real day',
      bad: { ...valid, calendario: { dataDeVencimento: '2031-13-01' } },
      good: valid,
      propriedade: 'cobr.calendario',
    },
    {
      rule: 'dataDeVencimento before today',
      bad: { ...valid, calendario: { dataDeVencimento: inDays(-1) } },
      good: { ...valid, calendario: { dataDeVencimento: inDays(0) } },
      propriedade: 'cobr.calendario.dataDeVencimento',
    },
    { rule: 'valor missing', bad: { ...valid, valor: undefined }, good: valid, propriedade: 'cobr.valor' },
    {
      rule: 'original as a float',
      bad: { ...valid, valor: { original: 106.07 } },
      good: valid,
      propriedade: 'cobr.valor',
    },
    {
      rule: 'original with three decimals',
      bad: { ...valid, valor: { original: '106.070' } },
      good: valid,
      propriedade: 'cobr.valor',
    },
    {
      rule: 'ajusteDiaUtil a string',
      bad: { ...valid, ajusteDiaUtil: 'true' },
      good: valid,
      propriedade: 'cobr.ajusteDiaUtil',
    },
    { rule: 'recebedor missing', bad: { ...valid, recebedor: undefined }, good: valid, propriedade: 'cobr.recebedor' },
    {
      rule: 'tipoConta with a cedilla',
      bad: { ...valid, recebedor: { ...valid.recebedor, tipoConta: 'POUPANÇA' } },
      good: { ...valid, recebedor: { ...valid.recebedor, tipoConta: 'POUPANCA' } },
      propriedade: 'cobr.recebedor',
    },
    {
      rule: 'conta over 20',
      bad: { ...valid, recebedor: { ...valid.recebedor, conta: '1'.repeat(21) } },
      good: { ...valid, recebedor: { ...valid.recebedor, conta: '1'.repeat(20) } },
      propriedade: 'cobr.recebedor',
    },
    {
      rule: 'agencia over 4',
      bad: { ...valid, recebedor: { ...valid.recebedor, agencia: '97080' } },
      good: valid,
      propriedade: 'cobr.recebedor',
    },
    {
      rule: 'devedor uf over 2',
      bad: { ...valid, devedor: { uf: 'MGX' } },
      good: { ...valid, devedor: { uf: 'MG' } },
      propriedade: 'cobr.devedor',
    },
    {
      rule: 'devedor cep of 9 digits',
      bad: { ...valid, devedor: { cep: '892561400' } },
      good: { ...valid, devedor: { cep: '89256-140' } },
      propriedade: 'cobr.devedor',
    },
    {
      rule: 'devedor email a number',
      bad: { ...valid, devedor: { email: 5 } },
      good: valid,
      propriedade: 'cobr.devedor',
    },
    {
      rule: 'devedor not an object',
      bad: { ...valid, devedor: 'Fulano' },
      good: { ...valid, devedor: {} },
      propriedade: 'cobr.devedor',
    },
  ];

  it.each(rows)('$rule → $propriedade', async ({ bad, good, propriedade }) => {
    await expectRefused(net, api.cobr.create(TXID, bad as CobRSolicitada), CobROperacaoInvalida, propriedade);
    await expectRefused(net, api.cobr.create(bad as CobRSolicitada), CobROperacaoInvalida, propriedade);
    await expect(api.cobr.create(TXID, good)).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });

  it('refuses a txid that is not 26 to 35 letters or digits, before it reaches the path', async () => {
    for (const txid of ['short', `${TXID}-`, 'a'.repeat(36), '../cob/aaaaaaaaaaaaaaaaaaaaaaaaaa']) {
      await expectRefused(net, api.cobr.create(txid, cobRBody()), CobROperacaoInvalida, 'txid');
    }
  });

  it('a bare 404 on PUT is the general NaoEncontrado (a create names no existing charge)', async () => {
    net.server.use(http.put(`${BASE_URL}/cobr/:txid`, () => bare(404)));
    const error = await api.cobr.create(TXID, cobRBody()).catch((e: unknown) => e);
    expect((error as object).constructor).toBe(NaoEncontrado);
  });
});

describe('cobr.create with ownAccounts', () => {
  const own = testClient({
    ownAccounts: [
      { conta: '012682', agencia: '9708', tipoConta: 'CORRENTE' },
      { conta: '997182', tipoConta: 'PAGAMENTO' },
    ],
  });
  const withAccount = (recebedor: CobRSolicitada['recebedor']) => ({ ...cobRBody(), recebedor });

  it('sends a charge to one of the accounts (agencia matched when both sides give one)', async () => {
    await own.cobr.create(TXID, withAccount({ conta: '012682', agencia: '9708', tipoConta: 'CORRENTE' }));
    await own.cobr.create(TXID, withAccount({ conta: '012682', tipoConta: 'CORRENTE' }));
    await own.cobr.create(TXID, withAccount({ conta: '997182', agencia: '0001', tipoConta: 'CORRENTE' }));
    expect(net.requests).toHaveLength(3);
  });

  it('refuses another account, or the right account at another branch, with CobROperacaoInvalida', async () => {
    await expectRefused(
      net,
      own.cobr.create(TXID, withAccount({ conta: '555', tipoConta: 'CORRENTE' })),
      CobROperacaoInvalida,
      'cobr.recebedor.conta',
    );
    const error = await expectRefused(
      net,
      own.cobr.create(withAccount({ conta: '012682', agencia: '0001', tipoConta: 'CORRENTE' })),
      CobROperacaoInvalida,
      'cobr.recebedor.conta',
    );
    expect(JSON.stringify(error)).not.toContain('012682');
  });

  it('without ownAccounts, any well-formed account is sent', async () => {
    await api.cobr.create(TXID, withAccount({ conta: '555', tipoConta: 'CORRENTE' }));
    expect(net.requests).toHaveLength(1);
  });

  it('an ownAccounts entry without conta is a ConfigurationError at construction', () => {
    expect(() => new InstantClient({ baseUrl: BASE_URL, ownAccounts: [{ agencia: '1' }] as never })).toThrow(
      ConfigurationError,
    );
    expect(() => new InstantClient({ baseUrl: BASE_URL, ownAccounts: 'x' as never })).toThrow(ConfigurationError);
    const client = new InstantClient({ baseUrl: BASE_URL, ownAccounts: [{ conta: '1', tipoConta: 'CORRENTE' }] });
    expect(Object.isFrozen(client.ownAccounts)).toBe(true);
  });
});

describe('cobr.update, cancel and get', () => {
  it('cancel sends PATCH /cobr/{txid} with only status CANCELADA', async () => {
    await expect(api.cobr.cancel(TXID)).resolves.toMatchObject({ status: 'CANCELADA' });
    expect(net.requests[0]?.method).toBe('PATCH');
    expect(await net.requests[0]?.json()).toEqual({ status: 'CANCELADA' });
  });

  it('update refuses any status but CANCELADA; PATCH is never retried', async () => {
    await expectRefused(net, api.cobr.update(TXID, { status: 'ATIVA' } as never), CobROperacaoInvalida, 'cobr.status');
    net.server.use(http.patch(`${BASE_URL}/cobr/:txid`, () => bare(503)));
    await expect(api.cobr.cancel(TXID)).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it("a late cancellation is the service's call, and keeps its class", async () => {
    net.server.use(
      http.patch(`${BASE_URL}/cobr/:txid`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/CobROperacaoInvalida',
          title: 'Operação inválida.',
          status: 400,
          detail:
            'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.',
        }),
      ),
    );
    await expect(api.cobr.cancel(TXID)).rejects.toMatchObject({ name: 'CobROperacaoInvalida', sentRequest: true });
  });

  it('bare 404s on PATCH and GET are CobRNaoEncontrado; GET is retried on 503', async () => {
    net.server.use(http.patch(`${BASE_URL}/cobr/:txid`, () => bare(404)));
    await expect(api.cobr.cancel(TXID)).rejects.toBeInstanceOf(CobRNaoEncontrado);
    let calls = 0;
    net.server.use(http.get(`${BASE_URL}/cobr/:txid`, () => (++calls === 1 ? bare(503) : bare(404))));
    await expect(api.cobr.get(TXID)).rejects.toBeInstanceOf(CobRNaoEncontrado);
    expect(net.requests).toHaveLength(3);
  });

  it('get reads attempts and payments leniently', async () => {
    net.server.use(
      http.get(`${BASE_URL}/cobr/:txid`, () =>
        HttpResponse.json({
          ...cobRGerada(),
          recebedor: { conta: '107262', tipoConta: 'POUPANÇA', cnpj: CNPJ },
          tentativas: [
            {
              dataLiquidacao: '2024-20-08',
              tipo: 'AGND',
              status: 'SOLICITADA',
              endToEndId: 'E12345678202406201221abcdef12345',
            },
          ],
          instant: [
            {
              endToEndId: 'E12345678202406201221abcdef12345',
              txid: TXID,
              valor: '106.07',
              horario: '2026-01-01T00:00:00Z',
              devolucoes: [],
            },
          ],
        }),
      ),
    );
    const charge = await api.cobr.get(TXID);
    expect(charge.tentativas?.[0]?.dataLiquidacao).toBe('2024-20-08');
    expect(charge.recebedor.tipoConta).toBe('POUPANÇA');
    expect(charge.instant?.[0]?.valor).toBe('106.07');
  });

  it('get refuses a bad txid with CobRConsultaInvalida', async () => {
    await expectRefused(net, api.cobr.get('..'), CobRConsultaInvalida, 'txid');
  });
});

describe('cobr.list', () => {
  it('walks every charge across pages (cobsr), with the idRec filter', async () => {
    const list = pagedList('/cobr', 'cobsr', 3, 2, (i) => ({ ...cobRGerada(`txid${i}`.padEnd(26, '0')) }));
    net.server.use(list.handler);
    const txids: string[] = [];
    for await (const charge of api.cobr.list({ ...RANGE, idRec: ID_REC, status: 'ATIVA' })) txids.push(charge.txid);
    expect(txids).toHaveLength(3);
    expect(list.asked).toEqual([null, '1']);
    expect(new URL(net.requests[0]!.url).searchParams.get('idRec')).toBe(ID_REC);
  });

  it.each([
    ['idRec malformed', { ...RANGE, idRec: 'RN1' }, 'idRec'],
    ['cpf and cnpj', { ...RANGE, cpf: EXAMPLE_CPF, cnpj: CNPJ }, 'cpf'],
    ['fim before inicio', { inicio: RANGE.fim, fim: RANGE.inicio }, 'fim'],
    ['convenio over 60', { ...RANGE, convenio: 'c'.repeat(61) }, 'convenio'],
  ])('refuses %s with CobRConsultaInvalida', async (_rule, query, propriedade) => {
    await expectRefused(net, api.cobr.list(query as never), CobRConsultaInvalida, propriedade);
  });
});

describe('cobr.retry', () => {
  it('POST /cobr/{txid}/retentativa/{data} returns the charge with the new attempt', async () => {
    const data = inDays(2);
    const charge = await api.cobr.retry(TXID, data);
    expect(charge.tentativas).toEqual([expect.objectContaining({ dataLiquidacao: data, status: 'AGENDADA' })]);
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${BASE_URL}/cobr/${TXID}/retentativa/${data}`,
    ]);
  });

  it('is never retried on a 503 (it creates an attempt)', async () => {
    net.server.use(http.post(`${BASE_URL}/cobr/:txid/retentativa/:data`, () => bare(503)));
    await expect(api.cobr.retry(TXID, inDays(2))).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it.each([
    ['today', () => inDays(0), 'data'],
    ['yesterday', () => inDays(-1), 'data'],
    ['not a date', () => '2031-02-29', 'data'],
    ['a path climb', () => '..', 'data'],
  ])('refuses data %s with CobROperacaoInvalida', async (_what, data, propriedade) => {
    await expectRefused(net, api.cobr.retry(TXID, data()), CobROperacaoInvalida, propriedade);
  });

  it('refuses a bad txid; a bare 404 is CobRNaoEncontrado; the policy refusal keeps its class', async () => {
    await expectRefused(net, api.cobr.retry('x', inDays(2)), CobROperacaoInvalida, 'txid');
    net.server.use(http.post(`${BASE_URL}/cobr/:txid/retentativa/:data`, () => bare(404)));
    await expect(api.cobr.retry(TXID, inDays(2))).rejects.toBeInstanceOf(CobRNaoEncontrado);
    net.server.use(
      http.post(`${BASE_URL}/cobr/:txid/retentativa/:data`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/CobROperacaoInvalida',
          title: 'Cobrança não encontrada.',
          status: 400,
          detail: 'A política configurada na recorrência não permite retentativa de cobrança.',
        }),
      ),
    );
    await expect(api.cobr.retry(TXID, inDays(2))).rejects.toMatchObject({
      name: 'CobROperacaoInvalida',
      status: 400,
      sentRequest: true,
    });
  });
});
