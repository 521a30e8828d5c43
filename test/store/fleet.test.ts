/**
 * Many real processes on one real PostgreSQL: one token for the fleet (a failing token endpoint
 * is not hammered, a fetcher killed mid-fetch stalls nobody for long, skewed clocks change
 * nothing), each notification's effect in the user's own table exactly once (the process
 * running the callback killed, or its database link cut or black-holed through a TCP proxy),
 * and a payment whose process was killed mid-POST settled by `recover()` in another process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { startFleetProvider, type FleetProvider } from './fleet-provider.ts';
import { deliver, kill, spawnWorker as spawnFleetWorker, type Worker } from './fleet-process.ts';

const KEY = Buffer.alloc(32, 7).toString('base64');
const E2E = (n: number) => `E1234567820261009${String(n).padStart(15, '0')}`;

let db: TestPostgres;
let provider: FleetProvider;
let proxy: TcpProxy;
let orders: pg.Pool;
let folder: string;
let log: string;
/** Every process spawned (for the clean-up); `workers` is the main fleet of 8. */
const spawned: Worker[] = [];
const workers: Worker[] = [];
/** Processes whose database link goes through the proxy. */
const proxied: Worker[] = [];
/** Processes whose clocks are 30 s behind, right, and 30 s ahead; a token request's time limit 1.5 s. */
const tokenWorkers: Worker[] = [];
const SKEWS = [-30_000, 0, 30_000];
const TOKEN_TIMEOUT_MS = 1_500;
const eventListeners: Array<(worker: Worker, event: string, e2eid: string) => void> = [];

function spawnWorker(extraEnv: Record<string, string> = {}): Promise<Worker> {
  const env = {
    DB_URL: db.url,
    ENCRYPTION_KEY: KEY,
    PROVIDER_URL: provider.url,
    LOG_FILE: log,
    LEASE_MS: '1000',
    WAIT_MS: '3000',
    HOLD_MS: '400',
    ...extraEnv,
  };
  return spawnFleetWorker(env, (worker, { event, e2eid }) => {
    for (const listener of eventListeners) listener(worker, event, e2eid!);
  }).then((worker) => (spawned.push(worker), worker));
}

/** A new order row in the user's own table, for a payment: the callback marks it paid through `tx`. */
async function order(e2eid: string): Promise<void> {
  await orders.query('INSERT INTO fleet_orders (e2eid) VALUES ($1)', [e2eid]);
}
async function paidTimes(e2eid: string): Promise<number> {
  return (await orders.query('SELECT paid FROM fleet_orders WHERE e2eid = $1', [e2eid])).rows[0].paid as number;
}
/** Delivers `e2eid` to every live process, again every 100 ms (for 5 s at most), until `done` callbacks finished. */
async function redeliverUntilDone(e2eid: string, done: number): Promise<void> {
  for (let round = 0; round < 50 && runs(e2eid).done < done; round++) {
    expect(await Promise.all(live().map((w) => deliver(w, e2eid)))).toEqual(live().map(() => 200));
    if (runs(e2eid).done < done) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first worker to report `event` for `e2eid`. */
function first(event: string, e2eid: string, then: (worker: Worker) => void): void {
  let seen = false;
  eventListeners.push((worker, name, id) => {
    if (!seen && name === event && id === e2eid) {
      seen = true;
      then(worker);
    }
  });
}

/** `start` and `done` lines of the shared callback log for one payment. */
function runs(e2eid: string): { start: number; done: number } {
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.endsWith(` ${e2eid}`));
  return {
    start: lines.filter((l) => l.startsWith('start')).length,
    done: lines.filter((l) => l.startsWith('done')).length,
  };
}

beforeAll(async () => {
  db = await startPostgres();
  provider = await startFleetProvider();
  folder = mkdtempSync(join(tmpdir(), 'instant-fleet-'));
  log = join(folder, 'callbacks.log');
  writeFileSync(log, '');
  orders = new pg.Pool({ connectionString: db.url });
  orders.on('error', () => undefined);
  // Many processes migrating at once, repeatedly: no error, the tables exist once.
  await Promise.all(Array.from({ length: 6 }, () => createPostgresStore({ pool: orders }).migrate()));
  await createPostgresStore({ pool: orders }).migrate();
  await orders.query('CREATE TABLE fleet_orders (e2eid text PRIMARY KEY, paid int NOT NULL DEFAULT 0)');
  proxy = await startTcpProxy({ port: db.port });
  await Promise.all([
    ...Array.from({ length: 8 }, async () => workers.push(await spawnWorker())),
    ...Array.from({ length: 2 }, async () => proxied.push(await spawnWorker({ DB_URL: proxy.via(db.url) }))),
    ...SKEWS.map(async (skew, i) => {
      tokenWorkers[i] = await spawnWorker({ CLOCK_SKEW_MS: String(skew), TOKEN_TIMEOUT_MS: String(TOKEN_TIMEOUT_MS) });
    }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(spawned.map(kill));
  await proxy?.close();
  await orders?.end();
  await provider?.close();
  await db?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const live = () => workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);

describe('one token for the fleet', () => {
  it('8 processes x 100 concurrent calls: one token request on a cold start, one refresh after expiry, one after a revocation', async () => {
    const wave = (warm = false) =>
      Promise.all(
        live().map((w) =>
          w.call<{ ok: number; failures: string[] }>({
            cmd: 'calls',
            count: 100,
            e2eid: E2E(1),
            clientId: warm ? 'fleet-warm' : 'fleet-client',
          }),
        ),
      );
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
    await order(E2E(2));
    const statuses = await Promise.all(live().map((w) => deliver(w, E2E(2))));
    expect(statuses).toEqual(Array.from({ length: 8 }, () => 200));
    expect(runs(E2E(2))).toEqual({ start: 1, done: 1 });
    // Delivered again: done already, nobody runs it.
    expect(await Promise.all(live().map((w) => deliver(w, E2E(2))))).toEqual(Array.from({ length: 8 }, () => 200));
    expect(runs(E2E(2))).toEqual({ start: 1, done: 1 });
    expect(await paidTimes(E2E(2))).toBe(1);
  }, 20_000);

  it('the process running the callback is killed inside it (SIGKILL): its write rolls back, the next delivery writes once', async () => {
    const e2eid = E2E(3);
    await order(e2eid);
    let victim: Worker | undefined;
    first('inside', e2eid, (worker) => {
      victim = worker;
      void kill(worker);
    });
    const answers = await Promise.all(live().map((w) => deliver(w, e2eid)));
    expect(victim).toBeDefined();
    // The killed process never answered. The others answered 200: at once, as duplicates in flight
    // (running nothing), or, after its transaction rolled back with it, one of them ran it.
    expect(answers.filter((s) => s === 0)).toHaveLength(1);
    expect(answers.filter((s) => s === 200)).toHaveLength(7);
    expect(runs(e2eid).done).toBeLessThanOrEqual(1);
    // The delivery the victim never answered comes again: written once, by one process.
    await kill(victim!);
    await redeliverUntilDone(e2eid, 1);
    expect(runs(e2eid)).toEqual({ start: 2, done: 1 });
    expect(await Promise.all(live().map((w) => deliver(w, e2eid)))).toEqual(Array.from({ length: 7 }, () => 200));
    expect(runs(e2eid)).toEqual({ start: 2, done: 1 });
    expect(await paidTimes(e2eid)).toBe(1);
    workers.splice(workers.indexOf(victim!), 1);
  }, 20_000);

  it('the database link is cut inside the callback: that process answers 500, the next delivery writes once', async () => {
    const e2eid = E2E(4);
    await order(e2eid);
    const [cutOff] = proxied;
    first('inside', e2eid, () => proxy.cut());
    // The callback notices the lost claim through its signal and stops.
    expect(await deliver(cutOff!, e2eid)).toBe(500);
    expect(runs(e2eid)).toEqual({ start: 1, done: 0 });
    expect(await deliver(live()[0]!, e2eid)).toBe(200);
    expect(await deliver(cutOff!, e2eid)).toBe(200);
    expect(runs(e2eid)).toEqual({ start: 2, done: 1 });
    expect(await paidTimes(e2eid)).toBe(1);
  }, 20_000);

  it('killed after the callback returned, its COMMIT black-holed: the server ends the transaction, the next delivery writes once', async () => {
    const e2eid = E2E(5);
    await order(e2eid);
    const victim = proxied[1]!;
    // Between the callback and its done mark: the link goes silent, then the process dies.
    first('leaving', e2eid, () => {
      proxy.blackhole();
      setTimeout(() => void kill(victim), 50);
    });
    expect(await deliver(victim, e2eid)).toBe(0);
    // A process on a good link finds the silent transaction holding the claim: a duplicate in
    // flight, answered at once (not after claim.waitMs, 3 s), running nothing.
    const started = Date.now();
    expect(await deliver(live()[0]!, e2eid)).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(runs(e2eid)).toEqual({ start: 1, done: 1 });
    // The server ends the silent transaction (LEASE_MS, 1 s): the COMMIT held meanwhile changes
    // nothing once the link is back, and the delivery the victim never answered comes again and
    // writes once.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    proxy.restore();
    await redeliverUntilDone(e2eid, 2);
    expect(runs(e2eid)).toEqual({ start: 2, done: 2 });
    expect(await paidTimes(e2eid)).toBe(1);
    expect(await deliver(live()[1]!, e2eid)).toBe(200);
    expect(await paidTimes(e2eid)).toBe(1);
  }, 20_000);
});

describe('one token for the fleet when things go wrong', () => {
  type Calls = { ok: number; failures: string[] };

  it('a failing token endpoint (503, Retry-After: 2): 3 processes x 50 calls send 2 token requests, 2 s apart', async () => {
    provider.tokenFailures.set('failing-client', { status: 503, retryAfterS: 2 });
    const results = await Promise.all(
      tokenWorkers.map((w) =>
        w.call<Calls>({ cmd: 'sequential', clientId: 'failing-client', count: 50, pauseMs: 50, e2eid: E2E(1) }),
      ),
    );
    expect(results.flatMap((r) => r.failures)).toEqual(Array.from({ length: 150 }, () => 'AuthenticationError'));
    const times = provider.tokenTimes.get('failing-client') ?? [];
    expect(times.length).toBeGreaterThanOrEqual(1);
    expect(times.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1_950);
  }, 20_000);

  it("a fetcher killed mid-fetch stalls the others no longer than a token request's time limit", async () => {
    provider.tokenHeld.add('held-client');
    const fetcher = tokenWorkers[0]!;
    void fetcher.call({ cmd: 'calls', clientId: 'held-client', count: 1, e2eid: E2E(1) }).catch(() => undefined);
    const deadline = Date.now() + 5_000;
    while ((provider.tokenTimes.get('held-client') ?? []).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    await kill(fetcher);
    provider.tokenHeld.delete('held-client');
    const started = Date.now();
    const results = await Promise.all(
      tokenWorkers
        .slice(1)
        .map((w) => w.call<Calls>({ cmd: 'calls', clientId: 'held-client', count: 5, e2eid: E2E(1) })),
    );
    expect(results).toEqual([
      { ok: 5, failures: [] },
      { ok: 5, failures: [] },
    ]);
    expect(Date.now() - started).toBeLessThan(TOKEN_TIMEOUT_MS + 1_500);
    expect(provider.tokenTimes.get('held-client')).toHaveLength(2);
    tokenWorkers[0] = await spawnWorker({
      CLOCK_SKEW_MS: String(SKEWS[0]),
      TOKEN_TIMEOUT_MS: String(TOKEN_TIMEOUT_MS),
    });
  }, 20_000);

  it('clocks 30 s behind and ahead: no 401, no token request beyond the refreshes the lifetime needs', async () => {
    provider.tokenLifetimeBy.set('skewed-client', 2);
    const started = Date.now();
    const results = await Promise.all(
      tokenWorkers.map((w) =>
        w.call<Calls>({ cmd: 'sequential', clientId: 'skewed-client', count: 30, pauseMs: 100, e2eid: E2E(1) }),
      ),
    );
    const elapsed = Date.now() - started;
    expect(results).toEqual(Array.from({ length: 3 }, () => ({ ok: 30, failures: [] })));
    expect(provider.refusedBy.get('skewed-client') ?? 0).toBe(0);
    // A 2 s token is refreshed 0.2 s before it expires: one request at the start, one per 1.8 s after.
    expect((provider.tokenTimes.get('skewed-client') ?? []).length).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 1_800));
  }, 20_000);
});

describe('crash-safe payments', () => {
  const params = { key: '123e4567-e89b-12d3-a456-426614174000', amount: '12.34', creditorDocument: '52998224725' };

  it('two processes paying with the same key at once make one order', async () => {
    const [a, b] = live();
    const pay = (w: Worker, idempotencyKey: string) =>
      w.call<{ idempotencyKey: string; transfer: { status: string } }>({
        cmd: 'pay',
        params: { ...params, idempotencyKey },
      });
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
    const recovered = await fresh.call<
      Array<{ idempotencyKey: string; outcome: string; transfer?: { idempotencyKey: string } }>
    >({ cmd: 'recover', settleDelayMs: 100 });
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
    const lost1 = await killOnOrder(
      live()[0]!,
      { cmd: 'pay', params: { ...params, idempotencyKey: 'lostOnWay1' } },
      true,
    );
    const lost2 = await killOnOrder(
      live()[0]!,
      { cmd: 'pay', params: { ...params, idempotencyKey: 'lostOnWay2' } },
      true,
    );
    expect([lost1, lost2]).toEqual(['lostOnWay1', 'lostOnWay2']);
    await leaseExpiry();
    const [marker, placer] = live();
    // Two processes recover at once: each intent is settled by one of them.
    const [a, b] = await Promise.all([
      marker!.call<Recovered>({ cmd: 'recover', settleDelayMs: 100 }),
      new Promise((resolve) => setTimeout(resolve, 30)).then(() =>
        placer!.call<Recovered>({ cmd: 'recover', settleDelayMs: 100, unknown: 'place' }),
      ),
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
    expect(recovered).toMatchObject([
      { idempotencyKey: 'insideRecover1', outcome: 'found', transfer: { idempotencyKey: 'insideRecover1' } },
    ]);
    expect(provider.orderPosts - before).toBe(2);
    expect(await live()[0]!.call({ cmd: 'recover', settleDelayMs: 100 })).toEqual([]);
  }, 20_000);
});
