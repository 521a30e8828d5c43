/** Charges, batches and locations: the SDK against a sandbox over real HTTP. */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  CobConsultaInvalida,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  CobVNaoEncontrada,
  CobVOperacaoInvalida,
  LoteCobVOperacaoInvalida,
  addDays,
  brcode,
  generateTxid,
  todayInBrasilia,
  type LoteCobVCobSolicitada,
  type LoteCobVConsultado,
} from '../../src/index.ts';
import { aroundNow, useSandbox } from './harness.ts';

const s = useSandbox();
const DEBTOR = { cpf: '12345678909', nome: 'Fulano de Tal' };

const cobBody = (original: string) => ({ calendario: { expiracao: 3600 }, valor: { original }, chave: s.receiverKey });

describe('cob', () => {
  it('creates by PUT, revises, keeps every revision, removes', async () => {
    const txid = generateTxid();
    const created = await s.api.cob.create(txid, { ...cobBody('10.00'), devedor: DEBTOR, solicitacaoPagador: 'first' });
    expect(created).toMatchObject({
      txid,
      revisao: 0,
      status: 'ATIVA',
      valor: { original: '10.00' },
      chave: s.receiverKey,
    });
    // The BR Code points at the charge's location.
    expect(brcode.parse(created.instantCopiaECola ?? '').url).toBe(created.location);

    const revised = await s.api.cob.update(txid, { valor: { original: '12.50' } });
    expect(revised).toMatchObject({ revisao: 1, valor: { original: '12.50' }, solicitacaoPagador: 'first' });
    await s.api.cob.update(txid, { solicitacaoPagador: 'second' });

    expect(await s.api.cob.get(txid)).toMatchObject({
      revisao: 2,
      valor: { original: '12.50' },
      solicitacaoPagador: 'second',
    });
    expect(await s.api.cob.get(txid, { revisao: 0 })).toMatchObject({
      revisao: 0,
      valor: { original: '10.00' },
      solicitacaoPagador: 'first',
    });
    expect(await s.api.cob.get(txid, { revisao: 1 })).toMatchObject({
      revisao: 1,
      valor: { original: '12.50' },
      solicitacaoPagador: 'first',
    });
    await expect(s.api.cob.get(txid, { revisao: 3 })).rejects.toBeInstanceOf(CobConsultaInvalida);

    expect((await s.api.cob.remove(txid)).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const refused = await s.api.cob.update(txid, { valor: { original: '1.00' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CobOperacaoInvalida);
    expect(refused).toMatchObject({ sentRequest: true });
  });

  it('creates by POST with a txid the service assigns', async () => {
    const created = await s.api.cob.create(cobBody('3.00'));
    expect(created.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(await s.api.cob.get(created.txid)).toMatchObject({ txid: created.txid, valor: { original: '3.00' } });
  });

  it('answers CobNaoEncontrado for an unknown txid', async () => {
    await expect(s.api.cob.get(generateTxid())).rejects.toBeInstanceOf(CobNaoEncontrado);
  });

  it('lists with filters, page by page and across pages', async () => {
    const cpf = '52998224725';
    const mine = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const txid = generateTxid();
      mine.add(txid);
      await s.api.cob.create(txid, { ...cobBody(`${i + 1}.00`), devedor: { cpf, nome: 'Paged Debtor' } });
    }
    const page = await s.api.cob.list({ ...aroundNow(), cpf, paginacao: { itensPorPagina: 2 } });
    expect(page.items).toHaveLength(2);
    expect(page.parametros.paginacao).toMatchObject({
      paginaAtual: 0,
      itensPorPagina: 2,
      quantidadeDePaginas: 3,
      quantidadeTotalDeItens: 5,
    });
    const all: string[] = [];
    for await (const cob of s.api.cob.list({ ...aroundNow(), cpf, paginacao: { itensPorPagina: 2 } }))
      all.push(cob.txid);
    expect(new Set(all)).toEqual(mine);
    expect(all).toHaveLength(5);
  });
});

describe('cobv', () => {
  const due = addDays(todayInBrasilia(), 5);
  const cobvBody = (original: string) => ({
    calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
    devedor: DEBTOR,
    valor: { original },
    chave: s.receiverKey,
  });

  it('creates, revises, reads revisions, lists and removes', async () => {
    const txid = generateTxid();
    expect(await s.api.cobv.create(txid, cobvBody('100.00'))).toMatchObject({ txid, revisao: 0, status: 'ATIVA' });
    expect(await s.api.cobv.update(txid, { valor: { original: '90.00' } })).toMatchObject({
      revisao: 1,
      valor: { original: '90.00' },
    });
    expect(await s.api.cobv.get(txid, { revisao: 0 })).toMatchObject({ valor: { original: '100.00' } });
    const listed: string[] = [];
    for await (const cobv of s.api.cobv.list(aroundNow())) listed.push(cobv.txid);
    expect(listed).toContain(txid);
    expect((await s.api.cobv.remove(txid)).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    await expect(s.api.cobv.get(generateTxid())).rejects.toBeInstanceOf(CobVNaoEncontrada);
  });

  it('runs a batch: processed asynchronously, a charge made by PUT /cobv denied, the set fixed', async () => {
    const loner = generateTxid();
    await s.api.cobv.create(loner, cobvBody('30.00'));
    const cobsv: LoteCobVCobSolicitada[] = [
      { txid: generateTxid(), ...cobvBody('10.00') },
      { txid: generateTxid(), ...cobvBody('20.00') },
      { txid: loner, ...cobvBody('30.00') },
    ];
    const id = 4242;
    await s.api.lotecobv.put(id, { descricao: 'March', cobsv });
    let lote: LoteCobVConsultado = await s.api.lotecobv.get(id);
    for (let i = 0; i < 200 && lote.cobsv.some((c) => c.status === 'EM_PROCESSAMENTO'); i++) {
      await sleep(10);
      lote = await s.api.lotecobv.get(id);
    }
    const status = Object.fromEntries(lote.cobsv.map((c) => [c.txid, c.status]));
    expect(status).toEqual({ [cobsv[0]!.txid]: 'CRIADA', [cobsv[1]!.txid]: 'CRIADA', [loner]: 'NEGADA' });
    expect(lote.cobsv.find((c) => c.txid === loner)?.problema).toBeDefined();

    // The batch's charges exist as due-date charges; the denied one stays the loner it was.
    const inBatch: string[] = [];
    for await (const cobv of s.api.cobv.list({ ...aroundNow(), loteCobVId: id })) inBatch.push(cobv.txid);
    expect(inBatch.sort()).toEqual([cobsv[0]!.txid, cobsv[1]!.txid].sort());

    // PATCH some of the batch's charges; a txid outside the batch is refused (client and service).
    await s.api.lotecobv.update(id, { cobsv: [{ txid: cobsv[0]!.txid, valor: { original: '11.00' } }] });
    await expect.poll(async () => (await s.api.cobv.get(cobsv[0]!.txid)).valor.original).toBe('11.00');
    await expect(
      s.api.lotecobv.update(
        id,
        { cobsv: [{ txid: generateTxid(), valor: { original: '1.00' } }] },
        { checkBatch: true },
      ),
    ).rejects.toBeInstanceOf(LoteCobVOperacaoInvalida);
    await expect(
      s.api.lotecobv.put(id, { descricao: 'March', cobsv: cobsv.slice(0, 1) }, { validate: false }),
    ).rejects.toBeInstanceOf(LoteCobVOperacaoInvalida);
    // alter: the whole batch again (the same set), a later due date for every charge.
    const later = addDays(due, 7);
    const created = cobsv.slice(0, 2).map((c) => ({ ...c, calendario: { ...c.calendario, dataDeVencimento: later } }));
    await s.api.lotecobv.alter(id, { descricao: 'March, extended', cobsv: [...created, cobsv[2]!] });
    await expect.poll(async () => (await s.api.cobv.get(cobsv[1]!.txid)).calendario.dataDeVencimento).toBe(later);
    expect((await s.api.lotecobv.get(id)).descricao).toBe('March, extended');

    const lotes: number[] = [];
    for await (const l of s.api.lotecobv.list(aroundNow())) lotes.push(Number(l.id));
    expect(lotes).toContain(id);
  });

  it('refuses PUT and PATCH on a charge that is still a batch request', async () => {
    const pending = generateTxid();
    // A denied batch item (its debtor has no name) never becomes a charge.
    await s.api.lotecobv.put(
      77,
      { descricao: 'x', cobsv: [{ txid: pending, ...cobvBody('5.00'), devedor: { cpf: '12345678909' } as never }] },
      { validate: false },
    );
    await expect.poll(async () => (await s.api.lotecobv.get(77)).cobsv[0]?.status).toBe('NEGADA');
    await expect(s.api.cobv.get(pending)).rejects.toBeInstanceOf(CobVNaoEncontrada);
    await expect(s.api.cobv.update(pending, { valor: { original: '6.00' } })).rejects.toBeInstanceOf(
      CobVOperacaoInvalida,
    );
  });
});

describe('loc', () => {
  it('creates a location, links a charge to it, unlinks it, lists it', async () => {
    const loc = await s.api.loc.create({ tipoCob: 'cob' });
    expect(loc).toMatchObject({ tipoCob: 'cob', id: expect.any(Number), location: expect.any(String) });
    const txid = generateTxid();
    const cob = await s.api.cob.create(txid, { ...cobBody('8.00'), loc: { id: loc.id } });
    expect(cob.location).toBe(loc.location);
    expect(await s.api.loc.get(loc.id)).toMatchObject({ id: loc.id, txid });

    // Used by a charge: another charge cannot take it; a cobv location cannot serve a cob.
    await expect(s.api.cob.create(generateTxid(), { ...cobBody('1.00'), loc: { id: loc.id } })).rejects.toBeInstanceOf(
      CobOperacaoInvalida,
    );
    const cobvLoc = await s.api.loc.create({ tipoCob: 'cobv' });
    await expect(
      s.api.cob.create(generateTxid(), { ...cobBody('1.00'), loc: { id: cobvLoc.id } }),
    ).rejects.toBeInstanceOf(CobOperacaoInvalida);

    // A free location can change type; a linked one cannot.
    expect((await s.api.loc.update(cobvLoc.id, { tipoCob: 'cob' })).tipoCob).toBe('cob');
    await s.api.loc.update(cobvLoc.id, { tipoCob: 'cobv' });
    await expect(s.api.loc.update(loc.id, { tipoCob: 'cobv' })).rejects.toMatchObject({ status: 400 });

    const unlinked = await s.api.loc.unlink(loc.id);
    expect(unlinked.id).toBe(loc.id);
    expect((await s.api.loc.get(loc.id)).txid).toBeUndefined();
    const free: number[] = [];
    for await (const l of s.api.loc.list({ ...aroundNow(), txIdPresente: false })) free.push(l.id);
    expect(free).toEqual(expect.arrayContaining([loc.id, cobvLoc.id]));
  });
});
