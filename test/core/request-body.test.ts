/**
 * A call's body as it leaves the client: as it reaches a real server on loopback (the JSON text
 * the SDK wrote, byte for byte with its length declared, on every attempt; nothing for a call
 * without a body), and as a `fetch` option sees it (a `Request` carrying everything). ky's
 * `Request` carries no body: the core sends the text itself, see `HttpCore.#fetchAttempt`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InstantClient } from '../../src/client.ts';
import { HttpCore } from '../../src/core/http.ts';
import { path } from '../../src/core/path.ts';
import { sendJson, startServer } from '../support/loopback.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url), 'utf8');

const token = { getToken: async () => 'tok' };

describe('the request body on the wire', () => {
  it('sends the JSON text as it is on every attempt: its UTF-8 length declared, never chunked', async () => {
    const server = await startServer((_req, res) => {
      if (server.requests.length === 1) {
        res.writeHead(503);
        res.end();
        return;
      }
      sendJson(res, 200, { ok: true });
    });
    try {
      const body = { devedor: { nome: 'Conceição Ávila' }, valor: { original: '10.00' } };
      await new HttpCore({ baseUrl: server.url, auth: token }).json({ method: 'PUT', path: path`/cob/${'abc'}`, body });
      expect(server.requests).toHaveLength(2);
      const text = JSON.stringify(body);
      for (const request of server.requests) {
        expect(request.body).toBe(text);
        expect(request.headers['content-length']).toBe(String(Buffer.byteLength(text)));
        expect(request.headers['transfer-encoding']).toBeUndefined();
        expect(request.headers['content-type']).toBe('application/json');
      }
    } finally {
      await server.close();
    }
  });

  it('a GET carries no body and no content type', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
    try {
      await new HttpCore({ baseUrl: server.url, auth: token }).json({ method: 'GET', path: path`/cob` });
      const [request] = server.requests;
      expect([request!.body, request!.headers['content-type'], request!.headers['content-length']]).toEqual([
        '',
        undefined,
        undefined,
      ]);
    } finally {
      await server.close();
    }
  });

  it('a fetch option gets a Request carrying the call: method, URL, JSON body and its type, token, signal; under the mTLS transport too', async () => {
    const tls = { cert: fixture('client.pem'), key: fixture('client.key') };
    for (const extra of [{}, { tls }]) {
      const seen: unknown[] = [];
      const fetch = async (input: Request | string | URL) => {
        seen.push(input);
        return Response.json({ own: true });
      };
      const client = new InstantClient({ baseUrl: 'https://api.example.com/v2', auth: token, fetch, ...extra });
      const controller = new AbortController();
      const body = { valor: { original: '1.00' }, nome: 'São João' };
      await client.request({ method: 'PUT', path: path`/cob/${'abc'}`, body }, { signal: controller.signal });
      await client.request({ method: 'GET', path: path`/cob/${'abc'}` });
      await client.close();
      const [put, get] = seen as Request[];
      for (const request of [put, get]) expect(request).toBeInstanceOf(Request);
      expect([put!.method, put!.url, put!.redirect]).toEqual(['PUT', 'https://api.example.com/v2/cob/abc', 'manual']);
      expect(put!.headers.get('content-type')).toBe('application/json');
      expect(put!.headers.get('authorization')).toBe('Bearer tok');
      expect(await put!.json()).toEqual(body);
      controller.abort();
      expect(put!.signal.aborted).toBe(true);
      expect([get!.method, get!.body, get!.headers.get('content-type')]).toEqual(['GET', null, null]);
    }
  });

  it('a fetch option that hands back its Response without a promise still works, with a body and without', async () => {
    const fetch = (() => Response.json({ own: true })) as unknown as (
      input: Request | string | URL,
    ) => Promise<Response>;
    const client = new InstantClient({ baseUrl: 'https://api.example.com/v2', auth: token, fetch });
    expect(await client.request({ method: 'PUT', path: path`/cob/${'abc'}`, body: { a: 1 } })).toEqual({ own: true });
    expect(await client.request({ method: 'GET', path: path`/cob/${'abc'}` })).toEqual({ own: true });
  });
});
