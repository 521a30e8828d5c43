/** instant-payments: everything a backend uses. */
export { InstantClient, type InstantClientOptions } from './client.ts';
export type { ConnectionOptions } from './internal/setup.ts';
export type { TlsOptions } from './node/tls.ts';
export {
  ClientCredentialsProvider,
  type ClientCredentials,
  type ClientCredentialsOptions,
  type TokenInfo,
} from './core/auth.ts';
export {
  HttpCore,
  type CallSpec,
  type HttpResult,
  type HttpMethod,
  type QueryValue,
  type TokenProvider,
  type Logger,
  type RequestOptions,
  type FetchLike,
} from './core/http.ts';
export { path, PathParameterError, type RoutePath } from './core/path.ts';
export { PagePromise, type Page, type PageParametros, type Paginacao } from './core/pagination.ts';
export * from './core/errors.ts';
export * from './resources/cob.ts';
export * from './resources/cobv.ts';
export * from './resources/lotecobv.ts';
export * from './resources/loc.ts';
export * from './resources/instant.ts';
export * from './resources/webhook.ts';
export * from './cash-out/index.ts';
export * from './workflows/index.ts';
export { toNodeHandler, type NodeHandler, type NodeHandlerOptions, type WebHandler } from './node/adapter.ts';
export * from './lib/index.ts';
export { StoreError, ClaimBusyError, type Store, type Sealer } from './store/types.ts';
export { createMemoryStore } from './store/memory.ts';
export { createSealer, type EncryptionKey } from './store/crypto.ts';
export type { ClaimOptions } from './store/claims.ts';
export type { RecoverOptions, RecoveredPayment, IntentOptions } from './store/intents.ts';
