import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidLocationError, PayerClient } from '../../src/payer.ts';
import { sendJson, startServer, type LoopbackServer } from '../support/loopback.ts';

// A real HTTP server on 127.0.0.1: what the sandbox and local development look like.
let server: LoopbackServer;
let sign: (payload: unknown) => Promise<string>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1' };
  server = await startServer((req, res) => {
    if (req.url === '/jwks.json') return sendJson(res, 200, { keys: [jwk] });
    return sign({
      txid: 'abc',
      revisao: 0,
      status: 'ATIVA',
      chave: 'k',
      valor: { original: '1.00' },
      calendario: {},
    }).then((jws) => {
      res.writeHead(200, { 'content-type': 'application/jose' });
      res.end(jws);
    });
  });
  sign = (payload) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', jku: `${server.url}/jwks.json` })
      .sign(privateKey);
});
afterAll(() => server.close());

describe('PayerClient on loopback (allowPrivateHosts)', () => {
  it('fetches and verifies over plain http on 127.0.0.1 when allowPrivateHosts is set', async () => {
    const payer = new PayerClient({ allowPrivateHosts: true });
    const payload = await payer.cobPayload.getCob(`${server.url}/qr/v2/abc`);
    expect(payload).toMatchObject({ txid: 'abc', valor: { original: '1.00' } });
    expect(server.requests.map((r) => r.url)).toEqual(['/qr/v2/abc', '/jwks.json']);
  });

  it('refuses the same location without allowPrivateHosts, sending nothing', async () => {
    const before = server.requests.length;
    const location = `${server.url.replace('http://', '')}/qr/v2/abc`;
    await expect(new PayerClient().cobPayload.getCob(location)).rejects.toBeInstanceOf(InvalidLocationError);
    expect(server.requests.length).toBe(before);
  });
});
