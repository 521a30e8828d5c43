/**
 * Never pay twice, never report "not placed" while an order exists: `pay()` and `recover()`
 * against a real PostgreSQL behind a TCP proxy that cuts or black-holes the database link, and a
 * loopback provider that keeps orders by idempotency key. Each test has its own tables.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CashOutClient,
  IdempotencyKeyReusedError,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  StoreError,
  TimeoutError,
  type CashOutClientOptions,
  type PayParams,
  type Store,
} from '../../src/index.ts';
import { createPostgresStore, type PostgresStore } from '../../src/postgres.ts';
import { startTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { CPF, EVP } from './fixtures.ts';
import {
  startProvider,
  TOKEN,
  type LookupFault,
  type PostFault,
  type Provider,
  type ProviderOptions,
} from './loopback-provider.ts';

const KEY = Buffer.alloc(32, 3).toString('base64');
const params: PayParams = { key: EVP, amount: '25.00', creditorDocument: CPF };

let db: TestDatabase;
let proxy: TcpProxy;
let pool: pg.Pool;
let tables = 0;
let provider: Provider | undefined;
const clients: CashOutClient[] = [];

beforeAll(async () => {
  db = await startTestDatabase();
  proxy = await startTcpProxy({ port: db.port });
  pool = newPool();
}, 30_000);

function newPool(): pg.Pool {
  const fresh = new pg.Pool({ connectionString: proxy.via(db.url) });
  // A cut or reset link ends pooled connections: the pool reports it here.
  fresh.on('error', () => undefined);
  return fresh;
}

afterEach(async () => {
  proxy.restore();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await provider?.close();
  provider = undefined;
  // A connection the last test's cut ended may not have told the pool yet: the next test starts
  // on a pool of its own rather than meet it (ECONNRESET in its set-up).
  const old = pool;
  pool = newPool();
  await Promise.race([old.end().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
});

afterAll(async () => {
  await pool?.end();
  await proxy?.close();
  await db?.stop();
});

/** A store on its own tables, so that `recover()` sees only this test's intents. */
async function freshStore(): Promise<PostgresStore> {
  const store = createPostgresStore({ pool, encryptionKey: KEY, tablePrefix: `intents${++tables}` });
  await store.migrate();
  return store;
}

function clientOf(store: Store, options: Partial<CashOutClientOptions> = {}): CashOutClient {
  const client = new CashOutClient({
    baseUrl: provider!.url,
    auth: { getToken: async () => TOKEN },
    store,
    maxRetries: 0,
    intents: { leaseMs: 2_000 },
    ...options,
  });
  clients.push(client);
  return client;
}

interface Faults {
  post: PostFault;
  lookup: LookupFault;
  /** Faults of the next lookups, before `lookup` applies again. */
  nextLookups: LookupFault[];
}

/** Faults that can be changed while a test runs. */
function faults() {
  const now: Faults = { post: 'ok', lookup: 'ok', nextLookups: [] };
  const options: ProviderOptions = {
    postFault: () => now.post,
    lookupFault: () => now.nextLookups.shift() ?? now.lookup,
  };
  return { now, options };
}

/**
 * A payment with a given key whose order's answer was lost (`post`) and whose lookup after it
 * failed: PaymentOutcomeUnknownError, its intent left open.
 */
async function unknownPayment(client: CashOutClient, now: Faults, idempotencyKey: string, post: PostFault) {
  now.post = post;
  // The lookup before the order finds none; the one after it fails.
  now.nextLookups = ['ok', '500'];
  const error = await client.pay({ ...params, idempotencyKey }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
  expect(now.nextLookups).toEqual([]);
  now.post = 'ok';
}

async function openIntents(store: Store): Promise<string[]> {
  return (await store.list('intent-open:')).map((e) => e.key);
}

async function outcomeOf(store: Store, idempotencyKey: string): Promise<Record<string, unknown> | undefined> {
  const value = await store.get(`intent:${idempotencyKey}`);
  return value === undefined
    ? undefined
    : (JSON.parse(await store.sealer!.open(value, `intent:${idempotencyKey}`)) as Record<string, unknown>);
}

function logLines() {
  const lines: Array<{ message: string; meta?: Record<string, unknown> }> = [];
  return {
    lines,
    logger: {
      warn: (message: string, meta?: Record<string, unknown>) => void lines.push({ message, ...(meta && { meta }) }),
    },
  };
}

describe("1. recover() decides only from what it reads under the key's lease", () => {
  it('a pay() that finished "not placed" (insufficient balance) after the listing is never placed by recover({ unknown: "place" })', async () => {
    const store = await freshStore();
    const { now, options } = faults();
    provider = await startProvider(options);
    const payer = clientOf(store);
    // An earlier pay() with this key lost its order before the provider recorded it.
    await unknownPayment(payer, now, 'stale1', 'cut-before-record');
    expect(await openIntents(store)).toEqual(['intent-open:stale1']);

    // recover() lists the open intent, then stalls before taking its lease.
    let listed!: () => void;
    let release!: () => void;
    const wasListed = new Promise<void>((resolve) => (listed = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowList: Store = {
      ...store,
      list: async (prefix) => {
        const rows = await store.list(prefix);
        listed();
        await gate;
        return rows;
      },
    };
    const recovering = clientOf(slowList).recover({ unknown: 'place', settleDelayMs: 10 });
    await wasListed;

    // Meanwhile the caller pays again with the key: the provider has no order, the balance is short.
    provider.setBalanceCents(100);
    await expect(payer.pay({ ...params, idempotencyKey: 'stale1' })).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(await openIntents(store)).toEqual([]);

    // The money arrives; recover() goes on from its listing.
    provider.setBalanceCents(100_000_000);
    release();
    const results = await recovering;
    expect(results.filter((r) => r.outcome === 'placed')).toEqual([]);
    expect(provider.orders.has('stale1')).toBe(false);
    expect(provider.posts()).toHaveLength(1);
  }, 20_000);
});

describe('2. once the order may have left, every failure is PaymentOutcomeUnknownError with the key', () => {
  it('the provider refuses the order and the database is cut before the intent is closed: PaymentOutcomeUnknownError (StoreError as cause); recover() settles it', async () => {
    const store = await freshStore();
    provider = await startProvider({ postFault: () => '422', onOrder: () => (proxy.cut(), proxy.refuse()) });
    const client = clientOf(store, { intents: { leaseMs: 500 } });
    const error = (await client
      .pay({ ...params, idempotencyKey: 'refusedcut1' })
      .catch((e: unknown) => e)) as PaymentOutcomeUnknownError;
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error.idempotencyKey).toBe('refusedcut1');
    expect(error.cause).toBeInstanceOf(StoreError);

    proxy.restore();
    expect(await openIntents(store)).toEqual(['intent-open:refusedcut1']);
    // The cut kept the key's lease from being given back: it expires.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await client.recover({ settleDelayMs: 10 })).toEqual([
      { idempotencyKey: 'refusedcut1', outcome: 'not-placed' },
    ]);
    expect(provider.orders.size).toBe(0);
  }, 20_000);

  it('the order is accepted and the database is cut before its outcome is written: pay() resolves with the order; recover() finds it; paying again with the key pays nothing more', async () => {
    const store = await freshStore();
    const { lines, logger } = logLines();
    provider = await startProvider({ onOrder: () => (proxy.cut(), proxy.refuse()) });
    const client = clientOf(store, { logger, intents: { leaseMs: 500 } });
    const result = await client.pay({ ...params, idempotencyKey: 'acceptedcut1' });
    expect(result.transfer).toMatchObject({ idempotencyKey: 'acceptedcut1', payment: { amount: '25.00' } });
    expect(lines).toContainEqual({ message: 'payment intent left open', meta: { reason: 'StoreError' } });

    proxy.restore();
    await new Promise((resolve) => setTimeout(resolve, 600));
    const recovered = await client.recover({ settleDelayMs: 10 });
    expect(recovered).toMatchObject([
      { idempotencyKey: 'acceptedcut1', outcome: 'found', transfer: { idempotencyKey: 'acceptedcut1' } },
    ]);
    expect(await outcomeOf(store, 'acceptedcut1')).toMatchObject({ state: 'placed' });
    await client.pay({ ...params, idempotencyKey: 'acceptedcut1' });
    expect(provider.posts()).toHaveLength(1);
    expect(provider.balanceCents()).toBe(100_000_000 - 2500);
  }, 20_000);

  it('the database is down before pay(): StoreError saying no order was sent, and nothing reaches the provider', async () => {
    const store = await freshStore();
    provider = await startProvider();
    proxy.cut();
    proxy.refuse();
    const error = await clientOf(store)
      .pay({ ...params, idempotencyKey: 'dbdown1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).not.toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as StoreError).message).toMatch(/no payment order was sent/);
    expect(provider.posts()).toHaveLength(0);
  }, 20_000);
});

describe('3. "not placed" only on the provider\'s word', () => {
  for (const refusal of ['401', '403', '429'] as const) {
    it(`paying again with a key whose status lookup is refused (${refusal}) is PaymentOutcomeUnknownError; the open intent stays and recover() finds the order`, async () => {
      const store = await freshStore();
      const { now, options } = faults();
      provider = await startProvider(options);
      const client = clientOf(store, { timeout: 300 });
      // The order was recorded but its answer never came: its intent is open.
      await unknownPayment(client, now, `refused${refusal}`, 'hang-after-record');
      now.lookup = refusal;
      const error = await client.pay({ ...params, idempotencyKey: `refused${refusal}` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(error).toMatchObject({ idempotencyKey: `refused${refusal}` });
      expect(await openIntents(store)).toEqual([`intent-open:refused${refusal}`]);
      expect(await outcomeOf(store, `refused${refusal}`)).toBeUndefined();

      now.lookup = 'ok';
      expect(await client.recover({ settleDelayMs: 10 })).toMatchObject([
        { idempotencyKey: `refused${refusal}`, outcome: 'found' },
      ]);
      expect(provider.posts()).toHaveLength(1);
    }, 20_000);
  }

  it('recover({ unknown: "place" }) whose own lookup is refused after two "not found" (lagging) answers does not mark an existing order not placed', async () => {
    const store = await freshStore();
    const { now, options } = faults();
    provider = await startProvider(options);
    const client = clientOf(store, { timeout: 300 });
    await unknownPayment(client, now, 'laggy1', 'hang-after-record');
    now.nextLookups = ['lag', 'lag', '403'];
    // Placed again with the same key, the order meets itself (409) and its lookup is refused: unknown.
    const [result] = await client.recover({ unknown: 'place', settleDelayMs: 10 });
    expect(result).toMatchObject({ idempotencyKey: 'laggy1', outcome: 'unsettled' });
    expect(result?.error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(await openIntents(store)).toEqual(['intent-open:laggy1']);
    expect(await client.recover({ settleDelayMs: 10 })).toMatchObject([{ idempotencyKey: 'laggy1', outcome: 'found' }]);
    expect([...provider.orders.keys()]).toEqual(['laggy1']);
  }, 20_000);

  it('a key reused for another payment (IdempotencyKeyReusedError) never touches the record of the real payment', async () => {
    const store = await freshStore();
    provider = await startProvider();
    const client = clientOf(store);
    await client.pay({ ...params, idempotencyKey: 'reused1' });
    const recorded = await outcomeOf(store, 'reused1');
    expect(recorded).toMatchObject({ state: 'placed', transfer: { payment: { amount: '25.00' } } });

    const error = await client.pay({ ...params, amount: '30.00', idempotencyKey: 'reused1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await outcomeOf(store, 'reused1')).toEqual(recorded);
    expect(await openIntents(store)).toEqual([]);
    expect(provider.posts()).toHaveLength(1);
  }, 20_000);

  it("a key reused while its first payment is unsettled: refused before anything is sent, the first payment's intent kept as it was", async () => {
    const store = await freshStore();
    const { now, options } = faults();
    provider = await startProvider(options);
    const client = clientOf(store, { timeout: 300 });
    await unknownPayment(client, now, 'reused2', 'hang-after-record');
    const [before] = await store.list('intent-open:');

    const error = await client.pay({ ...params, amount: '30.00', idempotencyKey: 'reused2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error).toMatchObject({ sentRequest: false, idempotencyKey: 'reused2' });
    expect(await store.list('intent-open:')).toEqual([before]);
    expect(await client.recover({ settleDelayMs: 10 })).toMatchObject([
      { idempotencyKey: 'reused2', outcome: 'found', transfer: { payment: { amount: '25.00' } } },
    ]);
    expect(provider.posts()).toHaveLength(1);
  }, 20_000);
});

describe("1b. the key's lease is held when the order leaves", () => {
  it("the intent's write stalls past the lease while another pay() with the key places the order: the first sends nothing (nemesis seed 180)", async () => {
    const storeA = await freshStore();
    const direct = new pg.Pool({ connectionString: db.url });
    direct.on('error', () => undefined);
    const storeB = createPostgresStore({ pool: direct, encryptionKey: KEY, tablePrefix: `intents${tables}` });
    let stall = true;
    // The link of A stalls once its balance is read, right before its intent is written.
    provider = await startProvider({ balanceDelay: () => (stall && ((stall = false), proxy.blackhole()), 0) });
    try {
      const a = clientOf(storeA, { intents: { leaseMs: 300 } });
      const first = a.pay({ ...params, idempotencyKey: 'stalled1' }).then(
        (r) => r,
        (e: unknown) => e,
      );
      while (stall) await new Promise((resolve) => setTimeout(resolve, 10));
      // A's lease runs out; B takes the key, places the order and gives the key back.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const second = await clientOf(storeB, { intents: { leaseMs: 300 } }).pay({
        ...params,
        idempotencyKey: 'stalled1',
      });
      expect(second.transfer).toMatchObject({ idempotencyKey: 'stalled1' });
      proxy.restore();
      const outcome = await first;
      expect(provider.posts()).toHaveLength(1);
      // A learns it no longer holds the key: the order may exist (B's), its intent is left for recover().
      expect(outcome).toBeInstanceOf(PaymentOutcomeUnknownError);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await a.recover({ settleDelayMs: 10 })).toMatchObject([{ idempotencyKey: 'stalled1', outcome: 'found' }]);
      expect(provider.posts()).toHaveLength(1);
    } finally {
      await direct.end();
    }
  }, 20_000);
});

describe('4. sealed means sealed: with an encryptionKey an intent is read only through the sealer', () => {
  it('plain or foreign rows are reported as tampered and logged, never paid', async () => {
    const store = await freshStore();
    provider = await startProvider();
    const { lines, logger } = logLines();
    const client = clientOf(store, { logger });
    const planted = {
      instantKey: 'thief@example.com',
      creditorDocument: CPF,
      payment: { currency: 'BRL', amount: '9999.00' },
    };
    // Written by someone who can reach the table but has no key: the shapes this SDK wrote, in plain JSON.
    await store.set(
      'intent-open:planted1',
      JSON.stringify({
        params: { key: planted.instantKey, amount: '9999.00', creditorDocument: CPF },
        createdAt: new Date().toISOString(),
      }),
    );
    await store.set('intent-open:planted2', JSON.stringify({ body: planted, createdAt: new Date().toISOString() }));
    // A genuine sealed intent moved under another key.
    await store.set(
      'intent-open:planted3',
      await store.sealer!.seal(JSON.stringify({ body: planted, createdAt: '' }), 'intent-open:original1'),
    );

    const results = await client.recover({ unknown: 'place', settleDelayMs: 10 });
    expect(results).toEqual([
      { idempotencyKey: 'planted1', outcome: 'tampered' },
      { idempotencyKey: 'planted2', outcome: 'tampered' },
      { idempotencyKey: 'planted3', outcome: 'tampered' },
    ]);
    expect(provider.posts()).toHaveLength(0);
    expect(provider.lookups()).toHaveLength(0);
    expect(lines).toEqual(
      Array.from({ length: 3 }, () => ({
        message: 'payment intent ignored',
        meta: { reason: 'not sealed with the store key' },
      })),
    );
    expect(JSON.stringify(lines)).not.toContain('planted');
    // Left as they are, for whoever investigates.
    expect(await openIntents(store)).toEqual(['intent-open:planted1', 'intent-open:planted2', 'intent-open:planted3']);
  }, 20_000);
});

describe("5. store calls end within the caller's time (a black-holed database link)", () => {
  // A black-holed link never answers: a call that settles at all ended on its own budget or
  // signal. The race's bound (the 1 s budget and room for a loaded machine, short of every other
  // time limit in play) is the only time read; no elapsed-time asserts that load could break.
  /** Settles with `promise` or with 'pending' after `ms`. */
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise.catch((e: unknown) => e),
      new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
    ]);

  it('the link is black-holed before pay(): TimeoutError within the 1 s budget saying no order was sent; nothing reaches the provider', async () => {
    const store = await freshStore();
    provider = await startProvider();
    const client = clientOf(store);
    proxy.blackhole();
    const error = await within(client.pay({ ...params, idempotencyKey: 'hole1' }, { totalTimeout: 1_000 }), 3_000);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as TimeoutError).message).toMatch(/no payment order was sent/);
    expect(provider.posts()).toHaveLength(0);
  }, 20_000);

  it('the caller aborts while the link is black-holed, before the order: rejects at once with the reason, nothing sent', async () => {
    const store = await freshStore();
    provider = await startProvider();
    const client = clientOf(store);
    proxy.blackhole();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 300);
    expect(await within(client.pay({ ...params, idempotencyKey: 'hole2' }, { signal: controller.signal }), 4_000)).toBe(
      reason,
    );
    expect(provider.posts()).toHaveLength(0);
  }, 20_000);

  it('the link stalls when the order arrives and the provider refuses it: PaymentOutcomeUnknownError with the key within the budget; the intent stays for recover()', async () => {
    const store = await freshStore();
    provider = await startProvider({ postFault: () => '422', onOrder: () => proxy.blackhole() });
    const client = clientOf(store, { intents: { leaseMs: 500 } });
    const error = await within(client.pay({ ...params, idempotencyKey: 'hole3' }, { totalTimeout: 1_000 }), 3_000);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'hole3' });
    expect((error as PaymentOutcomeUnknownError).cause).toBeInstanceOf(TimeoutError);
    // The stalled link breaks: what it held (closing the intent) never reaches the database.
    proxy.cut();
    proxy.restore();
    expect(await openIntents(store)).toEqual(['intent-open:hole3']);
    // The stalled link may have kept the key's lease from being given back: it expires.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await client.recover({ settleDelayMs: 10 })).toEqual([{ idempotencyKey: 'hole3', outcome: 'not-placed' }]);
  }, 20_000);

  it('the link stalls when the order arrives and the provider accepts it: pay() resolves with the order within the budget', async () => {
    const store = await freshStore();
    provider = await startProvider({ onOrder: () => proxy.blackhole() });
    const client = clientOf(store);
    const result = await within(client.pay({ ...params, idempotencyKey: 'hole4' }, { totalTimeout: 1_000 }), 3_000);
    expect(result).toMatchObject({ idempotencyKey: 'hole4', transfer: { idempotencyKey: 'hole4' } });
  }, 20_000);

  it('the caller aborts while the order is in flight (store-backed): PaymentOutcomeUnknownError at once, the intent open; recover() finds the one order', async () => {
    const store = await freshStore();
    provider = await startProvider({ postFault: () => 'hang-after-record' });
    const client = clientOf(store);
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const pending = client.pay({ ...params, idempotencyKey: 'inflight1' }, { signal: controller.signal });
    while (provider.posts().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(reason);
    const error = await within(pending, 2_000);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'inflight1', cause: reason });
    expect(await openIntents(store)).toEqual(['intent-open:inflight1']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await client.recover({ settleDelayMs: 10 })).toMatchObject([
      { idempotencyKey: 'inflight1', outcome: 'found' },
    ]);
    expect(provider.posts()).toHaveLength(1);
  }, 20_000);

  it('recover() on a black-holed link ends within its totalTimeout with TimeoutError', async () => {
    const store = await freshStore();
    provider = await startProvider();
    const client = clientOf(store);
    proxy.blackhole();
    expect(await within(client.recover({ totalTimeout: 1_000 }), 3_000)).toBeInstanceOf(TimeoutError);
  }, 20_000);
});
