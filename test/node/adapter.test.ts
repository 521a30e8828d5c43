import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidNotificationError } from '../../src/errors/failures.ts';
import { toNodeHandler, type WebHandler } from '../../src/node/adapter.ts';

let server: Server | undefined;

async function serve(listener: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<string> {
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** Sends `chunks` with chunked transfer encoding (no content-length) and resolves with the answer. */
function sendChunked(url: string, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('toNodeHandler', () => {
  it('hands the handler a Request (method, URL, headers, body) and writes its Response back', async () => {
    let seen: { method: string; url: string; type: string | null; custom: string | null; body: string } | undefined;
    const handler: WebHandler = async (request) => {
      seen = {
        method: request.method,
        url: request.url,
        type: request.headers.get('content-type'),
        custom: request.headers.get('x-custom'),
        body: await request.text(),
      };
      const headers = new Headers({ 'content-type': 'application/json', 'x-answer': 'yes' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response(JSON.stringify({ ok: true }), { status: 201, headers });
    };
    const base = await serve(toNodeHandler(handler));
    const response = await fetch(`${base}/webhook/instant?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custom': 'v' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual({
      method: 'POST',
      url: `${base}/webhook/instant?x=1`,
      type: 'application/json',
      custom: 'v',
      body: '{"a":1}',
    });
  });

  it('passes a GET without a body', async () => {
    let body: string | undefined;
    const base = await serve(
      toNodeHandler(async (request) => {
        body = await request.text();
        return new Response('pong');
      }),
    );
    const response = await fetch(`${base}/ping`);
    expect(await response.text()).toBe('pong');
    expect(body).toBe('');
  });

  it('answers 413 without calling the handler when content-length is over maxBodyBytes', async () => {
    let called = false;
    const base = await serve(
      toNodeHandler(
        async () => {
          called = true;
          return new Response('ok');
        },
        { maxBodyBytes: 16 },
      ),
    );
    const response = await fetch(base, { method: 'POST', body: 'x'.repeat(17) });
    expect(response.status).toBe(413);
    expect(called).toBe(false);
  });

  it('answers 413 when a chunked body grows past maxBodyBytes, without keeping it', async () => {
    let called = false;
    const base = await serve(
      toNodeHandler(
        async () => {
          called = true;
          return new Response('ok');
        },
        { maxBodyBytes: 1024 },
      ),
    );
    const answer = await sendChunked(base, [Buffer.alloc(600, 97), Buffer.alloc(600, 98)]);
    expect(answer.status).toBe(413);
    expect(called).toBe(false);
  });

  it('accepts a body exactly maxBodyBytes long', async () => {
    const base = await serve(
      toNodeHandler(async (request) => new Response(String((await request.arrayBuffer()).byteLength)), {
        maxBodyBytes: 16,
      }),
    );
    const response = await fetch(base, { method: 'POST', body: 'x'.repeat(16) });
    expect(await response.text()).toBe('16');
  });

  it('answers a bare 500 when the handler throws, with nothing of the error in it', async () => {
    const base = await serve(
      toNodeHandler(async () => {
        throw new Error('secret detail');
      }),
    );
    const response = await fetch(base, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret');
  });

  it('uses a body a framework already parsed (req.body)', async () => {
    let body: string | undefined;
    const adapter = toNodeHandler(async (request) => {
      body = await request.text();
      return new Response(null, { status: 204 });
    });
    const base = await serve(async (req: IncomingMessage, res: ServerResponse) => {
      // What a JSON body parser middleware leaves behind.
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      (req as IncomingMessage & { body?: unknown }).body = JSON.parse(raw) as unknown;
      await adapter(req, res);
    });
    const response = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"k":[1,2]}',
    });
    expect(response.status).toBe(204);
    expect(JSON.parse(body ?? '')).toEqual({ k: [1, 2] });
  });

  it.each([
    ['text', (raw: string) => raw, '{"k":[1,2]}'],
    ['bytes', (raw: string) => Buffer.from(raw), '{"k":[1,2]}'],
  ])('uses a parsed body given as %s as it is', async (_kind, parse, expected) => {
    let body: string | undefined;
    const adapter = toNodeHandler(async (request) => {
      body = await request.text();
      return new Response(null, { status: 204 });
    });
    const base = await serve(async (req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      (req as IncomingMessage & { body?: unknown }).body = parse(raw);
      await adapter(req, res);
    });
    const response = await fetch(base, { method: 'POST', body: '{"k":[1,2]}' });
    expect(response.status).toBe(204);
    expect(body).toBe(expected);
  });

  it('never waits for a body something else read with nothing parsed: it fails at once with InvalidNotificationError', async () => {
    let failure: unknown;
    const adapter = toNodeHandler(async (request) => {
      failure = await request.text().catch((error: unknown) => error);
      return new Response(null, { status: 500 });
    });
    const base = await serve(async (req: IncomingMessage, res: ServerResponse) => {
      for await (const chunk of req) void chunk; // a middleware that keeps nothing
      await adapter(req, res);
    });
    // A handler left waiting on a body already read would only end by this abort (the fetch fails).
    const response = await fetch(base, { method: 'POST', body: '{"k":1}', signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBe(500);
    expect(failure).toBeInstanceOf(InvalidNotificationError);
    expect((failure as Error).message).toMatch(/already read/);
  });

  it("takes a framework's request and reply (the Node ones under raw): the parsed body, and the reply hijacked", async () => {
    let body: string | undefined;
    let hijacked = 0;
    const adapter = toNodeHandler(async (request) => {
      body = await request.text();
      return new Response('done', { status: 202 });
    });
    const base = await serve(async (req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      await adapter({ raw: req, body: JSON.parse(raw) as unknown }, { raw: res, hijack: () => void hijacked++ });
    });
    const response = await fetch(base, { method: 'POST', body: '{"a":"b"}' });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('done');
    expect(body).toBe('{"a":"b"}');
    expect(hijacked).toBe(1);
  });

  it('streams a Response body', async () => {
    const base = await serve(
      toNodeHandler(async () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const part of ['a', 'b', 'c']) controller.enqueue(new TextEncoder().encode(part));
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/plain' } });
      }),
    );
    expect(await (await fetch(base)).text()).toBe('abc');
  });
});
