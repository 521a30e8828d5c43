import { describe, expect, it } from 'vitest';
import { collectListQuery } from '../../../src/collection/rules/query.ts';
import { broken } from '../../support/rules.ts';

describe('collectListQuery (shared by every list)', () => {
  it('names the parameter under the given root', () => {
    expect(
      broken((ctx) =>
        collectListQuery({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, ctx, 'parametros'),
      ),
    ).toEqual(['parametros.fim']);
  });

  it('with requireRange false, inicio and fim are optional (GET /webhook) but still checked when given', () => {
    expect(broken((ctx) => collectListQuery(undefined, ctx, '', false))).toEqual([]);
    expect(broken((ctx) => collectListQuery({}, ctx, '', false))).toEqual([]);
    expect(broken((ctx) => collectListQuery({ inicio: 'today' }, ctx, '', false))).toEqual(['inicio']);
    expect(broken((ctx) => collectListQuery({}, ctx))).toEqual(['inicio', 'fim']);
  });

  it('reports every broken parameter at once', () => {
    expect(
      broken((ctx) =>
        collectListQuery(
          { inicio: 'x', fim: 'y', cpf: '1', cnpj: '2', paginacao: { paginaAtual: -1, itensPorPagina: 0 } },
          ctx,
        ),
      ),
    ).toEqual(['inicio', 'fim', 'cpf', 'paginacao.paginaAtual', 'paginacao.itensPorPagina']);
  });
});
