/**
 * The rules the sandbox keeps about charges and locations, each judged by the sandbox itself
 * (client checks off): section 3.1 transitions, revisions, POST-assigned txids, lists, the three
 * location rules, unlinking, and the receiving user's keys.
 */
import { describe, expect, it } from 'vitest';
import {
  CobConsultaInvalida,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  CobVOperacaoInvalida,
  PayloadLocationNaoEncontrado,
} from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { brcode } from '../../src/lib/brcode.ts';
import { CPF, cobBody, cobvBody, properties, range, refusal, useSandbox } from './support.ts';

const s = useSandbox();

describe('section 3.1: immediate charge transitions', () => {
  it('ATIVA becomes REMOVIDA_PELO_USUARIO_RECEBEDOR by a PATCH carrying only the removal', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key));
    const removed = await s.api.cob.remove(txid);
    expect(removed).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    // The same removal again (a retry) changes nothing.
    expect(await s.api.cob.remove(txid)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
  });

  it('refuses the removal combined with another change, and the charge stays ATIVA', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key));
    const error = await refusal(
      s.api.cob.update(txid, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } } as never),
    );
    expect(error).toBeInstanceOf(CobOperacaoInvalida);
    expect(properties(error)).toEqual(['cob.status']);
    expect(await s.api.cob.get(txid)).toMatchObject({ status: 'ATIVA', revisao: 0, valor: { original: '10.00' } });
  });

  it('refuses PATCH and PUT that alter a charge that is no longer ATIVA (removed or paid)', async () => {
    const removed = generateTxid();
    await s.api.cob.create(removed, cobBody(s.key));
    await s.api.cob.remove(removed);
    const paid = generateTxid();
    await s.api.cob.create(paid, cobBody(s.key));
    await s.sandbox.payCharge(paid);
    for (const txid of [removed, paid]) {
      await expect(s.api.cob.update(txid, { valor: { original: '3.00' } })).rejects.toBeInstanceOf(CobOperacaoInvalida);
      await expect(s.api.cob.create(txid, cobBody(s.key, '3.00'))).rejects.toBeInstanceOf(CobOperacaoInvalida);
      // The same content again alters nothing: a retried PUT is answered, not refused.
      await expect(s.api.cob.create(txid, cobBody(s.key))).resolves.toMatchObject({
        txid,
        valor: { original: '10.00' },
      });
    }
    expect((await s.api.cob.get(paid)).status).toBe('CONCLUIDA');
  });

  it('answers CobNaoEncontrado for PATCH and GET of an unknown txid', async () => {
    await expect(s.api.cob.update(generateTxid(), { valor: { original: '1.00' } })).rejects.toBeInstanceOf(
      CobNaoEncontrado,
    );
    await expect(s.api.cob.get(generateTxid())).rejects.toBeInstanceOf(CobNaoEncontrado);
  });

  it('refuses a revision whose result breaks a rule the patch alone does not show (zero on a fixed amount)', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key));
    const error = await refusal(s.api.cob.update(txid, { valor: { original: '0.00' } }));
    expect(error).toBeInstanceOf(CobOperacaoInvalida);
    expect(properties(error)).toEqual(['cob.valor.original']);
    // An alterable charge may be revised to zero.
    const alterable = generateTxid();
    await s.api.cob.create(alterable, { ...cobBody(s.key), valor: { original: '5.00', modalidadeAlteracao: 1 } });
    await expect(s.api.cob.update(alterable, { valor: { original: '0.00' } })).resolves.toMatchObject({ revisao: 1 });
  });
});

describe('revisions', () => {
  it('counts one revision per change, keeps each, and refuses one that does not exist', async () => {
    const txid = generateTxid();
    expect((await s.api.cob.create(txid, cobBody(s.key, '10.00'))).revisao).toBe(0);
    expect((await s.api.cob.update(txid, { valor: { original: '11.00' } })).revisao).toBe(1);
    // No change, no revision: the same PATCH or PUT again.
    expect((await s.api.cob.update(txid, { valor: { original: '11.00' } })).revisao).toBe(1);
    expect((await s.api.cob.create(txid, { ...cobBody(s.key, '11.00') })).revisao).toBe(1);
    expect(
      (await s.api.cob.create(txid, { ...cobBody(s.key, '12.00'), solicitacaoPagador: 'PUT alters' })).revisao,
    ).toBe(2);
    expect((await s.api.cob.get(txid, { revisao: 0 })).valor.original).toBe('10.00');
    expect((await s.api.cob.get(txid, { revisao: 1 })).valor.original).toBe('11.00');
    expect(await s.api.cob.get(txid)).toMatchObject({ revisao: 2, solicitacaoPagador: 'PUT alters' });
    const error = await refusal(s.api.cob.get(txid, { revisao: 3 }));
    expect(error).toBeInstanceOf(CobConsultaInvalida);
    expect(properties(error)).toEqual(['revisao']);
  });

  it('does not count a change of location alone', async () => {
    const txid = generateTxid();
    const created = await s.api.cob.create(txid, cobBody(s.key));
    const loc = await s.api.loc.create({ tipoCob: 'cob' });
    const moved = await s.api.cob.update(txid, { loc: { id: loc.id } });
    expect(moved.revisao).toBe(0);
    expect(moved.location).toBe(loc.location);
    expect(moved.location).not.toBe(created.location);
    // The old location is free again.
    expect((await s.api.loc.get(created.loc!.id)).txid).toBeUndefined();
  });

  it('keeps revisions of due-date charges the same way', async () => {
    const txid = generateTxid();
    await s.api.cobv.create(txid, cobvBody(s.key, '100.00'));
    await s.api.cobv.update(txid, { valor: { original: '90.00' } });
    expect((await s.api.cobv.get(txid, { revisao: 0 })).valor.original).toBe('100.00');
    expect(await s.api.cobv.get(txid)).toMatchObject({
      revisao: 1,
      valor: { original: '90.00' },
      recebedor: expect.any(Object),
    });
  });
});

describe('creation', () => {
  it('POST /cob: the service assigns a txid of 26 to 35 alphanumerics and a location with a valid BR Code', async () => {
    const created = await s.api.cob.create(cobBody(s.key, '7.00'));
    expect(created.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(created).toMatchObject({ status: 'ATIVA', revisao: 0, valor: { original: '7.00' } });
    const code = brcode.parse(created['instantCopiaECola'] as string);
    expect(code.url).toBe(created.location);
    expect(await s.api.cob.get(created.txid)).toMatchObject({ txid: created.txid });
  });
});

describe('lists', () => {
  it('filters by debtor, status and location, and pages', async () => {
    const cnpj = '11222333000181';
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const txid = `list${String(i).padStart(2, '0')}${generateTxid(26)}`.slice(0, 30);
      mine.push(txid);
      await s.api.cob.create(txid, { ...cobBody(s.key, `${i + 1}.00`), devedor: { cnpj, nome: 'Empresa' } });
    }
    await s.api.cob.remove(mine[4]!);
    await s.api.loc.unlink((await s.api.cob.get(mine[3]!)).loc!.id);
    const byCnpj = await s.api.cob.list({ ...range(), cnpj, paginacao: { itensPorPagina: 2 } });
    expect(byCnpj.parametros.paginacao).toMatchObject({
      paginaAtual: 0,
      itensPorPagina: 2,
      quantidadeDePaginas: 3,
      quantidadeTotalDeItens: 5,
    });
    expect(byCnpj.items.map((c) => c.txid)).toEqual(mine.slice(0, 2));
    const all: string[] = [];
    for await (const cob of s.api.cob.list({ ...range(), cnpj, paginacao: { itensPorPagina: 2 } })) all.push(cob.txid);
    expect(all).toEqual(mine);
    const active = await s.api.cob.list({ ...range(), cnpj, status: 'ATIVA' });
    expect(active.items.map((c) => c.txid)).toEqual(mine.slice(0, 4));
    const located = await s.api.cob.list({ ...range(), cnpj, locationPresente: false });
    expect(located.items.map((c) => c.txid)).toEqual([mine[3]]);
    const none = await s.api.cob.list({ inicio: '2020-01-01T00:00:00Z', fim: '2020-01-02T00:00:00Z' });
    expect(none.items).toEqual([]);
  });
});

describe('locations', () => {
  it('keeps the three location rules: it exists, it is unused, its type matches', async () => {
    const cobLoc = await s.api.loc.create({ tipoCob: 'cob' });
    const cobvLoc = await s.api.loc.create({ tipoCob: 'cobv' });
    const first = generateTxid();
    await s.api.cob.create(first, { ...cobBody(s.key), loc: { id: cobLoc.id } });
    const cases = [
      () => s.api.cob.create(generateTxid(), { ...cobBody(s.key), loc: { id: 999_999 } }),
      () => s.api.cob.create(generateTxid(), { ...cobBody(s.key), loc: { id: cobLoc.id } }),
      () => s.api.cob.create(generateTxid(), { ...cobBody(s.key), loc: { id: cobvLoc.id } }),
    ];
    for (const attempt of cases) {
      const error = await refusal(attempt());
      expect(error).toBeInstanceOf(CobOperacaoInvalida);
      expect(properties(error)).toEqual(['cob.loc.id']);
    }
    const wrongType = await refusal(s.api.cobv.create(generateTxid(), { ...cobvBody(s.key), loc: { id: cobLoc.id } }));
    expect(wrongType).toBeInstanceOf(CobVOperacaoInvalida);
    expect(properties(wrongType)).toEqual(['cobv.loc.id']);
    // A location of the right type, unused, is taken.
    await expect(
      s.api.cobv.create(generateTxid(), { ...cobvBody(s.key), loc: { id: cobvLoc.id } }),
    ).resolves.toMatchObject({ location: cobvLoc.location });
  });

  it('unlinks a charge from its location: the charge keeps its status and loses its location', async () => {
    const txid = generateTxid();
    const cob = await s.api.cob.create(txid, cobBody(s.key));
    const unlinked = await s.api.loc.unlink(cob.loc!.id);
    expect(unlinked).toMatchObject({ id: cob.loc!.id, tipoCob: 'cob' });
    const after = await s.api.cob.get(txid);
    expect(after.status).toBe('ATIVA');
    expect(after.location).toBeUndefined();
    expect(after.revisao).toBe(0);
    await expect(s.api.loc.unlink(987_654)).rejects.toBeInstanceOf(PayloadLocationNaoEncontrado);
    // An int64 id of 19 digits is an id like any other (the client accepts it too): not found, not refused.
    await expect(s.api.loc.get('9223372036854775807')).rejects.toBeInstanceOf(PayloadLocationNaoEncontrado);
    // The freed location can serve another charge.
    await expect(
      s.api.cob.create(generateTxid(), { ...cobBody(s.key), loc: { id: cob.loc!.id } }),
    ).resolves.toMatchObject({ location: cob.location });
  });

  it('accepts only the configured own keys as chave', async () => {
    const error = await refusal(s.api.cob.create(generateTxid(), { ...cobBody(s.key), chave: CPF }));
    expect(properties(error)).toEqual(['cob.chave']);
  });
});
