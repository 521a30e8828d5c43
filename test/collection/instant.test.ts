import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  InstantConsultaInvalida,
  InstantDevolucaoInvalida,
  InstantDevolucaoNaoEncontrada,
  InstantNaoEncontrado,
} from '../../src/index.ts';
import { INSTANT_LIST_KEY, listKeyOf } from '../../src/collection/instant.ts';
import { BASE_URL, problem, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient({ maxRetries: 0 });

const E2EID = 'E12345678202610091221abcdef12345';
// The service names the list array after the payment scheme; these tests use an arbitrary
// name to show the SDK reads whatever array the body has besides `parametros`.
const WIRE_LIST = 'recebidos';
const payment = {
  endToEndId: E2EID,
  txid: 'cd1fe328c875481285a6f233ae41b662',
  valor: '100.00',
  horario: '2026-10-09T20:15:00.358Z',
  infoPagador: '0123456789',
};
const refund = {
  id: 'D123',
  rtrId: 'D12345678202610091000abcdefghijk',
  valor: '7.89',
  horario: { solicitacao: '2026-10-09T21:00:00Z' },
  status: 'EM_PROCESSAMENTO',
};
const range = { inicio: '2026-01-01T00:00:00Z', fim: '2026-12-31T23:59:59Z' };

describe('api.instant', () => {
  it('get: GET /instant/{e2eid}', async () => {
    net.server.use(http.get(`${BASE_URL}/instant/${E2EID}`, () => HttpResponse.json(payment)));
    await expect(api.instant.get(E2EID)).resolves.toEqual(payment);
  });

  it('get: reads devolucoes given as one object as a one-item array', async () => {
    net.server.use(
      http.get(`${BASE_URL}/instant/${E2EID}`, () => HttpResponse.json({ ...payment, devolucoes: refund })),
    );
    expect((await api.instant.get(E2EID)).devolucoes).toEqual([refund]);
  });

  it('get: a bare 404 is InstantNaoEncontrado', async () => {
    net.server.use(http.get(`${BASE_URL}/instant/${E2EID}`, () => new HttpResponse(null, { status: 404 })));
    const error = await api.instant.get(E2EID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstantNaoEncontrado);
    expect(error).toMatchObject({ status: 404, sentRequest: true });
  });

  it('get: refuses a malformed e2eid with InstantConsultaInvalida before sending', async () => {
    for (const e2eid of ['E1234', `${E2EID}XY`, '../cob', 'E12345678202610091221abcdef1234-']) {
      const error = await api.instant.get(e2eid).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InstantConsultaInvalida);
      expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'e2eid' }] });
    }
    expect(net.requests).toHaveLength(0);
  });

  it('refund: PUT /instant/{e2eid}/devolucao/{id} with the body; 201 gives the refund', async () => {
    let body: unknown;
    net.server.use(
      http.put(`${BASE_URL}/instant/${E2EID}/devolucao/D123`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(refund, { status: 201 });
      }),
    );
    await expect(
      api.instant.refund(E2EID, 'D123', { valor: '7.89', natureza: 'ORIGINAL', descricao: 'Troca' }),
    ).resolves.toEqual(refund);
    expect(body).toEqual({ valor: '7.89', natureza: 'ORIGINAL', descricao: 'Troca' });
  });

  it('refund: is retried on 503 with the same id (idempotent PUT)', async () => {
    let calls = 0;
    net.server.use(
      http.put(`${BASE_URL}/instant/${E2EID}/devolucao/D123`, () =>
        ++calls === 1
          ? new HttpResponse(null, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json(refund, { status: 201 }),
      ),
    );
    await expect(testClient().instant.refund(E2EID, 'D123', { valor: '7.89' })).resolves.toEqual(refund);
    expect(net.requests.map((r) => new URL(r.url).pathname)).toEqual([
      `/v2/instant/${E2EID}/devolucao/D123`,
      `/v2/instant/${E2EID}/devolucao/D123`,
    ]);
  });

  it.each([
    [{ valor: '7.8' }, 'valor'],
    [{ valor: 7.89 }, 'valor'],
    [{ valor: '0.00' }, 'valor'],
    [{ valor: '1,00' }, 'valor'],
    [{ valor: '1.00', natureza: 'MED_FRAUDE' }, 'natureza'],
    [{ valor: '1.00', descricao: 'x'.repeat(141) }, 'descricao'],
  ])('refund: refuses %j with InstantDevolucaoInvalida before sending', async (body, propriedade) => {
    const error = await api.instant.refund(E2EID, 'D1', body as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstantDevolucaoInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade }] });
    expect(net.requests).toHaveLength(0);
  });

  it('refund: refuses a bad e2eid or refund id with InstantDevolucaoInvalida', async () => {
    await expect(api.instant.refund('short', 'D1', { valor: '1.00' })).rejects.toMatchObject({
      name: 'InstantDevolucaoInvalida',
      violacoes: [{ propriedade: 'e2eid' }],
    });
    await expect(api.instant.refund(E2EID, 'x'.repeat(36), { valor: '1.00' })).rejects.toMatchObject({
      name: 'InstantDevolucaoInvalida',
      violacoes: [{ propriedade: 'id' }],
    });
    await expect(api.instant.refund(E2EID, 'D-1', { valor: '1.00' })).rejects.toBeInstanceOf(InstantDevolucaoInvalida);
    expect(net.requests).toHaveLength(0);
  });

  it('refund: a bare 400 is InstantDevolucaoInvalida, a bare 404 InstantNaoEncontrado', async () => {
    net.server.use(
      http.put(`${BASE_URL}/instant/${E2EID}/devolucao/D1`, () => new HttpResponse(null, { status: 400 })),
    );
    await expect(api.instant.refund(E2EID, 'D1', { valor: '1.00' })).rejects.toBeInstanceOf(InstantDevolucaoInvalida);
    net.server.use(
      http.put(`${BASE_URL}/instant/${E2EID}/devolucao/D1`, () => new HttpResponse(null, { status: 404 })),
    );
    await expect(api.instant.refund(E2EID, 'D1', { valor: '1.00' })).rejects.toBeInstanceOf(InstantNaoEncontrado);
  });

  it('refund: the service verdict keeps its violacoes', async () => {
    net.server.use(
      http.put(`${BASE_URL}/instant/${E2EID}/devolucao/D1`, () =>
        problem({
          type: 'https://api.psp.example/api/v2/error/InstantDevolucaoInvalida',
          title: 'Devolução inválida',
          status: 400,
          violacoes: [{ razao: 'soma das devoluções excede o valor', propriedade: 'valor', valor: '200.00' }],
        }),
      ),
    );
    await expect(api.instant.refund(E2EID, 'D1', { valor: '200.00' })).rejects.toMatchObject({
      name: 'InstantDevolucaoInvalida',
      violacoes: [{ propriedade: 'valor', valor: '200.00' }],
    });
  });

  it('getRefund: GET /instant/{e2eid}/devolucao/{id}; a bare 404 is InstantDevolucaoNaoEncontrada', async () => {
    net.server.use(
      http.get(`${BASE_URL}/instant/${E2EID}/devolucao/D123`, () =>
        HttpResponse.json({ ...refund, status: 'DEVOLVIDO' }),
      ),
    );
    await expect(api.instant.getRefund(E2EID, 'D123')).resolves.toMatchObject({ status: 'DEVOLVIDO' });
    net.server.use(
      http.get(`${BASE_URL}/instant/${E2EID}/devolucao/D9`, () => new HttpResponse(null, { status: 404 })),
    );
    await expect(api.instant.getRefund(E2EID, 'D9')).rejects.toBeInstanceOf(InstantDevolucaoNaoEncontrada);
    await expect(api.instant.getRefund(E2EID, '')).rejects.toMatchObject({
      name: 'InstantConsultaInvalida',
      sentRequest: false,
    });
  });

  it('list: reads the array whatever its wire name, as items; for await walks pages', async () => {
    const queries: URLSearchParams[] = [];
    net.server.use(
      http.get(`${BASE_URL}/instant`, ({ request }) => {
        const q = new URL(request.url).searchParams;
        queries.push(q);
        const page = Number(q.get('paginacao.paginaAtual') ?? 0);
        return HttpResponse.json({
          parametros: {
            ...range,
            paginacao: { paginaAtual: page, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 },
          },
          [WIRE_LIST]:
            page === 0 ? [payment, { ...payment, valor: '2.00', devolucoes: refund }] : [{ ...payment, valor: '3.00' }],
        });
      }),
    );
    const first = await api.instant.list({ ...range, txid: 'abc', devolucaoPresente: true, cnpj: '12345678000195' });
    expect(first.items).toHaveLength(2);
    expect(first.items[1]?.devolucoes).toEqual([refund]);
    expect((first as unknown as Record<string, unknown>)[WIRE_LIST]).toBe(first.items);
    expect(Object.fromEntries(queries[0] ?? [])).toMatchObject({
      txid: 'abc',
      devolucaoPresente: 'true',
      cnpj: '12345678000195',
    });
    const valores: string[] = [];
    for await (const p of api.instant.list(range)) valores.push(p.valor);
    expect(valores).toEqual(['100.00', '2.00', '3.00']);
  });

  it('list: the array named after the scheme is the list, even beside another array', async () => {
    net.server.use(
      http.get(`${BASE_URL}/instant`, () =>
        HttpResponse.json({
          parametros: {
            ...range,
            paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
          },
          [INSTANT_LIST_KEY]: [payment],
          avisos: ['x'],
        }),
      ),
    );
    expect((await api.instant.list(range)).items).toEqual([payment]);
  });

  it('list: refuses a broken query with InstantConsultaInvalida before sending', async () => {
    await expect(api.instant.list({ ...range, cpf: '12345678909', cnpj: '12345678000195' })).rejects.toMatchObject({
      name: 'InstantConsultaInvalida',
      violacoes: [{ propriedade: 'cpf' }],
    });
    await expect(api.instant.list({ ...range, txid: 'has space' })).rejects.toMatchObject({
      violacoes: [{ propriedade: 'txid' }],
    });
    await expect(api.instant.list({ ...range, paginacao: { itensPorPagina: 1001 } })).rejects.toBeInstanceOf(
      InstantConsultaInvalida,
    );
    expect(net.requests).toHaveLength(0);
  });
});

describe('listKeyOf', () => {
  it('is the expected name when the answer has an array under it', () => {
    expect(listKeyOf({ abc: [], def: [] }, 'def')).toBe('def');
    expect(listKeyOf({ abc: [], def: {} }, 'def')).toBe('abc');
  });

  it('is the one array-valued property besides parametros', () => {
    expect(listKeyOf({ parametros: { x: [] }, abc: [] })).toBe('abc');
    expect(listKeyOf({ abc: [], def: [] })).toBeUndefined();
    expect(listKeyOf({ parametros: {} })).toBeUndefined();
    expect(listKeyOf([1])).toBeUndefined();
    expect(listKeyOf(null)).toBeUndefined();
  });
});
