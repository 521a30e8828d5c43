/** `api.solicrec` over msw: create, fetch, cancel (answered 201), their refusals and retries. */
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ServicoIndisponivel,
  SolicRecNaoEncontrada,
  SolicRecOperacaoInvalida,
  type ApiError,
  type SolicRecSolicitada,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';
import { CNPJ, ID_SOLIC_REC, bare, inDays, solicRecBody, solicRecCompleta } from './fixtures.ts';

const net = useMsw();
const api = testClient();

beforeEach(() => {
  net.server.use(
    http.post(`${BASE_URL}/solicrec`, () => HttpResponse.json(solicRecCompleta(), { status: 201 })),
    http.get(`${BASE_URL}/solicrec/:id`, () => HttpResponse.json(solicRecCompleta('ENVIADA'))),
    http.patch(`${BASE_URL}/solicrec/:id`, () => HttpResponse.json(solicRecCompleta('CANCELADA'), { status: 201 })),
  );
});

describe('solicrec.create', () => {
  it('POST /solicrec sends the body and returns the request with the recurrence payload', async () => {
    const body = solicRecBody();
    const solicrec = await api.solicrec.create(body);
    expect(solicrec).toMatchObject({
      idSolicRec: ID_SOLIC_REC,
      status: 'CRIADA',
      recPayload: { recebedor: { ispbParticipante: '12345678' } },
    });
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE_URL}/solicrec`]);
    expect(await net.requests[0]?.json()).toEqual(body);
  });

  it('is never retried on a 503', async () => {
    net.server.use(http.post(`${BASE_URL}/solicrec`, () => bare(503)));
    await expect(api.solicrec.create(solicRecBody())).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  const valid = solicRecBody();
  const destinatario = valid.destinatario;
  const rows: { rule: string; bad: unknown; good: SolicRecSolicitada; propriedade: string }[] = [
    { rule: 'idRec missing', bad: { ...valid, idRec: undefined }, good: valid, propriedade: 'solicrec.idRec' },
    {
      rule: 'idRec of 28 characters',
      bad: { ...valid, idRec: 'RN12345678202401157782544561' },
      good: valid,
      propriedade: 'solicrec.idRec',
    },
    { rule: 'expiry missing', bad: { ...valid, calendario: {} }, good: valid, propriedade: 'solicrec.calendario' },
    {
      rule: 'expiry a date only',
      bad: { ...valid, calendario: { dataExpiracaoSolicitacao: inDays(7) } },
      good: valid,
      propriedade: 'solicrec.calendario',
    },
    {
      rule: 'expiry on a day before today',
      bad: { ...valid, calendario: { dataExpiracaoSolicitacao: `${inDays(-2)}T12:00:00Z` } },
      good: { ...valid, calendario: { dataExpiracaoSolicitacao: `${inDays(1)}T00:00:00-03:00` } },
      propriedade: 'solicrec.calendario.dataExpiracaoSolicitacao',
    },
    {
      rule: 'destinatario missing',
      bad: { ...valid, destinatario: undefined },
      good: valid,
      propriedade: 'solicrec.destinatario',
    },
    {
      rule: 'conta over 20',
      bad: { ...valid, destinatario: { ...destinatario, conta: '1'.repeat(21) } },
      good: { ...valid, destinatario: { ...destinatario, conta: '1'.repeat(20) } },
      propriedade: 'solicrec.destinatario',
    },
    {
      rule: 'agencia over 4',
      bad: { ...valid, destinatario: { ...destinatario, agencia: '12345' } },
      good: { ...valid, destinatario: { ...destinatario, agencia: undefined } } as never,
      propriedade: 'solicrec.destinatario',
    },
    {
      rule: 'ispbParticipante of 7',
      bad: { ...valid, destinatario: { ...destinatario, ispbParticipante: '9119355' } },
      good: valid,
      propriedade: 'solicrec.destinatario',
    },
    {
      rule: 'cpf and cnpj',
      bad: { ...valid, destinatario: { ...destinatario, cnpj: CNPJ } },
      good: { ...valid, destinatario: { conta: '1', ispbParticipante: '0000000A', cnpj: CNPJ } },
      propriedade: 'solicrec.destinatario',
    },
    {
      rule: 'neither cpf nor cnpj',
      bad: { ...valid, destinatario: { conta: '1', ispbParticipante: '91193552' } },
      good: valid,
      propriedade: 'solicrec.destinatario',
    },
  ];

  it.each(rows)('$rule → $propriedade', async ({ bad, good, propriedade }) => {
    await expectRefused(net, api.solicrec.create(bad as SolicRecSolicitada), SolicRecOperacaoInvalida, propriedade);
    await expect(api.solicrec.create(JSON.parse(JSON.stringify(good)) as SolicRecSolicitada)).resolves.toBeDefined();
    expect(net.requests).toHaveLength(1);
  });

  it("keeps the paying user's account out of errors, the service's included", async () => {
    const refused = (await api.solicrec
      .create({ ...valid, destinatario: { ...destinatario, conta: '9'.repeat(30) } })
      .catch((e: unknown) => e)) as ApiError;
    expect(JSON.stringify(refused) + refused.message).not.toContain('9'.repeat(30));
    net.server.use(
      http.post(`${BASE_URL}/solicrec`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/SolicRecOperacaoInvalida',
          title: 'Operação inválida.',
          status: 400,
          violacoes: [
            {
              razao: 'O objeto solicrec.destinatario não respeita o schema.',
              propriedade: 'solicrec.destinatario',
              valor: '{"conta":"550689","cpf":"15231470190"}',
            },
          ],
        }),
      ),
    );
    const answered = (await api.solicrec.create(valid).catch((e: unknown) => e)) as ApiError;
    expect(answered).toBeInstanceOf(SolicRecOperacaoInvalida);
    expect(answered.violacoes).toEqual([
      {
        razao: 'O objeto solicrec.destinatario não respeita o schema.',
        propriedade: 'solicrec.destinatario',
        valor: '[redacted]',
      },
    ]);
    expect(JSON.stringify(answered)).not.toMatch(/550689|15231470190/);
  });
});

describe('solicrec.get', () => {
  it('GET /solicrec/{idSolicRec}', async () => {
    await expect(api.solicrec.get(ID_SOLIC_REC)).resolves.toMatchObject({ status: 'ENVIADA' });
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/solicrec/${ID_SOLIC_REC}`);
  });

  it('is retried on a 503', async () => {
    let calls = 0;
    net.server.use(
      http.get(`${BASE_URL}/solicrec/:id`, () => (++calls === 1 ? bare(503) : HttpResponse.json(solicRecCompleta()))),
    );
    await expect(api.solicrec.get(ID_SOLIC_REC)).resolves.toBeDefined();
    expect(net.requests).toHaveLength(2);
  });

  it('refuses an idSolicRec out of its schema as the service answers it: SolicRecNaoEncontrada, 404 (no 400 is declared)', async () => {
    for (const id of ['SC87645678', 'SC876456782024021577825445312x', 'SC87645678202402157782544531-', '..', '']) {
      const error = await expectRefused(net, api.solicrec.get(id), SolicRecNaoEncontrada, 'idSolicRec');
      expect(error.status).toBe(404);
    }
  });

  it('sends an idSolicRec of 29 letters or digits that no agent formed: the schema allows it, the service judges', async () => {
    net.server.use(http.get(`${BASE_URL}/solicrec/:id`, () => bare(404)));
    await expect(api.solicrec.get('RN123456782024011577825445612')).rejects.toMatchObject({
      name: 'SolicRecNaoEncontrada',
      sentRequest: true,
    });
  });

  it('a bare 404 is SolicRecNaoEncontrada', async () => {
    net.server.use(http.get(`${BASE_URL}/solicrec/:id`, () => bare(404)));
    await expect(api.solicrec.get(ID_SOLIC_REC)).rejects.toBeInstanceOf(SolicRecNaoEncontrada);
  });
});

describe('solicrec.cancel', () => {
  it('PATCH /solicrec/{idSolicRec} with only status CANCELADA; the 201 answer is the request', async () => {
    await expect(api.solicrec.cancel(ID_SOLIC_REC)).resolves.toMatchObject({ status: 'CANCELADA' });
    expect(net.requests[0]?.method).toBe('PATCH');
    expect(await net.requests[0]?.json()).toEqual({ status: 'CANCELADA' });
  });

  it('is never retried on a 503', async () => {
    net.server.use(http.patch(`${BASE_URL}/solicrec/:id`, () => bare(503)));
    await expect(api.solicrec.cancel(ID_SOLIC_REC)).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it("refuses a malformed id with SolicRecOperacaoInvalida; the status rule is the service's", async () => {
    await expectRefused(net, api.solicrec.cancel('SC1'), SolicRecOperacaoInvalida, 'idSolicRec');
    net.server.use(
      http.patch(`${BASE_URL}/solicrec/:id`, () =>
        problem({
          type: 'https://instant.example.com/api/v2/error/SolicRecOperacaoInvalida',
          title: 'Operação inválida.',
          status: 400,
          detail:
            'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.',
        }),
      ),
    );
    await expect(api.solicrec.cancel(ID_SOLIC_REC)).rejects.toMatchObject({
      name: 'SolicRecOperacaoInvalida',
      sentRequest: true,
    });
  });
});
