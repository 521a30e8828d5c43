/**
 * A client's options, checked when it is built: whatever a plain JavaScript caller (or a `.env`
 * with a missing line) can get wrong is a `ConfigurationError` naming the option, thrown at once,
 * never a `TypeError` from deep inside a later call. Messages name options, never their values
 * (a secret, or a URL carrying one, stays out).
 */
import { checkNowOption, ConfigurationError } from '../errors/failures.ts';
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
  /** The tags `baseUrls` may name; none: the client takes no `baseUrls`. */
  readonly baseUrls?: readonly string[];
}

const CLIENT_AUTHENTICATION: readonly unknown[] = ['client_secret_post', 'client_secret_basic', 'tls_client_auth'];

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
  checkNowOption(options['now']);
  checkTelemetry(options['telemetry']);
  checkDefaultHeaders(options['defaultHeaders']);
  checkDefaultQuery(options['defaultQuery']);
  if (options['baseUrls'] !== undefined) {
    if (!kind.baseUrls)
      throw new ConfigurationError('baseUrls', `${kind.name} takes no baseUrls: its paths are under baseUrl`);
    checkBaseUrls(options['baseUrls'], kind.baseUrls);
  }
  const auth = options['auth'];
  if (
    isRecord(auth) &&
    auth['clientAuthentication'] === 'tls_client_auth' &&
    options['tls'] === undefined &&
    options['fetch'] === undefined
  ) {
    throw new ConfigurationError(
      'tls',
      "auth.clientAuthentication 'tls_client_auth' logs in with the client certificate: give tls { cert, key } or { pfx } (or a fetch that presents one)",
    );
  }
}

function checkTelemetry(telemetry: unknown): void {
  if (telemetry === undefined) return;
  if (!isRecord(telemetry))
    throw new ConfigurationError(
      'telemetry',
      'telemetry takes { tracerProvider?, meterProvider? } from @opentelemetry/api',
    );
  for (const [option, method] of [
    ['tracerProvider', 'getTracer'],
    ['meterProvider', 'getMeter'],
  ] as const) {
    const provider = telemetry[option];
    if (provider !== undefined && !(isRecord(provider) && typeof provider[method] === 'function')) {
      throw new ConfigurationError(
        `telemetry.${option}`,
        `telemetry.${option} must be an OpenTelemetry ${option === 'tracerProvider' ? 'TracerProvider' : 'MeterProvider'} (with ${method}())`,
      );
    }
  }
}

/** A header name as fetch takes it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The headers the SDK sets itself: a default would be ignored or break the call. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'host']);

function checkDefaultHeaders(headers: unknown): void {
  if (headers === undefined) return;
  if (!isRecord(headers))
    throw new ConfigurationError('defaultHeaders', 'defaultHeaders must be an object of header names to string values');
  for (const [name, value] of Object.entries(headers)) {
    const option = `defaultHeaders.${name}`;
    if (!HEADER_NAME.test(name))
      throw new ConfigurationError('defaultHeaders', 'defaultHeaders has a name that is not a valid header name');
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new ConfigurationError(option, `${option} is set by the SDK itself: it cannot be a default`);
    // A value fetch would refuse at the first call (a line break, a non-Latin-1 character).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL is one of the characters it refuses.
    if (typeof value !== 'string' || /[\r\n\0]|[^\u0000-\u00ff]/.test(value)) {
      throw new ConfigurationError(option, `${option} must be a string without line breaks (Latin-1)`);
    }
  }
}

function checkDefaultQuery(query: unknown): void {
  if (query === undefined) return;
  if (!isRecord(query))
    throw new ConfigurationError(
      'defaultQuery',
      'defaultQuery must be an object of parameter names to string, number or boolean values',
    );
  for (const [name, value] of Object.entries(query)) {
    if (name === '') throw new ConfigurationError('defaultQuery', 'defaultQuery has an empty parameter name');
    if (
      typeof value !== 'string' &&
      typeof value !== 'boolean' &&
      !(typeof value === 'number' && Number.isFinite(value))
    ) {
      throw new ConfigurationError(
        `defaultQuery.${name}`,
        `defaultQuery.${name} must be a string, a finite number or a boolean`,
      );
    }
  }
}

function checkBaseUrls(baseUrls: unknown, tags: readonly string[]): void {
  if (!isRecord(baseUrls))
    throw new ConfigurationError('baseUrls', `baseUrls must be an object of a base URL per tag: ${tags.join(', ')}`);
  for (const [tag, url] of Object.entries(baseUrls)) {
    if (!tags.includes(tag))
      throw new ConfigurationError(`baseUrls.${tag}`, `baseUrls.${tag} is not a tag: use ${tags.join(', ')}`);
    if (url !== undefined)
      checkUrl(
        url,
        `baseUrls.${tag}`,
        "the root this tag's paths are under, such as https://api.psp.example/v3",
        false,
      );
  }
}

/** An absolute http(s) URL without user name or password; `tokenEndpoint`: https unless on loopback. */
function checkUrl(value: unknown, option: string, what: string, tokenEndpoint: boolean): void {
  if (value === undefined || value === null || value === '')
    throw new ConfigurationError(option, `${option} is required: ${what}`);
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
    throw new ConfigurationError(
      option,
      `${option} must be https (plain http is allowed on loopback only): the secret travels to it`,
    );
  }
}

function checkTls(tls: unknown): void {
  if (tls === undefined) return;
  const shape = 'tls takes { cert, key } (PEM text or bytes) or { pfx, passphrase? } (PKCS#12)';
  if (!isRecord(tls)) throw new ConfigurationError('tls', shape);
  const isPem = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
  if (tls['pfx'] !== undefined) {
    if (!isPem(tls['pfx']))
      throw new ConfigurationError('tls.pfx', 'tls.pfx must be the PKCS#12 file as bytes (or text)');
    return;
  }
  const cert = tls['cert'];
  const key = tls['key'];
  if (cert === undefined && key === undefined) throw new ConfigurationError('tls', shape);
  if (cert === undefined)
    throw new ConfigurationError(
      'tls.cert',
      'tls.key was given without its certificate: add tls.cert (PEM), or give tls.pfx instead',
    );
  if (key === undefined)
    throw new ConfigurationError(
      'tls.key',
      'tls.cert was given without its private key: add tls.key (PEM), or give tls.pfx instead',
    );
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
    if (typeof auth['getToken'] !== 'function')
      throw new ConfigurationError(
        'auth.getToken',
        'auth.getToken must be a function returning a promise of the token',
      );
    return;
  }
  const method = auth['clientAuthentication'];
  if (method !== undefined && !CLIENT_AUTHENTICATION.includes(method)) {
    throw new ConfigurationError(
      'auth.clientAuthentication',
      `auth.clientAuthentication must be one of ${CLIENT_AUTHENTICATION.join(', ')}`,
    );
  }
  const certificateOnly = method === 'tls_client_auth';
  for (const field of certificateOnly ? (['clientId'] as const) : (['clientId', 'clientSecret'] as const)) {
    const value = auth[field];
    if (typeof value !== 'string' || value === '')
      throw new ConfigurationError(
        `auth.${field}`,
        `auth.${field} is required (a non-empty string) for the built-in client credentials`,
      );
  }
  if (certificateOnly && auth['clientSecret'] !== undefined) {
    throw new ConfigurationError(
      'auth.clientSecret',
      "auth.clientSecret is never sent with 'tls_client_auth' (the certificate authenticates the client): leave it out",
    );
  }
  if (auth['tokenUrl'] !== undefined || kind.tokenUrlRequired) {
    checkUrl(
      auth['tokenUrl'],
      'auth.tokenUrl',
      'the OAuth token endpoint, such as https://api.psp.example/oauth/token',
      true,
    );
  }
}
