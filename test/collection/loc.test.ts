import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  PayloadLocationConsultaInvalida,
  PayloadLocationNaoEncontrado,
  PayloadLocationOperacaoInvalida,
} from '../../src/index.ts';
import { BASE_URL, problem, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient({ maxRetries: 0 });

const loc = {
  id: 7716,
  location: 'instant.example.com/qr/v2/cobv/2353c790eefb11eaadc10242ac120002',
  tipoCob: 'cobv',
  criacao: '2026-03-11T21:19:51.013Z',
};
const range = { inicio: '2026-01-01T00:00:00Z', fim: '2026-12-31T23:59:59Z' };

describe('api.loc', () => {
  it('create: POST /loc with { tipoCob } and returns the location', async () => {
    let body: unknown;
    net.server.use(
      http.post(`${BASE_URL}/loc`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(loc, { status: 201 });
      }),
    );
    await expect(api.loc.create({ tipoCob: 'cobv' })).resolves.toEqual(loc);
    expect(body).toEqual({ tipoCob: 'cobv' });
  });

  it('create: refuses a bad tipoCob with PayloadLocationOperacaoInvalida before sending', async () => {
    const error = await api.loc.create({ tipoCob: 'boleto' as 'cob' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadLocationOperacaoInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'tipoCob', valor: 'boleto' }] });
    expect(net.requests).toHaveLength(0);
  });

  it('create: is never retried (a retry could create a second location)', async () => {
    net.server.use(http.post(`${BASE_URL}/loc`, () => new HttpResponse(null, { status: 503 })));
    await expect(testClient().loc.create({ tipoCob: 'cob' })).rejects.toMatchObject({ status: 503 });
    expect(net.requests).toHaveLength(1);
  });

  it('get: GET /loc/{id}, with the linked txid', async () => {
    net.server.use(
      http.get(`${BASE_URL}/loc/7716`, () => HttpResponse.json({ ...loc, txid: 'fda9460fe04e4f129b72863ae57ee22f' })),
    );
    await expect(api.loc.get(7716)).resolves.toMatchObject({ id: 7716, txid: 'fda9460fe04e4f129b72863ae57ee22f' });
  });

  it('get: a bare 404 is PayloadLocationNaoEncontrado', async () => {
    net.server.use(http.get(`${BASE_URL}/loc/1`, () => new HttpResponse('not here', { status: 404 })));
    await expect(api.loc.get('1')).rejects.toBeInstanceOf(PayloadLocationNaoEncontrado);
  });

  it('get: refuses an id that is not an integer with PayloadLocationConsultaInvalida', async () => {
    for (const id of ['abc', '..', -1, 1.5, '']) {
      await expect(api.loc.get(id)).rejects.toMatchObject({
        name: 'PayloadLocationConsultaInvalida',
        sentRequest: false,
      });
    }
    expect(net.requests).toHaveLength(0);
  });

  it('update: PATCH /loc/{id}', async () => {
    let body: unknown;
    net.server.use(
      http.patch(`${BASE_URL}/loc/7716`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ ...loc, tipoCob: 'cob' });
      }),
    );
    await expect(api.loc.update(7716, { tipoCob: 'cob' })).resolves.toMatchObject({ tipoCob: 'cob' });
    expect(body).toEqual({ tipoCob: 'cob' });
  });

  it('update: 404 is PayloadLocationNaoEncontrado, bad tipoCob refused before sending', async () => {
    net.server.use(http.patch(`${BASE_URL}/loc/9`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.loc.update(9, {})).rejects.toBeInstanceOf(PayloadLocationNaoEncontrado);
    await expect(api.loc.update(9, { tipoCob: 'x' as 'cob' })).rejects.toMatchObject({
      name: 'PayloadLocationOperacaoInvalida',
      sentRequest: false,
    });
    expect(net.requests).toHaveLength(1);
  });

  it('unlink: DELETE /loc/{id}/txid returns the location', async () => {
    net.server.use(http.delete(`${BASE_URL}/loc/7716/txid`, () => HttpResponse.json(loc)));
    await expect(api.loc.unlink(7716)).resolves.toEqual(loc);
    expect(net.requests[0]?.method).toBe('DELETE');
  });

  it('unlink: a bare 404 is PayloadLocationNaoEncontrado', async () => {
    net.server.use(http.delete(`${BASE_URL}/loc/5/txid`, () => new HttpResponse(null, { status: 404 })));
    await expect(api.loc.unlink(5)).rejects.toBeInstanceOf(PayloadLocationNaoEncontrado);
  });

  it('unlink: a problem body keeps its own type', async () => {
    net.server.use(
      http.delete(`${BASE_URL}/loc/5/txid`, () =>
        problem({ type: 'https://api.psp.example/api/v2/error/AcessoNegado', title: 'Acesso negado', status: 403 }),
      ),
    );
    await expect(api.loc.unlink(5)).rejects.toMatchObject({ name: 'AcessoNegado', status: 403 });
  });

  it('list: GET /loc with flattened paging; items and the wire array loc; for await walks pages', async () => {
    const queries: URLSearchParams[] = [];
    net.server.use(
      http.get(`${BASE_URL}/loc`, ({ request }) => {
        const q = new URL(request.url).searchParams;
        queries.push(q);
        const page = Number(q.get('paginacao.paginaAtual') ?? 0);
        return HttpResponse.json({
          parametros: {
            ...range,
            paginacao: { paginaAtual: page, itensPorPagina: 1, quantidadeDePaginas: 2, quantidadeTotalDeItens: 2 },
          },
          loc: [{ ...loc, id: 100 + page }],
        });
      }),
    );
    const first = await api.loc.list({
      ...range,
      tipoCob: 'cobv',
      txIdPresente: false,
      paginacao: { itensPorPagina: 1 },
    });
    expect(first.items.map((l) => l.id)).toEqual([100]);
    expect((first as unknown as { loc: unknown[] }).loc).toHaveLength(1);
    expect(queries[0]?.get('tipoCob')).toBe('cobv');
    expect(queries[0]?.get('txIdPresente')).toBe('false');
    expect(queries[0]?.get('paginacao.itensPorPagina')).toBe('1');
    const ids: number[] = [];
    for await (const l of api.loc.list({ ...range, paginacao: { itensPorPagina: 1 } })) ids.push(l.id);
    expect(ids).toEqual([100, 101]);
  });

  it('list: refuses a broken query with PayloadLocationConsultaInvalida before sending', async () => {
    await expect(api.loc.list({ inicio: range.fim, fim: range.inicio })).rejects.toMatchObject({
      name: 'PayloadLocationConsultaInvalida',
      violacoes: [{ propriedade: 'fim' }],
    });
    await expect(api.loc.list({ ...range, tipoCob: 'x' as 'cob' })).rejects.toBeInstanceOf(
      PayloadLocationConsultaInvalida,
    );
    expect(net.requests).toHaveLength(0);
  });

  it('validate: false sends what the caller gave and lets the service judge', async () => {
    net.server.use(
      http.post(`${BASE_URL}/loc`, () =>
        problem({ type: 'https://x.example/error/PayloadLocationOperacaoInvalida', title: 'x', status: 400 }),
      ),
    );
    await expect(api.loc.create({ tipoCob: 'x' as 'cob' }, { validate: false })).rejects.toMatchObject({
      name: 'PayloadLocationOperacaoInvalida',
      sentRequest: true,
    });
  });
});
