/**
 * The sandbox's test clock (api.md "Time"), over real HTTP: `sandbox.clock` and the
 * `/sandbox/clock` routes move it, and what time drives follows: a charge past its expiry, a
 * due-date charge through a weekend and a holiday, a monthly recurrence over three months, a
 * token past its lifetime, a scheduled redelivery. The sandbox's base clock is stopped, so that
 * only the test moves it; the clients take it from `clientOptions()` and `payerOptions()`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountDue,
  CobPayloadNaoEncontrado,
  ConfigurationError,
  InstantClient,
  type CobVSolicitada,
} from '../../src/index.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { durationMs } from '../../src/sandbox/clock.ts';
import { startRecSandbox, approvedRec, cobrBody, type Json, type RecHarness } from './recurring/support.ts';
import { CPF, until } from './support.ts';

/** Monday 2026-12-21, 10:00 in Brasília: Christmas (a national holiday) is that Friday. */
const START = '2026-12-21T10:00:00-03:00';
const stopped = () => new Date(START);

let sandbox: Sandbox;
let api: InstantClient;
let payer: PayerClient;
const received: string[] = [];
let receiver: ReturnType<typeof createServer>;

beforeAll(async () => {
  // A receiver that answers the first delivery 500 and the next ones 200.
  receiver = createServer((req, res) => {
    received.push(req.url ?? '');
    req.resume();
    res.statusCode = received.length === 1 ? 500 : 200;
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  sandbox = createSandbox({
    seed: 5,
    now: stopped,
    transferNotificationUrl: `http://127.0.0.1:${port}/transfer`,
    // Redeliveries 10 minutes apart: in real time none would come during the test.
    redelivery: { attempts: 3, delayMs: 600_000 },
  });
  await sandbox.listen();
  api = new InstantClient({ ...sandbox.clientOptions(), maxRetries: 0 });
  payer = new PayerClient({ ...sandbox.payerOptions(), maxRetries: 0 });
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const control = async (method: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${sandbox.origin}/sandbox/clock`, {
    method,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
};
const today = () => todayInBrasilia(sandbox.clock.now());

describe('the test clock', () => {
  it('starts from createSandbox({ now }) and is the clients’ now', () => {
    expect(sandbox.clock.now().toISOString()).toBe(new Date(START).toISOString());
    expect(sandbox.clientOptions().now().toISOString()).toBe(new Date(START).toISOString());
    expect(sandbox.cashOutOptions().now).toBe(sandbox.clientOptions().now);
    expect(sandbox.payerOptions().now).toBe(sandbox.clientOptions().now);
    expect(() => createSandbox({ now: 'tomorrow' } as never)).toThrow(ConfigurationError);
  });

  it('reads ISO 8601 durations of weeks, days, hours, minutes and seconds, and milliseconds', () => {
    expect(durationMs('P3D')).toBe(3 * 86_400_000);
    expect(durationMs('PT2H')).toBe(7_200_000);
    expect(durationMs('P1W')).toBe(7 * 86_400_000);
    expect(durationMs('P1DT12H30M')).toBe(86_400_000 + 12 * 3_600_000 + 30 * 60_000);
    expect(durationMs('PT0.5S')).toBe(500);
    expect(durationMs(1_500)).toBe(1_500);
    for (const bad of ['P1M', 'P1Y', 'P', 'PT', 'P1DT', '3D', '-PT1H', -1, Number.NaN, 'PT1H2D'])
      expect(() => durationMs(bad), String(bad)).toThrow(/advance is an ISO 8601 duration/);
  });

  it('is read and moved over HTTP: GET and POST /sandbox/clock { set?, advance? }', async () => {
    const here = sandbox.clock.now().getTime();
    expect((await control('GET')).body).toEqual({ now: new Date(here).toISOString() });
    const advanced = await control('POST', { advance: 'PT2H' });
    expect(advanced).toEqual({ status: 200, body: { now: new Date(here + 7_200_000).toISOString() } });
    expect((await control('POST', { advance: 60_000 })).body.now).toBe(new Date(here + 7_260_000).toISOString());
    // Back to where it was: an earlier instant only moves the clock back.
    const back = await control('POST', { set: new Date(here).toISOString() });
    expect(back.body.now).toBe(new Date(here).toISOString());
    for (const bad of [{ advance: 'P1M' }, { set: 'tomorrow' }, { advance: -5 }, { rewind: 'PT1H' }]) {
      const refused = await control('POST', bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
    }
    expect(sandbox.clock.now().getTime()).toBe(here);
  });
});

describe('what time drives, moved by the clock', () => {
  it('a charge moved past its expiry can no longer be paid, and its payload is gone', async () => {
    const txid = generateTxid();
    const cob = await api.cob.create(txid, {
      calendario: { expiracao: 3600 },
      valor: { original: '10.00' },
      chave: sandbox.ownKeys[0]!,
    });
    await expect(payer.cobPayload.getCob(cob.location!)).resolves.toMatchObject({ valor: { original: '10.00' } });
    await sandbox.clock.advance('PT59M');
    await expect(payer.cobPayload.getCob(cob.location!)).resolves.toMatchObject({ txid });
    await sandbox.clock.advance('PT2M');
    await expect(payer.cobPayload.getCob(cob.location!)).rejects.toBeInstanceOf(CobPayloadNaoEncontrado);
    await expect(sandbox.payCharge(txid)).rejects.toThrow();
  });

  it('a due-date charge through a weekend and a holiday: each day its payload asks what amountDue says', async () => {
    await sandbox.clock.set(START);
    const charge: CobVSolicitada = {
      // Due on Christmas (Friday): rolled to Monday the 28th; two days more, through the 30th.
      calendario: { dataDeVencimento: '2026-12-25', validadeAposVencimento: 2 },
      devedor: { cpf: CPF, nome: 'Fulano de Tal' },
      valor: {
        original: '100.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '1.00' },
        desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-12-22', valorPerc: '5.00' }] },
      },
      chave: sandbox.ownKeys[0]!,
    };
    const created = await api.cobv.create(generateTxid(), charge);
    const asked = amountDue({ calendario: charge.calendario, valor: charge.valor }, '2026-12-21');
    expect(asked.lastPayableDay).toBe('2026-12-30');
    const seen: Record<string, string> = {};
    while (today() <= '2026-12-30') {
      const due = amountDue({ calendario: charge.calendario, valor: charge.valor }, today());
      const payload = await payer.cobPayload.getCobv(created.location!);
      expect(payload.valor.final, today()).toBe(due.valor.final);
      seen[today()] = payload.valor.final;
      await sandbox.clock.advance('P1D');
    }
    // The discount, then the original through the rolled due date, then fine and interest.
    expect(seen).toMatchObject({ '2026-12-21': '95.00', '2026-12-26': '100.00', '2026-12-28': '100.00' });
    expect(Number(seen['2026-12-30'])).toBeGreaterThan(102);
    expect(today()).toBe('2026-12-31');
    await expect(payer.cobPayload.getCobv(created.location!)).rejects.toBeInstanceOf(CobPayloadNaoEncontrado);
  });

  it('a token past its lifetime is refused (401); a client from clientOptions() gets a new one', async () => {
    const { tokenUrl, clientId, clientSecret } = sandbox.credentials;
    const issued = await fetch(tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    const { access_token: token, expires_in: lifetime } = (await issued.json()) as Json;
    expect(lifetime).toBe(300);
    const list = () =>
      fetch(`${sandbox.baseUrl}/cob?inicio=2026-01-01T00:00:00Z&fim=2027-12-31T00:00:00Z`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((response) => response.status);
    expect(await list()).toBe(200);
    await sandbox.clock.advance('PT4M59S');
    expect(await list()).toBe(200);
    await sandbox.clock.advance('PT1S');
    expect(await list()).toBe(401);
    await sandbox.clock.advance('P1D');
    await expect(api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2027-12-31T00:00:00Z' })).resolves.toBeDefined();
  });

  it('a scheduled redelivery fires when the clock reaches it', async () => {
    const key = globalThis.crypto.randomUUID();
    expect(await sandbox.forgeTransferNotification({ idempotencyKey: key, status: 'LIQUIDATED' })).toBe(500);
    const sent = () => sandbox.notifications().find((n) => JSON.stringify(n.body).includes(key))!;
    expect(sent().attempts).toHaveLength(1);
    await sandbox.clock.advance('PT9M');
    expect(sent().attempts).toHaveLength(1);
    await sandbox.clock.advance('PT1M');
    const delivered = await until(
      async () => sent(),
      (n) => n.state === 'delivered',
    );
    expect(delivered.attempts).toHaveLength(2);
    expect(received).toEqual(['/transfer', '/transfer']);
  });

  it('the clients from clientOptions() judge "today" by the sandbox’s clock, not the machine’s', async () => {
    // A month ahead of the machine's day, whenever the test runs.
    await sandbox.clock.set(`${addDays(todayInBrasilia(), 30)}T10:00:00-03:00`);
    const yesterday = addDays(today(), -1);
    const error = await api.rec
      .create({
        vinculo: { contrato: 'C-1', objeto: 'Plan', devedor: { cpf: CPF, nome: 'Fulano de Tal' } },
        calendario: { dataInicial: yesterday, periodicidade: 'MENSAL' },
        valor: { valorRec: '29.90' },
        politicaRetentativa: 'NAO_PERMITE',
      })
      .catch((e: unknown) => e);
    // On the machine's clock the day is still to come, and the call would have been sent.
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade: 'rec.calendario.dataInicial' }] });
  });
});

describe('a monthly recurrence over three months', () => {
  let h: RecHarness;
  beforeAll(async () => {
    h = await startRecSandbox({ now: stopped });
  });
  afterAll(async () => {
    await h.sandbox.close();
  });
  const status = async (txid: string): Promise<Json> => (await h.call('GET', `/cobr/${txid}`)).body;
  const charge = async (idRec: string, due: string): Promise<string> => {
    const txid = generateTxid();
    const created = await h.call('PUT', `/cobr/${txid}`, cobrBody(idRec, h.account, due, { ajusteDiaUtil: false }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return txid;
  };
  const at = (day: string) => h.sandbox.clock.set(`${day}T10:00:00-03:00`);

  it('paid, then a failed attempt paid on its retry, then one left unpaid until the retry window closes', async () => {
    const idRec = await approvedRec(h, {
      calendario: { dataInicial: '2027-01-05', periodicidade: 'MENSAL' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });
    // January: falls due, paid.
    const january = await charge(idRec, '2027-01-05');
    await at('2027-01-05');
    expect((await status(january)).status).toBe('ATIVA');
    await h.sandbox.settleCobr(january, 'PAGA');
    expect((await status(january)).status).toBe('CONCLUIDA');

    // February: the attempt fails; a retry three days later is paid.
    const february = await charge(idRec, '2027-02-05');
    await at('2027-02-05');
    await h.sandbox.settleCobr(february, 'REJEITADA');
    expect((await status(february)).status).toBe('ATIVA');
    expect((await h.call('POST', `/cobr/${february}/retentativa/2027-02-08`)).status).toBe(201);
    await at('2027-02-08');
    await h.sandbox.settleCobr(february, 'PAGA');
    const paid = await status(february);
    expect(paid.status).toBe('CONCLUIDA');
    expect(paid.tentativas.map((t: Json) => t.status)).toEqual(['REJEITADA', 'PAGA']);

    // March: unpaid on its day; the charge waits for a retry for 7 days, then expires.
    const march = await charge(idRec, '2027-03-05');
    await at('2027-03-06');
    const waiting = await status(march);
    expect(waiting.status).toBe('ATIVA');
    expect(waiting.tentativas.map((t: Json) => t.status)).toEqual(['EXPIRADA']);
    await at('2027-03-11');
    expect((await status(march)).status).toBe('ATIVA');
    await h.sandbox.clock.advance('P1D');
    expect(todayInBrasilia(h.sandbox.clock.now())).toBe('2027-03-12');
    expect((await status(march)).status).toBe('EXPIRADA');
    const late = await h.call('POST', `/cobr/${march}/retentativa/${addDays('2027-03-12', 1)}`);
    expect(late.status).toBe(400);
  });

  it('one advance across many days fires each day’s change on its day, in date order', async () => {
    await at('2027-03-20');
    const idRec = await approvedRec(h, {
      calendario: { dataInicial: '2027-04-05', periodicidade: 'MENSAL' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });
    const april = await charge(idRec, '2027-04-05');
    // Notifications of the recurring charges go to a receiver that is not there: each is logged.
    expect((await h.call('PUT', '/webhookcobr', { webhookUrl: 'http://127.0.0.1:9/hook' })).status).toBe(200);
    const logged = () =>
      h.sandbox
        .notifications()
        .map((n) => (n.body as Json)['cobsr']?.[0])
        .filter((cobr: Json | undefined) => cobr?.txid === april);
    await h.sandbox.clock.advance('P25D');
    // The attempt expired the day after its date (the charge still waiting for a retry), and
    // the charge once the retry window had closed: two notifications, in that order.
    expect(logged().map((cobr: Json) => [cobr.status, cobr.tentativas.map((t: Json) => t.status)])).toEqual([
      ['ATIVA', ['EXPIRADA']],
      ['EXPIRADA', ['EXPIRADA']],
    ]);
  });
});
