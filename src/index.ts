/** instant-payments: everything a backend uses. */
export { InstantClient, type InstantClientOptions } from './client.ts';
export type { ConnectionOptions } from './internal/setup.ts';
export type { TlsOptions } from './node/tls.ts';
export {
  ClientCredentialsProvider,
  type ClientCredentials,
  type ClientCredentialsOptions,
} from './core/auth.ts';
export type { TokenProvider, Logger, RequestOptions, FetchLike } from './core/http.ts';
export { PagePromise, type Page, type PageParametros, type Paginacao } from './core/pagination.ts';
export * from './core/errors.ts';
export { PathParameterError } from './core/path.ts';
export * from './resources/cob.ts';
export * from './resources/cobv.ts';
export * from './resources/lotecobv.ts';
export * from './resources/loc.ts';
export * from './resources/instant.ts';
export * from './resources/webhook.ts';
export * from './cash-out/index.ts';
export * from './workflows/index.ts';
