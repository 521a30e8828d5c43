/**
 * The databases the mutation run's shared PostgreSQL holds: each file gets a fresh one and drops
 * it; one a file left behind (stopped at its first failure) is dropped by a later file, never
 * one a file still uses.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from './postgres.ts';
import { startTestDatabase } from './test-database.ts';

let server: TestPostgres;
let admin: pg.Client;

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
}, 30_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

const databases = async () =>
  (await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'test\\_%'")).rows
    .map((row) => row.datname)
    .sort();

it('drops what a stopped file left, keeps a database in use or just made, and its own at stop()', async () => {
  const old = Date.now() - 120_000;
  await admin.query(`CREATE DATABASE test_${old}_left`);
  await admin.query(`CREATE DATABASE test_${old}_used`);
  await admin.query(`CREATE DATABASE test_${Date.now()}_new`);
  const user = new pg.Client({ connectionString: server.url.replace(/postgres$/, `test_${old}_used`) });
  await user.connect();
  try {
    const db = await startTestDatabase({ url: server.url, port: server.port });
    const own = new URL(db.url).pathname.slice(1);
    const names = await databases();
    expect(names).not.toContain(`test_${old}_left`);
    expect(names).toContain(`test_${old}_used`);
    expect(names.filter((name) => name.endsWith('_new'))).toHaveLength(1);
    expect(names).toContain(own);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE t (id int)');
    await client.end();
    await db.stop();
    await db.stop();
    expect(await databases()).not.toContain(own);
  } finally {
    await user.end();
  }
});
