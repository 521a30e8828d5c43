/**
 * OAuth 2.0 client credentials. The token is cached until shortly before it expires, and
 * concurrent callers share one in-flight token request. Each caller can still abort its own
 * wait without cancelling the shared request the others are waiting on.
 */
import type * as Oidc from './oidc.ts';
import { AuthenticationError } from '../errors/failures.ts';
import { InstantError } from '../errors/base.ts';
import { isRecord } from '../internal/json.ts';
import { maskSecret } from '../errors/redact.ts';
import type { FetchLike, TokenProvider } from './types.ts';
import { resolveLogger, type Logger } from './log.ts';
import { isHttpsOrLoopback } from './validation.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, guardFetch } from './response.ts';
import { USER_AGENT } from './version.ts';
import { describeConnectionFailure } from './network.ts';
import { DEFAULT_MAX_RETRIES, RETRY_STATUSES, retryAfterMs, retrying } from '../internal/retry.ts';
import { bounded } from '../internal/bounded.ts';
import { systemNow, type Now } from '../internal/clock.ts';

/** What every kind of client credentials has: where the token is, and who asks for it. */
interface CredentialsBase {
  tokenUrl: string;
  clientId: string;
  scope?: string;
  /**
   * `form` (default): the standard `application/x-www-form-urlencoded` request, through
   * openid-client. `json`: a JSON body in snake_case (`grant_type`, `client_id`,
   * `client_secret`), as the reference cash-out provider expects; its answer may be camelCase
   * or snake_case, with 200 or 201.
   */
  tokenRequestFormat?: 'form' | 'json';
}

/** Credentials with a secret: sent in the body (`client_secret_post`, default) or as HTTP Basic. */
export interface SecretClientCredentials extends CredentialsBase {
  clientSecret: string;
  /** How a `form` request authenticates the client: in the body (default) or HTTP Basic. */
  clientAuthentication?: 'client_secret_post' | 'client_secret_basic';
}

/**
 * Certificate-only login (RFC 8705 `tls_client_auth`): the request names the client and the
 * mTLS certificate (the `tls` option) authenticates it; no secret exists or is sent.
 */
export interface CertificateClientCredentials extends CredentialsBase {
  clientAuthentication: 'tls_client_auth';
  clientSecret?: never;
}

/** OAuth 2.0 client credentials and where to exchange them for a token. */
export type ClientCredentials = SecretClientCredentials | CertificateClientCredentials;

/** How the built-in token provider sends its requests. */
export interface ClientCredentialsOptions {
  fetch?: FetchLike;
  /** Timeout of one token request, in milliseconds. */
  timeout?: number;
  /** Largest token answer read, in bytes (default 10 MiB). */
  maxResponseBytes?: number;
  /** Told about token fetches and failures (never the token or the secret). */
  logger?: Logger;
  /** The clock a token's lifetime is counted by (default: the system's). */
  now?: Now;
}

/** Time limit of one token request unless `timeout` says otherwise. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;

/** Lifetime assumed when the token endpoint does not say (the cash-out provider's is 300 s). */
export const DEFAULT_TOKEN_LIFETIME_S = 300;

/** A token with its times. */
export interface TokenInfo {
  value: string;
  /** Epoch ms after which the token is no longer used (a little before it expires). */
  refreshAt: number;
  /** Epoch ms at which the token expires. */
  expiresAt: number;
}

type CachedToken = TokenInfo;

export class ClientCredentialsProvider implements TokenProvider {
  readonly #credentials: ClientCredentials;
  readonly #fetch: ReturnType<typeof guardFetch>;
  readonly #timeout: number;
  #cached: CachedToken | undefined;
  #inflight: Promise<CachedToken> | undefined;
  #oidcConfig: Oidc.Configuration | undefined;
  /** Set once a token was fetched: a later fetch is a refresh. */
  #fetched = false;
  readonly #logger: Logger | undefined;
  readonly #now: Now;

  constructor(credentials: ClientCredentials, options: ClientCredentialsOptions = {}) {
    checkTokenUrl(credentials.tokenUrl);
    this.#credentials = { ...credentials };
    const fetch = options.fetch;
    // Never follows a redirect (the body carries the secret), reads the answer bounded.
    this.#fetch = guardFetch(() => fetch ?? globalThis.fetch, {
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      userAgent: USER_AGENT,
    });
    this.#timeout = options.timeout ?? DEFAULT_TOKEN_TIMEOUT_MS;
    this.#logger = resolveLogger(options.logger);
    this.#now = options.now ?? systemNow;
  }

  /** The clock's time in epoch ms. */
  #ms(): number {
    return this.#now().getTime();
  }

  /** A valid access token: the cached one, or one fetched (shared by concurrent callers). */
  async getToken(signal?: AbortSignal): Promise<string> {
    return (await this.getTokenInfo(signal)).value;
  }

  /** The token with its refresh and expiry times, cached and shared like `getToken`. */
  async getTokenInfo(signal?: AbortSignal): Promise<TokenInfo> {
    signal?.throwIfAborted();
    const cached = this.#cached;
    if (cached && this.#ms() < cached.refreshAt) return cached;
    this.#inflight ??= this.#request().finally(() => {
      this.#inflight = undefined;
    });
    return abortable(this.#inflight, signal);
  }

  /** @internal The cached token while it needs no refresh, without waiting. */
  tokenNow(): string | undefined {
    const cached = this.#cached;
    return cached && this.#ms() < cached.refreshAt ? cached.value : undefined;
  }

  /** Forgets the token `rejected` (or any cached token) so the next call fetches a new one. */
  invalidate(rejected?: string): void {
    if (rejected === undefined || this.#cached?.value === rejected) this.#cached = undefined;
  }

  async #request(): Promise<CachedToken> {
    const started = this.#ms();
    const refresh = this.#fetched;
    let answer: { value: string; lifetimeS: number };
    const once = () => (this.#credentials.tokenRequestFormat === 'json' ? this.#requestJson() : this.#requestForm());
    try {
      answer = await retrying(once, {
        maxRetries: DEFAULT_MAX_RETRIES,
        now: this.#now,
        retryable: unanswered,
        between: ({ retry, error }) => {
          this.#logger?.warn?.('token request retried', {
            retry,
            error: (error as Error).name,
            status: statusOf(error),
          });
          return undefined;
        },
      });
    } catch (error) {
      // The error is already redacted; its name and status are all that is logged.
      const status = statusOf(error);
      this.#logger?.error?.('token request failed', { error: (error as Error).name, status, ms: this.#ms() - started });
      throw error;
    }
    const { value, lifetimeS } = answer;
    this.#fetched = true;
    this.#logger?.info?.(refresh ? 'token refreshed' : 'token fetched', { ms: this.#ms() - started, lifetimeS });
    // Refresh a little early: 10% of the lifetime, at most a minute.
    const margin = Math.min(60_000, lifetimeS * 100);
    const expiresAt = started + lifetimeS * 1000;
    const token = { value, refreshAt: expiresAt - margin, expiresAt };
    this.#cached = token;
    return token;
  }

  async #requestForm(): Promise<{ value: string; lifetimeS: number }> {
    const { clientSecret, scope } = this.#credentials;
    try {
      // openid-client is loaded on the first token request: only the built-in provider needs it.
      const oidc = await import('./oidc.ts');
      const config = (this.#oidcConfig ??= this.#configure(oidc));
      const response = await oidc.clientCredentialsGrant(config, scope ? { scope } : {});
      // `expires_in` as answered: `expiresIn()` counts from when openid-client read the answer, one
      // second less once a millisecond has passed.
      const lifetimeS =
        typeof response.expires_in === 'number' && response.expires_in > 0 ? response.expires_in : undefined;
      return { value: response.access_token, lifetimeS: lifetimeS ?? response.expiresIn() ?? DEFAULT_TOKEN_LIFETIME_S };
    } catch (error) {
      throw authenticationError(error, clientSecret, this.#now);
    }
  }

  #configure(oidc: typeof Oidc): Oidc.Configuration {
    const { tokenUrl, clientId, clientSecret, clientAuthentication } = this.#credentials;
    const url = new URL(tokenUrl);
    const method =
      clientAuthentication === 'tls_client_auth'
        ? oidc.TlsClientAuth()
        : clientAuthentication === 'client_secret_basic'
          ? oidc.ClientSecretBasic(clientSecret)
          : oidc.ClientSecretPost(clientSecret);
    const config = new oidc.Configuration(
      { issuer: url.origin, token_endpoint: tokenUrl },
      clientId,
      undefined,
      method,
    );
    config[oidc.customFetch] = (target, init) => this.#fetch(target, init as RequestInit);
    config.timeout = Math.ceil(this.#timeout / 1000);
    if (url.protocol === 'http:') oidc.allowInsecureRequests(config);
    return config;
  }

  async #requestJson(): Promise<{ value: string; lifetimeS: number }> {
    const { tokenUrl, clientId, clientSecret, scope } = this.#credentials;
    const body: Record<string, string> = { grant_type: 'client_credentials', client_id: clientId };
    // Certificate-only login sends no secret: the mTLS certificate authenticates the client.
    if (clientSecret !== undefined) body['client_secret'] = clientSecret;
    if (scope) body['scope'] = scope;
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeout),
      });
      text = await response.text();
    } catch (error) {
      throw authenticationError(error, clientSecret, this.#now);
    }
    let payload: unknown;
    try {
      payload = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      // The parser's message quotes the body, which may echo the secret: it is not kept.
      payload = text;
    }
    const { status } = response;
    if (status !== 200 && status !== 201) {
      const title =
        isRecord(payload) && typeof payload['title'] === 'string'
          ? `: ${maskSecret(payload['title'], clientSecret)}`
          : '';
      throw new AuthenticationError(`Token endpoint answered ${status}${title}`, {
        status,
        retryAfterMs: tokenRetryAfter(response, this.#now),
      });
    }
    if (typeof payload === 'string')
      throw new AuthenticationError(`Token endpoint answered ${status} with a body that is not JSON`, { status });
    return parseTokenAnswer(payload, status, this.#now);
  }
}

/** Reads `{access_token, expires_in}` or `{accessToken, expiresAt}` (the service's OAuth answer, and the cash-out provider's JSON one). */
export function parseTokenAnswer(
  payload: unknown,
  status: number,
  now: Now = systemNow,
): { value: string; lifetimeS: number } {
  if (!isRecord(payload)) {
    // The provider answers "null" past its limit of 10 token requests a minute.
    throw new AuthenticationError('Token endpoint answered without a token (rate limited?)', { status });
  }
  const value = payload['access_token'] ?? payload['accessToken'];
  if (typeof value !== 'string' || value === '') {
    throw new AuthenticationError('Token endpoint answer has no access token', { status });
  }
  const expiresIn = payload['expires_in'];
  const expiresAt = payload['expiresAt'];
  let lifetimeS = DEFAULT_TOKEN_LIFETIME_S;
  if (typeof expiresIn === 'number' && expiresIn > 0) lifetimeS = expiresIn;
  else if (typeof expiresAt === 'number' && expiresAt > 0) lifetimeS = lifetimeFromExpiresAt(expiresAt, now);
  return { value, lifetimeS };
}

/** `expiresAt` is documented without a unit: an epoch (ms or s) or, when small, seconds from now. */
function lifetimeFromExpiresAt(expiresAt: number, now: Now): number {
  const epochMs = expiresAt > 1e12 ? expiresAt : expiresAt > 1e9 ? expiresAt * 1000 : undefined;
  if (epochMs === undefined) return expiresAt;
  const seconds = Math.floor((epochMs - now().getTime()) / 1000);
  return seconds > 0 ? seconds : DEFAULT_TOKEN_LIFETIME_S;
}

function checkTokenUrl(tokenUrl: string): void {
  let url: URL;
  try {
    url = new URL(tokenUrl);
  } catch {
    throw new AuthenticationError('auth.tokenUrl is not a valid URL');
  }
  if (!isHttpsOrLoopback(url)) {
    throw new AuthenticationError('auth.tokenUrl must be https (plain http is allowed on loopback only)');
  }
}

/**
 * The typed error for a failed token request. Whatever the endpoint answered may echo the
 * secret (an OAuth `error_description`, a parser's message quoting the body), so the raw error
 * is never kept: the message and the cause are redacted copies (see `safeCause`).
 */
function authenticationError(error: unknown, secret: string | undefined, now: Now): AuthenticationError {
  if (error instanceof AuthenticationError) return error;
  const status = isRecord(error) && typeof error['status'] === 'number' ? error['status'] : undefined;
  let reason = error instanceof Error ? safeMessage(error, secret) : 'unknown failure';
  if (isRecord(error) && typeof error['error'] === 'string') {
    const description = typeof error['error_description'] === 'string' ? ` (${error['error_description']})` : '';
    reason = maskSecret(`${error['error']}${description}`, secret);
  } else if (isNetworkFailure(error)) {
    // fetch's bare "fetch failed" hides the reason one or two causes deep: say it in words,
    // from the redacted copy of the chain.
    reason = `could not reach the token endpoint (auth.tokenUrl): ${describeConnectionFailure(safeCause(error, secret))}`;
  } else if (error instanceof Error && error.name === 'TimeoutError') {
    reason = 'the token endpoint (auth.tokenUrl) did not answer within the timeout';
  }
  const init: { status?: number; cause?: unknown; retryAfterMs?: number | undefined } = {};
  const cause = safeCause(error, secret);
  if (cause !== undefined) init.cause = cause;
  if (status !== undefined) init.status = status;
  // openid-client keeps the endpoint's answer as `response` (or `cause`, for one it could not read).
  const answer = isRecord(error) ? [error['response'], error['cause']].find((r) => r instanceof Response) : undefined;
  if (answer instanceof Response) {
    init.status ??= answer.status;
    init.retryAfterMs = tokenRetryAfter(answer, now);
  }
  return new AuthenticationError(`Token request failed: ${reason}`, init);
}

/** No answer at all (fetch's "fetch failed"): a refused connection, a name that does not resolve, a TLS failure. */
function isNetworkFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current instanceof Error && !(current instanceof InstantError) && depth < 5; depth++) {
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
    current = current.cause;
  }
  return false;
}

/**
 * A token request that got no answer (a dropped connection, a time-out) or a 5xx the SDK retries:
 * the grant is sent again (it creates nothing; each answer is a token). A 4xx (bad credentials, a
 * 429 rate limit) is never repeated blindly, nor an answer that names its own wait (Retry-After):
 * the error carries it to the caller (a shared token's backoff honours it).
 */
function unanswered(error: unknown): boolean {
  if (!(error instanceof AuthenticationError) || error.retryAfterMs !== undefined) return false;
  if (error.status !== undefined) return error.status >= 500 && RETRY_STATUSES.includes(error.status);
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause.name === 'TimeoutError' || (cause.name === 'TypeError' && cause.message === 'fetch failed')) return true;
  }
  return false;
}

function statusOf(error: unknown): unknown {
  return (error as { status?: unknown }).status;
}

/** Longest `Retry-After` of a token endpoint honoured (a longer one is cut to it). */
const MAX_TOKEN_RETRY_AFTER_MS = 10 * 60_000;

function tokenRetryAfter(response: Response, now: Now): number | undefined {
  return retryAfterMs(response.headers.get('retry-after'), MAX_TOKEN_RETRY_AFTER_MS, now);
}

function safeMessage(error: Error, secret: string | undefined): string {
  return error instanceof SyntaxError ? 'the answer is not valid JSON' : maskSecret(error.message, secret);
}

/**
 * A copy of an error chain keeping only names, codes and redacted messages (enough to tell a
 * refused connection from a TLS alert); bodies, responses and OAuth fields are left behind.
 * The SDK's own errors carry nothing from the answer and are kept as they are.
 */
function safeCause(error: unknown, secret: string | undefined, depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 4) return undefined;
  if (error instanceof InstantError) return error;
  const cause = safeCause(error.cause, secret, depth + 1);
  const copy = new Error(safeMessage(error, secret), cause === undefined ? undefined : { cause });
  copy.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}

/** Waits for `promise` unless `signal` aborts first (the promise itself goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return bounded(promise, Infinity, signal, () => undefined);
}
