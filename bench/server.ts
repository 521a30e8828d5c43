/**
 * The bench's service, in its own process so the client's CPU is measured alone: an HTTP and
 * an HTTPS server on 127.0.0.1 (the HTTPS one demands a client certificate signed by the test
 * CA, as the mTLS tests do). Charges answer at once; the token endpoint takes 20 ms, so that
 * concurrent callers on a cold client really overlap. Counts token requests and TLS handshakes
 * and reports them over IPC. Exits when its parent goes away.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

const fixture = (name: string) => readFileSync(new URL(`../test/fixtures/tls/${name}`, import.meta.url));

const stats = { tokenRequests: 0, handshakes: 0 };

const charge = (txid: string) =>
  JSON.stringify({
    txid,
    revisao: 0,
    status: 'ATIVA',
    calendario: { criacao: '2026-03-01T12:00:00.000Z', expiracao: 3600 },
    valor: { original: '10.00' },
    chave: '7c084cd4-54af-4172-a516-a7d1a12b75cc',
    solicitacaoPagador: 'Order 1234',
    loc: { id: 7, location: 'instant.example.com/qr/v2/7f4d0c9c', tipoCob: 'cob' },
    location: 'instant.example.com/qr/v2/7f4d0c9c',
    instantCopiaECola: '00020101021226830014example',
  });

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const url = req.url ?? '/';
    if (url === '/oauth/token') {
      stats.tokenRequests++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ access_token: `token-${stats.tokenRequests}`, token_type: 'Bearer', expires_in: 3600 }),
        );
      }, 20);
      return;
    }
    if (url.startsWith('/cob/') && (req.method === 'GET' || req.method === 'PUT')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(charge(url.slice(5).split('?')[0] ?? ''));
      return;
    }
    if (url.startsWith('/lotecobv/') && req.method === 'PUT') {
      res.writeHead(202);
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'https://example.com/error/NaoEncontrado', title: 'Not found', status: 404 }));
  });
}

async function listen(server: Server): Promise<number> {
  // Generous keep-alive so idle pools between interleaved rounds are not cut by the server.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const http = createServer(handle);
const https = createHttpsServer(
  {
    key: fixture('server.key'),
    cert: fixture('server.pem'),
    ca: fixture('ca.pem'),
    requestCert: true,
    rejectUnauthorized: true,
  },
  handle,
);
https.on('secureConnection', () => stats.handshakes++);

const [httpPort, httpsPort] = await Promise.all([listen(http), listen(https)]);
process.send?.({ httpUrl: `http://127.0.0.1:${httpPort}`, httpsUrl: `https://127.0.0.1:${httpsPort}` });
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ stats });
});
process.on('disconnect', () => process.exit(0));
