/**
 * The state a fleet of processes shares: the OAuth token, which notifications were handled and
 * which payment orders are in flight. A store is a few leases and values; any database that
 * can do an atomic compare-and-set can be one (the README sketches a Redis store).
 */
import { InstantError } from '../errors/base.ts';

/**
 * Where the SDK keeps what several processes must agree on. Every method is atomic on its own;
 * the SDK builds everything else from these. Times are in milliseconds; a lease's clock is the
 * store's, so processes with drifting clocks still agree.
 */
export interface Store {
  /**
   * Takes the lease `name` for `owner` (or renews it when `owner` holds it) for `ttlMs`.
   * Resolves `false`, changing nothing, while another owner's lease has not expired.
   */
  lease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends `owner`'s lease `name` early; does nothing when someone else holds it. */
  unlease(name: string, owner: string): Promise<void>;
  /** The value at `key`, `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Writes `value` at `key`, for `ttlMs` when given (forever otherwise). */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Deletes `key`; with `ifValue`, only while the value is still exactly that. */
  delete(key: string, ifValue?: string): Promise<void>;
  /** Every unexpired entry whose key starts with `prefix`. */
  list(prefix: string): Promise<Array<{ key: string; value: string }>>;
  /**
   * Encrypts what grants access (tokens) before it reaches the store. A store without one
   * refuses to keep tokens: only the in-memory store may, as nothing leaves the process.
   */
  readonly sealer?: Sealer | undefined;
}

/** Authenticated encryption of a value bound to the key it is stored under. */
export interface Sealer {
  /** Encrypts `plaintext`, bound to `context` (opening it under another context fails). */
  seal(plaintext: string, context: string): Promise<string>;
  /** Throws `StoreError` when the value was not sealed with this key for this `context`. */
  open(sealed: string, context: string): Promise<string>;
}

/**
 * The store failed (database unreachable, restarted, query refused). Nothing the SDK does is
 * half-done by it: a token is fetched again, a notification answered 500 so it is sent again,
 * a payment intent left for `recover()`. `cause` holds the driver's error.
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
