/**
 * The request as it reaches a real server on loopback: the JSON text the SDK wrote, byte for
 * byte with its length declared, on every attempt; nothing for a call without a body. (ky's
 * `Request` carries no body: the core sends the text itself, see `HttpCore.#fetchAttempt`.)
 */
import { describe, expect, it } from 'vitest';
import { HttpCore } from '../../src/core/http.ts';
import { path } from '../../src/core/path.ts';
import { sendJson, startServer } from '../support/loopback.ts';

const token = { getToken: async () => 'tok' };

describe('the request body on the wire', () => {
  it('sends the JSON text as it is on every attempt: its UTF-8 length declared, never chunked', async () => {
    const server = await startServer((req, res) => {
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
      expect([request!.body, request!.headers['content-type'], request!.headers['content-length']]).toEqual(['', undefined, undefined]);
    } finally {
      await server.close();
    }
  });
});
