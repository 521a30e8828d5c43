/**
 * A PostgreSQL database of a test file's own: a fresh database on the server the run shares
 * (test/support/shared-postgres.ts, in the mutation run), else on a server of its own
 * (`startPostgres()`). A test that stops or restarts the server, or reads its log, starts its own.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { startPostgres } from './postgres.ts';

export interface TestDatabase {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url: string;
  port: number;
  /** Drops the database (or stops its server). Safe to call twice. */
  stop(): Promise<void>;
}

export async function startTestDatabase(): Promise<TestDatabase> {
  const shared = inject('sharedPostgres');
  if (!shared) return startPostgres();
  const name = `test_${process.pid}_${Math.random().toString(36).slice(2)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: shared.url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  let dropped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${shared.port}/${name}`,
    port: shared.port,
    async stop() {
      if (dropped) return;
      dropped = true;
      // FORCE: a connection a failed test left open must not keep the database.
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
