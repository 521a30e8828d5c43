/**
 * A PostgreSQL database of a test file's own: a fresh database on the server the run shares
 * (test/support/shared-postgres.ts, in the mutation run), else on a server of its own
 * (`startPostgres()`). A test that stops or restarts the server, or reads its log, starts its own.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { startPostgres } from './postgres.ts';
import type { SharedPostgres } from './shared-postgres.ts';

export interface TestDatabase {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url: string;
  port: number;
  /** Drops the database (or stops its server). Safe to call twice. */
  stop(): Promise<void>;
}

/** A database nobody is connected to this long after its creation was left by a file that never reached its `stop()`. */
const ABANDONED_MS = 60_000;

export async function startTestDatabase(
  shared: SharedPostgres | undefined = inject('sharedPostgres'),
): Promise<TestDatabase> {
  if (!shared) return startPostgres();
  const admin = new pg.Client({ connectionString: shared.url });
  await admin.connect();
  // A file stopped at a mutant's first failure (Stryker's bail) or cut by a time-out never drops
  // its database: the next file drops those, so a long run does not fill the disk.
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database d WHERE datname LIKE 'test\\_%'
       AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
  );
  for (const { datname } of rows) {
    if (Date.now() - Number(datname.split('_')[1]) > ABANDONED_MS) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
    }
  }
  const name = `test_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = `postgres://postgres@127.0.0.1:${shared.port}/${name}`;
  // Connected while the file lives: a database with a connection is never taken for abandoned.
  const keeper = new pg.Client({ connectionString: url });
  keeper.on('error', () => undefined);
  await keeper.connect();
  await admin.end();
  let dropped = false;
  return {
    url,
    port: shared.port,
    async stop() {
      if (dropped) return;
      dropped = true;
      await keeper.end();
      const client = new pg.Client({ connectionString: shared.url });
      await client.connect();
      // FORCE: a connection a failed test left open must not keep the database.
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}
