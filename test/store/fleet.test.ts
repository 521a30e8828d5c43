/**
 * Many real processes on one real PostgreSQL: one token for the fleet, each notification's
 * callback run once (even when the process running it is killed), and a payment whose process
 * was killed mid-POST settled by `recover()` in another process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { startFleetProvider, type FleetProvider } from './fleet-provider.ts';

const NODE = join(process.cwd(), 'node_modules', '.bin', 'node');
const WORKER = join(import.meta.dirname, 'fleet-worker.ts');
const KEY = Buffer.alloc(32, 7).toString('base64');
const E2E = (n: number) => `E1234567820261009${String(n).padStart(15, '0')}`;

interface Worker {
  child: ChildProcess;
  port: number;
  call<T>(command: Record<string, unknown>): Promise<T>;
}

let db: TestPostgres;
let provider: FleetProvider;
let folder: string;
let log: string;
const workers: Worker[] = [];
const insideListeners: Array<(worker: Worker, e2eid: string) => void> = [];

async function spawnWorker(): Promise<Worker> {
  const child = fork(WORKER, [], {
    execPath: NODE,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {
      ...process.env,
      DB_URL: db.url,
      ENCRYPTION_KEY: KEY,
      PROVIDER_URL: provider.url,
      LOG_FILE: log,
      LEASE_MS: '1000',
      WAIT_MS: '3000',
      HOLD_MS: '400',
    },
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const worker: Worker = {
    child,
    port: 0,
    call: <T>(command: Record<string, unknown>) =>
      new Promise<T>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, ...command });
      }),
  };
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    child.on('message', (message: { event?: string; port?: number; e2eid?: string; id?: number; result?: unknown; error?: string }) => {
      if (message.event === 'ready') {
        worker.port = message.port!;
        resolve();
      } else if (message.event === 'inside') {
        for (const listener of insideListeners) listener(worker, message.e2eid!);
      } else if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.result);
      }
    });
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('worker died'));
    pending.clear();
  });
  workers.push(worker);
  await ready;
  return worker;
}

function kill(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
    worker.child.once('exit', () => resolve());
    worker.child.kill('SIGKILL');
  });
}

function deliver(worker: Worker, e2eid: string): Promise<number> {
  return fetch(`http://127.0.0.1:${worker.port}/webhook/recebidos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ recebidos: [{ endToEndId: e2eid, txid: 'fleettxid0000000000000000001', valor: '10.00', horario: '2026-10-09T20:15:00.358Z' }] }),
  }).then(
    (response) => response.status,
    () => 0,
  );
}

/** `start` and `done` lines of the shared callback log for one payment. */
function runs(e2eid: string): { start: number; done: number } {
  const lines = readFileSync(log, 'utf8').split('\n').filter((line) => line.endsWith(` ${e2eid}`));
  return { start: lines.filter((l) => l.startsWith('start')).length, done: lines.filter((l) => l.startsWith('done')).length };
}

beforeAll(async () => {
  db = await startPostgres();
  provider = await startFleetProvider();
  folder = mkdtempSync(join(tmpdir(), 'instant-fleet-'));
  log = join(folder, 'callbacks.log');
  writeFileSync(log, '');
  const pool = new pg.Pool({ connectionString: db.url });
  pool.on('error', () => undefined);
  // Many processes migrating at once, repeatedly: no error, the tables exist once.
  await Promise.all(Array.from({ length: 6 }, () => createPostgresStore({ pool }).migrate()));
  await createPostgresStore({ pool }).migrate();
  await pool.end();
  await Promise.all(Array.from({ length: 8 }, () => spawnWorker()));
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map(kill));
  await provider?.close();
  await db?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const live = () => workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);

describe('one token for the fleet', () => {
  it('8 processes x 100 concurrent calls: one token request on a cold start, one refresh after expiry, one after a revocation', async () => {
    const wave = (warm = false) =>
      Promise.all(live().map((w) => w.call<{ ok: number; failures: string[] }>({ cmd: 'calls', count: 100, e2eid: E2E(1), warm })));
    const tokens = () => provider.tokenRequestsBy.get('fleet-client') ?? 0;
    // The code warmed up with another client id, so that the cold wave is quick on a busy machine.
    await wave(true);
    provider.tokenLifetimeS = 5;
    const first = await wave();
    expect(first.map((r) => r.failures)).toEqual(Array.from({ length: 8 }, () => []));
    expect(first.reduce((sum, r) => sum + r.ok, 0)).toBe(800);
    expect(tokens()).toBe(1);

    // Past the token's expiry: every process's copy is due, one process refreshes.
    provider.tokenLifetimeS = 300;
    await new Promise((resolve) => setTimeout(resolve, provider.lastIssuedAt + 5_100 - Date.now()));
    const second = await wave();
    expect(second.reduce((sum, r) => sum + r.ok, 0)).toBe(800);
    expect(tokens()).toBe(2);
    expect(provider.refused).toBe(0);

    // The service refuses the token: every process sees a 401, one new token serves them all.
    provider.revokeTokens();
    const third = await wave();
    expect(third.reduce((sum, r) => sum + r.ok, 0)).toBe(800);
    expect(tokens()).toBe(3);
    expect(provider.refused).toBeGreaterThanOrEqual(8);
  }, 30_000);
});

describe('exactly-once notifications', () => {
  it('the same notification delivered to 8 processes at once runs onPayment once; every delivery answers 200', async () => {
    const statuses = await Promise.all(live().map((w) => deliver(w, E2E(2))));
    expect(statuses).toEqual(Array.from({ length: 8 }, () => 200));
    expect(runs(E2E(2))).toEqual({ start: 1, done: 1 });
    // Delivered again: done already, nobody runs it.
    expect(await Promise.all(live().map((w) => deliver(w, E2E(2))))).toEqual(Array.from({ length: 8 }, () => 200));
    expect(runs(E2E(2))).toEqual({ start: 1, done: 1 });
  }, 20_000);

  it('the process running the callback is killed inside it: the next delivery runs it again, once', async () => {
    const e2eid = E2E(3);
    let victim: Worker | undefined;
    insideListeners.push((worker, id) => {
      if (id === e2eid && victim === undefined) {
        victim = worker;
        void kill(worker);
      }
    });
    const first = await Promise.all(live().map((w) => deliver(w, e2eid)));
    expect(victim).toBeDefined();
    // The killed process never answered; the others waited and took over once its lease expired.
    expect(first.filter((s) => s === 0)).toHaveLength(1);
    expect(first.filter((s) => s === 200)).toHaveLength(7);
    expect(runs(e2eid)).toEqual({ start: 2, done: 1 });
    expect(await Promise.all(live().map((w) => deliver(w, e2eid)))).toEqual(Array.from({ length: 7 }, () => 200));
    expect(runs(e2eid)).toEqual({ start: 2, done: 1 });
    workers.splice(workers.indexOf(victim!), 1);
  }, 20_000);
});

describe('crash-safe payments', () => {
  const params = { key: '123e4567-e89b-12d3-a456-426614174000', amount: '12.34', creditorDocument: '52998224725' };

  it('two processes paying with the same key at once make one order', async () => {
    const [a, b] = live();
    const pay = (w: Worker, idempotencyKey: string) =>
      w.call<{ idempotencyKey: string; transfer: { status: string } }>({ cmd: 'pay', params: { ...params, idempotencyKey } });
    // Both hold a cash-out token first, so that both reach the provider at the same moment.
    await Promise.all([pay(a!, 'warmA'), pay(b!, 'warmB')]);
    const before = provider.orderPosts;
    // A slow balance answer: without the lease both would look the key up, miss it, and POST.
    provider.balanceDelayMs = 300;
    const results = await Promise.all([pay(a!, 'sameKey1'), pay(b!, 'sameKey1')]);
    provider.balanceDelayMs = 0;
    expect(results.map((r) => r.idempotencyKey)).toEqual(['sameKey1', 'sameKey1']);
    expect(provider.orderPosts - before).toBe(1);
    expect(provider.orders.has('sameKey1')).toBe(true);
  }, 20_000);

  it('a process killed after its POST left: recover() in a new process finds the one order by its key', async () => {
    const payer = live()[0]!;
    const posted = new Promise<string>((resolve) => {
      provider.onOrder = (order) => {
        resolve(order.idempotencyKey);
        return 'hold';
      };
    });
    const before = provider.orderPosts;
    void payer.call({ cmd: 'pay', params }).catch(() => undefined);
    const key = await posted;
    provider.onOrder = undefined;
    await kill(payer);
    workers.splice(workers.indexOf(payer), 1);

    const fresh = await spawnWorker();
    // Past the dead process's lease on the key (1 s): nobody holds the intent any more.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const recovered = await fresh.call<Array<{ idempotencyKey: string; outcome: string; transfer?: { idempotencyKey: string } }>>({ cmd: 'recover', settleDelayMs: 100 });
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ idempotencyKey: key, outcome: 'found', transfer: { idempotencyKey: key } });
    expect(provider.orderPosts - before).toBe(1);
    expect([...provider.orders.keys()].filter((k) => k === key)).toHaveLength(1);
    // Settled: nothing left open.
    expect(await fresh.call({ cmd: 'recover', settleDelayMs: 100 })).toEqual([]);
  }, 20_000);

  type Recovered = Array<{ idempotencyKey: string; outcome: string; transfer?: { idempotencyKey: string } }>;
  /** At least `n` live processes (the tests kill some). */
  const enough = async (n: number) => {
    while (live().length < n) await spawnWorker();
  };
  /** Past a dead process's lease on its key (1 s). */
  const leaseExpiry = () => new Promise((resolve) => setTimeout(resolve, 1_100));

  /** Kills `worker` once the provider receives its order; `lose`: the order never reaches the provider's books. */
  async function killOnOrder(worker: Worker, command: Record<string, unknown>, lose: boolean): Promise<string> {
    const arrived = new Promise<string>((resolve) => {
      provider.beforeRecord = (order) => {
        resolve(order.idempotencyKey);
        return lose ? 'lose' : 'record';
      };
      provider.onOrder = () => 'hold';
    });
    void worker.call(command).catch(() => undefined);
    const key = await arrived;
    provider.beforeRecord = undefined;
    provider.onOrder = undefined;
    await kill(worker);
    workers.splice(workers.indexOf(worker), 1);
    return key;
  }

  it('a process killed before its order left (reading the balance): nothing stored, nothing sent, nothing for recover()', async () => {
    await enough(2);
    const payer = live()[0]!;
    const before = provider.orderPosts;
    const reading = new Promise<void>((resolve) => (provider.onBalance = resolve));
    provider.balanceDelayMs = 5_000;
    void payer.call({ cmd: 'pay', params: { ...params, idempotencyKey: 'killedEarly1' } }).catch(() => undefined);
    await reading;
    provider.onBalance = undefined;
    await kill(payer);
    workers.splice(workers.indexOf(payer), 1);
    provider.balanceDelayMs = 0;
    await leaseExpiry();
    expect(await live()[0]!.call({ cmd: 'recover', settleDelayMs: 100, unknown: 'place' })).toEqual([]);
    expect(provider.orderPosts - before).toBe(0);
    expect(provider.orders.has('killedEarly1')).toBe(false);
  }, 20_000);

  it('a process killed after its order left, the order lost on its way: recover() marks it not placed, or with unknown "place" places it once', async () => {
    await enough(4);
    const before = provider.orderPosts;
    const lost1 = await killOnOrder(live()[0]!, { cmd: 'pay', params: { ...params, idempotencyKey: 'lostOnWay1' } }, true);
    const lost2 = await killOnOrder(live()[0]!, { cmd: 'pay', params: { ...params, idempotencyKey: 'lostOnWay2' } }, true);
    expect([lost1, lost2]).toEqual(['lostOnWay1', 'lostOnWay2']);
    await leaseExpiry();
    const [marker, placer] = live();
    // Two processes recover at once: each intent is settled by one of them.
    const [a, b] = await Promise.all([
      marker!.call<Recovered>({ cmd: 'recover', settleDelayMs: 100 }),
      new Promise((resolve) => setTimeout(resolve, 30)).then(() => placer!.call<Recovered>({ cmd: 'recover', settleDelayMs: 100, unknown: 'place' })),
    ]);
    const settled = [...a, ...b].filter((r) => r.outcome !== 'in-progress');
    expect(settled.map((r) => r.idempotencyKey).sort()).toEqual(['lostOnWay1', 'lostOnWay2']);
    for (const result of settled) {
      expect(result.outcome === 'placed').toBe(provider.orders.has(result.idempotencyKey));
      expect(['not-placed', 'placed']).toContain(result.outcome);
    }
    // Two lost orders, and at most one placing each.
    expect(provider.orderPosts - before).toBe(2 + settled.filter((r) => r.outcome === 'placed').length);
    expect(await marker!.call({ cmd: 'recover', settleDelayMs: 100 })).toEqual([]);
  }, 20_000);

  it('a process killed inside recover() while it places an intent: the next recover() finds the one order', async () => {
    await enough(3);
    const before = provider.orderPosts;
    await killOnOrder(live()[0]!, { cmd: 'pay', params: { ...params, idempotencyKey: 'insideRecover1' } }, true);
    await leaseExpiry();
    // recover() places it; its process dies while the provider holds the answer.
    await killOnOrder(live()[0]!, { cmd: 'recover', settleDelayMs: 100, unknown: 'place' }, false);
    expect(provider.orders.has('insideRecover1')).toBe(true);
    await leaseExpiry();
    const recovered = await live()[0]!.call<Recovered>({ cmd: 'recover', settleDelayMs: 100, unknown: 'place' });
    expect(recovered).toMatchObject([{ idempotencyKey: 'insideRecover1', outcome: 'found', transfer: { idempotencyKey: 'insideRecover1' } }]);
    expect(provider.orderPosts - before).toBe(2);
    expect(await live()[0]!.call({ cmd: 'recover', settleDelayMs: 100 })).toEqual([]);
  }, 20_000);
});
