/**
 * A client's options, checked when it is built: whatever a plain JavaScript caller (or a `.env`
 * with a missing line) can get wrong is a `ConfigurationError` naming the option, thrown at once,
 * never a `TypeError` from deep inside a later call. Messages name options, never their values
 * (a secret, or a URL carrying one, stays out).
 */
import { ConfigurationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import { isHttpsOrLoopback } from '../core/validation.ts';

/** What differs between the clients: their name, what their `baseUrl` is, what `auth` needs. */
export interface ClientKind {
  readonly name: string;
  /** What `baseUrl` is, with an example: "the API root with its /v2, such as https://...". */
  readonly baseUrl: string;
  /** Credentials must name their token endpoint (cash-out has a default under `baseUrl`). */
  readonly tokenUrlRequired: boolean;
  readonly authRequired: boolean;
}

/** The longest time a timer takes (ms); a longer `timeout` would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Throws a `ConfigurationError` for the first option the client cannot work with. */
export function checkClientOptions(options: unknown, kind: ClientKind): void {
  if (!isRecord(options)) {
    throw new ConfigurationError('options', `new ${kind.name}(options) needs its options: { baseUrl, auth, ... }`);
  }
  checkUrl(options['baseUrl'], 'baseUrl', kind.baseUrl, false);
  checkTls(options['tls']);
  checkAuth(options['auth'], kind);
  for (const option of ['timeout', 'totalTimeout'] as const) {
    const value = options[option];
    if (value !== undefined && !(typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS)) {
      throw new ConfigurationError(option, `${option} must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`);
    }
  }
  const maxRetries = options['maxRetries'];
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && (maxRetries as number) >= 0)) {
    throw new ConfigurationError('maxRetries', 'maxRetries must be a whole number, 0 or more');
  }
  const maxResponseBytes = options['maxResponseBytes'];
  if (maxResponseBytes !== undefined && !(Number.isSafeInteger(maxResponseBytes) && (maxResponseBytes as number) > 0)) {
    throw new ConfigurationError('maxResponseBytes', 'maxResponseBytes must be a whole number of bytes, 1 or more');
  }
  if (options['fetch'] !== undefined && typeof options['fetch'] !== 'function') {
    throw new ConfigurationError('fetch', 'fetch must be a function, such as globalThis.fetch');
  }
}

/** An absolute http(s) URL without user name or password; `tokenEndpoint`: https unless on loopback. */
function checkUrl(value: unknown, option: string, what: string, tokenEndpoint: boolean): void {
  if (value === undefined || value === null || value === '') throw new ConfigurationError(option, `${option} is required: ${what}`);
  if (typeof value !== 'string') throw new ConfigurationError(option, `${option} must be a string: ${what}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(option, `${option} is not a URL that parses: give ${what}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(option, `${option} must be an http(s) URL: ${what}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError(option, `${option} must not carry a user name or password: credentials go in auth`);
  }
  if (tokenEndpoint && !isHttpsOrLoopback(url)) {
    throw new ConfigurationError(option, `${option} must be https (plain http is allowed on loopback only): the secret travels to it`);
  }
}

function checkTls(tls: unknown): void {
  if (tls === undefined) return;
  const shape = 'tls takes { cert, key } (PEM text or bytes) or { pfx, passphrase? } (PKCS#12)';
  if (!isRecord(tls)) throw new ConfigurationError('tls', shape);
  const isPem = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
  if (tls['pfx'] !== undefined) {
    if (!isPem(tls['pfx'])) throw new ConfigurationError('tls.pfx', 'tls.pfx must be the PKCS#12 file as bytes (or text)');
    return;
  }
  const cert = tls['cert'];
  const key = tls['key'];
  if (cert === undefined && key === undefined) throw new ConfigurationError('tls', shape);
  if (cert === undefined) throw new ConfigurationError('tls.cert', 'tls.key was given without its certificate: add tls.cert (PEM), or give tls.pfx instead');
  if (key === undefined) throw new ConfigurationError('tls.key', 'tls.cert was given without its private key: add tls.key (PEM), or give tls.pfx instead');
  if (!isPem(cert)) throw new ConfigurationError('tls.cert', 'tls.cert must be PEM text or bytes');
  if (!isPem(key)) throw new ConfigurationError('tls.key', 'tls.key must be PEM text or bytes');
}

function checkAuth(auth: unknown, kind: ClientKind): void {
  const shape = 'client credentials { tokenUrl, clientId, clientSecret } or a token provider { getToken(signal) }';
  if (auth === undefined) {
    if (kind.authRequired) throw new ConfigurationError('auth', `auth is required: ${shape}`);
    return;
  }
  if (!isRecord(auth)) throw new ConfigurationError('auth', `auth must be ${shape}`);
  if ('getToken' in auth) {
    if (typeof auth['getToken'] !== 'function') throw new ConfigurationError('auth.getToken', 'auth.getToken must be a function returning a promise of the token');
    return;
  }
  for (const field of ['clientId', 'clientSecret'] as const) {
    const value = auth[field];
    if (typeof value !== 'string' || value === '') throw new ConfigurationError(`auth.${field}`, `auth.${field} is required (a non-empty string) for the built-in client credentials`);
  }
  if (auth['tokenUrl'] !== undefined || kind.tokenUrlRequired) {
    checkUrl(auth['tokenUrl'], 'auth.tokenUrl', 'the OAuth token endpoint, such as https://api.psp.example/oauth/token', true);
  }
}
