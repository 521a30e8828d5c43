import { describe, expect, it } from 'vitest';
import { CobConsultaInvalida, WebhookConsultaInvalida } from '../../src/index.ts';
import {
  brasiliaDateOf,
  checkCob,
  checkCobV,
  checkListQuery,
  checkLoteCobV,
  collectListQuery,
  listQueryParams,
  normalizeCharge,
  ruleContext,
} from '../../src/resources/charge-rules.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';

const EVP = '7c084cd4-54af-4172-a516-a7d1a12b75cc';

/** Names of the properties the rules broke for `judge`. */
function broken(judge: (ctx: ReturnType<typeof ruleContext>) => void, ownKeys?: string[]): string[] {
  const ctx = ruleContext(ownKeys);
  judge(ctx);
  return ctx.out.map((v) => v.propriedade ?? '');
}

describe('alphanumeric CNPJs are accepted wherever a CNPJ is', () => {
  const cnpj = '12ABC34501DE35';
  const due = addDays(todayInBrasilia(), 5);
  const cobv = (doc: string) => ({ calendario: { dataDeVencimento: due }, devedor: { cnpj: doc, nome: 'Company' }, valor: { original: '10.00' }, chave: doc });

  it('as a debtor and as the key of an immediate charge', () => {
    expect(broken((ctx) => checkCob({ devedor: { cnpj, nome: 'Company' }, valor: { original: '1.00' }, chave: cnpj }, 'cob', ctx, 'create'))).toEqual([]);
  });

  it('as a debtor and key of a due-date charge and of a batch item', () => {
    expect(broken((ctx) => checkCobV(cobv(cnpj), 'cobv', ctx, 'create', undefined))).toEqual([]);
    expect(broken((ctx) => checkLoteCobV({ descricao: 'd', cobsv: [{ txid: 'a'.repeat(26), ...cobv(cnpj) }] }, ctx, 'create', () => undefined))).toEqual([]);
  });

  it('as a list filter', () => {
    expect(broken((ctx) => collectListQuery({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z', cnpj }, ctx))).toEqual([]);
  });

  it('as an own key', () => {
    expect(broken((ctx) => checkCob({ valor: { original: '1.00' }, chave: cnpj }, 'cob', ctx, 'create'), [cnpj])).toEqual([]);
  });

  it('but not with wrong check digits or in lowercase', () => {
    for (const bad of ['12ABC34501DE36', '12abc34501de35']) {
      expect(broken((ctx) => checkCobV(cobv(bad), 'cobv', ctx, 'create', undefined))).toEqual(['cobv.devedor', 'cobv.chave']);
    }
  });
});

describe('checkListQuery (shared by every list)', () => {
  it('throws the class it is given, naming the parameter under the given root', () => {
    let error: unknown;
    try {
      checkListQuery({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, WebhookConsultaInvalida, 'parametros');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WebhookConsultaInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'parametros.fim' }] });
  });

  it('with requireRange false, inicio and fim are optional (GET /webhook) but still checked when given', () => {
    expect(() => checkListQuery(undefined, WebhookConsultaInvalida, '', { requireRange: false })).not.toThrow();
    expect(() => checkListQuery({}, WebhookConsultaInvalida, '', { requireRange: false })).not.toThrow();
    expect(() => checkListQuery({ inicio: 'today' }, WebhookConsultaInvalida, '', { requireRange: false })).toThrow(WebhookConsultaInvalida);
    expect(() => checkListQuery({}, CobConsultaInvalida)).toThrow(CobConsultaInvalida);
  });

  it('reports every broken parameter at once', () => {
    expect(
      broken((ctx) =>
        collectListQuery({ inicio: 'x', fim: 'y', cpf: '1', cnpj: '2', paginacao: { paginaAtual: -1, itensPorPagina: 0 } }, ctx),
      ),
    ).toEqual(['inicio', 'fim', 'cpf', 'paginacao.paginaAtual', 'paginacao.itensPorPagina']);
  });
});

describe('listQueryParams', () => {
  it('flattens paginacao to the dotted wire names and keeps scalars as they are', () => {
    expect(
      listQueryParams({ inicio: 'a', fim: 'b', locationPresente: false, loteCobVId: 7, paginacao: { paginaAtual: 1, itensPorPagina: 50 } }),
    ).toEqual({ inicio: 'a', fim: 'b', locationPresente: false, loteCobVId: 7, 'paginacao.paginaAtual': 1, 'paginacao.itensPorPagina': 50 });
  });

  it('a page number overrides the query page', () => {
    expect(listQueryParams({ paginacao: { paginaAtual: 1 } }, 4)['paginacao.paginaAtual']).toBe(4);
    expect(listQueryParams(undefined, 2)).toEqual({ 'paginacao.paginaAtual': 2, 'paginacao.itensPorPagina': undefined });
  });
});

describe('normalizeCharge', () => {
  it('turns integers written as strings into numbers and leaves everything else alone', () => {
    const body = {
      revisao: '2',
      calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: '3600' },
      valor: { original: '10.00', modalidadeAlteracao: '1', multa: { modalidade: '2', valorPerc: '2.00' } },
      loc: { id: '789', tipoCob: 'cob' },
      status: 'NOVO_STATUS',
      extra: { expiracao: '1' },
    };
    expect(normalizeCharge(body)).toEqual({
      revisao: 2,
      calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: 3600 },
      valor: { original: '10.00', modalidadeAlteracao: 1, multa: { modalidade: 2, valorPerc: '2.00' } },
      loc: { id: 789, tipoCob: 'cob' },
      status: 'NOVO_STATUS',
      extra: { expiracao: '1' },
    });
  });

  it('passes anything that is not an object through', () => {
    expect(normalizeCharge(undefined)).toBeUndefined();
    expect(normalizeCharge('text')).toBe('text');
  });
});

describe('brasiliaDateOf', () => {
  it('is the civil date in Brasília, three hours behind UTC', () => {
    expect(brasiliaDateOf('2026-11-21T02:30:00Z')).toBe('2026-11-20');
    expect(brasiliaDateOf('2026-11-21T03:00:00Z')).toBe('2026-11-21');
    expect(brasiliaDateOf('not a date')).toBeUndefined();
    expect(brasiliaDateOf(undefined)).toBeUndefined();
  });
});

describe('rules reuse across charge kinds', () => {
  it('the same devedor, chave and infoAdicionais rules name their root', () => {
    const bad = { devedor: { cpf: '11111111111', nome: 'x' }, chave: EVP.toUpperCase(), infoAdicionais: [{ nome: 'n' }] };
    expect(broken((ctx) => checkCob(bad, 'cob', ctx, 'revise'))).toEqual(['cob.devedor', 'cob.chave', 'cob.infoAdicionais']);
    expect(broken((ctx) => checkCobV(bad, 'cobv', ctx, 'revise', undefined))).toEqual(['cobv.devedor', 'cobv.chave', 'cobv.infoAdicionais']);
    expect(broken((ctx) => checkLoteCobV({ cobsv: [{ txid: 'b'.repeat(30), ...bad }] }, ctx, 'revise', () => undefined))).toEqual([
      'loteCobV.cobsV[0].devedor',
      'loteCobV.cobsV[0].chave',
      'loteCobV.cobsV[0].infoAdicionais',
    ]);
  });

  it('a non-object body is one violation at the root', () => {
    expect(broken((ctx) => checkCob(null, 'cob', ctx, 'create'))).toEqual(['cob']);
    expect(broken((ctx) => checkLoteCobV([], ctx, 'create', () => undefined))).toEqual(['loteCobV']);
  });
});
