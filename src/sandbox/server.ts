/**
 * Node only: the sandbox on 127.0.0.1 (or the host given) over node:http (or node:https demanding a client
 * certificate on the routes `refusalWithoutCertificate` guards). It reuses the SDK's Request/Response
 * bridge (`toRequest`, `writeResponse`) and adds what a fault needs and a generic adapter must
 * not do: a dropped request destroys the socket without an answer, and a body that breaks off
 * midway leaves a truncated answer on a closed connection.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { toRequest, writeResponse } from '../node/listener.ts';
import { withCors } from './cors.ts';
import { ConnectionDrop } from './faults.ts';

type Pem = string | Buffer;

/** The server's certificate and key, and the CA that signs the client certificates it accepts. */
export interface SandboxTlsOptions {
  cert: Pem;
  key: Pem;
  /** CA of the client certificates (and of the server's, for `payerOptions()`). */
  ca: Pem | Pem[];
}

/** Options of `sandbox.listen()`. */
export interface SandboxListenOptions {
  /** Port (default 0: any free port). */
  port?: number;
  /**
   * Address to listen on (default `127.0.0.1`). `0.0.0.0` serves a container network or a LAN:
   * the test controls take no credentials, so anyone who reaches the port drives the sandbox.
   */
  host?: string;
  /**
   * The origin written into every URL and location the sandbox gives (`http://sandbox:8080`
   * when clients reach it by a container's name); default: where this process reaches it.
   */
  publicOrigin?: string;
  /** HTTPS; the API and cash-out routes then demand a client certificate signed by `ca`. */
  tls?: SandboxTlsOptions;
}

type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export interface NodeServer {
  /** Where this process reaches the server: loopback, whatever address it listens on. */
  origin: string;
  /** True over HTTPS: every request past `needsCertificate` came with a certificate from the CA. */
  tls: boolean;
  /** A fetch that reaches this server (trusting its CA in HTTPS mode). */
  fetch: FetchFn;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function listenNode(
  handle: (request: Request) => Promise<Response>,
  port: number,
  tls: SandboxTlsOptions | undefined,
  /** What a request without a verified client certificate gets at `path` (`undefined`: it goes through). */
  refusalWithoutCertificate: (path: string, correlationId: string) => Response | undefined,
  host = '127.0.0.1',
): Promise<NodeServer> {
  const listener = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const body = await readBody(req);
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      const request = toRequest(req, body, controller.signal);
      // A preflight never carries a client certificate: it is answered like any other.
      const refusal =
        tls && request.method !== 'OPTIONS' && !(req.socket as TLSSocket).authorized
          ? refusalWithoutCertificate(new URL(request.url).pathname, 'sbx-tls')
          : undefined;
      const response = refusal === undefined ? await handle(request) : withCors(refusal);
      await writeResponse(res, response);
    } catch (error) {
      // A cut answer: what was written goes out, then the connection closes short of the body.
      if (res.headersSent) return req.socket.destroySoon();
      if (error instanceof ConnectionDrop) return void req.socket.destroy();
      res
        .writeHead(500, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
        .end('Internal Server Error');
    }
  };
  const server: Server = tls
    ? createHttpsServer(
        { cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: true, rejectUnauthorized: false },
        listener,
      )
    : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  const origin = `${tls ? 'https' : 'http'}://${reachable(host)}:${bound}`;
  let agent: Promise<{ close(): Promise<void> }> | undefined;
  const fetch: FetchFn = tls
    ? async (input, init) => {
        agent ??= import('undici').then(({ Agent }) => new Agent({ connect: { ca: tls.ca as string | string[] } }));
        return globalThis.fetch(input, { ...init, dispatcher: await agent } as RequestInit);
      }
    : (input, init) => globalThis.fetch(input, init);
  return {
    origin,
    tls: tls !== undefined,
    fetch,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (agent) await (await agent).close();
    },
  };
}

/** The address this process reaches a server listening on `host` at: loopback for a wildcard. */
function reachable(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** `origin` as an origin (scheme, host, port), or an error naming `publicOrigin`. */
export function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`publicOrigin must be an origin such as http://sandbox:8080, not ${JSON.stringify(origin)}`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.username !== ''
  ) {
    throw new Error(
      'publicOrigin must be an http(s) origin without path, query or credentials, such as http://sandbox:8080',
    );
  }
  return url.origin;
}

/** True when `host` is a loopback name or address: nothing beyond this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) req.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(size === 0 ? undefined : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
