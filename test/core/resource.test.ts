import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { CobConsultaInvalida, CobNaoEncontrado, type InstantClient, type RequestOptions } from '../../src/index.ts';
import { path } from '../../src/core/path.ts';
import { APIResource } from '../../src/core/resource.ts';
import type { Rule } from '../../src/core/validation.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();

/** A resource with one read and one list, each judged by the rule it is given. */
class Probe extends APIResource {
  get(id: string, rule: Rule, options?: RequestOptions): Promise<unknown> {
    return this.send({
      method: 'GET',
      path: () => path`/probe/${id}`,
      retry: 'replay',
      errors: { 400: CobConsultaInvalida, 404: CobNaoEncontrado },
      options,
      rule,
    });
  }

  list(rule: Rule, options?: RequestOptions) {
    return this.getList(path`/probe`, 'probes', { query: {}, errors: { 400: CobConsultaInvalida }, options, rule });
  }
}

const probe = (client: InstantClient = testClient()) => new Probe(client);
const broken: Rule = (ctx) => ctx.add('id', 'id is wrong');

describe('APIResource', () => {
  it('refuses with the endpoint 400 class before building the path or sending', async () => {
    const error = await probe()
      .get('..', broken)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CobConsultaInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'id', razao: 'id is wrong' }] });
    expect(net.requests).toHaveLength(0);
  });

  it('awaits a rule that reads first, and the client ownKeys reach it', async () => {
    net.server.use(http.get(`${BASE_URL}/probe/1`, () => HttpResponse.json({ ok: true })));
    const seen: unknown[] = [];
    const slow: Rule = async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(ctx.ownKeys);
      ctx.add('id', 'late');
    };
    await expect(probe(testClient({ ownKeys: ['k'] })).get('1', slow)).rejects.toBeInstanceOf(CobConsultaInvalida);
    expect(seen).toEqual([['k']]);
    expect(net.requests).toHaveLength(0);
  });

  it('does not run the rule with validate: false, for the call or the client', async () => {
    net.server.use(http.get(`${BASE_URL}/probe/1`, () => HttpResponse.json({ ok: true })));
    let runs = 0;
    const counted: Rule = (ctx) => {
      runs++;
      ctx.add('id', 'wrong');
    };
    await expect(probe().get('1', counted, { validate: false })).resolves.toEqual({ ok: true });
    await expect(probe(testClient({ validate: false })).get('1', counted)).resolves.toEqual({ ok: true });
    await expect(probe(testClient({ validate: false })).get('1', counted, { validate: true })).rejects.toBeInstanceOf(
      CobConsultaInvalida,
    );
    expect(runs).toBe(1);
    expect(net.requests).toHaveLength(2);
  });

  it('a list judges its rule once, before the first page only', async () => {
    net.server.use(
      http.get(`${BASE_URL}/probe`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('paginacao.paginaAtual') ?? 0);
        return HttpResponse.json({
          parametros: {
            paginacao: { paginaAtual: page, itensPorPagina: 1, quantidadeDePaginas: 3, quantidadeTotalDeItens: 3 },
          },
          probes: [page],
        });
      }),
    );
    let runs = 0;
    const items: unknown[] = [];
    for await (const item of probe().list(() => void runs++)) items.push(item);
    expect(items).toEqual([0, 1, 2]);
    expect(runs).toBe(1);
    await expect(probe().list(broken)).rejects.toBeInstanceOf(CobConsultaInvalida);
    expect(net.requests).toHaveLength(3);
  });
});
