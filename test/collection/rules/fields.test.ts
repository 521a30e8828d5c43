import { describe, expect, it } from 'vitest';
import { addDays, todayInBrasilia } from '../../../src/lib/dates.ts';
import { checkCob } from '../../../src/collection/rules/cob.ts';
import { checkCobV } from '../../../src/collection/rules/cobv.ts';
import { checkLoteCobV } from '../../../src/collection/rules/lotecobv.ts';
import { collectListQuery } from '../../../src/collection/rules/query.ts';
import { broken } from '../../support/rules.ts';

const EVP = '7c084cd4-54af-4172-a516-a7d1a12b75cc';

describe('alphanumeric CNPJs are accepted wherever a CNPJ is', () => {
  const cnpj = '12ABC34501DE35';
  const due = addDays(todayInBrasilia(), 5);
  const cobv = (doc: string) => ({
    calendario: { dataDeVencimento: due },
    devedor: { cnpj: doc, nome: 'Company' },
    valor: { original: '10.00' },
    chave: doc,
  });

  it('as a debtor and as the key of an immediate charge', () => {
    expect(
      broken((ctx) =>
        checkCob(
          { devedor: { cnpj, nome: 'Company' }, valor: { original: '1.00' }, chave: cnpj },
          'cob',
          ctx,
          'create',
        ),
      ),
    ).toEqual([]);
  });

  it('as a debtor and key of a due-date charge and of a batch item', () => {
    expect(broken((ctx) => checkCobV(cobv(cnpj), 'cobv', ctx, 'create', undefined))).toEqual([]);
    expect(
      broken((ctx) =>
        checkLoteCobV(
          { descricao: 'd', cobsv: [{ txid: 'a'.repeat(26), ...cobv(cnpj) }] },
          ctx,
          'create',
          () => undefined,
        ),
      ),
    ).toEqual([]);
  });

  it('as a list filter', () => {
    expect(
      broken((ctx) => collectListQuery({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z', cnpj }, ctx)),
    ).toEqual([]);
  });

  it('as an own key', () => {
    expect(
      broken((ctx) => checkCob({ valor: { original: '1.00' }, chave: cnpj }, 'cob', ctx, 'create'), [cnpj]),
    ).toEqual([]);
  });

  it('but not with wrong check digits or in lowercase', () => {
    for (const bad of ['12ABC34501DE36', '12abc34501de35']) {
      expect(broken((ctx) => checkCobV(cobv(bad), 'cobv', ctx, 'create', undefined))).toEqual([
        'cobv.devedor',
        'cobv.chave',
      ]);
    }
  });
});

describe('rules reuse across charge kinds', () => {
  it('the same devedor, chave and infoAdicionais rules name their root', () => {
    const bad = {
      devedor: { cpf: '11111111111', nome: 'x' },
      chave: EVP.toUpperCase(),
      infoAdicionais: [{ nome: 'n' }],
    };
    expect(broken((ctx) => checkCob(bad, 'cob', ctx, 'revise'))).toEqual([
      'cob.devedor',
      'cob.chave',
      'cob.infoAdicionais',
    ]);
    expect(broken((ctx) => checkCobV(bad, 'cobv', ctx, 'revise', undefined))).toEqual([
      'cobv.devedor',
      'cobv.chave',
      'cobv.infoAdicionais',
    ]);
    expect(
      broken((ctx) => checkLoteCobV({ cobsv: [{ txid: 'b'.repeat(30), ...bad }] }, ctx, 'revise', () => undefined)),
    ).toEqual(['loteCobV.cobsV[0].devedor', 'loteCobV.cobsV[0].chave', 'loteCobV.cobsV[0].infoAdicionais']);
  });

  it('a non-object body is one violation at the root', () => {
    expect(broken((ctx) => checkCob(null, 'cob', ctx, 'create'))).toEqual(['cob']);
    expect(broken((ctx) => checkLoteCobV([], ctx, 'create', () => undefined))).toEqual(['loteCobV']);
  });
});
