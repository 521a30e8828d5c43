/** Real HTTP(S) servers on 127.0.0.1 for tests where the real thing matters. */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The client's port: equal across requests when a connection is reused. */
  remotePort: number | undefined;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  url: string;
  requests: RecordedRequest[];
  /** The client connections open now (keep-alive ones included). */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, tls?: ServerOptions): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
      remotePort: req.socket.remotePort,
    };
    requests.push(recorded);
    try {
      await handler(recorded, res);
    } catch {
      res.statusCode = 500;
      res.end();
    }
  };
  const server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    openConnections: () => open.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}
