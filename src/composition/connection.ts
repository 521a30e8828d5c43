/**
 * The composition root: builds a client's connection from its options, wiring the parts below
 * it: the HTTP core (`core/`), the transport (Node mTLS from `node/` when a certificate is given),
 * the token provider (built-in client credentials, shared through the `store/` when the store is
 * a fleet's, or the caller's own) and the limits. Used by `InstantClient` and `CashOutClient`.
 */
import { ClientCredentialsProvider, DEFAULT_TOKEN_TIMEOUT_MS, type ClientCredentials } from '../core/auth.ts';
import { HttpCore } from '../core/http.ts';
import type { FetchLike, TokenProvider } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import { createTlsTransport, type TlsOptions } from '../node/tls.ts';
import { sharedStore } from '../store/memory.ts';
import { SharedTokenProvider, tokenIdentity } from './shared-token.ts';
import type { Store } from '../store/types.ts';
import { Telemetry, type TelemetryOptions } from '../core/telemetry.ts';
import { systemNow, type Now } from '../internal/clock.ts';

/** How a client reaches its service: base URL, credentials, certificate, time limits, retries. */
export interface ConnectionOptions {
  baseUrl: string;
  /** Client credentials for the built-in OAuth provider, or any `{ getToken(signal) }`. */
  auth?: ClientCredentials | TokenProvider;
  /** Node: the client certificate for mTLS, used for the API and the token endpoint alike. */
  tls?: TlsOptions;
  /** Per-attempt timeout in milliseconds (default 30 000). */
  timeout?: number;
  /** Budget for a whole call with its retries, in milliseconds (default 120 000). */
  totalTimeout?: number;
  /** Retries of a call that is safe to retry (default 2). */
  maxRetries?: number;
  /**
   * Largest response body read, in bytes (default 10 MiB). Reading stops there: a larger
   * success is an `InvalidResponseError` (`reason: 'too-large'`), a larger error keeps its status.
   */
  maxResponseBytes?: number;
  /** Used for every request the client sends, the token endpoint included. */
  fetch?: FetchLike;
  /**
   * Where the client logs requests, retries, token fetches and refused redirects (route
   * templates, statuses and timings only): any object with `debug`/`info`/`warn`/`error`, such
   * as `console` or a pino logger. Default: stderr when `INSTANT_PAYMENTS_LOG` is set, else none.
   */
  logger?: Logger;
  /**
   * Where state shared by many processes lives (default: this process's memory). With a shared
   * store (`instant-payments/postgres`) the built-in credentials' token is one for the fleet.
   */
  store?: Store;
  /**
   * Headers sent with every API call, such as an application key the service wants on each (a
   * header the call sets itself wins). Not sent with the token request: the token endpoint
   * takes only the OAuth fields, and a key it does not expect must not travel to it.
   */
  defaultHeaders?: Record<string, string>;
  /** Query parameters sent with every API call, merged with the call's own (the call's value wins). */
  defaultQuery?: Record<string, string | number | boolean>;
  /**
   * OpenTelemetry providers (`@opentelemetry/api`'s `TracerProvider`, `MeterProvider`): a CLIENT
   * span per call and `http.client.request.duration`; one left out (`{}`: both) is the global
   * one. Without the option, the global ones when `INSTANT_PAYMENTS_TELEMETRY=on`; else nothing
   * of OpenTelemetry is loaded or done.
   */
  telemetry?: TelemetryOptions;
  /**
   * The clock (default the system clock): every rule that reads "today" (dates not before
   * today, the Brasília civil date), every expiry and deadline, and every duration logged read
   * it. A test clock (the sandbox's `clientOptions()` passes its own) moves the client with it.
   */
  now?: Now;
}

/** The API's tags, each of which may have its own base URL (`baseUrls`). */
export const RESOURCE_TAGS = [
  'cob',
  'cobv',
  'lotecobv',
  'loc',
  'instant',
  'webhook',
  'rec',
  'solicrec',
  'cobr',
  'locrec',
  'webhookrec',
  'webhookcobr',
] as const;

/** A base URL per tag, for services that version resources apart (`{ rec: 'https://api.psp.example/v3' }`). */
export type BaseUrls = { [Tag in (typeof RESOURCE_TAGS)[number]]?: string };

export interface Connection {
  http: HttpCore;
  /** The client's OpenTelemetry, decided once; `undefined` when there is none. */
  telemetry: Telemetry | undefined;
  /** The client's clock: the `now` option, else the system clock. */
  now: Now;
  close(): Promise<void>;
}

/** A client's connection, from options `checkClientOptions` accepted. */
export function connect(
  options: ConnectionOptions & { baseUrls?: BaseUrls },
  tokenRequestFormat?: 'form' | 'json',
): Connection {
  const now = options.now ?? systemNow;
  const transport = options.tls ? createTlsTransport(options.tls, options.fetch) : undefined;
  const fetch: FetchLike | undefined = transport?.fetch ?? options.fetch;
  const auth =
    options.auth === undefined
      ? undefined
      : tokenProvider({ ...options, auth: options.auth }, fetch, tokenRequestFormat, now);
  const telemetry = Telemetry.resolve(options.telemetry, now);
  const http = new HttpCore({
    telemetry,
    baseUrl: options.baseUrl,
    ...(fetch && { fetch }),
    ...(options.fetch && { usersFetch: true }),
    ...(auth && { auth }),
    ...(options.timeout !== undefined && { timeout: options.timeout }),
    ...(options.totalTimeout !== undefined && { totalTimeout: options.totalTimeout }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(options.maxResponseBytes !== undefined && { maxResponseBytes: options.maxResponseBytes }),
    ...(options.logger && { logger: options.logger }),
    ...(transport && { explainConnectionError: transport.explainConnectionError }),
    ...(options.defaultHeaders && { defaultHeaders: { ...options.defaultHeaders } }),
    ...(options.defaultQuery && { defaultQuery: { ...options.defaultQuery } }),
    ...(options.baseUrls && { baseUrls: { ...options.baseUrls } }),
    now,
  });
  return { http, telemetry, now, close: async () => transport?.close() };
}

function tokenProvider(
  options: ConnectionOptions & { auth: ClientCredentials | TokenProvider },
  fetch: FetchLike | undefined,
  format: 'form' | 'json' | undefined,
  now: Now,
): TokenProvider {
  const { auth, timeout, maxResponseBytes, store, tls } = options;
  if ('getToken' in auth) return auth; // checkClientOptions refused a `getToken` that is not a function
  const credentials = auth as ClientCredentials;
  const provider = new ClientCredentialsProvider(
    format && !credentials.tokenRequestFormat ? { ...credentials, tokenRequestFormat: format } : credentials,
    {
      ...(fetch && { fetch }),
      ...(timeout !== undefined && { timeout }),
      ...(maxResponseBytes !== undefined && { maxResponseBytes }),
      ...(options.logger && { logger: options.logger }),
      now,
    },
  );
  const shared = sharedStore(store);
  if (shared === undefined) return provider;
  const certificate = tls === undefined ? undefined : 'pfx' in tls ? tls.pfx : tls.cert;
  return new SharedTokenProvider(provider, shared, {
    identity: tokenIdentity(credentials, certificate),
    // The fetch lease lasts one token request's time limit.
    requestTimeoutMs: timeout ?? DEFAULT_TOKEN_TIMEOUT_MS,
    now,
  });
}
