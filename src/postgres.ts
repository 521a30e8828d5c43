/**
 * instant-payments/postgres: the store that lets many processes share one token, handle each
 * notification once and recover payments a crash left open. Needs `pg` (an optional peer
 * dependency); the SDK never imports it, the user passes a `pg.Pool`.
 *
 * @module instant-payments/postgres
 */
export {
  createPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
  type PgPoolLike,
  type PgNamedQuery,
  type PgClientLike,
  type PgQueryResult,
} from './store/postgres.ts';
export type { EncryptionKey } from './store/crypto.ts';
export type { Store, Sealer, TransactionalStore, StoreTransaction, StoreQueryResult } from './store/types.ts';
