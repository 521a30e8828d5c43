/**
 * The payer side of the sandbox: signed payloads at each location (verified by the SDK's payer
 * client against the key set served on the same host), valid BR Codes, 404/410, and the
 * sandbox's own judgement of `codMun` and `DPP` (sent raw, past the payer client's checks).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CobPayloadNaoEncontrado, CobPayloadOperacaoInvalida, nextBusinessDay } from '../../src/index.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import { brcode } from '../../src/lib/brcode.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { cobBody, cobvBody, useSandbox } from './support.ts';

const s = useSandbox();
let payer: PayerClient;
let fetchRaw: (url: string) => Promise<Response>;

beforeAll(() => {
  const options = s.sandbox.payerOptions();
  payer = new PayerClient({ ...options, maxRetries: 0 });
  fetchRaw = (url) => options.fetch!(url);
});

describe('payload retrieval', () => {
  it('serves an immediate charge as a JWS verified with the key set, behind a valid BR Code', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, { ...cobBody(s.key, '25.50'), solicitacaoPagador: 'Pedido 1' });
    const cob = await s.api.cob.update(txid, { valor: { original: '26.00' } });
    const code = brcode.parse(cob['instantCopiaECola'] as string);
    expect(code.url).toBe(cob.location);
    const payload = await payer.cobPayload.getCob(code.url!);
    expect(payload).toMatchObject({
      txid,
      revisao: 1,
      status: 'ATIVA',
      chave: s.key,
      valor: { original: '26.00' },
      solicitacaoPagador: 'Pedido 1',
    });
    expect(payload.calendario).toMatchObject({
      criacao: cob.calendario.criacao,
      expiracao: 3600,
      apresentacao: expect.any(String),
    });
    const raw = await fetchRaw(`https://${cob.location}`);
    expect(raw.headers.get('content-type')).toBe('application/jose');
    const [header] = (await raw.text()).split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({
      alg: 'RS256',
      kid: expect.any(String),
      jku: `${s.sandbox.origin}/qr/v2/jwks.json`,
    });
  });

  it('computes the due-date amount for DPP: discount before the due date, fine and interest after', async () => {
    const txid = generateTxid();
    const due = nextBusinessDay(addDays(todayInBrasilia(), 5)); // a business day: no roll
    const cobv = await s.api.cobv.create(txid, {
      ...cobvBody(s.key, '100.00'),
      calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
      valor: {
        original: '100.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '1.00' },
        desconto: { modalidade: 1, descontoDataFixa: [{ data: addDays(todayInBrasilia(), 2), valorPerc: '5.00' }] },
      },
    });
    const early = await payer.cobPayload.getCobv(cobv.location!, { codMun: '5300108' });
    expect(early.valor).toMatchObject({ original: '100.00', desconto: '5.00', final: '95.00' });
    expect(early.recebedor).toMatchObject({ cnpj: expect.any(String), nome: expect.any(String) });
    const late = await payer.cobPayload.getCobv(cobv.location!, { DPP: addDays(due, 3) });
    // 2% fine + 1% a day for 3 days.
    expect(late.valor).toMatchObject({ multa: '2.00', juros: '3.00', final: '105.00' });
  });

  it('answers 404 where the location shows no charge, 410 once its charge is paid or removed', async () => {
    const bare = await s.api.loc.create({ tipoCob: 'cob' });
    const none = await payer.cobPayload.getCob(bare.location).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(CobPayloadNaoEncontrado);
    expect(none).toMatchObject({ status: 404 });

    const paid = generateTxid();
    const cob = await s.api.cob.create(paid, cobBody(s.key));
    await s.sandbox.payCharge(paid);
    await expect(payer.cobPayload.getCob(cob.location!)).rejects.toMatchObject({
      name: 'CobPayloadNaoEncontrado',
      status: 410,
    });

    const removed = generateTxid();
    const cobv = await s.api.cobv.create(removed, cobvBody(s.key));
    await s.api.cobv.remove(removed);
    await expect(payer.cobPayload.getCobv(cobv.location!)).rejects.toMatchObject({
      name: 'CobPayloadNaoEncontrado',
      status: 410,
    });
    // A cob path does not serve a cobv location's token, and the reverse.
    const cobvLive = await s.api.cobv.create(generateTxid(), cobvBody(s.key));
    expect((await fetchRaw(`https://${cobvLive.location!.replace('/cobv/', '/')}`)).status).toBe(404);
  });

  it('judges codMun and DPP itself: schema, municipality table, past, beyond validity', async () => {
    const due = addDays(todayInBrasilia(), 2);
    const cobv = await s.api.cobv.create(generateTxid(), {
      ...cobvBody(s.key),
      calendario: { dataDeVencimento: due, validadeAposVencimento: 3 },
    });
    const at = `https://${cobv.location}`;
    // The due date and the day 3 days after it both move to a business day (the shared calendar).
    const last = nextBusinessDay(addDays(nextBusinessDay(due), 3));
    const cases: Array<[string, string]> = [
      ['codMun=1234567', 'codMun'],
      ['codMun=530010', 'codMun'],
      ['DPP=2026-13-01', 'DPP'],
      [`DPP=${addDays(todayInBrasilia(), -1)}`, 'DPP'],
      [`DPP=${addDays(last, 1)}`, 'DPP'],
    ];
    for (const [query, propriedade] of cases) {
      const response = await fetchRaw(`${at}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({
        type: expect.stringMatching(/\/CobPayloadOperacaoInvalida$/),
        status: 400,
        violacoes: [expect.objectContaining({ propriedade })],
      });
    }
    // The last valid day is accepted; one beyond it through the payer client is the same refusal.
    await expect(payer.cobPayload.getCobv(cobv.location!, { DPP: last, codMun: '3550308' })).resolves.toMatchObject({
      txid: cobv.txid,
    });
    await expect(payer.cobPayload.getCobv(cobv.location!, { DPP: addDays(last, 1) })).rejects.toBeInstanceOf(
      CobPayloadOperacaoInvalida,
    );
  });
});
