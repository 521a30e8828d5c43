/**
 * What a forged notification costs the receiver when `authenticate` refuses it: no body read, no
 * call to the service. In process (the web-standard handler: a wrong secret; a self-signed
 * certificate forwarded by a trusted hop) against building a bare 403 Response; over loopback
 * (`.node` on a Node http server, 2,000 forged deliveries at concurrency 50) against a bare
 * Node listener answering 403 at once, the same way.
 */
import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCertificate, generateCertificates } from '../src/sandbox/certificates.ts';
import { fmt, interleave, loadSdk, median, perCallUs, type Row } from './support.ts';

const SECRET = 'bench-webhook-secret-0123456789';
const IN_PROCESS = 20_000;
const FLOOD = 2_000;
const CONCURRENCY = 50;
const ROUNDS = 5;
const BODY = JSON.stringify({ instant: [{ endToEndId: 'E00000000202611261200forged00001', valor: '10.00' }] });

export async function measure(): Promise<Row[]> {
  const sdk = await loadSdk();
  let calls = 0;
  const api = {
    instant: {
      get: async () => {
        calls++;
        throw new Error('a refused delivery must not reach the service');
      },
    },
  };
  const service = generateCertificates({ caName: 'bench service CA' });
  const impostor = encodeURIComponent(createCertificate({ commonName: 'bench service client' }).cert);
  const bySecret = sdk.receivedPaymentsHandler(api, { authenticate: { secret: SECRET }, onPayment: () => undefined });
  const byCertificate = sdk.receivedPaymentsHandler(api, {
    authenticate: {
      clientCertificate: { ca: service.ca.cert },
      trustedProxies: ['10.0.0.0/8'],
      forwardedCertificateHeader: 'x-client-cert',
    },
    onPayment: () => undefined,
  });
  const forgedSecret = async () => {
    const response = await bySecret(
      new Request(`${sdk.webhookUrl('https://shop.example/webhook', `${SECRET}-guess`)}/instant`, {
        method: 'POST',
        body: BODY,
      }),
    );
    if (response.status !== 403) throw new Error(`expected 403, got ${response.status}`);
  };
  const forgedCertificate = async () => {
    const request = new Request('https://shop.example/webhook/instant', {
      method: 'POST',
      body: BODY,
      headers: { 'x-client-cert': impostor },
    });
    const response = await byCertificate(request, { remoteAddress: '10.0.0.1' });
    if (response.status !== 403) throw new Error(`expected 403, got ${response.status}`);
  };
  const bare = async () => {
    new Request('https://shop.example/webhook/instant', { method: 'POST', body: BODY });
    return new Response(null, { status: 403 });
  };
  for (const warm of [forgedSecret, forgedCertificate, bare]) await perCallUs(2_000, warm);
  const inProcess = await interleave(ROUNDS, {
    secret: () => perCallUs(IN_PROCESS, forgedSecret),
    certificate: () => perCallUs(IN_PROCESS / 10, forgedCertificate),
    bare: () => perCallUs(IN_PROCESS, bare),
  });
  const secretUs = median(inProcess['secret'] ?? []);
  const certificateUs = median(inProcess['certificate'] ?? []);
  const bareUs = median(inProcess['bare'] ?? []);

  const handlerServer = await listen((req, res) => void bySecret.node(req, res));
  const bareServer = await listen((_req, res) => {
    res.setHeader('connection', 'close');
    res.writeHead(403).end();
  });
  const forgedPath = `${new URL(sdk.webhookUrl('http://x/webhook', `${SECRET}-guess`)).pathname}/instant`;
  await flood(handlerServer, forgedPath);
  await flood(bareServer, forgedPath);
  const overHttp = await interleave(3, {
    handler: () => flood(handlerServer, forgedPath),
    bare: () => flood(bareServer, forgedPath),
  });
  const handlerUs = median(overHttp['handler'] ?? []);
  const bareHttpUs = median(overHttp['bare'] ?? []);
  await Promise.all([handlerServer, bareServer].map((server) => new Promise((resolve) => server.close(resolve))));
  if (calls !== 0) throw new Error(`${calls} forged deliveries reached the service`);

  return [
    {
      measure: 'refused delivery, wrong secret (web-standard handler, in process; 0 calls to the service)',
      value: `${fmt.fixed(secretUs, 2)} µs`,
      baseline: `a bare 403 Response ${fmt.fixed(bareUs, 2)} µs`,
      ratio: fmt.ratio(secretUs / bareUs),
      goal: '≤ 5x a bare 403',
      holds: secretUs / bareUs <= 5,
    },
    {
      measure: 'refused delivery, self-signed certificate forwarded by a trusted hop (in process)',
      value: `${fmt.fixed(certificateUs, 2)} µs`,
      baseline: `a bare 403 Response ${fmt.fixed(bareUs, 2)} µs`,
      ratio: fmt.ratio(certificateUs / bareUs),
      goal: '(for reference: parsing the certificate is most of it)',
      holds: undefined,
    },
    {
      measure: `refused delivery over loopback (.node, ${fmt.int(FLOOD)} forged at concurrency ${CONCURRENCY}, wall time per delivery)`,
      value: `${fmt.fixed(handlerUs, 1)} µs`,
      baseline: `bare Node listener answering 403 ${fmt.fixed(bareHttpUs, 1)} µs`,
      ratio: fmt.ratio(handlerUs / bareHttpUs),
      goal: '≤ 3x bare',
      holds: handlerUs / bareHttpUs <= 3,
    },
  ];
}

async function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** `FLOOD` forged POSTs at `CONCURRENCY`, a new connection each (refusals close theirs); µs of wall time per delivery. */
async function flood(server: Server, path: string): Promise<number> {
  const { port } = server.address() as AddressInfo;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          if (res.statusCode !== 403) reject(new Error(`expected 403, got ${res.statusCode}`));
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(BODY);
    });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < FLOOD) await post();
    }),
  );
  return ((performance.now() - t0) * 1000) / FLOOD;
}
