/**
 * One clock (api.md "Time"): every client takes `now`, and its rules read "today" from it, never
 * from the system clock. The cases run at 23:59 and 00:01 in Brasília on purpose, on a day far
 * from the machine's, so that a rule reading the system clock cannot pass them by chance.
 */
import { describe, expect, it } from 'vitest';
import {
  CashOutClient,
  ConfigurationError,
  createMemoryStore,
  InstantClient,
  type CobRSolicitada,
  type RecSolicitada,
} from '../src/index.ts';
import { PayerClient } from '../src/payer.ts';
import type { Now } from '../src/internal/clock.ts';
import { CNPJ, EXAMPLE_CPF, ID_REC, TXID } from './recurring/fixtures.ts';

/** 2026-03-10 23:59 in Brasília (UTC-3): 2026-03-11 in UTC. */
const BEFORE_MIDNIGHT = '2026-03-10T23:59:00-03:00';
/** 2026-03-11 00:01 in Brasília. */
const AFTER_MIDNIGHT = '2026-03-11T00:01:00-03:00';

const clockAt = (instant: string): Now => {
  const at = Date.parse(instant);
  return () => new Date(at);
};

/** A client on `now` whose requests are counted and never answered: a refusal sends nothing. */
function clientAt(instant: string): { api: InstantClient; sent: () => number } {
  let sent = 0;
  const api = new InstantClient({
    baseUrl: 'https://api.psp.example/v2',
    maxRetries: 0,
    now: clockAt(instant),
    fetch: async () => {
      sent++;
      throw new Error('not answered');
    },
  });
  return { api, sent: () => sent };
}

/** Whether the client refused the call before sending (its `sentRequest: false`) or sent it. */
async function verdict(call: () => PromiseLike<unknown>, sent: () => number): Promise<'refused' | 'sent'> {
  const before = sent();
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (sent() > before) return 'sent';
  expect(error).toMatchObject({ sentRequest: false });
  return 'refused';
}

const rec = (dataInicial: string): RecSolicitada => ({
  vinculo: { contrato: '63100862', devedor: { cpf: EXAMPLE_CPF, nome: 'Fulano de Tal' }, objeto: 'Streaming' },
  calendario: { dataInicial, dataFinal: '2027-03-31', periodicidade: 'MENSAL' },
  valor: { valorRec: '35.00' },
  politicaRetentativa: 'NAO_PERMITE',
});

const cobr = (dataDeVencimento: string): CobRSolicitada => ({
  idRec: ID_REC,
  calendario: { dataDeVencimento },
  valor: { original: '106.07' },
  ajusteDiaUtil: true,
  devedor: { cep: '89256140', cidade: 'Uberlândia', logradouro: 'Alameda Franco 1056', uf: 'MG' },
  recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
});

describe('the now option', () => {
  it('is checked by every client: anything but a function is a ConfigurationError naming now', () => {
    const build = [
      (now: unknown) => new InstantClient({ baseUrl: 'https://api.psp.example/v2', now } as never),
      (now: unknown) =>
        new CashOutClient({
          baseUrl: 'https://accounts.psp.example',
          auth: { clientId: 'id', clientSecret: 'secret' },
          now,
        } as never),
      (now: unknown) => new PayerClient({ now } as never),
      (now: unknown) => createMemoryStore({ now } as never),
    ];
    for (const make of build) {
      for (const bad of ['2026-03-10T12:00:00Z', new Date(), 0]) {
        expect(() => make(bad)).toThrow(ConfigurationError);
        expect(() => make(bad)).toThrow(expect.objectContaining({ option: 'now' }));
      }
      expect(() => make(() => new Date())).not.toThrow();
    }
  });

  it('is the clients’ clock, the system clock by default', () => {
    const now = clockAt(BEFORE_MIDNIGHT);
    expect(new InstantClient({ baseUrl: 'https://api.psp.example/v2', now }).now).toBe(now);
    const api = new InstantClient({ baseUrl: 'https://api.psp.example/v2' });
    expect(Math.abs(api.now().getTime() - Date.now())).toBeLessThan(60_000);
  });
});

describe('"today" on the client’s clock, at 23:59 and 00:01 in Brasília', () => {
  it('a recurrence starts today or later (a few minutes of slack after midnight)', async () => {
    const late = clientAt(BEFORE_MIDNIGHT);
    expect(await verdict(() => late.api.rec.create(rec('2026-03-10')), late.sent)).toBe('sent');
    expect(await verdict(() => late.api.rec.create(rec('2026-03-09')), late.sent)).toBe('refused');
    const early = clientAt(AFTER_MIDNIGHT);
    // 00:01: a service clock a few minutes behind still says 2026-03-10.
    expect(await verdict(() => early.api.rec.create(rec('2026-03-10')), early.sent)).toBe('sent');
    expect(await verdict(() => early.api.rec.create(rec('2026-03-09')), early.sent)).toBe('refused');
  });

  it('a recurring charge falls due today or later; a retry is for a day after today', async () => {
    const late = clientAt(BEFORE_MIDNIGHT);
    expect(await verdict(() => late.api.cobr.create(TXID, cobr('2026-03-10')), late.sent)).toBe('sent');
    expect(await verdict(() => late.api.cobr.create(TXID, cobr('2026-03-09')), late.sent)).toBe('refused');
    expect(await verdict(() => late.api.cobr.retry(TXID, '2026-03-11'), late.sent)).toBe('sent');
    expect(await verdict(() => late.api.cobr.retry(TXID, '2026-03-10'), late.sent)).toBe('refused');
    const early = clientAt(AFTER_MIDNIGHT);
    expect(await verdict(() => early.api.cobr.retry(TXID, '2026-03-11'), early.sent)).toBe('sent');
  });

  it('a confirmation request expires today or later', async () => {
    const body = (day: string) => ({
      idRec: ID_REC,
      calendario: { dataExpiracaoSolicitacao: `${day}T23:00:00-03:00` },
      destinatario: { agencia: '2569', conta: '550689', cnpj: CNPJ, ispbParticipante: '91193552' },
    });
    const late = clientAt(BEFORE_MIDNIGHT);
    expect(await verdict(() => late.api.solicrec.create(body('2026-03-10')), late.sent)).toBe('sent');
    expect(await verdict(() => late.api.solicrec.create(body('2026-03-09')), late.sent)).toBe('refused');
  });

  it('the payer’s payment date (DPP) is today or later in Brasília, with no slack', async () => {
    const location = 'qr.psp.example/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25';
    const payerAt = (instant: string) => {
      let sent = 0;
      const payer = new PayerClient({
        now: clockAt(instant),
        maxRetries: 0,
        fetch: async () => {
          sent++;
          throw new Error('not answered');
        },
      });
      return { get: (DPP: string) => () => payer.cobPayload.getCobv(location, { DPP }), sent: () => sent };
    };
    const late = payerAt(BEFORE_MIDNIGHT);
    expect(await verdict(late.get('2026-03-10'), late.sent)).toBe('sent');
    expect(await verdict(late.get('2026-03-09'), late.sent)).toBe('refused');
    const early = payerAt(AFTER_MIDNIGHT);
    expect(await verdict(early.get('2026-03-11'), early.sent)).toBe('sent');
    expect(await verdict(early.get('2026-03-10'), early.sent)).toBe('refused');
  });
});

describe('the memory store on its clock', () => {
  it('keeps a value until its clock passes the time to live, whatever the system clock says', async () => {
    let at = Date.parse(BEFORE_MIDNIGHT);
    const store = createMemoryStore({ now: () => new Date(at) });
    await store.set('k', 'v', 120_000);
    at += 119_000;
    expect(await store.get('k')).toBe('v');
    at += 2_000;
    expect(await store.get('k')).toBeUndefined();
    expect(await store.lease('l', 'a', 1_000)).toBe(true);
    expect(await store.lease('l', 'b', 1_000)).toBe(false);
    at += 1_001;
    expect(await store.lease('l', 'b', 1_000)).toBe(true);
  });
});
