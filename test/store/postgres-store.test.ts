/**
 * The store contract on the in-memory store and on a real PostgreSQL; tokens sealed at rest;
 * a 401 that arrives late does not throw away a newer token; the database restarted mid-run.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CashOutClient,
  ClaimBusyError,
  ConfigurationError,
  ClientCredentialsProvider,
  createMemoryStore,
  InstantClient,
  receivedPaymentsHandler,
  StoreError,
  type Store,
} from '../../src/index.ts';
import { createPostgresStore, type PostgresStore } from '../../src/postgres.ts';
import { claimSettings, runOnce } from '../../src/store/claims.ts';
import { SharedTokenProvider } from '../../src/composition/shared-token.ts';
import { countingPool, startPostgres, type TestPostgres } from '../support/postgres.ts';
import { startTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { startFleetProvider, type FleetProvider } from './fleet-provider.ts';

const KEY = Buffer.alloc(32, 9).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 1).toString('base64');
const E2E = (n: number) => `E9876543220261009${String(n).padStart(15, '0')}`;

let db: TestDatabase;
let pool: pg.Pool;
let provider: FleetProvider;
let store: PostgresStore;

/** A pool on `url` and a migrated store on it. */
async function connect(url: string): Promise<{ pool: pg.Pool; store: PostgresStore }> {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2_000 });
  // Restarting the database ends idle connections: the pool reports it here.
  pool.on('error', () => undefined);
  const store = createPostgresStore({ pool, encryptionKey: KEY });
  await store.migrate();
  return { pool, store };
}

beforeAll(async () => {
  db = await startTestDatabase();
  ({ pool, store } = await connect(db.url));
  provider = await startFleetProvider();
}, 30_000);

afterAll(async () => {
  await pool?.end();
  await provider?.close();
  await db?.stop();
});

const stores: Array<[string, () => Store]> = [
  ['memory', () => createMemoryStore()],
  ['postgres', () => store],
];

describe.each(stores)('the store contract (%s)', (_name, make) => {
  let instance: Store | undefined;
  const s = () => (instance ??= make());
  const unique = () => `t${Math.random().toString(36).slice(2)}`;

  it('a lease excludes other owners until it is given back or expires; its owner renews it', async () => {
    const name = unique();
    expect(await s().lease(name, 'a', 300)).toBe(true);
    expect(await s().lease(name, 'b', 300)).toBe(false);
    expect(await s().lease(name, 'a', 300)).toBe(true);
    await s().unlease(name, 'b');
    expect(await s().lease(name, 'b', 300)).toBe(false);
    await s().unlease(name, 'a');
    expect(await s().lease(name, 'b', 100)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await s().lease(name, 'c', 100)).toBe(true);
  });

  it("renew extends only a lease its owner still holds: never one given back, expired or another's", async () => {
    const name = unique();
    expect(await s().renew!(name, 'a', 300)).toBe(false);
    expect(await s().lease(name, 'a', 150)).toBe(true);
    expect(await s().renew!(name, 'b', 300)).toBe(false);
    expect(await s().renew!(name, 'a', 400)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Renewed past its first 150 ms: still held.
    expect(await s().lease(name, 'b', 300)).toBe(false);
    await s().unlease(name, 'a');
    // A renewal arriving after the lease was given back does not take it again.
    expect(await s().renew!(name, 'a', 300)).toBe(false);
    expect(await s().lease(name, 'b', 100)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await s().renew!(name, 'b', 300)).toBe(false);
  });

  it('50 owners racing for one lease: exactly one gets it', async () => {
    const name = unique();
    const won = await Promise.all(Array.from({ length: 50 }, (_, i) => s().lease(name, `o${i}`, 5_000)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('values: set, get, expiry, delete, delete only while the value is still the same, list by prefix', async () => {
    const p = unique();
    await s().set(`${p}:a`, '1');
    await s().set(`${p}:b`, '2', 100);
    await s().set(`${p}%_`, 'x');
    expect(await s().get(`${p}:a`)).toBe('1');
    expect((await s().list(`${p}:`)).map((e) => e.key).sort()).toEqual([`${p}:a`, `${p}:b`]);
    expect(await s().list(`${p}%`)).toEqual([{ key: `${p}%_`, value: 'x' }]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await s().get(`${p}:b`)).toBeUndefined();
    expect(await s().list(`${p}:`)).toEqual([{ key: `${p}:a`, value: '1' }]);
    await s().delete(`${p}:a`, '2');
    expect(await s().get(`${p}:a`)).toBe('1');
    await s().delete(`${p}:a`, '1');
    expect(await s().get(`${p}:a`)).toBeUndefined();
    await s().set(`${p}:c`, '3');
    await s().delete(`${p}:c`);
    expect(await s().get(`${p}:c`)).toBeUndefined();
  });

  it('runOnce: one run among concurrent claims; a throw gives the claim back; a busy claim ends in ClaimBusyError', async () => {
    const key = unique();
    let ran = 0;
    const slow = () => new Promise<void>((resolve) => setTimeout(() => resolve(void ran++), 100));
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => runOnce(s(), key, slow, claimSettings({ pollMs: 10 }))),
    );
    expect(ran).toBe(1);
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);

    const failing = unique();
    await expect(runOnce(s(), failing, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await runOnce(s(), failing, () => undefined)).toBe('ran');

    const busy = unique();
    const long = runOnce(s(), busy, () => new Promise((resolve) => setTimeout(resolve, 400)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(
      runOnce(s(), busy, () => undefined, claimSettings({ waitMs: 100, pollMs: 20 })),
    ).rejects.toBeInstanceOf(ClaimBusyError);
    expect(await long).toBe('ran');
    expect(await runOnce(s(), busy, () => undefined)).toBe('done');
  });
});

describe('PostgreSQL store', () => {
  it('prune() deletes the expired values and leases, and nothing live; a value set with Infinity never expires', async () => {
    const p = `prune-${Math.random().toString(36).slice(2)}`;
    await store.set(`${p}:brief`, 'x', 1);
    await store.set(`${p}:kept`, 'y', 60_000);
    await store.set(`${p}:forever`, 'z', Infinity);
    await store.lease(`${p}:brief`, 'a', 1);
    await store.lease(`${p}:kept`, 'a', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.prune();
    const rows = async (table: string, column: string) =>
      (await pool.query(`SELECT ${column} AS k FROM ${table} WHERE ${column} LIKE $1 ORDER BY 1`, [`${p}:%`])).rows.map(
        (row) => row.k as string,
      );
    expect(await rows('instant_payments_values', 'key')).toEqual([`${p}:forever`, `${p}:kept`]);
    expect(await rows('instant_payments_leases', 'name')).toEqual([`${p}:kept`]);
    const forever = await pool.query('SELECT expires_at FROM instant_payments_values WHERE key = $1', [`${p}:forever`]);
    expect(forever.rows[0].expires_at).toBeNull();
  });

  it('reads made at once share statements, each answered with its own value, whatever its key holds; an expired value reads as none', async () => {
    const counted = countingPool(pool);
    const reading = createPostgresStore({ pool: counted.pool, encryptionKey: KEY });
    const p = `read-${Math.random().toString(36).slice(2)}`;
    // Keys an array parameter must quote: commas, quotes, braces, backslashes, spaces, NULL as text, non-ASCII.
    const odd = [',', '"', "'", '{x}', '\\', ' spaced ', 'NULL', 'ção', '😀'];
    const keys = [...Array.from({ length: 40 }, (_, i) => `${p}:${i}`), ...odd.map((tail) => `${p}:${tail}`)];
    for (const [i, key] of keys.entries()) if (i % 3 !== 0) await reading.set(key, `value of ${key}`);
    await reading.set(`${p}:expired`, 'gone', 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const before = counted.count();
    const answers = await Promise.all([...keys, ...keys, `${p}:expired`].map((key) => reading.get(key)));
    const expected = keys.map((key, i) => (i % 3 !== 0 ? `value of ${key}` : undefined));
    expect(answers).toEqual([...expected, ...expected, undefined]);
    // The first read goes alone; the 98 made meanwhile go as one more statement.
    expect(counted.count() - before).toBe(2);
  });

  it('migrate() runs concurrently and repeatedly', async () => {
    await Promise.all(Array.from({ length: 8 }, () => createPostgresStore({ pool }).migrate()));
    await store.migrate();
    const tables = await pool.query(
      `SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'instant_payments_%'`,
    );
    expect(tables.rows[0].n).toBe(2);
  });

  it('keeps tokens sealed: nothing in the table grants access, another key cannot open them', async () => {
    const credentials = {
      tokenUrl: `${provider.url}/oauth/token`,
      clientId: 'sealed-client',
      clientSecret: 'very-secret-value',
    };
    const shared = new SharedTokenProvider(new ClientCredentialsProvider(credentials), store, { identity: ['sealed'] });
    const token = await shared.getToken();
    const rows = await pool.query('SELECT key, value FROM instant_payments_values');
    const dump = JSON.stringify(rows.rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain('very-secret-value');
    expect(dump).not.toContain('sealed-client');
    // Another encryption key reads no token and fetches its own.
    const before = provider.tokenRequests.form;
    const other = createPostgresStore({ pool, encryptionKey: OTHER_KEY });
    const foreign = new SharedTokenProvider(new ClientCredentialsProvider(credentials), other, {
      identity: ['sealed'],
    });
    expect(await foreign.getToken()).not.toBe(token);
    expect(provider.tokenRequests.form).toBe(before + 1);
  });

  it('refuses to keep tokens without an encryption key; a bad key is refused where the store is built', () => {
    const keyless = createPostgresStore({ pool });
    expect(
      () =>
        new InstantClient({
          baseUrl: provider.url,
          auth: { tokenUrl: `${provider.url}/oauth/token`, clientId: 'a', clientSecret: 'b' },
          store: keyless,
        }),
    ).toThrow(/refuses to keep tokens/);
    expect(() => createPostgresStore({ pool, encryptionKey: 'c2hvcnQ=' })).toThrow(ConfigurationError);
  });

  it('a 401 that arrives late does not throw away the newer token another process fetched', async () => {
    const credentials = { tokenUrl: `${provider.url}/oauth/token`, clientId: 'late-client', clientSecret: 's' };
    const one = new SharedTokenProvider(new ClientCredentialsProvider(credentials), store, { identity: ['late'] });
    const two = new SharedTokenProvider(new ClientCredentialsProvider(credentials), store, { identity: ['late'] });
    const before = provider.tokenRequests.form;
    const first = await one.getToken();
    expect(await two.getToken()).toBe(first);
    expect(provider.tokenRequests.form).toBe(before + 1);
    one.invalidate(first);
    const second = await one.getToken();
    expect(second).not.toBe(first);
    // The second process learns late that the first token was refused.
    two.invalidate(first);
    expect(await two.getToken()).toBe(second);
    expect(provider.tokenRequests.form).toBe(before + 2);
  });
});

/** The tests that read the server's log or restart it run on a server of their own. */
describe('on a PostgreSQL server of its own', () => {
  let db: TestPostgres;
  let pool: pg.Pool;
  let store: PostgresStore;

  beforeAll(async () => {
    db = await startPostgres();
    ({ pool, store } = await connect(db.url));
  }, 30_000);

  afterAll(async () => {
    await pool?.end();
    await db?.stop();
  });

  it("a duplicate claim is answered without an error: nothing in PostgreSQL's log", async () => {
    const key = `dup-${Math.random().toString(36).slice(2)}`;
    const from = db.log().length;
    let runs = 0;
    expect(await runOnce(store, key, () => void runs++)).toBe('ran');
    for (let i = 0; i < 5; i++) expect(await runOnce(store, key, () => void runs++)).toBe('done');
    expect(runs).toBe(1);
    // A statement that fails on purpose: once its ERROR is in the log, everything before it is.
    await expect(pool.query("SELECT 'log-fence'::int")).rejects.toThrow();
    await expect.poll(() => db.log().slice(from), { timeout: 5_000 }).toContain('log-fence');
    const written = db.log().slice(from);
    const beforeFence = written.slice(0, written.indexOf('ERROR:  invalid input syntax for type integer'));
    expect(beforeFence).not.toMatch(/ERROR|duplicate key/);
    // No connection was left inside the duplicate's transaction (its claim names the key in hex).
    const hex = Buffer.from(`done:${key}`).toString('hex');
    const open = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND query LIKE $1`,
      [`%${hex}%`],
    );
    expect(open.rows[0].n).toBe(0);
  });

  describe('the database restarted mid-run', () => {
    it('calls that need the store fail with StoreError while it is down and work after; no token or claim is lost', async () => {
      const options = () => ({
        baseUrl: provider.url,
        auth: { tokenUrl: `${provider.url}/oauth/token`, clientId: 'restart-client', clientSecret: 's' },
        store,
        maxRetries: 0,
      });
      const runs: string[] = [];
      const handlerOf = (api: InstantClient) =>
        receivedPaymentsHandler(api, { claim: { waitMs: 200 }, onPayment: (p) => void runs.push(p.endToEndId) });
      const deliver = (handler: (r: Request) => Promise<Response>, e2eid: string) =>
        handler(
          new Request('http://127.0.0.1/hook/recebidos', {
            method: 'POST',
            body: JSON.stringify({ recebidos: [{ endToEndId: e2eid, valor: '10.00' }] }),
          }),
        ).then((r) => r.status);

      const api = new InstantClient(options());
      await api.instant.get(E2E(1));
      const tokens = provider.tokenRequests.form;
      expect(await deliver(handlerOf(api), E2E(1))).toBe(200);
      expect(runs).toEqual([E2E(1)]);

      await db.halt();
      // A process that holds the token keeps calling; one that must ask the store gets a typed error.
      await expect(api.instant.get(E2E(1))).resolves.toMatchObject({ endToEndId: E2E(1) });
      await expect(new InstantClient(options()).instant.get(E2E(1))).rejects.toBeInstanceOf(StoreError);
      expect(await deliver(handlerOf(api), E2E(2))).toBe(500);
      const cashOut = new CashOutClient({
        baseUrl: provider.url,
        auth: { clientId: 'c', clientSecret: 's' },
        store,
        maxRetries: 0,
      });
      await expect(
        cashOut.pay({ key: '123e4567-e89b-12d3-a456-426614174000', amount: '1.00', creditorDocument: '52998224725' }),
      ).rejects.toBeInstanceOf(StoreError);
      expect(provider.orderPosts).toBe(0);

      await db.start();
      const fresh = new InstantClient(options());
      await expect(fresh.instant.get(E2E(1))).resolves.toMatchObject({ endToEndId: E2E(1) });
      expect(provider.tokenRequests.form).toBe(tokens);
      const handler = handlerOf(fresh);
      expect(await deliver(handler, E2E(1))).toBe(200);
      expect(await deliver(handler, E2E(2))).toBe(200);
      expect(runs).toEqual([E2E(1), E2E(2)]);
    }, 30_000);
  });
});
