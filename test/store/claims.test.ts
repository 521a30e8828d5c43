/**
 * Once-only claims on a real PostgreSQL: the callback's writes through `tx` commit with the done
 * mark or not at all, a second delivery waits for the first one's transaction, a claim whose
 * link is cut or goes silent is lost (the callback's `signal` aborts, its transaction rolls
 * back, the next delivery runs it: the user's row is updated exactly once), a stalled database
 * fails a delivery in time, round trips are counted, and options are checked up front.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  ClaimBusyError,
  ConfigurationError,
  createMemoryStore,
  receivedPaymentsHandler,
  recurringHandler,
  StoreError,
  type CobRCompleta,
  type InstantPayment,
  type Store,
  type StoreTransaction,
} from '../../src/index.ts';
import { createPostgresStore, type PgPoolLike, type PostgresStore } from '../../src/postgres.ts';
import { claimSettings, runOnce, type ClaimContext } from '../../src/store/claims.ts';
import { startTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { useMsw } from '../support/msw.ts';
import { BY_KEY_URL, cashOutClient, KEY, notification, wireTransfer } from '../cash-out/fixtures.ts';

const net = useMsw();
let db: TestDatabase;
let pool: pg.Pool;
let store: PostgresStore;
let proxy: TcpProxy;
let proxied: pg.Pool;
let proxiedStore: PostgresStore;

/** A pool whose connections carry `pg`'s own error listener for idle clients only, as in production. */
function newPool(url: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max: 6, connectionTimeoutMillis: 10_000 });
  created.on('error', () => undefined);
  return created;
}

beforeAll(async () => {
  db = await startTestDatabase();
  pool = newPool(db.url);
  store = createPostgresStore({ pool });
  await store.migrate();
  await pool.query('CREATE TABLE orders (txid text PRIMARY KEY, paid int NOT NULL DEFAULT 0)');
  proxy = await startTcpProxy({ port: db.port });
  proxied = newPool(proxy.via(db.url));
  proxiedStore = createPostgresStore({ pool: proxied });
}, 30_000);

afterAll(async () => {
  await proxied?.end().catch(() => undefined);
  await proxy?.close();
  await pool?.end();
  await db?.stop();
});

beforeEach(() => proxy.restore());

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

async function newOrder(): Promise<string> {
  const txid = unique('tx');
  await pool.query('INSERT INTO orders (txid) VALUES ($1)', [txid]);
  return txid;
}
async function paid(txid: string): Promise<number> {
  return (await pool.query('SELECT paid FROM orders WHERE txid = $1', [txid])).rows[0].paid as number;
}
async function mark(key: string): Promise<{ value: string; expires_at: Date | null } | undefined> {
  return (await pool.query('SELECT value, expires_at FROM instant_payments_values WHERE key = $1', [`done:${key}`]))
    .rows[0];
}
/** The callback users write: the order marked paid through `tx`. */
const payThrough =
  (txid: string) =>
  async ({ tx }: ClaimContext) => {
    await tx!.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [txid]);
  };
/** `inner`'s methods, bound, with `overrides`; never a `claim` (the lease-based way). */
function leaseOnly(inner: Store, overrides: Partial<Store> = {}): Store {
  return {
    lease: (name, owner, ttl) => inner.lease(name, owner, ttl),
    ...(inner.renew && { renew: (name: string, owner: string, ttl: number) => inner.renew!(name, owner, ttl) }),
    unlease: (name, owner) => inner.unlease(name, owner),
    get: (key) => inner.get(key),
    set: (key, value, ttl) => inner.set(key, value, ttl),
    delete: (key, ifValue) => inner.delete(key, ifValue),
    list: (prefix) => inner.list(prefix),
    ...overrides,
  };
}
const settings = (options: Parameters<typeof claimSettings>[0] = {}) =>
  claimSettings({ leaseMs: 900, waitMs: 3_000, ...options });
const until = async (check: () => boolean | Promise<boolean>, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('fleet cost', () => {
  /** A pool that counts the statements sent (each a round trip): through `query` and through its clients. */
  function countingPool(inner: pg.Pool): {
    pool: PgPoolLike;
    count: () => number;
    /** Connections taken from the pool and not given back yet, and the most at once since `reset`. */
    held: () => number;
    peak: () => number;
    /** Connections taken since `reset`. */
    connects: () => number;
    reset(): void;
    slowRollbacks(): void;
  } {
    let n = 0;
    let held = 0;
    let peak = 0;
    let connects = 0;
    let slowRollback = false;
    return {
      pool: {
        query: (text, values) => {
          n++;
          return inner.query(text, values);
        },
        connect: async () => {
          const client = await inner.connect();
          connects++;
          peak = Math.max(peak, ++held);
          let given = false;
          return {
            query: (text: string, values?: unknown[]) => {
              n++;
              const answer = client.query(text, values);
              // A slow ROLLBACK: a duplicate that waited for it would take this long.
              return text === 'ROLLBACK' && slowRollback ? answer.then(async (r) => (await sleep(1_000), r)) : answer;
            },
            release: (error?: Error | boolean) => {
              if (!given) held--;
              given = true;
              client.release(error);
            },
            on: (event: 'error', listener: (error: Error) => void) => client.on(event, listener),
            removeListener: (event: 'error', listener: (error: Error) => void) =>
              client.removeListener(event, listener),
          };
        },
      },
      count: () => n,
      held: () => held,
      peak: () => peak,
      connects: () => connects,
      reset: () => {
        n = 0;
        connects = 0;
        peak = held;
      },
      slowRollbacks: () => {
        slowRollback = true;
      },
    };
  }

  it('a first delivery claims in 3 round trips (look, claim, commit), a duplicate is answered by the look alone', async () => {
    const counting = countingPool(pool);
    const counted = createPostgresStore({ pool: counting.pool });
    const key = unique('cost');
    // Warm the pool so that connecting costs no round trip in either measure.
    await counted.get('warm-up');
    counting.reset();
    expect(await runOnce(counted, key, () => undefined)).toBe('ran');
    expect(counting.count()).toBe(3);
    counting.reset();
    counting.slowRollbacks();
    const started = Date.now();
    expect(await runOnce(counted, key, () => undefined)).toBe('done');
    // One read: no transaction opened, no ROLLBACK.
    expect(Date.now() - started).toBeLessThan(1_000);
    await pool.query('SELECT 1');
    expect(counting.count()).toBe(1);
  });

  /** A payment under a fresh e2eid, and a service that confirms it, counting its answers. */
  function confirmingService() {
    const payment: InstantPayment = { endToEndId: unique('E'), valor: '10.00', horario: '2026-11-29T12:00:00Z' };
    const api = {
      gets: 0,
      instant: {
        get: async () => {
          api.gets++;
          return payment;
        },
      },
    };
    return { payment, api };
  }
  const deliver = (handler: (request: Request) => Promise<Response>, payment: InstantPayment, pad = '') =>
    handler(
      new Request('http://127.0.0.1/hook/instant', {
        method: 'POST',
        body: JSON.stringify({ instant: [{ ...payment, ...(pad && { pad }) }] }),
      }),
    ).then((response) => response.status);

  it('a duplicate reaching another process costs one read and no call to the service; a first delivery still 3 round trips and one connection', async () => {
    const counting = countingPool(pool);
    const shared = createPostgresStore({ pool: counting.pool });
    const { payment, api } = confirmingService();
    const runs: string[] = [];
    // Two processes: two handlers over one database.
    const [one, two] = [0, 1].map(() =>
      receivedPaymentsHandler(api, { store: shared, onPayment: (p) => void runs.push(p.endToEndId) }),
    );
    await shared.get('warm-up');
    counting.reset();
    expect(await deliver(one!, payment)).toBe(200);
    // The look (made before the service is asked, and not made again by the claim), the claim, COMMIT.
    expect(counting.count()).toBe(3);
    expect(counting.connects()).toBe(1);
    expect(api.gets).toBe(1);
    counting.reset();
    expect(await deliver(two!, payment, 'reworded')).toBe(200);
    expect(counting.count()).toBe(1);
    expect(counting.connects()).toBe(0);
    expect(api.gets).toBe(1);
    expect(runs).toEqual([payment.endToEndId]);
  });

  it("a duplicate arriving while the first delivery's transaction is open answers at once, holding no second connection; the first then fails (500) and the redelivery runs it once", async () => {
    const counting = countingPool(pool);
    const shared = createPostgresStore({ pool: counting.pool });
    const { payment, api } = confirmingService();
    const txid = await newOrder();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let calls = 0;
    const onPayment = async (_payment: InstantPayment, { tx }: { tx: StoreTransaction }) => {
      calls++;
      await tx.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [txid]);
      if (calls === 1) {
        await gate;
        throw new Error('the books are down');
      }
    };
    const [one, two] = [0, 1].map(() =>
      receivedPaymentsHandler(api, { store: shared, claim: { waitMs: 3_000 }, onPayment }),
    );
    const first = deliver(one!, payment);
    await until(() => calls === 1 && counting.held() === 1);
    counting.reset();
    const started = Date.now();
    expect(await deliver(two!, payment)).toBe(200);
    // Not claim.waitMs (3 s): no wait on the first one's lock.
    expect(Date.now() - started).toBeLessThan(1_000);
    // Its connection went back once its empty transaction rolled back: one round trip, not awaited.
    await until(() => counting.held() === 1, 1_000);
    expect(counting.peak()).toBeLessThanOrEqual(2);
    expect((await pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)).rows[0].n).toBe(0);
    expect(calls).toBe(1);
    open();
    expect(await first).toBe(500);
    expect(await paid(txid)).toBe(0);
    // The service delivers again (after the 500): it runs once, and only once.
    expect(await deliver(two!, payment)).toBe(200);
    expect(await deliver(one!, payment)).toBe(200);
    expect(calls).toBe(2);
    expect(await paid(txid)).toBe(1);
    expect(counting.held()).toBe(0);
  });
});

describe('exactly-once effects through tx', () => {
  it('what the callback writes through tx commits with the done mark, or not at all', async () => {
    const txid = await newOrder();
    const key = unique('pay');
    // The callback writes, then throws: neither its write nor a mark survives.
    await expect(
      runOnce(
        store,
        key,
        async (context) => {
          await payThrough(txid)(context);
          throw new Error('callback failed after writing');
        },
        settings(),
      ),
    ).rejects.toThrow('callback failed after writing');
    expect(await paid(txid)).toBe(0);
    expect(await mark(key)).toBeUndefined();
    // The next delivery runs it: written once, with its mark; later ones find it done.
    expect(await runOnce(store, key, payThrough(txid), settings())).toBe('ran');
    expect(await runOnce(store, key, payThrough(txid), settings())).toBe('done');
    expect(await paid(txid)).toBe(1);
    expect(await mark(key)).toBeDefined();
  });

  it('a statement that failed inside the transaction is not reported done, even when the callback caught it', async () => {
    const txid = await newOrder();
    const key = unique('caught');
    const careless = async ({ tx }: ClaimContext) => {
      await tx!.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [txid]);
      await tx!.query('SELECT 1 / 0').catch(() => undefined);
    };
    await expect(runOnce(store, key, careless, settings())).rejects.toBeInstanceOf(StoreError);
    expect(await paid(txid)).toBe(0);
    expect(await mark(key)).toBeUndefined();
    expect(await runOnce(store, key, payThrough(txid), settings())).toBe('ran');
    expect(await paid(txid)).toBe(1);
  });

  it("a second run that waits (a sweep's) looks again until the first one's transaction ends, on no lock: done once it commits", async () => {
    const txid = await newOrder();
    const key = unique('wait');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered = false;
    const first = runOnce(
      store,
      key,
      async (context) => {
        await payThrough(txid)(context);
        entered = true;
        await gate;
      },
      settings(),
    );
    await until(() => entered);
    let secondRan = false;
    const second = runOnce(
      store,
      key,
      async (context) => {
        secondRan = true;
        await payThrough(txid)(context);
      },
      settings({ pollMs: 20 }),
    );
    let settled = false;
    void second.finally(() => (settled = true));
    // The second one looks again every pollMs: no statement of it waits on the first one's lock.
    await sleep(200);
    expect(settled).toBe(false);
    expect((await pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)).rows[0].n).toBe(0);
    open();
    expect(await first).toBe('ran');
    expect(await second).toBe('done');
    expect(secondRan).toBe(false);
    expect(await paid(txid)).toBe(1);

    // Ten at once on a fresh key: one runs, nine wait for it and find it done.
    const many = unique('many');
    const other = await newOrder();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => runOnce(store, many, payThrough(other), settings())),
    );
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
    expect(await paid(other)).toBe(1);
  });

  it('a second delivery that waits longer than claim.waitMs gets ClaimBusyError, and the first one still commits', async () => {
    const txid = await newOrder();
    const key = unique('busy');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = runOnce(
      store,
      key,
      async (context) => {
        await payThrough(txid)(context);
        await gate;
      },
      settings(),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await expect(runOnce(store, key, payThrough(txid), settings({ waitMs: 200 }))).rejects.toBeInstanceOf(
      ClaimBusyError,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    open();
    expect(await first).toBe('ran');
    expect(await paid(txid)).toBe(1);
  });

  it('a store without claim falls back to leases: no tx, the callback still runs once', async () => {
    const leased = leaseOnly(store);
    const key = unique('leased');
    const contexts: ClaimContext[] = [];
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        runOnce(leased, key, (context) => void contexts.push(context), settings({ pollMs: 10 })),
      ),
    );
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.tx).toBeUndefined();
    expect(contexts[0]!.signal.aborted).toBe(false);
  });
});

describe('a lost link', () => {
  it('cut inside the callback: signal aborts, its write rolls back, the next delivery writes once', async () => {
    const txid = await newOrder();
    const key = unique('cut');
    let signal: AbortSignal | undefined;
    const victim = runOnce(
      proxiedStore,
      key,
      async (context) => {
        signal = context.signal;
        await payThrough(txid)(context);
        proxy.cut();
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        context.signal.throwIfAborted();
      },
      settings(),
    );
    await expect(victim).rejects.toBeInstanceOf(StoreError);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(StoreError);
    expect(await runOnce(store, key, payThrough(txid), settings())).toBe('ran');
    expect(await paid(txid)).toBe(1);
  });

  it('black-holed inside the callback: signal aborts within the lease, the server ends the transaction, the next delivery writes once, the held bytes change nothing', async () => {
    const txid = await newOrder();
    const key = unique('hole');
    let lostAfter = 0;
    const started = Date.now();
    // A callback that ignores its signal and returns: its COMMIT must not land.
    const victim = runOnce(
      proxiedStore,
      key,
      async (context) => {
        await payThrough(txid)(context);
        proxy.blackhole();
        const silent = Date.now();
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        lostAfter = Date.now() - silent;
      },
      settings(),
    );
    await expect(victim).rejects.toBeInstanceOf(StoreError);
    expect(lostAfter).toBeLessThanOrEqual(900);
    // Another process (a direct link) takes over once the server ended the silent transaction.
    expect(await runOnce(store, key, payThrough(txid), settings())).toBe('ran');
    expect(Date.now() - started).toBeLessThan(4_000);
    proxy.restore();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await paid(txid)).toBe(1);
    expect(await runOnce(store, key, payThrough(txid), settings())).toBe('done');
  });

  it('black-holed while COMMIT is on its way: the outcome is one write, whichever way it went', async () => {
    const txid = await newOrder();
    const key = unique('commit');
    const victim = runOnce(
      proxiedStore,
      key,
      async (context) => {
        await payThrough(txid)(context);
        // The callback is done: its COMMIT goes into the black hole.
        proxy.blackhole();
      },
      settings(),
    );
    await expect(victim).rejects.toBeInstanceOf(StoreError);
    const next = await runOnce(store, key, payThrough(txid), settings());
    proxy.restore();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(next).toBe('ran');
    expect(await paid(txid)).toBe(1);
  });
});

describe('a stalled database holds no request forever', () => {
  const payment: InstantPayment = {
    endToEndId: 'E1234567820261009000000000000001',
    txid: 'stalltxid0000000000000000001',
    valor: '10.00',
    horario: '2026-10-09T20:15:00.358Z',
  };
  const deliver = (handler: (request: Request) => Promise<Response>, signal?: AbortSignal) =>
    handler(
      new Request('http://127.0.0.1/hook/recebidos', {
        method: 'POST',
        body: JSON.stringify({ recebidos: [payment] }),
        ...(signal && { signal }),
      }),
    );

  it('a black-holed link: the delivery is answered 500 within claim.waitMs and a second; the callback never runs', async () => {
    const ran: string[] = [];
    // A fresh pool, so that the claim must also open its connection through the black hole.
    const fresh = newPool(proxy.via(db.url));
    const handler = receivedPaymentsHandler(
      { instant: { get: async () => payment } },
      {
        store: createPostgresStore({ pool: fresh }),
        claim: { waitMs: 300 },
        onPayment: (p) => void ran.push(p.endToEndId),
      },
    );
    proxy.blackhole();
    const started = Date.now();
    const response = await deliver(handler);
    expect(response.status).toBe(500);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(ran).toEqual([]);
    proxy.restore();
    await fresh.end().catch(() => undefined);
  });

  it("the request's own signal ends the wait at once", async () => {
    const controller = new AbortController();
    proxy.blackhole();
    const waiting = runOnce(
      proxiedStore,
      unique('signal'),
      () => undefined,
      settings({ waitMs: 10_000 }),
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('the service hung up')), 100);
    const started = Date.now();
    await expect(waiting).rejects.toThrow('the service hung up');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('the lease-based claim', () => {
  const stores: Array<[string, () => Store]> = [
    ['memory', () => createMemoryStore()],
    ['postgres without claim', () => leaseOnly(store)],
  ];

  it.each(stores)('signal aborts when a renewal is refused or fails (%s)', async (_name, make) => {
    for (const renew of [async () => false, async () => Promise.reject(new Error('connection reset'))]) {
      const failing = leaseOnly(make(), { renew });
      let reason: unknown;
      const started = Date.now();
      const outcome = await runOnce(
        failing,
        unique('renew'),
        async ({ signal }) => {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          reason = signal.reason;
        },
        settings({ leaseMs: 300 }),
      );
      expect(outcome).toBe('ran');
      expect(reason).toBeInstanceOf(StoreError);
      expect(Date.now() - started).toBeLessThan(800);
    }
  });

  it.each(stores)(
    'a renewal that reaches the store after the claim was given back does not re-take it (%s)',
    async (_name, make) => {
      const inner = make();
      const late: Array<Promise<unknown>> = [];
      // Every renewal (by `renew`, or by `lease` after the first) reaches the store 250 ms late:
      // past its time limit and past the claim's end.
      const arriveLate = <T>(call: () => Promise<T>): Promise<T> => {
        const arrival = new Promise((resolve) => setTimeout(resolve, 250)).then(call);
        late.push(arrival);
        return arrival;
      };
      let taken = false;
      const slow = leaseOnly(inner, {
        lease: (name, owner, ttl) => {
          if (!taken) {
            taken = true;
            return inner.lease(name, owner, ttl);
          }
          return arriveLate(() => inner.lease(name, owner, ttl));
        },
        renew: (name, owner, ttl) => arriveLate(() => inner.renew!(name, owner, ttl)),
      });
      const key = unique('late');
      expect(
        await runOnce(slow, key, () => new Promise((resolve) => setTimeout(resolve, 120)), settings({ leaseMs: 300 })),
      ).toBe('ran');
      await Promise.all(late);
      expect(late.length).toBeGreaterThan(0);
      expect(await inner.lease(`claim:${key}`, 'another process', 1_000)).toBe(true);
    },
  );
});

describe('option values', () => {
  const api = { instant: { get: async () => ({}) as InstantPayment } };

  it.each([
    ['claim.doneTtlMs', { doneTtlMs: Number.NaN }],
    ['claim.doneTtlMs', { doneTtlMs: -1 }],
    ['claim.doneTtlMs', { doneTtlMs: 0 }],
    ['claim.doneTtlMs', { doneTtlMs: 1e17 }],
    ['claim.leaseMs', { leaseMs: 0 }],
    ['claim.leaseMs', { leaseMs: Infinity }],
    ['claim.leaseMs', { leaseMs: 3e9 }],
    ['claim.waitMs', { waitMs: -5 }],
    ['claim.waitMs', { waitMs: Number.NaN }],
    ['claim.pollMs', { pollMs: 0 }],
  ])('%s out of range is refused when the handler is built', (option, claim) => {
    for (const build of [
      () => receivedPaymentsHandler(api, { store, claim, onPayment: () => undefined }),
      () =>
        cashOutClient({ store }).notificationHandler({
          claim,
          onConfirmed: () => undefined,
          onSuspicious: () => undefined,
        }),
    ]) {
      let thrown: unknown;
      try {
        build();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect((thrown as ConfigurationError).option).toBe(option);
    }
  });

  it('claim options that are not an object are refused when the handler is built, naming claim', () => {
    for (const claim of [null, 'fast', 5]) {
      let thrown: unknown;
      try {
        receivedPaymentsHandler(api, { store, claim: claim as never, onPayment: () => undefined });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect(thrown).toMatchObject({ option: 'claim', message: expect.stringContaining('claim must be an object') });
    }
  });

  it('claim options left out take the documented defaults (lease 30 s, wait 5 s, poll 50 ms, marks 30 days)', () => {
    const defaults = { leaseMs: 30_000, waitMs: 5_000, pollMs: 50, doneTtlMs: 30 * 24 * 3600_000 };
    expect(claimSettings(undefined)).toEqual(defaults);
    expect(claimSettings({})).toEqual(defaults);
    expect(claimSettings({ waitMs: 0 })).toEqual({ ...defaults, waitMs: 0 });
  });

  it('claim.doneTtlMs: Infinity keeps the mark forever (no expiry), on PostgreSQL and in memory', async () => {
    const key = unique('forever');
    let runs = 0;
    const run = () => runOnce(store, key, () => void runs++, claimSettings({ doneTtlMs: Infinity }));
    expect(await run()).toBe('ran');
    expect(await run()).toBe('done');
    expect(runs).toBe(1);
    expect((await mark(key))?.expires_at).toBeNull();
    const memory = createMemoryStore();
    expect(await runOnce(memory, key, () => void runs++, claimSettings({ doneTtlMs: Infinity }))).toBe('ran');
    expect(await runOnce(memory, key, () => void runs++, claimSettings({ doneTtlMs: Infinity }))).toBe('done');
  });

  it('store options out of range are refused where the store is built', () => {
    const option = (build: () => unknown) => {
      try {
        build();
      } catch (error) {
        return error instanceof ConfigurationError ? error.option : `not a ConfigurationError: ${String(error)}`;
      }
      return 'accepted';
    };
    expect(option(() => createPostgresStore({ pool, tablePrefix: 'Robert"); DROP TABLE x' }))).toBe('tablePrefix');
    expect(option(() => createPostgresStore({ pool: {} as PgPoolLike }))).toBe('pool');
    expect(option(() => createPostgresStore({ pool, encryptionKey: 'c2hvcnQ=' }))).toBe('encryptionKey');
    expect(option(() => createMemoryStore({ maxEntries: 0 }))).toBe('maxEntries');
    expect(option(() => createMemoryStore({ maxEntries: Number.NaN }))).toBe('maxEntries');
  });
});

describe('the in-memory store', () => {
  it('keeps at most maxEntries values, dropping the least recently written', async () => {
    const memory = createMemoryStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await memory.set(key, key, 60_000);
    await memory.set('a', 'a again', 60_000);
    await memory.set('d', 'd', 60_000);
    expect(await memory.get('b')).toBeUndefined();
    expect((await memory.list('')).map((e) => e.key).sort()).toEqual(['a', 'c', 'd']);
  });
});

describe('notification handlers with the PostgreSQL store', () => {
  it('received payments: onPayment gets { notified, signal, tx }; a redelivery finds it done', async () => {
    const txid = await newOrder();
    const payment: InstantPayment = {
      endToEndId: 'E1234567820261009000000000000077',
      txid,
      valor: '10.00',
      horario: '2026-10-09T20:15:00.358Z',
    };
    const handler = receivedPaymentsHandler(
      { instant: { get: async () => payment } },
      {
        store,
        onPayment: async (confirmed, { tx, signal, notified }) => {
          expectTypeOf(tx).toEqualTypeOf<StoreTransaction>();
          expect(signal.aborted).toBe(false);
          expect(notified.endToEndId).toBe(confirmed.endToEndId);
          await tx.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [confirmed.txid]);
        },
      },
    );
    const post = () =>
      handler(
        new Request('http://127.0.0.1/hook/recebidos', {
          method: 'POST',
          body: JSON.stringify({ recebidos: [payment] }),
        }),
      ).then((r) => r.status);
    // Two handlers (two processes) receive the same notification at once.
    const twin = receivedPaymentsHandler(
      { instant: { get: async () => payment } },
      {
        store,
        onPayment: async (confirmed, { tx }) =>
          void (await tx.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [confirmed.txid])),
      },
    );
    const twinPost = () =>
      twin(
        new Request('http://127.0.0.1/hook/recebidos', {
          method: 'POST',
          body: JSON.stringify({ recebidos: [payment] }),
        }),
      ).then((r) => r.status);
    expect(await Promise.all([post(), twinPost(), post()])).toEqual([200, 200, 200]);
    expect(await paid(txid)).toBe(1);
  });

  it('recurring charges: onCobr gets { notified, signal, tx }; concurrent deliveries in two processes update the row once per state', async () => {
    const txid = await newOrder();
    const attempt = { endToEndId: 'E1234567820261009000000000000078', tipo: 'AGND', dataLiquidacao: '2026-11-10' };
    const charge = (status: string, attemptStatus: string): CobRCompleta => ({
      idRec: 'RR1234567820261009abcdefghijk',
      txid: 'cd1fe328c875481285a6f233ae41b662',
      calendario: { criacao: '2026-10-09', dataDeVencimento: '2026-11-10' },
      valor: { original: '29.90' },
      recebedor: { conta: '012682', tipoConta: 'CORRENTE' },
      status,
      atualizacao: [{ status, data: '2026-10-09T20:15:00.358Z' }],
      tentativas: [
        {
          ...attempt,
          status: attemptStatus,
          atualizacao: [{ status: attemptStatus, data: '2026-10-09T20:15:00.358Z' }],
        },
      ],
    });
    let current = charge('ATIVA', 'AGENDADA');
    // Two processes: two handlers on the one store, each with its own memory.
    const process = () =>
      recurringHandler(
        { rec: { get: async () => Promise.reject(new Error('unused')) }, cobr: { get: async () => current } },
        {
          store,
          onCobr: async (confirmed, { tx, signal, notified }) => {
            expectTypeOf(tx).toEqualTypeOf<StoreTransaction>();
            expect(signal.aborted).toBe(false);
            expect(notified.txid).toBe(confirmed.txid);
            await tx.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [txid]);
          },
        },
      );
    const [a, b] = [process(), process()];
    const deliver = (handler: ReturnType<typeof process>) =>
      handler(
        new Request('http://127.0.0.1/hook/cobr', { method: 'POST', body: JSON.stringify({ cobsr: [current] }) }),
      ).then((r) => r.status);
    expect(await Promise.all([deliver(a), deliver(b), deliver(a), deliver(b)])).toEqual([200, 200, 200, 200]);
    expect(await paid(txid)).toBe(1);
    current = charge('CONCLUIDA', 'PAGA');
    expect(await Promise.all([deliver(b), deliver(a)])).toEqual([200, 200]);
    expect(await paid(txid)).toBe(2);
    expect(await mark(`cobr:${current.txid}:CONCLUIDA:PAGA`)).toBeDefined();
  });

  it('recurrences: an onRec that throws after writing through tx leaves nothing; the redelivery writes once', async () => {
    const txid = await newOrder();
    const rec = {
      idRec: 'RR1234567820261009abcdefghijl',
      status: 'APROVADA',
      atualizacao: [{ status: 'APROVADA', data: '2026-10-09T20:15:00.358Z' }],
    };
    let failures = 1;
    const handler = recurringHandler(
      { rec: { get: async () => rec as never }, cobr: { get: async () => Promise.reject(new Error('unused')) } },
      {
        store,
        onRec: async (_confirmed, { tx }) => {
          await tx.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [txid]);
          if (failures-- > 0) throw new Error('the mail server is down');
        },
      },
    );
    const deliver = () =>
      handler(new Request('http://127.0.0.1/hook/rec', { method: 'POST', body: JSON.stringify({ recs: [rec] }) })).then(
        (r) => r.status,
      );
    expect(await deliver()).toBe(500);
    expect(await paid(txid)).toBe(0);
    expect(await mark(`rec:${rec.idRec}:APROVADA`)).toBeUndefined();
    expect(await deliver()).toBe(200);
    expect(await deliver()).toBe(200);
    expect(await paid(txid)).toBe(1);
  });

  it('transfer confirmations: onConfirmed gets { signal, tx } and records the transfer once', async () => {
    const txid = await newOrder();
    net.server.use(http.get(BY_KEY_URL, () => HttpResponse.json({ data: wireTransfer({ status: 'LIQUIDATED' }) })));
    const suspicious: unknown[] = [];
    const handler = cashOutClient({ store }).notificationHandler({
      onConfirmed: async (result, { tx, signal }) => {
        expect(signal.aborted).toBe(false);
        expect(result.actual.idempotencyKey).toBe(KEY);
        await tx!.query('UPDATE orders SET paid = paid + 1 WHERE txid = $1', [txid]);
      },
      onSuspicious: (_result, context) => void suspicious.push(context),
    });
    const post = () =>
      handler(
        new Request('http://127.0.0.1/webhook/transfer-confirmation', {
          method: 'POST',
          body: JSON.stringify(notification()),
        }),
      ).then((r) => r.status);
    expect(await Promise.all([post(), post(), post()])).toEqual([200, 200, 200]);
    expect(await post()).toBe(200);
    expect(await paid(txid)).toBe(1);
    expect(suspicious).toEqual([]);
  });
});

describe("a claim's connection", () => {
  it('stays out of the pool until its COMMIT is answered', async () => {
    // A deferred trigger makes COMMIT wait for an advisory lock the test holds: COMMIT is in
    // flight for as long as the test likes, and the pool can be looked at meanwhile.
    await pool.query(`
      CREATE TABLE commit_gate (id int);
      CREATE FUNCTION commit_gate_wait() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER commit_gate_t AFTER INSERT ON commit_gate
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_gate_wait();`);
    const own = newPool(db.url);
    const gated = createPostgresStore({ pool: own });
    const holder = await pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(4242)');
      const run = runOnce(
        gated,
        'commit-gate-1',
        async ({ tx }) => void (await tx!.query('INSERT INTO commit_gate VALUES (1)')),
        settings(),
      );
      await until(async () => {
        const { rows } = await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        );
        return rows[0]!.n === 1;
      });
      // COMMIT waits on the lock: the claim's client is still checked out.
      expect(own.totalCount - own.idleCount).toBe(1);
      await holder.query('SELECT pg_advisory_unlock(4242)');
      expect(await run).toBe('ran');
      expect((await pool.query('SELECT count(*)::int AS n FROM commit_gate')).rows[0].n).toBe(1);
      expect(own.totalCount - own.idleCount).toBe(0);
    } finally {
      holder.release();
      await own.end();
    }
  });
});
