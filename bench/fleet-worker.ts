/**
 * One process of the fleet bench (bench/fleet.ts; spawned with test/store/fleet-process.ts). As a
 * user would: the built package, an `InstantClient` on the loopback service at `SERVICE_URL`
 * with a store, and its `receivedPaymentsHandler` served by a Node http server through `.node`.
 * `STORE` is `postgres` (the store at `DB_URL`, its statements counted through the pool) or
 * `memory`. `onPayment` writes one row into the user's own `fleet_paid` table through `tx`.
 *
 * IPC: `stats` answers the e2eids called back and the statements sent since the last `stats`.
 * The parent ends it with SIGKILL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { countingPool } from '../test/support/postgres.ts';
import { loadSdk } from './support.ts';

const sdk = await loadSdk();
const { createPostgresStore } = (await import(
  'instant-payments/postgres' as string
)) as typeof import('../src/postgres.ts');

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const postgres = env('STORE') === 'postgres';
// pg's default size (10), as docs/many-processes.md says: the claims' connections, and one for
// the marks' reads (those made at once share it).
const pool = postgres ? new pg.Pool({ connectionString: env('DB_URL') }) : undefined;
pool?.on('error', () => undefined);
const counted = pool && countingPool(pool);
const store = counted
  ? createPostgresStore({ pool: counted.pool, encryptionKey: env('ENCRYPTION_KEY') })
  : sdk.createMemoryStore();
const service = env('SERVICE_URL');
const api = new sdk.InstantClient({
  baseUrl: service,
  auth: { tokenUrl: `${service}/oauth/token`, clientId: 'fleet-bench', clientSecret: 'fleet-bench-secret' },
  store,
});

let called: string[] = [];
const handler = sdk.receivedPaymentsHandler(api, {
  async onPayment(payment, { tx }) {
    called.push(payment.endToEndId);
    await tx?.query('INSERT INTO fleet_paid (e2eid, pid) VALUES ($1, $2)', [payment.endToEndId, process.pid]);
  },
});
const server = createServer(handler.node);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ event: 'ready', port: (server.address() as AddressInfo).port });
});

let statementsSeen = 0;
process.on('message', (command: { id: number; cmd: 'stats' }) => {
  const statements = (counted?.count() ?? 0) - statementsSeen;
  statementsSeen += statements;
  process.send?.({ id: command.id, result: { called, statements } });
  called = [];
});
