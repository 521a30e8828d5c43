/**
 * Node only. mTLS transport: one keep-alive undici Agent per client carrying the client
 * certificate, used by the built-in fetch through its `dispatcher` option, so the API and the
 * token endpoint share the same certificate and connection pool. TLS verification stays on;
 * `ca` only adds trust for a private CA.
 */
import type { FetchLike } from '../core/types.ts';

type Pem = string | Uint8Array;

/** A client certificate: PEM `cert` + `key` (each a string or Buffer), or a PKCS#12 `pfx`. */
export type TlsOptions =
  | { cert: Pem; key: Pem; passphrase?: string; ca?: Pem | Pem[] }
  | { pfx: Pem; passphrase?: string; ca?: Pem | Pem[] };

export interface TlsTransport {
  fetch: FetchLike;
  /** Swaps "other side closed" for the TLS alert the server sent on that connection, if any. */
  explainConnectionError(cause: unknown): unknown;
  close(): Promise<void>;
}

interface Dispatcher {
  close(): Promise<void>;
}

/** How long a TLS alert is remembered for the request that died on its connection. */
const TLS_FAILURE_MEMORY_MS = 5_000;

export function createTlsTransport(tls: TlsOptions, base?: FetchLike): TlsTransport {
  const failures = new Map<number, Error>();
  let dispatcher: Promise<Dispatcher> | undefined;
  const connectOptions = toConnectOptions(tls);

  const open = async (): Promise<Dispatcher> => {
    const { Agent, buildConnector } = await import('undici');
    const connect = buildConnector(connectOptions);
    return new Agent({
      connect: (options, callback) =>
        connect(options, (error, socket) => {
          socket?.on('error', (failure: Error & { code?: string }) => {
            if (!failure.code?.startsWith('ERR_SSL') || socket.localPort === undefined) return;
            const port = socket.localPort;
            failures.set(port, failure);
            setTimeout(() => failures.delete(port), TLS_FAILURE_MEMORY_MS).unref();
          });
          callback(error, socket as never);
        }),
    });
  };

  return {
    fetch: async (input, init) => {
      const agent = await (dispatcher ??= open());
      // `dispatcher` is Node's extension to fetch's init.
      const withAgent = { ...init, dispatcher: agent } as RequestInit;
      return (base ?? globalThis.fetch)(input, withAgent);
    },
    explainConnectionError(cause) {
      const port = (cause as { socket?: { localPort?: number } } | undefined)?.socket?.localPort;
      return (port !== undefined && failures.get(port)) || cause;
    },
    async close() {
      if (dispatcher) await (await dispatcher).close();
      dispatcher = undefined;
    },
  };
}

function toConnectOptions(tls: TlsOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { rejectUnauthorized: true };
  if ('pfx' in tls) out['pfx'] = typeof tls.pfx === 'string' ? Buffer.from(tls.pfx, 'base64') : tls.pfx;
  else {
    out['cert'] = tls.cert;
    out['key'] = tls.key;
  }
  if (tls.passphrase !== undefined) out['passphrase'] = tls.passphrase;
  if (tls.ca !== undefined) out['ca'] = tls.ca;
  return out;
}
