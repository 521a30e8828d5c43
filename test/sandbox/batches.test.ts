/**
 * Batches of due-date charges as the sandbox keeps them (client checks off): items processed
 * asynchronously, not-yet or never created items invisible and untouchable through /cobv, the
 * set of a batch fixed, a charge made by PUT /cobv never joining one.
 */
import { describe, expect, it } from 'vitest';
import {
  CobVNaoEncontrada,
  CobVOperacaoInvalida,
  LoteCobVNaoEncontrado,
  LoteCobVOperacaoInvalida,
  type LoteCobVConsultado,
} from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { cobvBody, properties, range, refusal, startSandbox, until, useSandbox } from './support.ts';

const s = useSandbox();
const settled = (lote: LoteCobVConsultado) => lote.cobsv.every((c) => c.status !== 'EM_PROCESSAMENTO');

async function listedCobv(loteCobVId?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const cobv of s.api.cobv.list({ ...range(), ...(loteCobVId !== undefined && { loteCobVId }) }))
    out.push(cobv.txid);
  return out;
}

describe('batch processing and visibility', () => {
  it('answers 202, shows items EM_PROCESSAMENTO, then CRIADA or NEGADA with a problema', async () => {
    const local = await startSandbox({ batchDelayMs: 1_000 });
    try {
      const good = generateTxid();
      const bad = generateTxid();
      await local.api.lotecobv.put(10, {
        descricao: 'Abril',
        cobsv: [
          { txid: good, ...cobvBody(local.key, '10.00') },
          { txid: bad, ...cobvBody(local.key, '0.00') },
        ],
      });
      const pending = await local.api.lotecobv.get(10);
      expect(pending.cobsv.map((c) => c.status)).toEqual(['EM_PROCESSAMENTO', 'EM_PROCESSAMENTO']);
      // Not a charge yet: not fetched, not listed, not writable by /cobv.
      await expect(local.api.cobv.get(good)).rejects.toBeInstanceOf(CobVNaoEncontrada);
      const early = await local.api.cobv.list(range());
      expect(early.items).toEqual([]);
      const put = await refusal(local.api.cobv.create(good, cobvBody(local.key)));
      expect(put).toBeInstanceOf(CobVOperacaoInvalida);
      expect(properties(put)).toEqual(['txid']);
      await expect(local.api.cobv.update(good, { valor: { original: '9.00' } })).rejects.toBeInstanceOf(
        CobVOperacaoInvalida,
      );

      const done = await until(() => local.api.lotecobv.get(10), settled);
      expect(done).toMatchObject({ id: 10, descricao: 'Abril' });
      expect(done.cobsv.find((c) => c.txid === good)).toMatchObject({ status: 'CRIADA', criacao: expect.any(String) });
      const denied = done.cobsv.find((c) => c.txid === bad)!;
      expect(denied.status).toBe('NEGADA');
      expect(denied.problema).toMatchObject({
        type: expect.stringMatching(/\/CobVOperacaoInvalida$/),
        status: 400,
        violacoes: [expect.objectContaining({ propriedade: 'cobv.valor.original' })],
      });
      // Created: fetched and listed. Denied: neither, and /cobv refuses it.
      await expect(local.api.cobv.get(good)).resolves.toMatchObject({ txid: good, status: 'ATIVA' });
      expect((await local.api.cobv.list(range())).items.map((c) => c.txid)).toEqual([good]);
      await expect(local.api.cobv.get(bad)).rejects.toBeInstanceOf(CobVNaoEncontrada);
      await expect(local.api.cobv.create(bad, cobvBody(local.key))).rejects.toBeInstanceOf(CobVOperacaoInvalida);
      await expect(local.api.cobv.update(bad, { valor: { original: '9.00' } })).rejects.toBeInstanceOf(
        CobVOperacaoInvalida,
      );
    } finally {
      await local.sandbox.close();
    }
  });

  it('keeps the set of a batch fixed: PUT must list exactly its charges, PATCH a part of them', async () => {
    const [a, b, c] = [generateTxid(), generateTxid(), generateTxid()];
    const items = [a, b, c].map((txid) => ({ txid, ...cobvBody(s.key) }));
    await s.api.lotecobv.put(20, { descricao: 'Maio', cobsv: items });
    await until(() => s.api.lotecobv.get(20), settled);
    const grow = await refusal(
      s.api.lotecobv.put(20, { descricao: 'Maio', cobsv: [...items, { txid: generateTxid(), ...cobvBody(s.key) }] }),
    );
    expect(grow).toBeInstanceOf(LoteCobVOperacaoInvalida);
    expect(properties(grow)).toEqual(['loteCobV.cobsV[3].txid']);
    const shrink = await refusal(s.api.lotecobv.put(20, { descricao: 'Maio', cobsv: items.slice(0, 2) }));
    expect(properties(shrink)).toEqual(['loteCobV.cobsV']);
    const stranger = await refusal(
      s.api.lotecobv.update(20, { cobsv: [{ txid: generateTxid(), valor: { original: '1.00' } }] }),
    );
    expect(properties(stranger)).toEqual(['loteCobV.cobsV[0].txid']);
    await expect(s.api.lotecobv.update(404, { descricao: 'x' })).rejects.toBeInstanceOf(LoteCobVNaoEncontrado);

    // All three altered together (PUT), then one revised (PATCH): revisions counted per charge.
    await s.api.lotecobv.put(20, {
      descricao: 'Maio',
      cobsv: items.map((item) => ({ ...item, valor: { original: '120.00' } })),
    });
    await s.api.lotecobv.update(20, { cobsv: [{ txid: b, valor: { original: '130.00' } }] });
    const revised = await until(
      () => s.api.cobv.get(b),
      (cobv) => cobv.revisao === 2,
    );
    expect(revised.valor.original).toBe('130.00');
    expect(await s.api.cobv.get(a)).toMatchObject({ revisao: 1, valor: { original: '120.00' } });
    expect((await listedCobv(20)).sort()).toEqual([a, b, c].sort());
  });

  it('never lets a charge made by PUT /cobv (or by another batch) join a batch', async () => {
    const loner = generateTxid();
    await s.api.cobv.create(loner, cobvBody(s.key));
    const member = generateTxid();
    await s.api.lotecobv.put(30, { descricao: 'Junho', cobsv: [{ txid: member, ...cobvBody(s.key) }] });
    await until(() => s.api.lotecobv.get(30), settled);
    await s.api.lotecobv.put(31, {
      descricao: 'Julho',
      cobsv: [
        { txid: loner, ...cobvBody(s.key) },
        { txid: member, ...cobvBody(s.key) },
      ],
    });
    const lote = await until(() => s.api.lotecobv.get(31), settled);
    expect(lote.cobsv.map((c) => c.status)).toEqual(['NEGADA', 'NEGADA']);
    expect(lote.cobsv[0]!.problema).toMatchObject({ violacoes: [expect.objectContaining({ propriedade: 'txid' })] });
    expect(await listedCobv(31)).toEqual([]);
    expect(await listedCobv(30)).toEqual([member]);
  });

  it('refuses a batch body that breaks the batch rules at once', async () => {
    const twice = generateTxid();
    const error = await refusal(
      s.api.lotecobv.put(40, {
        descricao: 5 as never,
        cobsv: [
          { txid: twice, ...cobvBody(s.key) },
          { txid: twice, ...cobvBody(s.key) },
          { txid: 'short', ...cobvBody(s.key) },
        ],
      }),
    );
    expect(error).toBeInstanceOf(LoteCobVOperacaoInvalida);
    expect(properties(error)).toEqual(['loteCobV.cobsV[1].txid', 'loteCobV.cobsV[2].txid', 'loteCobV.descricao']);
    await expect(s.api.lotecobv.get(40)).rejects.toBeInstanceOf(LoteCobVNaoEncontrado);
  });
});
