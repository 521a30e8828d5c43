/**
 * Builds a client's HTTP core from its options: the transport (mTLS when a certificate is
 * given), the token provider (built-in client credentials or the caller's own) and the limits.
 * Shared by `InstantClient` and `CashOutClient`.
 */
import { ClientCredentialsProvider, type ClientCredentials } from '../core/auth.ts';
import { HttpCore, type FetchLike, type Logger, type TokenProvider } from '../core/http.ts';
import { createTlsTransport, type TlsOptions } from '../node/tls.ts';

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
  /** Used for every request the client sends, the token endpoint included. */
  fetch?: FetchLike;
  logger?: Logger;
}

export interface Connection {
  http: HttpCore;
  close(): Promise<void>;
}

export function connect(options: ConnectionOptions, tokenRequestFormat?: 'form' | 'json'): Connection {
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
    throw new TypeError('baseUrl must be an absolute http(s) URL');
  }
  const transport = options.tls ? createTlsTransport(options.tls, options.fetch) : undefined;
  const fetch: FetchLike | undefined = transport?.fetch ?? options.fetch;
  const auth = options.auth === undefined ? undefined : tokenProvider(options.auth, fetch, options.timeout, tokenRequestFormat);
  const http = new HttpCore({
    baseUrl: options.baseUrl,
    ...(fetch && { fetch }),
    ...(auth && { auth }),
    ...(options.timeout !== undefined && { timeout: options.timeout }),
    ...(options.totalTimeout !== undefined && { totalTimeout: options.totalTimeout }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(options.logger && { logger: options.logger }),
    ...(transport && { explainConnectionError: transport.explainConnectionError }),
  });
  return { http, close: async () => transport?.close() };
}

function tokenProvider(
  auth: ClientCredentials | TokenProvider,
  fetch: FetchLike | undefined,
  timeout: number | undefined,
  format: 'form' | 'json' | undefined,
): TokenProvider {
  if ('getToken' in auth && typeof auth.getToken === 'function') return auth;
  const credentials = auth as ClientCredentials;
  return new ClientCredentialsProvider(
    format && !credentials.tokenRequestFormat ? { ...credentials, tokenRequestFormat: format } : credentials,
    { ...(fetch && { fetch }), ...(timeout !== undefined && { timeout }) },
  );
}
