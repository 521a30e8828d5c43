/**
 * Never miss a payment: notifications the sandbox drops are found by a sweep and handed over
 * once; a sweep racing a delivery, and two handlers sweeping with one PostgreSQL store, give one
 * callback per payment; a sweep stopped between pages resumes without a gap. Refunds and the
 * service's own returns (disputes) reach `onRefund` once. The SDK against the sandbox over real
 * HTTP; the fleet cases on a real PostgreSQL (with real processes: sweep-fleet.test.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  generateTxid,
  isDispute,
  MED_AUTOMATIC,
  receivedPaymentsHandler,
  recurringHandler,
  addDays,
  todayInBrasilia,
  type Devolucao,
  type InstantPayment,
  type ReceivedPaymentsHandler,
  type Store,
} from '../../src/index.ts';
import { createPostgresStore, type PostgresStore } from '../../src/postgres.ts';
import { Random } from '../../src/sandbox/random.ts';
import { startTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { startReceiver, useSandbox, type Receiver } from './harness.ts';

const s = useSandbox({ redelivery: { attempts: 1 }, refundDelayMs: 5 });

/** Counts `onPayment` and `onRefund` calls per e2eid (and refund id). */
class Calls {
  readonly payments = new Map<string, number>();
  readonly refunds: Array<{ e2eid: string; refund: Devolucao }> = [];
  onPayment = (payment: InstantPayment) => {
    this.payments.set(payment.endToEndId, (this.payments.get(payment.endToEndId) ?? 0) + 1);
  };
  onRefund = (payment: InstantPayment, refund: Devolucao) => {
    this.refunds.push({ e2eid: payment.endToEndId, refund });
  };
  /** How many times each of `e2eids` was handed over. */
  timesOf(e2eids: readonly string[]): number[] {
    return e2eids.map((e2eid) => this.payments.get(e2eid) ?? 0);
  }
}

let receiver: Receiver;
/** The handler the sandbox's webhook reaches; each test sets its own. */
let current: ReceivedPaymentsHandler | undefined;
let start: string;

beforeAll(async () => {
  receiver = await startReceiver((req, res) => {
    if (current === undefined) return void res.writeHead(503).end();
    void current.node(req, res);
  });
  await s.api.webhook.put(s.receiverKey, `${receiver.url}/hook`);
  start = new Date(Date.now() - 60_000).toISOString();
});
afterAll(() => receiver.close());

/** Pays `count` new charges; resolves with their e2eids once each notification's first attempt was answered (or dropped). */
async function pay(count: number, valor = '10.00'): Promise<string[]> {
  const e2eids: string[] = [];
  for (let i = 0; i < count; i++) {
    const txid = generateTxid();
    await s.api.cob.create(txid, { calendario: { expiracao: 3600 }, valor: { original: valor }, chave: s.receiverKey });
    e2eids.push((await s.sandbox.payCharge(txid)).endToEndId);
  }
  return e2eids;
}

/**
 * Pays a charge whose notification is dropped, then redelivers it to the webhook's handler and
 * sweeps with `sweeping` at once, each after a pause drawn from `random`; resolves with the e2eid.
 */
async function race(random: Random, sweeping: ReceivedPaymentsHandler, from: string): Promise<string> {
  s.sandbox.dropNotifications({ count: 1 });
  const [e2eid] = await pay(1);
  const dropped = s.sandbox.notifications().at(-1)!;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.all([
    wait(random.below(8)).then(() => s.sandbox.redeliver(dropped.id)),
    wait(random.below(8)).then(() => sweeping.sweep({ from })),
  ]);
  return e2eid!;
}

function handler(calls: Calls, store?: Store, name?: string, sweepOverlapMs?: number): ReceivedPaymentsHandler {
  return receivedPaymentsHandler(s.api, {
    onPayment: calls.onPayment,
    onRefund: calls.onRefund,
    ...(store && { store }),
    ...(name && { name }),
    ...(sweepOverlapMs !== undefined && { sweepOverlapMs }),
  });
}

describe('sweep() against the sandbox', () => {
  it('notifications dropped for good are found by the next sweep and handed over once', async () => {
    const calls = new Calls();
    const store = createMemoryStore();
    current = handler(calls, store);
    const from = new Date().toISOString();
    s.sandbox.dropNotifications({ count: 3 });
    const e2eids = await pay(5);
    const log = s.sandbox.notifications().slice(-5);
    expect(log.map((n) => n.state)).toEqual(['dropped', 'dropped', 'dropped', 'delivered', 'delivered']);
    expect(calls.timesOf(e2eids)).toEqual([0, 0, 0, 1, 1]);

    const first = await current.sweep({ from });
    expect(first).toMatchObject({ seen: 5, handled: 3, duplicates: 2 });
    expect(calls.timesOf(e2eids)).toEqual([1, 1, 1, 1, 1]);
    // The next sweep starts from the cursor (less the overlap): the same payments, all duplicates.
    const second = await current.sweep();
    expect(second.handled).toBe(0);
    expect(second.duplicates).toBeGreaterThanOrEqual(5);
    // A dropped notification redelivered by hand now: answered 200, a duplicate.
    const redelivered = await s.sandbox.redeliver(log[0]!.id);
    expect(redelivered.attempts.at(-1)).toMatchObject({ status: 200, redelivery: true });
    expect(redelivered.state).toBe('delivered');
    expect(calls.timesOf(e2eids)).toEqual([1, 1, 1, 1, 1]);
  });

  it('without a store and without from: refused', async () => {
    await expect(handler(new Calls()).sweep()).rejects.toThrow(/from/);
  });

  it('a sweep and a delivery racing on one payment give one callback (30 seeds, with and without a store)', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = new Random(seed);
      const calls = new Calls();
      current = handler(calls, seed % 2 === 0 ? createMemoryStore() : undefined);
      const e2eid = await race(random, current, start);
      expect(calls.timesOf([e2eid]), `seed ${seed}`).toEqual([1]);
    }
  });

  it('a sweep stopped between pages resumes with sweep() alone, without a gap or a second callback', async () => {
    const calls = new Calls();
    const store = createMemoryStore();
    s.sandbox.dropNotifications({ count: 7 });
    const from = new Date().toISOString();
    const e2eids = await pay(7);
    const stop = new AbortController();
    const stopping = receivedPaymentsHandler(s.api, {
      store,
      name: 'resume',
      sweepOverlapMs: 0,
      onPayment: (payment) => {
        calls.onPayment(payment);
        // The process dies after the third payment (on the second page of two).
        if ([...calls.payments.keys()].length === 3) stop.abort(new Error('crash'));
      },
    });
    await expect(stopping.sweep({ from, pageSize: 2, signal: stop.signal })).rejects.toThrow('crash');
    expect(calls.timesOf(e2eids).filter((n) => n === 1)).toHaveLength(3);
    // Another process with the same store and name: no from, no gap.
    const resumed = await handler(calls, store, 'resume', 0).sweep({ pageSize: 2 });
    expect(resumed).toMatchObject({ handled: 4 });
    expect(calls.timesOf(e2eids)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('onRefund once per refund and final status, from notifications and sweeps; disputes told apart', async () => {
    const calls = new Calls();
    current = handler(calls, createMemoryStore());
    const [e2eid] = await pay(1, '50.00');
    await s.api.instant.refund(e2eid!, 'R1', { valor: '10.00' });
    await expect.poll(() => calls.refunds.length).toBe(1);
    const dispute = s.sandbox.disputePayment(e2eid!, { natureza: 'MED_FRAUDE', valor: '15.00' });
    await expect.poll(() => calls.refunds.length).toBe(2);
    // More than is left to return (25.00) is refused, as the service would.
    expect(() => s.sandbox.disputePayment(e2eid!, { natureza: MED_AUTOMATIC, valor: '25.01' })).toThrow(/excede/);
    s.sandbox.dropNotifications({ count: 1 });
    const all = s.sandbox.disputePayment(e2eid!, { natureza: MED_AUTOMATIC });
    expect(all).toMatchObject({ valor: '25.00', natureza: MED_AUTOMATIC });
    await expect.poll(() => s.sandbox.notifications().at(-1)?.state).toBe('dropped');
    await current.sweep({ from: start });
    await current.sweep({ from: start });
    expect(calls.refunds.map(({ refund }) => [refund.id, refund.status, isDispute(refund)])).toEqual([
      ['R1', 'DEVOLVIDO', false],
      [dispute['id'], 'DEVOLVIDO', true],
      [all['id'], 'DEVOLVIDO', true],
    ]);
    // The control route: a dispute over what is left is refused with the service's problem.
    const response = await fetch(`${s.sandbox.origin}/sandbox/payments/${e2eid}/dispute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ natureza: 'MED_OPERACIONAL', valor: '0.01' }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('Resta devolver 0.00');
  });
});

describe('recurringHandler(...).sweep()', () => {
  it('recurrence notifications lost for good are found by a sweep of GET /rec and handed over once', async () => {
    const seen: string[] = [];
    const recurring = recurringHandler(s.api, {
      store: createMemoryStore(),
      onRec: (rec) => void seen.push(rec.status),
    });
    s.sandbox.dropNotifications({ rate: 1 });
    const from = new Date().toISOString();
    const loc = await s.api.locrec.create();
    const rec = await s.api.rec.create({
      vinculo: { contrato: 'SWEEP-1', objeto: 'Plano', devedor: { cpf: '12345678909', nome: 'Fulano de Tal' } },
      calendario: { dataInicial: addDays(todayInBrasilia(), 5), periodicidade: 'MENSAL' },
      valor: { valorRec: '19.90' },
      politicaRetentativa: 'NAO_PERMITE',
      loc: loc.id,
    });
    await s.sandbox.approveRec(rec.idRec);
    s.sandbox.dropNotifications({});
    expect(await recurring.sweep({ from })).toMatchObject({ seen: 1, handled: 1, duplicates: 0 });
    expect(await recurring.sweep()).toMatchObject({ handled: 0 });
    expect(seen).toEqual(['APROVADA']);
  });
});

describe('sweep() across the fleet (PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresStore;

  beforeAll(async () => {
    db = await startTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 8 });
    pool.on('error', () => undefined);
    store = createPostgresStore({ pool });
    await store.migrate();
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await db?.stop();
  });

  it('two handlers (as two processes would hold them) sweeping the same period with one store give one callback per payment', async () => {
    const calls = new Calls();
    current = undefined;
    s.sandbox.dropNotifications({ count: 12 });
    const from = new Date().toISOString();
    const e2eids = await pay(12);
    const [a, b] = await Promise.all([
      handler(calls, store, 'fleet').sweep({ from, pageSize: 3, concurrency: 2 }),
      handler(calls, store, 'fleet').sweep({ from, pageSize: 5 }),
    ]);
    expect(a.handled + b.handled).toBe(12);
    expect(calls.timesOf(e2eids)).toEqual(e2eids.map(() => 1));
  });

  it('a notification and a sweep in two handlers racing (20 seeds): one callback', async () => {
    const calls = new Calls();
    for (let seed = 1; seed <= 20; seed++) {
      const random = new Random(seed);
      current = handler(calls, store, 'race');
      const sweeping = handler(calls, store, 'race');
      const e2eid = await race(random, sweeping, new Date(Date.now() - 5000).toISOString());
      expect(calls.timesOf([e2eid]), `seed ${seed}`).toEqual([1]);
    }
  });
});
