/**
 * The store in PostgreSQL, over a `pg.Pool` the user gives (typed structurally: the SDK itself
 * never imports `pg`). Two tables: leases (owner and expiry, judged by the database's clock) and
 * values (with an optional expiry). Every method is one statement; `migrate()` creates the
 * tables under a transaction-scoped advisory lock, so any number of processes may run it at once.
 */
import { createSealer, type EncryptionKey } from './crypto.ts';
import { StoreError, type Sealer, type Store } from './types.ts';

/** What the store needs of a query result (`pg.QueryResult`). */
export interface PgQueryResult {
  rows: Array<Record<string, unknown>>;
  rowCount: number | null;
}

/** What the store needs of a pooled connection (`pg.PoolClient`). */
export interface PgClientLike {
  /** Runs one statement with its `$1`… parameters. */
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
  /** Gives the connection back to the pool (an error destroys it). */
  release(error?: Error | boolean): void;
}

/** What the store needs of a `pg.Pool`. */
export interface PgPoolLike {
  /** Runs one statement with its `$1`… parameters on any pooled connection. */
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
  /** Takes a connection from the pool (for a transaction). */
  connect(): Promise<PgClientLike>;
}

/** Options of `createPostgresStore()`. */
export interface PostgresStoreOptions {
  /** A `pg.Pool` (or anything with its `query` and `connect`). Give it an `error` listener. */
  pool: PgPoolLike;
  /**
   * 32 bytes (or their base64, or an AES-GCM `CryptoKey`) that seal tokens and payment intents
   * before they are written. Without it the store keeps no tokens (a client given this store
   * throws), and payment intents are written in plain JSON.
   */
  encryptionKey?: EncryptionKey;
  /** Prefix of the two table names (default `instant_payments`): `<prefix>_leases`, `<prefix>_values`. */
  tablePrefix?: string;
}

export interface PostgresStore extends Store {
  /** Creates the tables when missing. Safe to run from many processes at once, and again. */
  migrate(): Promise<void>;
  /** Deletes expired values and leases; the store works without it, the tables just grow. */
  prune(): Promise<void>;
}

/** Key of the advisory lock `migrate()` holds (any fixed 64-bit number). */
const MIGRATE_LOCK = 7_042_513_377_001;

/**
 * The fleet store over `options.pool`: give it to every client and handler of every process
 * (`store`), after `await store.migrate()` once at start.
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const { pool } = options;
  if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') {
    throw new TypeError('pool must be a pg.Pool');
  }
  const prefix = options.tablePrefix ?? 'instant_payments';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) throw new TypeError('tablePrefix must be a lowercase SQL identifier');
  const leases = `${prefix}_leases`;
  const values = `${prefix}_values`;
  const sealer: Sealer | undefined = options.encryptionKey === undefined ? undefined : createSealer(options.encryptionKey);

  const query = async (text: string, params: unknown[]): Promise<PgQueryResult> => {
    try {
      return await pool.query(text, params);
    } catch (error) {
      throw storeError(error);
    }
  };
  const live = 'expires_at IS NULL OR expires_at > now()';

  return {
    sealer,

    async lease(name, owner, ttlMs) {
      const result = await query(
        `INSERT INTO ${leases} (name, owner, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
         WHERE ${leases}.owner = EXCLUDED.owner OR ${leases}.expires_at <= now()`,
        [name, owner, Math.max(1, Math.ceil(ttlMs))],
      );
      return result.rowCount === 1;
    },

    async unlease(name, owner) {
      await query(`DELETE FROM ${leases} WHERE name = $1 AND owner = $2`, [name, owner]);
    },

    async get(key) {
      const result = await query(`SELECT value FROM ${values} WHERE key = $1 AND (${live})`, [key]);
      const value = result.rows[0]?.['value'];
      return typeof value === 'string' ? value : undefined;
    },

    async set(key, value, ttlMs) {
      await query(
        `INSERT INTO ${values} (key, value, expires_at)
         VALUES ($1, $2, CASE WHEN $3::bigint IS NULL THEN NULL ELSE now() + $3::bigint * interval '1 millisecond' END)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [key, value, ttlMs === undefined ? null : Math.max(1, Math.ceil(ttlMs))],
      );
    },

    async delete(key, ifValue) {
      if (ifValue === undefined) await query(`DELETE FROM ${values} WHERE key = $1`, [key]);
      else await query(`DELETE FROM ${values} WHERE key = $1 AND value = $2`, [key, ifValue]);
    },

    async list(keyPrefix) {
      const pattern = `${keyPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const result = await query(`SELECT key, value FROM ${values} WHERE key LIKE $1 AND (${live}) ORDER BY key`, [pattern]);
      return result.rows.map((row) => ({ key: String(row['key']), value: String(row['value']) }));
    },

    async migrate() {
      let client: PgClientLike;
      try {
        client = await pool.connect();
      } catch (error) {
        throw storeError(error);
      }
      let failed: unknown;
      try {
        await client.query('BEGIN');
        // Two processes creating the same table at once can both miss it and one then fails on
        // the catalogue's unique index: the lock makes them take turns.
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${leases} (
             name text COLLATE "C" PRIMARY KEY,
             owner text NOT NULL,
             expires_at timestamptz NOT NULL)`,
        );
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${values} (
             key text COLLATE "C" PRIMARY KEY,
             value text NOT NULL,
             expires_at timestamptz)`,
        );
        await client.query('COMMIT');
      } catch (error) {
        failed = error;
        await client.query('ROLLBACK').catch(() => undefined);
        throw storeError(error);
      } finally {
        client.release(failed instanceof Error ? failed : undefined);
      }
    },

    async prune() {
      await query(`DELETE FROM ${values} WHERE expires_at <= now()`, []);
      await query(`DELETE FROM ${leases} WHERE expires_at <= now()`, []);
    },
  };
}

/** A driver failure as a `StoreError`: its SQLSTATE code in the message, never the statement's values. */
function storeError(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  return new StoreError(`PostgreSQL store failed${code ? ` (${code})` : ''}`, { cause: error });
}
