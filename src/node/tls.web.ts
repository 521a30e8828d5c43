/**
 * The web build's `tls.ts` (tsup.config.ts swaps it in where the runtime has no `node` export
 * condition): mTLS goes through undici, Node only. On Workers, a certificate binding's `fetch`
 * is passed as the client's `fetch` instead.
 */
import { ConfigurationError } from '../errors/failures.ts';
import type { TlsTransport } from './tls.ts';

export type * from './tls.ts';

export function createTlsTransport(): TlsTransport {
  throw new ConfigurationError(
    'tls',
    "tls (mTLS) needs Node: this runtime loaded the web build of instant-payments; pass a fetch that presents the client certificate (on Workers, an mTLS certificate binding's fetch) instead",
  );
}
