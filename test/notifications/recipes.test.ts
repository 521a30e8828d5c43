/**
 * The recipes of docs/notifications.md, run: behind a TLS-terminating proxy (a small Node proxy
 * on loopback standing in for nginx: it asks for the client certificate, forwards it URL-encoded
 * in `x-client-cert` as `$ssl_client_escaped_cert` does, empty when none came, and appends the
 * client's address to `X-Forwarded-For`), and a serverless handler with the secret and the
 * service's addresses. (Direct `https` is test/e2e/webhook-mtls.test.ts, against the sandbox.)
 * The proxy connects to the backend from 127.0.0.2, the trusted hop; anything else on loopback
 * comes from 127.0.0.1, an untrusted one.
 */
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivedPaymentsHandler, webhookUrl } from '../../src/index.ts';
import { countingApi, otherCa, paymentBody, post, receiver, service } from './support.ts';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('behind nginx: the forwarded certificate, believed from the trusted hop only', () => {
  const api = countingApi();
  const paid: string[] = [];
  let proxyUrl = '';
  let backendUrl = '';

  beforeAll(async () => {
    // The recipe's backend: plain HTTP behind the proxy.
    const handler = receivedPaymentsHandler(api, {
      authenticate: {
        clientCertificate: { ca: service.ca.cert },
        trustedProxies: ['127.0.0.2/32'],
        forwardedCertificateHeader: 'x-client-cert',
      },
      onPayment: (payment) => void paid.push(payment.endToEndId),
    });
    const backend = await listen(createHttpServer((req, res) => void handler.node(req, res)));
    backendUrl = `http://127.0.0.1:${backend}`;
    // The proxy: `ssl_verify_client optional_no_ca; proxy_set_header X-Client-Cert $ssl_client_escaped_cert;`
    const proxy = createHttpsServer(
      { cert: receiver.server.cert, key: receiver.server.key, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        const pem = peer.raw ? new X509Certificate(peer.raw).toString() : '';
        const headers = {
          ...req.headers,
          'x-client-cert': encodeURIComponent(pem),
          'x-forwarded-for': req.socket.remoteAddress ?? '',
        };
        const upstream = request(
          { host: '127.0.0.1', port: backend, path: req.url, method: req.method, headers, localAddress: '127.0.0.2' },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.writeHead(502).end());
        req.pipe(upstream);
      },
    );
    proxyUrl = `https://127.0.0.1:${await listen(proxy)}`;
  });

  it("the service's certificate through the proxy: 200, the payment once", async () => {
    expect(await post(`${proxyUrl}/webhook/instant`, paymentBody(), { client: service.client })).toBe(200);
    expect(paid).toHaveLength(1);
  });

  it('through the proxy without a certificate: 401; with another CA: 403', async () => {
    expect(await post(`${proxyUrl}/webhook/instant`, paymentBody())).toBe(401);
    expect(await post(`${proxyUrl}/webhook/instant`, paymentBody(), { client: otherCa })).toBe(403);
  });

  it('the genuine certificate in the header, sent straight to the backend (an untrusted hop): 403, no call', async () => {
    const calls = api.calls;
    const headers = { 'x-client-cert': encodeURIComponent(service.client.cert) };
    expect(await post(`${backendUrl}/webhook/instant`, paymentBody(), { headers })).toBe(403);
    expect(api.calls).toBe(calls);
  });
});

describe("serverless: the secret in the URL and the service's addresses", () => {
  it('the handler as the recipe writes it: the platform gives the source address', async () => {
    const secret = 'serverless-recipe-secret-1234';
    const api = countingApi();
    let paid = 0;
    const handler = receivedPaymentsHandler(api, {
      authenticate: { secret, allowIps: ['203.0.113.0/24'] },
      onPayment: () => void paid++,
    });
    // e.g. AWS Lambda function URLs: event.requestContext.http.sourceIp
    const fn = (request: Request, sourceIp: string) => handler(request, { remoteAddress: sourceIp });
    const at = (url: string) => new Request(url, { method: 'POST', body: paymentBody() });
    const registered = webhookUrl('https://fn.example/webhook', secret);
    expect((await fn(at(`${registered}/instant`), '203.0.113.10')).status).toBe(200);
    expect((await fn(at(`${registered}/instant`), '198.51.100.1')).status).toBe(403);
    expect((await fn(at('https://fn.example/webhook/instant'), '203.0.113.10')).status).toBe(401);
    expect(paid).toBe(1);
    expect(api.calls).toBe(1);
  });
});
