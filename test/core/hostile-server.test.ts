/**
 * The HTTP core against a real server that misbehaves: bodies cut, trickled or huge, redirects to
 * another origin, token endpoints that echo the secret, odd problem documents, bodies that cannot
 * be sent. Every failure must be an `InstantError`, every timeout must cover the whole answer.
 */
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliCompressSync, constants as zlibConstants, createBrotliCompress, gzipSync } from 'node:zlib';
import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { InstantClient } from '../../src/client.ts';
import { CashOutClient } from '../../src/cash-out/client.ts';
import { ClientCredentialsProvider } from '../../src/core/auth.ts';
import { InstantError } from '../../src/errors/base.ts';
import { PayerClient } from '../../src/payer.ts';
import { sendJson, startServer, type Handler, type LoopbackServer } from '../support/loopback.ts';
import { rejection } from '../support/settles.ts';

const CPF = '12345678909';
const SECRET = 'tok3n-s3cret-Zq9';
const TXID = 'a'.repeat(26);
const token = { getToken: async () => 'tok' };

let servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(handler: Handler): Promise<LoopbackServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function api(server: LoopbackServer, options: Partial<ConstructorParameters<typeof InstantClient>[0]> = {}) {
  return new InstantClient({ baseUrl: `${server.url}/v2`, auth: token, ...options });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value).slice(0, 80)}`);
  return outcome.error as Error;
}

/** Everything an error shows to a log, a console or a JSON sink. */
function everywhere(error: Error): string {
  return [error.message, String(error), error.stack, JSON.stringify(error), inspect(error, { depth: 10 })].join('\n');
}

/** Headers and the start of a JSON body, then the connection is destroyed. */
function cutMidBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
  res.write('{"id": 7, "location": "qr.psp.exam');
  setTimeout(() => res.socket?.destroy(), 20);
}

/** Writes `total` bytes in 1 MiB chunks, honouring back-pressure; resolves with what was written. */
function stream(res: ServerResponse, status: number, total: number): Promise<number> {
  res.writeHead(status, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  let written = 0;
  return new Promise((resolve) => {
    res.on('close', () => resolve(written));
    const pump = () => {
      while (written < total && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (written >= total) res.end();
    };
    pump();
  });
}

describe('1. the body is inside the transport guarantees', () => {
  it('a connection cut mid-body is a ConnectionError, and a safe call is retried like any network failure', async () => {
    let gets = 0;
    const server = await serve((req, res) => {
      if (req.method === 'GET' && ++gets === 1) return cutMidBody(res);
      if (req.method === 'POST') return cutMidBody(res);
      sendJson(res, 200, { id: 7, location: 'qr.psp.example/qr/v2/x' });
    });
    await expect(api(server).loc.get(7)).resolves.toMatchObject({ id: 7 });
    expect(gets).toBe(2);

    // POST /loc is never retried: one attempt, a typed failure.
    const error = await failure(api(server).loc.create({ tipoCob: 'cob' }));
    expect(error).toBeInstanceOf(InstantError);
    expect(error.name).toBe('ConnectionError');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a 2xx JSON answer whose body is not JSON is a typed error, not a SyntaxError', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`<html>${CPF}</html>`);
    });
    const error = await failure(api(server).loc.get(7));
    expect(error).toBeInstanceOf(InstantError);
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'malformed', status: 200 });
    expect(everywhere(error)).not.toContain(CPF);
  });

  // The server trickles forever: only the time limit under test can end these calls (the other
  // one is a minute away), so the call settling at all is the verdict, not its elapsed time.
  it('the per-attempt timeout covers a body that trickles one byte at a time', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const call = api(server, { timeout: 300, totalTimeout: 60_000, maxRetries: 0 }).loc.get(7);
    expect(await rejection(call, 'a call on a trickled body')).toMatchObject({ name: 'TimeoutError' });
  });

  it('totalTimeout covers the body too, across retries', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const call = api(server, { timeout: 60_000, totalTimeout: 400 }).loc.get(7);
    expect(await rejection(call, 'a call on a trickled body')).toMatchObject({ name: 'TimeoutError' });
  });

  it('a 50 MB answer is refused at maxResponseBytes (default 10 MiB): reading stops, the server is cut off', async () => {
    let written: Promise<number> | undefined;
    const server = await serve((_req, res) => {
      written = stream(res, 200, 50 * 1024 * 1024);
    });
    const error = await failure(api(server, { maxRetries: 0 }).loc.get(7));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'too-large', status: 200 });
    expect(await written).toBeLessThan(50 * 1024 * 1024);
  });

  it('maxResponseBytes is an option; an error answer past it keeps its status (and is retried when safe)', async () => {
    let calls = 0;
    const server = await serve((_req, res) => {
      if (++calls === 1) return void stream(res, 503, 4 * 1024 * 1024);
      sendJson(res, 200, { id: 7 });
    });
    await expect(api(server, { maxResponseBytes: 1024 * 1024 }).loc.get(7)).resolves.toEqual({ id: 7 });
    expect(calls).toBe(2);
  });

  it('the payer transport: a cut mid-body is retried, a huge payload is refused at maxResponseBytes', async () => {
    let calls = 0;
    const server = await serve((req, res) => {
      if (req.url === '/qr/v2/cut' && ++calls === 1) return cutMidBody(res);
      if (req.url === '/qr/v2/cut') return sendJson(res, 200, { txid: 'abc', valor: { original: '1.00' } });
      void stream(res, 200, 8 * 1024 * 1024);
    });
    const payer = new PayerClient({
      allowPrivateHosts: true,
      allowUnsignedPayloads: true,
      maxResponseBytes: 1024 * 1024,
    });
    await expect(payer.cobPayload.getCob(`${server.url}/qr/v2/cut`)).resolves.toMatchObject({ txid: 'abc' });
    expect(calls).toBe(2);
    const error = await failure(payer.cobPayload.getCob(`${server.url}/qr/v2/huge`));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'too-large' });
  });
});

describe('1b. a compressed body is bounded by its decoded size', () => {
  const MiB = 1024 * 1024;
  const DECODED = 300 * MiB;
  const LIMIT = MiB;
  const bombs: Partial<Record<'gzip' | 'br', Buffer>> = {};

  /** 300 MiB of zeros, compressed (a few hundred KB of gzip, a few hundred bytes of brotli). */
  async function bomb(encoding: 'gzip' | 'br'): Promise<Buffer> {
    if (bombs[encoding]) return bombs[encoding];
    const zeros = Buffer.alloc(MiB);
    if (encoding === 'gzip') {
      // gzip members concatenated are one gzip stream: compress 1 MiB once.
      const member = gzipSync(zeros, { level: 9 });
      return (bombs.gzip = Buffer.concat(Array.from({ length: DECODED / MiB }, () => member)));
    }
    const compressor = createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } });
    const out: Buffer[] = [];
    compressor.on('data', (chunk: Buffer) => out.push(chunk));
    const done = new Promise((resolve) => compressor.on('end', resolve));
    for (let i = 0; i < DECODED / MiB; i++)
      if (!compressor.write(zeros)) await new Promise((resolve) => compressor.once('drain', resolve));
    compressor.end();
    await done;
    return (bombs.br = Buffer.concat(out));
  }

  /** Answers every request with `body` under `encoding`, its (compressed) length declared. */
  function compressed(res: ServerResponse, encoding: string, body: Buffer, type = 'application/json'): void {
    res.writeHead(200, { 'content-type': type, 'content-encoding': encoding, 'content-length': String(body.length) });
    res.end(body);
  }

  /** The platform's fetch, counting the decoded bytes the SDK pulls from the body stream. */
  function countingFetch(): { fetch: typeof globalThis.fetch; pulled: () => number } {
    let pulled = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (response.body === null) return response;
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            pulled += value.byteLength;
            controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        },
        { highWaterMark: 0 },
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    return { fetch, pulled: () => pulled };
  }

  /** A full garbage collection, so that what a measure sees live is what the work under it holds. */
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  /**
   * The most the process's live memory (JS heap and array buffers) grew while `work` ran, sampled
   * every 2 ms; RSS would hide it, as freed memory the allocator kept is reused.
   */
  async function memoryGrowth(work: () => Promise<unknown>): Promise<number> {
    const live = () => {
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    // Array buffers are freed a little after the collection that found them dead.
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const base = live();
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, live())), 2);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
    return Math.max(peak, live()) - base;
  }

  /** The `reason` of each error down the cause chain (a token failure keeps the transport's as a cause). */
  function reasons(error: unknown): unknown[] {
    const found: unknown[] = [];
    for (let current = error; current instanceof Error; current = current.cause)
      found.push((current as { reason?: unknown }).reason);
    return found;
  }

  const sides = ['an API call', 'the token request (form)', 'the token request (JSON)', 'a payer payload'] as const;

  /** The call on one side against `server`, through `fetch`; the token endpoint is /oauth/token. */
  function call(
    side: (typeof sides)[number],
    server: LoopbackServer,
    fetch?: typeof globalThis.fetch,
  ): Promise<unknown> {
    const common = { maxRetries: 0, maxResponseBytes: LIMIT, ...(fetch && { fetch }) };
    if (side === 'a payer payload') {
      return new PayerClient({ allowPrivateHosts: true, allowUnsignedPayloads: true, ...common }).cobPayload.getCob(
        `${server.url}/qr/v2/abc`,
      );
    }
    if (side === 'an API call') return api(server, common).loc.get(7);
    const tokenRequestFormat = side === 'the token request (form)' ? 'form' : 'json';
    const auth = {
      tokenUrl: `${server.url}/oauth/token`,
      clientId: 'c',
      clientSecret: SECRET,
      tokenRequestFormat,
    } as const;
    return new InstantClient({ baseUrl: `${server.url}/v2`, auth, ...common }).loc.get(7);
  }

  /** A bomb on the side under test; a plain small answer elsewhere (the token an API call needs). */
  function bombOn(side: (typeof sides)[number], body: Buffer, encoding: string): Handler {
    return (req, res) => {
      const isToken = req.url === '/oauth/token';
      if (side.startsWith('the token') === isToken) return compressed(res, encoding, body);
      sendJson(res, 200, isToken ? { access_token: 't', token_type: 'Bearer', expires_in: 300 } : { id: 7 });
    };
  }

  for (const encoding of ['gzip', 'br'] as const) {
    for (const side of sides) {
      it(`${side}: a ${encoding} bomb (300 MiB decoded) stops at maxResponseBytes, with the error a plain oversize body gets`, async () => {
        const body = await bomb(encoding);
        expect(body.length).toBeLessThan(LIMIT);
        // The same call against a plain body past the limit: the error the bomb must give too.
        const plain = await serve((req, res) => {
          if (side.startsWith('the token') !== (req.url === '/oauth/token'))
            return bombOn(side, Buffer.alloc(0), 'identity')(req, res);
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * LIMIT) });
          res.end(Buffer.alloc(2 * LIMIT, 0x20));
        });
        const expected = await failure(call(side, plain));
        expect(expected).toBeInstanceOf(InstantError);

        const server = await serve(bombOn(side, body, encoding));
        // The platform's own fetch: live memory grows by nothing like the decoded size.
        const growth = await memoryGrowth(async () => {
          const error = await failure(call(side, server));
          expect(error.constructor).toBe(expected.constructor);
          expect(error).toMatchObject({ name: expected.name, status: (expected as { status?: number }).status });
          expect(reasons(error)).toContain('too-large');
          expect(reasons(error)).toEqual(reasons(expected));
        });
        expect(growth).toBeLessThan(64 * MiB);
        // The SDK stopped pulling decoded bytes just past the limit (one decoder chunk or so).
        const counting = countingFetch();
        await failure(call(side, server, counting.fetch));
        expect(counting.pulled()).toBeGreaterThan(LIMIT);
        expect(counting.pulled()).toBeLessThan(LIMIT + MiB);
      });
    }
  }

  it('an honest compressed answer under the limit is decoded and read as before, on every side', async () => {
    const token = JSON.stringify({ access_token: 't', token_type: 'Bearer', expires_in: 300 });
    // Just under the limit once decoded.
    const payload = JSON.stringify({
      id: 7,
      txid: 'abc',
      valor: { original: '1.00' },
      padding: 'x'.repeat(LIMIT - 1024),
    });
    for (const encoding of ['gzip', 'br'] as const) {
      const encode = (text: string) => (encoding === 'gzip' ? gzipSync(text) : brotliCompressSync(text));
      const server = await serve((req, res) =>
        compressed(res, encoding, encode(req.url === '/oauth/token' ? token : payload)),
      );
      for (const side of sides) {
        const result = (await call(side, server)) as { id?: number; txid?: string };
        expect(result, `${side} ${encoding}`).toMatchObject(side === 'a payer payload' ? { txid: 'abc' } : { id: 7 });
      }
    }
  });
});

describe('2. redirects never leave the configured origin', () => {
  async function foreignAndApi(status = 307) {
    const foreign = await serve((_req, res) =>
      sendJson(res, 200, { txid: TXID, status: 'ATIVA', accessToken: 'foreign', expires_in: 300 }),
    );
    const server = await serve((_req, res) => {
      res.writeHead(status, { location: `${foreign.url}/steal?token=query-secret` });
      res.end();
    });
    return { foreign, server };
  }

  it('a cross-origin 307 on a charge is a typed error; the foreign origin receives nothing (no CPF)', async () => {
    const { foreign, server } = await foreignAndApi();
    const body = {
      calendario: { expiracao: 3600 },
      devedor: { cpf: CPF, nome: 'Fulano' },
      valor: { original: '10.00' },
      chave: 'k@example.com',
    };
    const error = await failure(api(server).cob.create(TXID, body));
    expect(error).toMatchObject({ name: 'InvalidResponseError', reason: 'redirect', status: 307 });
    expect(error.message).toContain(foreign.url);
    expect(everywhere(error)).not.toContain('query-secret');
    expect(server.requests).toHaveLength(1);
    expect(foreign.requests).toHaveLength(0);
  });

  it('the cash-out order (and its idempotency key) never reaches another origin', async () => {
    const { foreign, server } = await foreignAndApi(308);
    const cashOut = new CashOutClient({ baseUrl: server.url, auth: token, maxRetries: 0 });
    const order = {
      instantKey: 'payee@example.com',
      creditorDocument: '52998224725',
      payment: { currency: 'BRL' as const, amount: '10.00' },
    };
    const error = await failure(cashOut.payments.create(order, { idempotencyKey: 'key42' }));
    // A redirect does not prove the order was refused: it is looked up by its key (on the same
    // origin, redirected too), and its fate stays unknown.
    expect(error).toMatchObject({ name: 'PaymentOutcomeUnknownError', idempotencyKey: 'key42' });
    expect(error.cause).toMatchObject({ name: 'InvalidResponseError', reason: 'redirect', status: 308 });
    expect(server.requests.map((r) => `${r.method} ${r.headers['x-idempotency-key'] ?? r.url}`)).toEqual([
      'POST key42',
      'GET /api/v2/instant/payments/idempotencyKey/key42',
    ]);
    expect(foreign.requests).toHaveLength(0);
  });

  it('the token requests (form and JSON) never follow a redirect with the secret', async () => {
    for (const tokenRequestFormat of ['form', 'json'] as const) {
      const { foreign, server } = await foreignAndApi();
      const auth = new ClientCredentialsProvider({
        tokenUrl: `${server.url}/oauth/token`,
        clientId: 'c',
        clientSecret: SECRET,
        tokenRequestFormat,
      });
      const error = await failure(auth.getToken());
      expect(error, tokenRequestFormat).toMatchObject({ name: 'AuthenticationError' });
      expect(foreign.requests, tokenRequestFormat).toHaveLength(0);
      expect(everywhere(error)).not.toContain(SECRET);
    }
  });
});

describe('5. no CPF and no secret anywhere an error reaches', () => {
  it('a CPF in a problem title is scrubbed like one in detail', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 404, {
        type: 'https://x/CobNaoEncontrado',
        title: `Cobranca de ${CPF} nao encontrada`,
        detail: `cpf ${CPF}`,
      }),
    );
    const error = await failure(api(server).cob.get(TXID));
    expect(error.name).toBe('CobNaoEncontrado');
    expect(everywhere(error)).not.toContain(CPF);
  });

  it('a token endpoint echoing the client secret: not in the message, fields, causes or inspect output', async () => {
    const answers: Array<[number, string, 'form' | 'json']> = [
      [401, JSON.stringify({ error: 'invalid_client', error_description: `secret ${SECRET} is wrong` }), 'form'],
      [400, JSON.stringify({ title: `bad secret ${SECRET}` }), 'json'],
      [200, `{"access_token": ${SECRET}`, 'json'],
      [200, `{"access_token": ${SECRET}`, 'form'],
    ];
    for (const [status, body, tokenRequestFormat] of answers) {
      const server = await serve((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      });
      const auth = new ClientCredentialsProvider({
        tokenUrl: `${server.url}/oauth/token`,
        clientId: 'c',
        clientSecret: SECRET,
        tokenRequestFormat,
      });
      const error = await failure(auth.getToken());
      expect(error, body).toMatchObject({ name: 'AuthenticationError' });
      expect(everywhere(error), body).not.toContain(SECRET);
      expect(everywhere(error), body).not.toContain(SECRET.slice(0, 8));
    }
  });
});

describe('6. error typing', () => {
  it('type "about:blank" is no type: the status/endpoint class, no invented type URI', async () => {
    const server = await serve((req, res) =>
      req.url?.includes('blank')
        ? sendJson(res, 404, { type: 'about:blank', title: 'Not Found', status: 404 })
        : sendJson(res, 404, { title: 'Not Found' }),
    );
    const error = await failure(api(server, { baseUrl: `${server.url}/blank` }).cob.get(TXID));
    expect(error).toMatchObject({ name: 'CobNaoEncontrado', errorType: 'CobNaoEncontrado', status: 404 });
    expect((error as { type?: unknown }).type).toBeUndefined();
    const bare = await failure(api(server).cob.get(TXID));
    expect(bare).toMatchObject({ name: 'CobNaoEncontrado', errorType: 'CobNaoEncontrado' });
    expect((bare as { type?: unknown }).type).toBeUndefined();
  });

  it('a body with a BigInt or a cycle is refused with a typed error before sending', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const cycle: Record<string, unknown> = { original: '1.00' };
    cycle['self'] = cycle;
    const bodies = [
      { calendario: { expiracao: 3600 }, valor: { original: 10n }, chave: 'k@example.com' },
      { calendario: { expiracao: 3600 }, valor: cycle, chave: 'k@example.com' },
    ];
    for (const body of bodies) {
      for (const validate of [true, false]) {
        const error = await failure(api(server).cob.create(TXID, body as never, { validate }));
        expect(error).toBeInstanceOf(InstantError);
        expect(error).toMatchObject({ name: 'CobOperacaoInvalida', sentRequest: false });
      }
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('7. the payer side requires a signature by default', () => {
  it('refuses an unsigned payload (JSON or text); accepts it only with allowUnsignedPayloads', async () => {
    const payload = {
      txid: 'abc',
      revisao: 0,
      status: 'ATIVA',
      chave: 'k',
      valor: { original: '1.00' },
      calendario: {},
    };
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': req.url === '/qr/v2/text' ? 'text/plain' : 'application/json' });
      res.end(JSON.stringify(payload));
    });
    for (const route of ['json', 'text']) {
      const error = await failure(
        new PayerClient({ allowPrivateHosts: true }).cobPayload.getCob(`${server.url}/qr/v2/${route}`),
      );
      expect(error).toMatchObject({ name: 'PayloadVerificationError', reason: 'unsigned' });
    }
    const dev = new PayerClient({ allowPrivateHosts: true, allowUnsignedPayloads: true });
    await expect(dev.cobPayload.getCob(`${server.url}/qr/v2/json`)).resolves.toMatchObject({ txid: 'abc' });
  });

  it('a signed payload still verifies by default', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1' };
    const server = await serve(async (req, res) => {
      if (req.url === '/jwks.json') return sendJson(res, 200, { keys: [jwk] });
      const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify({ txid: 'abc' })))
        .setProtectedHeader({ alg: 'RS256', kid: 'k1', jku: `${server.url}/jwks.json` })
        .sign(privateKey);
      res.writeHead(200, { 'content-type': 'application/jose' });
      res.end(jws);
    });
    await expect(
      new PayerClient({ allowPrivateHosts: true }).cobPayload.getCob(`${server.url}/qr/v2/abc`),
    ).resolves.toMatchObject({ txid: 'abc' });
  });
});

describe('10. the SDK names itself', () => {
  it('API and token requests carry User-Agent instant-payments/<version>', async () => {
    const server = await serve((req, res) =>
      req.url === '/oauth/token'
        ? sendJson(res, 200, { access_token: 't', token_type: 'Bearer', expires_in: 300 })
        : sendJson(res, 200, { id: 7 }),
    );
    for (const tokenRequestFormat of ['form', 'json'] as const) {
      const client = new InstantClient({
        baseUrl: `${server.url}/v2`,
        auth: { tokenUrl: `${server.url}/oauth/token`, clientId: 'c', clientSecret: SECRET, tokenRequestFormat },
      });
      await client.loc.get(7);
    }
    expect(server.requests).toHaveLength(4);
    for (const request of server.requests)
      expect(request.headers['user-agent'], request.url).toBe(`instant-payments/${pkg.version}`);
  });
});
