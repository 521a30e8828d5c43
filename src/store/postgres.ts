/**
 * The store in PostgreSQL, over a `pg.Pool` the user gives (typed structurally: the SDK itself
 * never imports `pg`). Two tables: leases (owner and expiry, judged by the database's clock) and
 * values (with an optional expiry). Every method is one statement, and reads made while one is
 * out share the next (`read-batches.ts`); `migrate()` creates the tables under a
 * transaction-scoped advisory lock, so any number of processes may run it at once.
 *
 * Its `claim` holds a once-only claim with a transaction: a plain read looks for a committed done
 * mark (a duplicate is answered by it alone, as cheap as any read), then one round trip takes the
 * key's advisory lock, inserts the mark (uncommitted) and opens the transaction, the callback
 * writes through it, `COMMIT` ends it. A second delivery finding the lock taken answers
 * `'running'` at once: it never waits on the first one's row lock holding a connection, and
 * never causes an error (one would cost the server a logged ERROR and an abort).
 */
import { bounded } from '../internal/bounded.ts';
import { checkNowOption, ConfigurationError } from '../errors/failures.ts';
import { createSealer, toHex, type EncryptionKey } from './crypto.ts';
import { batchedReads } from './read-batches.ts';
import {
  ClaimBusyError,
  StoreError,
  type HeldClaim,
  type Sealer,
  type StoreQueryResult,
  type StoreTransaction,
  type TransactionalStore,
} from './types.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

/** What the store needs of a query result (`pg.QueryResult`). */
export type PgQueryResult = StoreQueryResult;

/** What the store needs of a pooled connection (`pg.PoolClient`). */
export interface PgClientLike {
  /** Runs one statement with its `$1`… parameters. */
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
  /** Gives the connection back to the pool (an error destroys it). */
  release(error?: Error | boolean): void;
  /** Told when the connection fails while the store holds it (a claim's transaction). */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Stops telling `listener` (when the store gives the connection back). */
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** A statement the server prepares once per connection and then runs by `name` (`pg`'s query config). */
export interface PgNamedQuery {
  name: string;
  text: string;
  values?: unknown[];
}

/** What the store needs of a `pg.Pool`. */
export interface PgPoolLike {
  /** Runs one statement with its `$1`… parameters, or a named (prepared) one, on any pooled connection. */
  query(text: string | PgNamedQuery, values?: unknown[]): Promise<PgQueryResult>;
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
  /** The clock a claim's silence is measured by (default the system clock). */
  now?: Now;
}

export interface PostgresStore extends TransactionalStore {
  /** Creates the tables when missing. Safe to run from many processes at once, and again. */
  migrate(): Promise<void>;
  /** Deletes expired values and leases; the store works without it, the tables just grow. */
  prune(): Promise<void>;
}

/** How long a batch of reads may be out before the next batch goes without waiting for it. */
const READ_STALL_MS = 50;

/** Key of the advisory lock `migrate()` holds (any fixed 64-bit number). */
const MIGRATE_LOCK = 7_042_513_377_001;

/**
 * The fleet store over `options.pool`: give it to every client and handler of every process
 * (`store`), after `await store.migrate()` once at start.
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const { pool } = options;
  if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') {
    throw new ConfigurationError('pool', 'pool must be a pg.Pool');
  }
  checkNowOption(options.now);
  const now = options.now ?? systemNow;
  const prefix = options.tablePrefix ?? 'instant_payments';
  if (typeof prefix !== 'string' || !/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) {
    throw new ConfigurationError(
      'tablePrefix',
      'tablePrefix must be a lowercase SQL identifier of at most 41 characters',
    );
  }
  const leases = `${prefix}_leases`;
  const values = `${prefix}_values`;
  const sealer: Sealer | undefined =
    options.encryptionKey === undefined ? undefined : createSealer(options.encryptionKey);

  const query = async (text: string | PgNamedQuery, params?: unknown[]): Promise<PgQueryResult> => {
    try {
      return await pool.query(text, params);
    } catch (error) {
      throw storeError(error);
    }
  };
  const live = 'expires_at IS NULL OR expires_at > now()';
  // Prepared once per connection: the server skips parsing and planning them on every batch. A
  // batch of one key (every read at rest) is a plain equality: the array costs it a third more.
  const readOne = { name: `${values}_read`, text: `SELECT key, value FROM ${values} WHERE key = $1 AND (${live})` };
  const readMany = {
    name: `${values}_read_many`,
    text: `SELECT key, value FROM ${values} WHERE key = ANY($1) AND (${live})`,
  };
  const read = batchedReads(async (keys) => {
    const result = await query(keys.length === 1 ? { ...readOne, values: keys } : { ...readMany, values: [keys] });
    return new Map(result.rows.map((row) => [String(row['key']), String(row['value'])]));
  }, READ_STALL_MS);
  const claim = transactionalClaim(pool, values, read, now);

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

    async renew(name, owner, ttlMs) {
      const result = await query(
        `UPDATE ${leases} SET expires_at = now() + $3 * interval '1 millisecond'
         WHERE name = $1 AND owner = $2 AND expires_at > now()`,
        [name, owner, Math.max(1, Math.ceil(ttlMs))],
      );
      return result.rowCount === 1;
    },

    claim,

    async unlease(name, owner) {
      await query(`DELETE FROM ${leases} WHERE name = $1 AND owner = $2`, [name, owner]);
    },

    get: read,

    async set(key, value, ttlMs) {
      await query(
        `INSERT INTO ${values} (key, value, expires_at)
         VALUES ($1, $2, CASE WHEN $3::bigint IS NULL THEN NULL ELSE now() + $3::bigint * interval '1 millisecond' END)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [key, value, ttlMs === undefined || ttlMs === Infinity ? null : Math.max(1, Math.ceil(ttlMs))],
      );
    },

    async delete(key, ifValue) {
      if (ifValue === undefined) await query(`DELETE FROM ${values} WHERE key = $1`, [key]);
      else await query(`DELETE FROM ${values} WHERE key = $1 AND value = $2`, [key, ifValue]);
    },

    async list(keyPrefix) {
      const pattern = `${keyPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const result = await query(`SELECT key, value FROM ${values} WHERE key LIKE $1 AND (${live}) ORDER BY key`, [
        pattern,
      ]);
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
      // A connection failing while held is told through the query that fails with it.
      const ignore = () => undefined;
      client.on?.('error', ignore);
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
        client.removeListener?.('error', ignore);
        client.release(failed instanceof Error ? failed : undefined);
      }
    },

    async prune() {
      await query(`DELETE FROM ${values} WHERE expires_at <= now()`, []);
      await query(`DELETE FROM ${leases} WHERE expires_at <= now()`, []);
    },
  };
}

/**
 * `Store.claim` on PostgreSQL. A read first (unless the caller has just made it): a committed
 * live mark answers `'done'` (a duplicate costs one read, shared with the reads made meanwhile:
 * no transaction, no connection held). Otherwise the claim proper, one simple-protocol message
 * whose statements run as an implicit transaction until its closing `BEGIN` makes it a real one:
 * set the lock wait and the idle limit and try the key's advisory lock
 * (`pg_try_advisory_xact_lock`, never waiting), then, only under that lock, insert the mark, or
 * replace it if expired (`ON CONFLICT DO UPDATE` that leaves a live one alone). The transaction
 * then stays open, holding the lock and the uncommitted mark, until `commit` (`COMMIT`) or
 * `release` (`ROLLBACK`). No row written means a duplicate: `'done'` when this delivery had the lock (a live mark was there), `'running'` when
 * another transaction holds it (the other delivery is still running; it may yet fail). Its empty
 * transaction is rolled back before the connection goes back to the pool, a round trip the caller
 * does not wait for. (A unique violation would have saved that statement, but each costs the
 * server about as much as 8 `SELECT 1`: it logs an ERROR with the statement and aborts.) The lock
 * wait (`claim.waitMs`) still bounds an insert behind a claimant that took no advisory lock.
 *
 * The claim is kept alive by the callback's own statements or a `SELECT 1` every third of
 * `leaseMs`; the server ends a transaction idle for `leaseMs`
 * (`idle_in_transaction_session_timeout`), so a holder cut off from the database loses it.
 */
function transactionalClaim(
  pool: PgPoolLike,
  values: string,
  read: (key: string) => Promise<string | undefined>,
  now: Now,
): TransactionalStore['claim'] {
  return async (key, terms) => {
    const limit = terms.waitMs + CLAIM_GRACE_MS;
    const failed = (error: unknown) => {
      throw terms.signal?.aborted ? error : storeError(error);
    };
    if (!terms.markChecked) {
      // A committed live mark is a duplicate: one plain read answers it, without a transaction.
      // (An uncommitted one is invisible here; the claim below finds its lock taken.)
      const found = await bounded(read(key), limit, terms.signal, () => unanswered(limit)).catch(failed);
      if (found !== undefined) return 'done';
    }
    const client = await bounded(
      pool.connect(),
      limit,
      terms.signal,
      () => unanswered(limit),
      (late) => late.release(),
    ).catch(failed);
    // From now on a failed connection is told here (without a listener it would crash the
    // process): during the claim's statement, which fails with it; then, as the claim's loss.
    let onLost: ((error: Error) => void) | undefined;
    const onError = (error: Error) => onLost?.(error);
    client.on?.('error', onError);
    const detach = () => client.removeListener?.('error', onError);
    const target = textLiteral(key);
    // Scoped by the table: two stores in one database never share a lock.
    const locked = `pg_try_advisory_xact_lock(hashtextextended(${textLiteral(`${values}:${key}`)}, 0))`;
    const expiry =
      terms.doneTtlMs === Infinity
        ? 'NULL'
        : `now() + ${Math.max(1, Math.ceil(terms.doneTtlMs))} * interval '1 millisecond'`;
    const take =
      `SELECT set_config('lock_timeout', '${Math.max(1, Math.ceil(terms.waitMs))}', true),` +
      ` set_config('idle_in_transaction_session_timeout', '${Math.ceil(terms.leaseMs)}', true),` +
      ` ${locked} AS free;` +
      ` INSERT INTO ${values} AS mark (key, value, expires_at)` +
      ` SELECT ${target}, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ${expiry}` +
      ` WHERE ${locked} ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at` +
      ' WHERE mark.expires_at <= now();' +
      ' BEGIN';
    let answers: PgQueryResult | PgQueryResult[];
    try {
      answers = await bounded(client.query(take), limit, terms.signal, () => unanswered(limit));
    } catch (error) {
      const code = sqlState(error);
      detach();
      // It leaves the connection idle: the implicit transaction rolled back.
      if (code === LOCK_NOT_AVAILABLE) client.release();
      else client.release(error instanceof Error ? error : new Error('claim failed'));
      if (code === LOCK_NOT_AVAILABLE)
        throw new ClaimBusyError('Another process is handling this notification', { cause: error });
      throw terms.signal?.aborted ? error : storeError(error);
    }
    // One answer per statement: the first tells whether the lock was free, the insert's whether
    // the mark is this delivery's.
    const all = Array.isArray(answers) ? answers : [answers];
    const inserted = all.find((answer) => answer.command === 'INSERT');
    if (inserted?.rowCount === 0) {
      const end = (error?: Error) => {
        detach();
        client.release(error);
      };
      client.query('ROLLBACK').then(
        () => end(),
        (error: unknown) => end(error instanceof Error ? error : new Error('ROLLBACK failed')),
      );
      return all[0]?.rows[0]?.['free'] === true ? 'done' : 'running';
    }
    if (inserted === undefined) {
      detach();
      client.release(new Error('claim answered without its insert'));
      throw new StoreError("PostgreSQL answered the claim without the insert's result");
    }
    return heldClaim(client, terms.leaseMs, (listener) => (onLost = listener), detach, now);
  };
}

/** Time a claim's store call may take beyond the claim's wait before it counts as stalled. */
const CLAIM_GRACE_MS = 1_000;
const LOCK_NOT_AVAILABLE = '55P03';

function heldClaim(
  client: PgClientLike,
  leaseMs: number,
  onConnectionError: (listener: (error: Error) => void) => void,
  detach: () => void,
  now: Now,
): HeldClaim & { tx: StoreTransaction } {
  const controller = new AbortController();
  let state: 'held' | 'lost' | 'ended' = 'held';
  let running = 0;
  let lastAnswer = epochMs(now);
  let pinging = false;

  const end = (error?: Error) => {
    clearInterval(timer);
    detach();
    client.release(error);
  };
  const lose = (why: string, cause?: unknown) => {
    if (state !== 'held') return;
    state = 'lost';
    const reason = new StoreError(`The claim was lost: ${why}; nothing it wrote is committed`, { cause });
    controller.abort(reason);
    // The connection is closed: the server rolls the transaction back (or ends it when idle for leaseMs).
    end(reason);
  };
  onConnectionError((error) => lose('its database connection failed', error));

  const timer = setInterval(() => {
    if (state !== 'held' || pinging) return;
    // A statement of the callback's is running: the claim lives while it answers within the lease.
    if (running > 0) {
      if (epochMs(now) - lastAnswer > leaseMs) lose(`no answer from the database for ${leaseMs} ms`);
      return;
    }
    pinging = true;
    bounded(client.query('SELECT 1'), leaseMs / 3, undefined, () => unanswered(leaseMs / 3))
      .then(
        () => {
          lastAnswer = epochMs(now);
        },
        (error: unknown) => lose('its database link stopped answering', error),
      )
      .finally(() => {
        pinging = false;
      });
  }, leaseMs / 3);

  const tx: StoreTransaction = {
    async query(text, params) {
      if (state === 'lost') throw controller.signal.reason;
      if (state === 'ended') throw new StoreError("The claim's transaction has ended");
      running++;
      try {
        return await client.query(text, params);
      } finally {
        running--;
        lastAnswer = epochMs(now);
      }
    },
  };

  return {
    signal: controller.signal,
    tx,
    async commit() {
      if (state === 'lost') throw controller.signal.reason;
      if (state === 'ended') throw new StoreError("The claim's transaction has ended");
      state = 'ended';
      let result: PgQueryResult;
      try {
        result = await bounded(client.query('COMMIT'), leaseMs, undefined, () => unanswered(leaseMs));
      } catch (error) {
        end(error instanceof Error ? error : new Error('COMMIT failed'));
        throw new StoreError(
          "COMMIT of the done mark failed or went unanswered: the mark and the callback's writes are both in or both out",
          {
            cause: error,
          },
        );
      }
      end();
      // PostgreSQL answers COMMIT of a failed transaction with ROLLBACK.
      if (result.command === 'ROLLBACK') {
        throw new StoreError(
          "A statement in the callback's transaction failed: the transaction rolled back, nothing is marked done",
        );
      }
    },
    async release() {
      if (state !== 'held') return;
      state = 'ended';
      try {
        await bounded(client.query('ROLLBACK'), leaseMs, undefined, () => unanswered(leaseMs));
        end();
      } catch (error) {
        end(error instanceof Error ? error : new Error('ROLLBACK failed'));
      }
    },
  };
}

/**
 * `text` as an SQL expression that cannot break out of itself: its UTF-8 bytes in hex, decoded
 * by the server (the claim's message uses the simple protocol, which takes no parameters).
 */
function textLiteral(text: string): string {
  return `convert_from(decode('${toHex(new TextEncoder().encode(text))}', 'hex'), 'UTF8')`;
}

function unanswered(ms: number): StoreError {
  return new StoreError(`PostgreSQL did not answer within ${Math.round(ms)} ms`);
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** A driver failure as a `StoreError`: its SQLSTATE code in the message, never the statement's values. */
function storeError(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const code = sqlState(error);
  return new StoreError(`PostgreSQL store failed${code ? ` (${code})` : ''}`, { cause: error });
}
