/**
 * The PostgreSQL store's answers to what its driver does, on a scripted `pg` pool (no database):
 * what a claim resolves or throws, which connections go back to the pool and which are
 * destroyed, when a held claim counts as lost and what its signal then says. The same on a real
 * PostgreSQL, with cut and silent links: claims.test.ts and postgres-store.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClaimBusyError, ConfigurationError, StoreError } from '../../src/index.ts';
import { createPostgresStore, type PgClientLike, type PgPoolLike, type PgQueryResult } from '../../src/postgres.ts';
import type { ClaimTerms, HeldClaim } from '../../src/store/types.ts';

afterEach(() => {
  vi.useRealTimers();
});

const result = (
  command: string,
  rowCount: number | null,
  rows: Array<Record<string, unknown>> = [],
): PgQueryResult => ({
  command,
  rowCount,
  rows,
});

/** The claim statement's answers: the lock `free` or not, and how many rows its insert wrote. */
const takeAnswers = (free: boolean, inserted: number) => [
  result('SELECT', 1, [{ free }]),
  result('INSERT', inserted),
  result('BEGIN', null),
];

const isTake = (text: string) => text.includes('pg_try_advisory_xact_lock');

/** How the one connection answers when a test does not say otherwise: the claim taken, every other statement done. */
const standard = async (text: string): Promise<PgQueryResult | PgQueryResult[]> =>
  isTake(text) ? takeAnswers(true, 1) : result(text.split(' ')[0]!, null);

/** A driver failure with its SQLSTATE. */
const sqlError = (code: string, message = 'driver failure') => Object.assign(new Error(message), { code });

/**
 * A pool of one connection. `read` answers the pool's own statements (default: nothing found),
 * `answer` the connection's (default `standard`). Records what the connection was sent, each
 * `release` and its error listeners; `fail(error)` is the connection failing.
 */
function scriptedPool(
  script: {
    read?: (text: string, values: unknown[]) => Promise<PgQueryResult>;
    answer?: (text: string) => Promise<PgQueryResult | PgQueryResult[]>;
  } = {},
) {
  const sent: string[] = [];
  const releases: Array<Error | boolean | undefined> = [];
  const listeners = new Set<(error: Error) => void>();
  const client: PgClientLike = {
    query: (text) => {
      sent.push(text);
      return (script.answer ?? standard)(text) as Promise<PgQueryResult>;
    },
    release: (error) => void releases.push(error),
    on: (event, listener) => event === 'error' && listeners.add(listener),
    removeListener: (event, listener) => event === 'error' && listeners.delete(listener),
  };
  const pool: PgPoolLike = {
    query: (query, values) => {
      const [text, params] = typeof query === 'string' ? [query, values] : [query.text, query.values];
      return (script.read ?? (async () => result('SELECT', 0)))(text, params ?? []);
    },
    connect: async () => client,
  };
  /** As an EventEmitter does, an 'error' with no listener is thrown (in a pool it would crash the process). */
  const fail = (error: Error) => {
    if (listeners.size === 0) throw error;
    for (const listener of listeners) listener(error);
  };
  return { pool, sent, releases, listeners, fail };
}

/**
 * The connection fails while the statement `during` picks is out, as `pg` tells it: its error
 * event (which must throw nothing) and then the statement's rejection. Resolves what `call`
 * (started on the store over that pool) settled with.
 */
async function connectionFailsDuring(
  during: (text: string) => boolean,
  call: (pool: PgPoolLike) => Promise<unknown>,
): Promise<{ outcome: unknown; reset: Error }> {
  let fails!: (error: Error) => void;
  const { pool, fail, sent } = scriptedPool({
    answer: (text) => (during(text) ? new Promise<never>((_resolve, reject) => (fails = reject)) : standard(text)),
  });
  const outcome = failure(call(pool));
  await vi.waitUntil(() => sent.some(during));
  const reset = sqlError('08006', 'Connection terminated unexpectedly');
  expect(() => fail(reset)).not.toThrow();
  fails(reset);
  return { outcome: await outcome, reset };
}

const TERMS: ClaimTerms = { leaseMs: 300, waitMs: 1_000, doneTtlMs: 60_000 };

/** A claim `store.claim` took (failing the test otherwise). */
async function taken(claim: Promise<HeldClaim | 'done' | 'running'>): Promise<HeldClaim & { tx?: unknown }> {
  const held = await claim;
  if (typeof held === 'string') throw new Error(`claim not taken: ${held}`);
  return held;
}

/** What `promise` rejected with. */
const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );

/** Advances the fake clock: `signal` is still quiet after `quietFor` ms, aborted `within` ms later. */
async function abortsAfter(signal: AbortSignal, quietFor: number, within: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(quietFor);
  expect(signal.aborted).toBe(false);
  await vi.advanceTimersByTimeAsync(within);
  expect(signal.aborted).toBe(true);
}

describe('taking a claim', () => {
  it.each([
    [true, 'done'],
    [false, 'running'],
  ] as const)(
    'lock free %s, mark there: %s; the connection goes back once its ROLLBACK is answered',
    async (free, outcome) => {
      let rolledBack!: () => void;
      const { pool, sent, releases, listeners } = scriptedPool({
        answer: async (text) =>
          text === 'ROLLBACK'
            ? new Promise((resolve) => (rolledBack = () => resolve(result('ROLLBACK', null))))
            : takeAnswers(free, 0),
      });
      expect(await createPostgresStore({ pool }).claim('done:k', TERMS)).toBe(outcome);
      expect(sent.at(-1)).toBe('ROLLBACK');
      expect(releases).toEqual([]);
      rolledBack();
      await vi.waitUntil(() => releases.length > 0);
      expect(releases).toEqual([undefined]);
      expect(listeners.size).toBe(0);
    },
  );

  it("a duplicate's ROLLBACK that fails destroys its connection", async () => {
    const { pool, releases } = scriptedPool({
      answer: async (text) => (text === 'ROLLBACK' ? Promise.reject(sqlError('08006')) : takeAnswers(false, 0)),
    });
    expect(await createPostgresStore({ pool }).claim('done:k', TERMS)).toBe('running');
    await vi.waitUntil(() => releases.length > 0);
    expect(releases[0]).toMatchObject({ code: '08006' });
  });

  it('a committed mark found by the first read answers done without taking a connection; a read skipped when the caller just looked', async () => {
    let connects = 0;
    const { pool } = scriptedPool({
      read: async () => result('SELECT', 1, [{ key: 'done:k', value: '2026-11-29T08:00:00.000Z' }]),
    });
    const counted: PgPoolLike = { query: pool.query, connect: () => (connects++, pool.connect()) };
    const store = createPostgresStore({ pool: counted });
    expect(await store.claim('done:k', TERMS)).toBe('done');
    expect(connects).toBe(0);
    const held = await taken(store.claim('done:k', { ...TERMS, markChecked: true }));
    expect(connects).toBe(1);
    await held.release();
  });

  it('a lock wait that ran out (55P03) is ClaimBusyError; the connection, left idle, goes back to the pool', async () => {
    const { pool, releases, listeners } = scriptedPool({
      answer: async () => Promise.reject(sqlError('55P03', 'canceling statement due to lock timeout')),
    });
    const error = await failure(createPostgresStore({ pool }).claim('done:k', TERMS));
    expect(error).toBeInstanceOf(ClaimBusyError);
    expect((error as Error).message).toBe('Another process is handling this notification');
    expect(releases).toEqual([undefined]);
    expect(listeners.size).toBe(0);
  });

  it("any other failure of the claim's statement is a StoreError with its SQLSTATE, and destroys the connection", async () => {
    const broken = sqlError('57P01', 'terminating connection due to administrator command');
    const { pool, releases, listeners } = scriptedPool({ answer: async () => Promise.reject(broken) });
    const error = await failure(createPostgresStore({ pool }).claim('done:k', TERMS));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toBe('PostgreSQL store failed (57P01)');
    expect((error as Error).cause).toBe(broken);
    expect(releases).toEqual([broken]);
    expect(listeners.size).toBe(0);
    // A failure that is not an Error still destroys it.
    const odd = scriptedPool({ answer: async () => Promise.reject('gone') });
    expect(await failure(createPostgresStore({ pool: odd.pool }).claim('done:k', TERMS))).toMatchObject({
      message: 'PostgreSQL store failed',
    });
    expect(odd.releases[0]).toBeInstanceOf(Error);
  });

  it("an answer without the insert's result is a StoreError, and destroys the connection", async () => {
    const { pool, releases } = scriptedPool({ answer: async () => [result('SELECT', 1, [{ free: true }])] });
    const error = await failure(createPostgresStore({ pool }).claim('done:k', TERMS));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toBe("PostgreSQL answered the claim without the insert's result");
    expect(releases[0]).toBeInstanceOf(Error);
  });

  it("a failed read is a StoreError; once the request's signal aborted, its reason instead", async () => {
    const { pool } = scriptedPool({ read: async () => Promise.reject(sqlError('08006')) });
    const store = createPostgresStore({ pool });
    expect(await failure(store.claim('done:k', TERMS))).toMatchObject({
      name: 'StoreError',
      message: 'PostgreSQL store failed (08006)',
    });
    const controller = new AbortController();
    const hangUp = new Error('the service hung up');
    const stalled = scriptedPool({ read: () => new Promise<never>(() => undefined) });
    const claim = failure(
      createPostgresStore({ pool: stalled.pool }).claim('done:k', { ...TERMS, signal: controller.signal }),
    );
    controller.abort(hangUp);
    expect(await claim).toBe(hangUp);
  });

  it('a database that does not answer: StoreError after claim.waitMs and a second; a connection that comes late goes back', async () => {
    vi.useFakeTimers();
    const { pool, releases } = scriptedPool();
    let arrive!: () => void;
    const late: PgPoolLike = {
      query: pool.query,
      connect: () => new Promise((resolve) => (arrive = () => void pool.connect().then(resolve))),
    };
    const claim = failure(createPostgresStore({ pool: late }).claim('done:k', { ...TERMS, waitMs: 200 }));
    await vi.advanceTimersByTimeAsync(1_199);
    await vi.advanceTimersByTimeAsync(1);
    expect(await claim).toMatchObject({ name: 'StoreError', message: 'PostgreSQL did not answer within 1200 ms' });
    arrive();
    await vi.waitFor(() => expect(releases).toEqual([undefined]));
  });
});

describe('taking a claim: more of the driver', () => {
  it('the look for a committed mark is one prepared statement: the same name every time, on any connection', async () => {
    const names: unknown[] = [];
    const { pool } = scriptedPool();
    const store = createPostgresStore({
      pool: {
        query: (query, values) => (
          names.push(typeof query === 'string' ? undefined : query.name), pool.query(query, values)
        ),
        connect: pool.connect,
      },
    });
    await (await taken(store.claim('done:a', TERMS))).release();
    await (await taken(store.claim('done:b', TERMS))).release();
    expect(names).toEqual(['instant_payments_values_read', 'instant_payments_values_read']);
  });

  it('connections without on and removeListener (optional in PgClientLike) still migrate, claim and commit', async () => {
    const { pool, sent } = scriptedPool();
    const bare: PgPoolLike = {
      query: pool.query,
      connect: async () => {
        const client = await pool.connect();
        return { query: client.query, release: client.release };
      },
    };
    const store = createPostgresStore({ pool: bare });
    await store.migrate();
    await (await taken(store.claim('done:k', TERMS))).commit();
    expect(sent.at(-1)).toBe('COMMIT');
  });

  it("the request's signal aborting while the claim's statement is out: its reason, and the connection is destroyed", async () => {
    const controller = new AbortController();
    const { pool, sent, releases } = scriptedPool({ answer: () => new Promise<never>(() => undefined) });
    const claim = failure(createPostgresStore({ pool }).claim('done:k', { ...TERMS, signal: controller.signal }));
    await vi.waitUntil(() => sent.length === 1);
    const hangUp = new Error('the service hung up');
    controller.abort(hangUp);
    expect(await claim).toBe(hangUp);
    expect(releases[0]).toBe(hangUp);
  });

  it("a signal aborted with a reason that is not an object (abort('stop')) rejects with that reason as it is", async () => {
    const controller = new AbortController();
    const { pool, sent, releases } = scriptedPool({ answer: () => new Promise<never>(() => undefined) });
    const claim = failure(createPostgresStore({ pool }).claim('done:k', { ...TERMS, signal: controller.signal }));
    await vi.waitUntil(() => sent.length === 1);
    controller.abort('stop');
    expect(await claim).toBe('stop');
    expect(releases[0]).toBeInstanceOf(Error);
  });

  it('a driver that rejects with no error at all is still a StoreError, with that nothing as its cause', async () => {
    const { pool } = scriptedPool({ read: () => Promise.reject(null) });
    const error = await failure(createPostgresStore({ pool }).claim('done:k', TERMS));
    expect(error).toMatchObject({ name: 'StoreError', message: 'PostgreSQL store failed' });
    expect((error as Error).cause).toBeNull();
  });
});

describe('taking a claim: what a caller is told', () => {
  it.each([
    ['the look for the mark', { read: () => new Promise<never>(() => undefined) }],
    ["the claim's statement", { answer: () => new Promise<never>(() => undefined) }],
  ])('%s unanswered: StoreError saying how long it waited', async (_step, script) => {
    vi.useFakeTimers();
    const { pool } = scriptedPool(script);
    const claim = failure(createPostgresStore({ pool }).claim('done:k', { ...TERMS, waitMs: 200 }));
    await vi.advanceTimersByTimeAsync(1_200);
    expect(await claim).toMatchObject({ name: 'StoreError', message: 'PostgreSQL did not answer within 1200 ms' });
  });

  it("a connection that fails during the claim's statement throws nothing from its error event; the claim fails", async () => {
    const { outcome, reset } = await connectionFailsDuring(isTake, (pool) =>
      createPostgresStore({ pool }).claim('done:k', TERMS),
    );
    expect(outcome).toMatchObject({ name: 'StoreError', cause: reset });
  });

  it('ClaimBusyError keeps the lock timeout as its cause; an answer without the insert leaves no listener behind', async () => {
    const timeout = sqlError('55P03', 'canceling statement due to lock timeout');
    const busy = scriptedPool({ answer: async () => Promise.reject(timeout) });
    expect(await failure(createPostgresStore({ pool: busy.pool }).claim('done:k', TERMS))).toMatchObject({
      name: 'ClaimBusyError',
      cause: timeout,
    });
    const odd = scriptedPool({ answer: async () => [result('SELECT', 1, [{ free: true }])] });
    await failure(createPostgresStore({ pool: odd.pool }).claim('done:k', TERMS));
    expect(odd.listeners.size).toBe(0);
  });
});

describe('a held claim', () => {
  it('an idle claim is kept alive by a SELECT 1 every third of the lease; one that fails loses it: signal, commit and tx say so', async () => {
    vi.useFakeTimers();
    const broken = sqlError('08006');
    let pings = 0;
    const { pool, sent, releases } = scriptedPool({
      answer: async (text) => (text === 'SELECT 1' && ++pings === 2 ? Promise.reject(broken) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.filter((text) => text === 'SELECT 1')).toHaveLength(1);
    expect(held.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(held.signal.aborted).toBe(true);
    const reason = held.signal.reason as StoreError;
    expect(reason).toBeInstanceOf(StoreError);
    expect(reason.message).toBe(
      'The claim was lost: its database link stopped answering; nothing it wrote is committed',
    );
    expect(reason.cause).toBe(broken);
    // The connection is closed, not given back: the server rolls the transaction back.
    expect(releases).toEqual([reason]);
    expect(await failure(held.commit())).toBe(reason);
    expect(await failure((held.tx as PgClientLike).query('SELECT 2'))).toBe(reason);
    await held.release();
    expect(sent).not.toContain('COMMIT');
    expect(sent).not.toContain('ROLLBACK');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent.filter((text) => text === 'SELECT 1')).toHaveLength(2);
  });

  it('a SELECT 1 unanswered for a third of the lease loses the claim, saying how long it waited', async () => {
    vi.useFakeTimers();
    const { pool } = scriptedPool({
      answer: (text) => (text === 'SELECT 1' ? new Promise<never>(() => undefined) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    await abortsAfter(held.signal, 199, 1);
    expect((held.signal.reason as StoreError).cause).toMatchObject({
      name: 'StoreError',
      message: 'PostgreSQL did not answer within 100 ms',
    });
  });

  it("a statement of the callback's that answers within the lease keeps it; one silent past the lease loses it", async () => {
    vi.useFakeTimers();
    let answerIt!: () => void;
    const { pool, sent } = scriptedPool({
      answer: (text) =>
        text.startsWith('UPDATE')
          ? new Promise((resolve) => (answerIt = () => resolve(result('UPDATE', 1))))
          : standard(text),
    });
    const store = createPostgresStore({ pool });
    const held = await taken(store.claim('done:k', TERMS));
    const tx = held.tx as PgClientLike;
    const first = tx.query('UPDATE orders SET paid = 1');
    await vi.advanceTimersByTimeAsync(250);
    answerIt();
    expect(await first).toMatchObject({ command: 'UPDATE' });
    // No SELECT 1 while it ran: its own statement kept the claim alive.
    expect(sent).not.toContain('SELECT 1');
    void tx.query('UPDATE orders SET paid = 2');
    await abortsAfter(held.signal, 300, 100);
    expect((held.signal.reason as Error).message).toBe(
      'The claim was lost: no answer from the database for 300 ms; nothing it wrote is committed',
    );
  });

  it('a connection that fails while the claim is held loses it at once', async () => {
    const { pool, fail, listeners } = scriptedPool();
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    const reset = new Error('Connection terminated unexpectedly');
    fail(reset);
    expect(held.signal.reason).toMatchObject({
      message: 'The claim was lost: its database connection failed; nothing it wrote is committed',
      cause: reset,
    });
    expect(listeners.size).toBe(0);
  });

  it('a statement silent for exactly the lease still holds it; the next look past the lease loses it', async () => {
    vi.useFakeTimers();
    const { pool } = scriptedPool({
      answer: (text) => (text.startsWith('UPDATE') ? new Promise<never>(() => undefined) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    void (held.tx as PgClientLike).query('UPDATE orders SET paid = 1');
    await abortsAfter(held.signal, 300, 100);
  });

  it('a connection that fails during a SELECT 1 is given up once, though both the error and the ping tell it', async () => {
    vi.useFakeTimers();
    let failPing!: (error: Error) => void;
    const { pool, fail, releases } = scriptedPool({
      answer: (text) =>
        text === 'SELECT 1' ? new Promise<never>((_resolve, reject) => (failPing = reject)) : standard(text),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    await vi.advanceTimersByTimeAsync(100);
    const reset = new Error('Connection terminated unexpectedly');
    fail(reset);
    failPing(reset);
    await vi.advanceTimersByTimeAsync(0);
    expect((held.signal.reason as Error).message).toContain('its database connection failed');
    expect(releases).toHaveLength(1);
  });

  it('after its statements are answered an idle claim is pinged again, and judged from the last answer', async () => {
    vi.useFakeTimers();
    let silent = false;
    const { pool, sent } = scriptedPool({
      answer: (text) => (text.startsWith('UPDATE') && silent ? new Promise<never>(() => undefined) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    const tx = held.tx as PgClientLike;
    await tx.query('UPDATE orders SET paid = 1');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(held.signal.aborted).toBe(false);
    expect(sent.filter((text) => text === 'SELECT 1').length).toBeGreaterThanOrEqual(9);
    // A statement silent from now on: the last answer was the SELECT 1 at 1,000 ms.
    silent = true;
    void tx.query('UPDATE orders SET paid = 2');
    await abortsAfter(held.signal, 350, 100);
  });

  it('commit: a COMMIT unanswered for the lease is a StoreError that says so, and destroys the connection', async () => {
    vi.useFakeTimers();
    const { pool, releases } = scriptedPool({
      answer: (text) => (text === 'COMMIT' ? new Promise<never>(() => undefined) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    const commit = failure(held.commit());
    await vi.advanceTimersByTimeAsync(300);
    const error = (await commit) as StoreError;
    expect(error.message).toContain('COMMIT of the done mark failed or went unanswered');
    expect(error.cause).toMatchObject({ message: 'PostgreSQL did not answer within 300 ms' });
    expect(releases[0]).toBe(error.cause);
  });

  it('commit: COMMIT answered ROLLBACK (a statement had failed) is a StoreError; the connection goes back', async () => {
    const { pool, releases } = scriptedPool({
      answer: async (text) => (text === 'COMMIT' ? result('ROLLBACK', null) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    expect(await failure(held.commit())).toMatchObject({
      name: 'StoreError',
      message: "A statement in the callback's transaction failed: the transaction rolled back, nothing is marked done",
    });
    expect(releases).toEqual([undefined]);
  });

  it('commit: a COMMIT that fails is a StoreError saying both or neither are in, and destroys the connection', async () => {
    const broken = sqlError('08006');
    const { pool, releases } = scriptedPool({
      answer: async (text) => (text === 'COMMIT' ? Promise.reject(broken) : standard(text)),
    });
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    const error = await failure(held.commit());
    expect(error).toMatchObject({
      name: 'StoreError',
      message:
        "COMMIT of the done mark failed or went unanswered: the mark and the callback's writes are both in or both out",
      cause: broken,
    });
    expect(releases).toEqual([broken]);
  });

  it('after commit the transaction has ended: commit and tx refuse, release sends nothing', async () => {
    const { pool, sent, releases, listeners } = scriptedPool();
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    await held.commit();
    expect(releases).toEqual([undefined]);
    expect(listeners.size).toBe(0);
    const ended = "The claim's transaction has ended";
    expect(await failure(held.commit())).toMatchObject({ name: 'StoreError', message: ended });
    expect(await failure((held.tx as PgClientLike).query('SELECT 2'))).toMatchObject({ message: ended });
    await held.release();
    expect(sent.filter((text) => text === 'COMMIT' || text === 'ROLLBACK')).toEqual(['COMMIT']);
  });

  it('a claim ended by commit or release leaves no timer behind, and a released one cannot commit', async () => {
    vi.useFakeTimers();
    const { pool } = scriptedPool();
    const store = createPostgresStore({ pool });
    const before = vi.getTimerCount();
    await (await taken(store.claim('done:a', TERMS))).commit();
    expect(vi.getTimerCount()).toBe(before);
    const released = await taken(store.claim('done:b', TERMS));
    await released.release();
    expect(vi.getTimerCount()).toBe(before);
    expect(await failure(released.commit())).toMatchObject({ message: "The claim's transaction has ended" });
  });

  it('release rolls back and gives the connection back once; a ROLLBACK that fails destroys it', async () => {
    const { pool, sent, releases } = scriptedPool();
    const held = await taken(createPostgresStore({ pool }).claim('done:k', TERMS));
    await held.release();
    await held.release();
    expect(sent.filter((text) => text === 'ROLLBACK')).toHaveLength(1);
    expect(releases).toEqual([undefined]);
    const broken = sqlError('08006');
    const failing = scriptedPool({
      answer: async (text) => (text === 'ROLLBACK' ? Promise.reject(broken) : standard(text)),
    });
    await (await taken(createPostgresStore({ pool: failing.pool }).claim('done:k', TERMS))).release();
    expect(failing.releases).toEqual([broken]);
  });
});

describe('building the store', () => {
  it('refuses a pool without query or connect, a clock that is not a function, and a table prefix that is not a short lowercase SQL name', () => {
    const { pool } = scriptedPool();
    const option = (build: () => unknown) => {
      try {
        build();
      } catch (error) {
        return error instanceof ConfigurationError ? `${error.option}: ${error.message}` : String(error);
      }
      return 'accepted';
    };
    expect(option(() => createPostgresStore({ pool: { query: pool.query } as PgPoolLike }))).toBe(
      'pool: pool must be a pg.Pool',
    );
    expect(option(() => createPostgresStore({ pool: { connect: pool.connect } as PgPoolLike }))).toBe(
      'pool: pool must be a pg.Pool',
    );
    expect(option(() => createPostgresStore({ pool: undefined as never }))).toBe('pool: pool must be a pg.Pool');
    expect(option(() => createPostgresStore({ pool, now: 5 as never }))).toMatch(/^now: /);
    const refused = 'tablePrefix: tablePrefix must be a lowercase SQL identifier of at most 41 characters';
    for (const tablePrefix of [
      'Shop',
      '1shop',
      'shop-eu',
      ' shop',
      'shop ',
      '',
      'a'.repeat(42),
      7 as never,
      ['shop'] as never,
    ]) {
      expect(option(() => createPostgresStore({ pool, tablePrefix }))).toBe(refused);
    }
    for (const tablePrefix of ['shop', '_shop_2', 'a'.repeat(41)]) {
      expect(option(() => createPostgresStore({ pool, tablePrefix }))).toBe('accepted');
    }
  });

  it('every method works on the tables named after tablePrefix, and only on them', async () => {
    const texts: string[] = [];
    const { pool, sent } = scriptedPool({ read: async (text) => (texts.push(text), result('SELECT', 0)) });
    const store = createPostgresStore({ pool, tablePrefix: 'shop' });
    /** The statements `call` sent, on the pool and on its connection. */
    const all: string[] = [];
    const statements = async (call: () => Promise<unknown>) => {
      texts.length = 0;
      sent.length = 0;
      await call();
      all.push(...texts, ...sent);
      return [...texts, ...sent];
    };
    const leases = /\bshop_leases\b/;
    const values = /\bshop_values\b/;
    for (const call of [
      () => store.lease('l', 'a', 100),
      () => store.renew!('l', 'a', 100),
      () => store.unlease('l', 'a'),
    ]) {
      const [statement, ...more] = await statements(call);
      expect(statement).toMatch(leases);
      expect(more).toEqual([]);
    }
    for (const call of [
      () => store.get('k'),
      () => store.set('k', 'v', 100),
      () => store.delete('k'),
      () => store.delete('k', 'v'),
      () => store.list('k'),
    ]) {
      const [statement, ...more] = await statements(call);
      expect(statement).toMatch(values);
      expect(more).toEqual([]);
    }
    const [pruneValues, pruneLeases] = await statements(() => store.prune());
    expect(pruneValues).toMatch(values);
    expect(pruneLeases).toMatch(leases);
    const migration = await statements(() => store.migrate());
    expect(migration.filter((text) => leases.test(text))).toHaveLength(1);
    expect(migration.filter((text) => values.test(text))).toHaveLength(1);
    const [look, take] = await statements(async () => (await taken(store.claim('done:k', TERMS))).release());
    expect(look).toMatch(values);
    expect(take).toMatch(values);
    expect(all.join('\n')).not.toContain('instant_payments');
    // Without a prefix: instant_payments.
    const plain = scriptedPool({ read: async (text) => (texts.push(text), result('SELECT', 0)) });
    texts.length = 0;
    await createPostgresStore({ pool: plain.pool }).get('k');
    expect(texts[0]).toMatch(/\binstant_payments_values\b/);
  });

  it('list matches the prefix literally: % _ and \\ in it are escaped', async () => {
    const values: unknown[][] = [];
    const { pool } = scriptedPool({ read: async (_text, params) => (values.push(params), result('SELECT', 0)) });
    await createPostgresStore({ pool }).list('a%b_c\\d');
    expect(values).toEqual([['a\\%b\\_c\\\\d%']]);
  });
});

describe('migrate', () => {
  it('creates both tables in one transaction and gives the connection back', async () => {
    const { pool, sent, releases, listeners } = scriptedPool();
    await createPostgresStore({ pool, tablePrefix: 'shop' }).migrate();
    expect(sent[0]).toBe('BEGIN');
    // Processes migrating at once take turns: the lock comes before the tables.
    expect(sent[1]).toMatch(/^SELECT pg_advisory_xact_lock\(/);
    expect(sent.filter((text) => text.includes('CREATE TABLE IF NOT EXISTS shop_'))).toHaveLength(2);
    expect(sent.at(-1)).toBe('COMMIT');
    expect(releases).toEqual([undefined]);
    expect(listeners.size).toBe(0);
  });

  it('a connection failing during the migration crashes nothing: migrate fails with a StoreError', async () => {
    const { outcome, reset } = await connectionFailsDuring(
      (text) => text.startsWith('CREATE'),
      (pool) => createPostgresStore({ pool }).migrate(),
    );
    expect(outcome).toMatchObject({ name: 'StoreError', cause: reset });
  });

  it('a failure rolls back, destroys the connection and is a StoreError; so is a pool that gives none', async () => {
    const denied = sqlError('42501', 'permission denied for schema public');
    const { pool, sent, releases, listeners } = scriptedPool({
      answer: async (text) => (text.startsWith('CREATE') ? Promise.reject(denied) : standard(text)),
    });
    const error = await failure(createPostgresStore({ pool }).migrate());
    expect(error).toMatchObject({ name: 'StoreError', message: 'PostgreSQL store failed (42501)', cause: denied });
    expect(sent.at(-1)).toBe('ROLLBACK');
    expect(releases).toEqual([denied]);
    expect(listeners.size).toBe(0);
    const refused = sqlError('53300', 'too many connections');
    const empty: PgPoolLike = { query: pool.query, connect: () => Promise.reject(refused) };
    expect(await failure(createPostgresStore({ pool: empty }).migrate())).toMatchObject({
      name: 'StoreError',
      message: 'PostgreSQL store failed (53300)',
    });
  });
});
