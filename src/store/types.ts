/**
 * The state a fleet of processes shares: the OAuth token, which notifications were handled and
 * which payment orders are in flight. A store is a few leases and values; any database that
 * can do an atomic compare-and-set can be one (the README sketches a Redis store).
 */
import { InstantError } from '../errors/base.ts';

/**
 * Where the SDK keeps what several processes must agree on. Every method is atomic on its own;
 * the SDK builds everything else from these. Times are in milliseconds and relative (a
 * time-to-live, never a date): a lease's or a value's clock is the store's, so processes with
 * drifting clocks still agree.
 *
 * Leases and values are **separate namespaces**: the lease named `x` and the value at key `x`
 * have nothing to do with each other (the SDK uses the same string for both: a payment's lease
 * and its recorded outcome are both `intent:<key>`). A store that keeps both in one keyspace
 * must prefix them apart (the Redis sketch in the README uses `lease:` and `value:`).
 *
 * Two methods are optional capabilities: `renew` (a renewal that can never re-take a lease
 * given back) and `claim` (once-only claims held by a transaction, as the PostgreSQL store
 * does). Without them the SDK falls back to `lease`, as documented on each.
 */
export interface Store {
  /**
   * Takes the lease `name` for `owner` (or renews it when `owner` holds it) for `ttlMs`.
   * Resolves `false`, changing nothing, while another owner's lease has not expired.
   */
  lease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /**
   * Extends `owner`'s lease `name` to `ttlMs` from now, only while `owner` still holds it:
   * resolves `false`, changing nothing, when the lease expired, was given back or is another's.
   * It never takes a lease, so a renewal that reaches the store late cannot re-take a lease
   * given back meanwhile. Optional: without it renewals call `lease`, which can.
   */
  renew?(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends `owner`'s lease `name` early; does nothing when someone else holds it. */
  unlease(name: string, owner: string): Promise<void>;
  /** The value at `key`, `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Writes `value` at `key`, for `ttlMs` when given (forever otherwise, or when `Infinity`). */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Deletes `key`; with `ifValue`, only while the value is still exactly that. */
  delete(key: string, ifValue?: string): Promise<void>;
  /** Every unexpired entry whose key starts with `prefix`. */
  list(prefix: string): Promise<Array<{ key: string; value: string }>>;
  /**
   * Optional capability: a once-only claim on `key` held by a transaction that also writes the
   * done mark (the value at `key`), so that what a callback writes through `tx` commits with
   * the mark or not at all. Resolves `'done'` when the mark is there, `'running'` when another
   * holder has the claim open (at once, holding nothing: the SDK decides whether to look again),
   * otherwise the held claim. A store may instead wait for a claim held elsewhere, up to
   * `terms.waitMs`, then throw `ClaimBusyError`. A holder that dies or loses its link loses the
   * claim: its transaction rolls back. Without it the SDK claims with `lease`, `get` and `set`,
   * and callbacks get no `tx`.
   */
  claim?(key: string, terms: ClaimTerms): Promise<HeldClaim | 'done' | 'running'>;
  /**
   * Encrypts what grants access (tokens) before it reaches the store. A store without one
   * refuses to keep tokens: only the in-memory store may, as nothing leaves the process.
   */
  readonly sealer?: Sealer | undefined;
}

/** A store whose `claim` gives callbacks a transaction (the PostgreSQL store). */
export interface TransactionalStore extends Store {
  claim(key: string, terms: ClaimTerms): Promise<(HeldClaim & { readonly tx: StoreTransaction }) | 'done' | 'running'>;
}

/** What `Store.claim` is asked for. */
export interface ClaimTerms {
  /** The claim is lost when its holder's link stays silent this long (renewed while it runs). */
  leaseMs: number;
  /**
   * How long taking the claim may wait: for a claim held elsewhere (a store that waits rather
   * than answering `'running'`) before `ClaimBusyError`, and for the database.
   */
  waitMs: number;
  /** How long the done mark is kept; `Infinity`: forever. */
  doneTtlMs: number;
  /** Gives up taking the claim (not a claim already held). */
  signal?: AbortSignal | undefined;
  /** The caller has just looked for the done mark and found none: the store may skip its own look. */
  markChecked?: boolean | undefined;
}

/** A claim `Store.claim` took: end it with `commit` or `release`, exactly once. */
export interface HeldClaim {
  /** Aborted when the claim is lost (its link failed or stopped answering); `commit` then fails. */
  readonly signal: AbortSignal;
  /** The transaction that holds the claim, when the store has one. */
  readonly tx?: StoreTransaction | undefined;
  /**
   * Writes the done mark with everything written through `tx`. Throws `StoreError` when they
   * may not be written: the claim was lost, a statement in the transaction failed, or the
   * store did not confirm it (then either both are written or neither).
   */
  commit(): Promise<void>;
  /** Gives the claim back, writing nothing. Never throws. */
  release(): Promise<void>;
}

/** A database client inside a claim's transaction (for PostgreSQL, a `pg` client's `query`). */
export interface StoreTransaction {
  /** Runs `text` (with `$1`... bound to `values`) inside the transaction. */
  query(text: string, values?: unknown[]): Promise<StoreQueryResult>;
}

/** What a query through a `StoreTransaction` resolves with (`pg.QueryResult`). */
export interface StoreQueryResult {
  rows: Array<Record<string, unknown>>;
  rowCount: number | null;
  /** The command tag (`UPDATE`, `COMMIT`, `ROLLBACK`...), when the driver gives it. */
  command?: string;
}

/** Authenticated encryption of a value bound to the key it is stored under. */
export interface Sealer {
  /** Encrypts `plaintext`, bound to `context` (opening it under another context fails). */
  seal(plaintext: string, context: string): Promise<string>;
  /** Throws `StoreError` when the value was not sealed with this key for this `context`. */
  open(sealed: string, context: string): Promise<string>;
}

/**
 * The store failed (database unreachable, restarted, query refused, or no answer in time).
 * Nothing the SDK does is half-done by it: a token is fetched again, a notification answered
 * 500 so it is sent again, a payment intent left for `recover()`. `cause` holds the driver's error.
 */
export class StoreError extends InstantError {
  override readonly name: string = 'StoreError';
}

/**
 * Another process is handling the same notification and did not finish within the wait: the
 * notification is answered with an error status so that the service sends it again.
 */
export class ClaimBusyError extends InstantError {
  override readonly name: string = 'ClaimBusyError';
}
