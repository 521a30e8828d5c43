/**
 * The shapes a call is made of, shared by the HTTP core, the readers of its answers and every
 * resource: what a call sends, with which options, through which `fetch` and token.
 */
import type { ErrorTables } from '../errors/factory.ts';
import type { RoutePath } from './path.ts';

/** Anything that can hand out a bearer token. The built-in one wraps OAuth client credentials. */
export interface TokenProvider {
  /** A valid bearer token; `signal` aborts the wait. */
  getToken(signal?: AbortSignal): Promise<string>;
  /**
   * Drops a cached token the API refused, so the next `getToken` fetches a fresh one. `rejected`
   * is the token that was refused: a provider that already holds a newer one keeps it.
   */
  invalidate?(rejected?: string): void;
  /**
   * @internal The built-in providers: a valid token at hand without waiting, else `undefined`.
   * Their wait (a token request, or another process's) has its own time limit, so it is waited
   * for before a call's first attempt, bounded by `totalTimeout` and the signal but not by the
   * attempt's `timeout`.
   */
  tokenNow?(): string | undefined;
}

/** Per-call options, always the last argument of a resource method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds. */
  timeout?: number;
  /** Overall budget in milliseconds for the call with all its retries. */
  totalTimeout?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
  /** `false` skips the client-side rules so the service gives its own verdict. */
  validate?: boolean;
}

/** A `fetch`-compatible function: the global one, undici's, or a test double. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/** The HTTP methods the SDK sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query parameter's value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/**
 * A call to an endpoint the SDK does not model, for `client.request()`: it goes through the
 * client's auth, retries, time limits and error mapping like every resource call.
 */
export interface CustomRequest {
  method: HttpMethod;
  /** Built with the `path` template, which percent-encodes each value as one segment. */
  path: RoutePath;
  query?: Readonly<Record<string, QueryValue>>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** A POST carrying this header may be retried: the server deduplicates by it. */
  idempotencyKey?: { header: string; value: string };
  /** `Accept` header (default `application/json`). */
  accept?: string;
  /**
   * Whether the call is sent again after an attempt whose outcome is unknown. Default: `'replay'`
   * for GET, PUT, DELETE and a call with `idempotencyKey`; `'never'` for any other.
   */
  retry?: 'replay' | 'never';
}

/**
 * How a call is sent again after an attempt whose outcome is unknown (a cut connection, a
 * time-out, 408, 429, 5xx): `'replay'` sends it again as it is (reads, and writes the service
 * treats as idempotent); `'never'` does not (a create the service keys itself: a replay could
 * make a second one); `LookFirst` reads what the service holds before sending again.
 */
export type RetryPolicy = 'replay' | 'never' | LookFirst;

/** A create under a key of ours, whose replay the service would refuse as "in use" once the first attempt landed. */
export interface LookFirst {
  /**
   * What the service holds under the call's key: the record (as the wire reads it) when it is
   * what the call sent, which the call then resolves with, sending nothing more; `undefined`
   * when the service holds nothing or something else: the call is sent again and the service
   * gives its own verdict. `options` carry the call's signal.
   */
  lookFirst(options: RequestOptions): Promise<unknown>;
}

/** One call for `HttpCore.send`: the request, and how to read its answer and its failures. */
export interface CallSpec extends Omit<CustomRequest, 'retry'> {
  /** Default: as `CustomRequest.retry` says. */
  retry?: RetryPolicy | undefined;
  /** How the endpoint's error answers map to classes (by type, then by status). */
  errors?: ErrorTables;
  options?: RequestOptions | undefined;
  /** Reads the parsed answer into what the call resolves with (a resource's `normalize`). */
  normalize?: ((body: never) => unknown) | undefined;
}

/** A successful call: the parsed answer and the raw response (what `.withResponse()` gives). */
export interface WithResponse<T> {
  data: T;
  /** Status and headers as received; its body was read into `data` (`bodyUsed` is true). */
  response: Response;
}
