import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { InstantClient } from '../../src/client.ts';
import { ConnectionError } from '../../src/errors/failures.ts';
import { path } from '../../src/core/path.ts';
import { connect } from '../../src/composition/connection.ts';
import { sendJson, startServer, type LoopbackServer } from '../support/loopback.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
const ca = fixture('ca.pem');
let server: LoopbackServer | undefined;
const clients: InstantClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
});

/** An HTTPS server on 127.0.0.1 that demands a client certificate signed by the test CA. */
async function startMtlsServer(maxVersion?: 'TLSv1.2' | 'TLSv1.3') {
  server = await startServer(
    async (req, res) => {
      if (req.url === '/oauth/token')
        return sendJson(res, 200, { access_token: 'tls-token', token_type: 'Bearer', expires_in: 300 });
      return sendJson(res, 200, { auth: req.headers.authorization });
    },
    {
      key: fixture('server.key'),
      cert: fixture('server.pem'),
      ca,
      requestCert: true,
      rejectUnauthorized: true,
      ...(maxVersion && { maxVersion }),
    },
  );
  return server;
}

function client(url: string, tls: NonNullable<ConstructorParameters<typeof InstantClient>[0]['tls']>) {
  const c = new InstantClient({
    baseUrl: url,
    tls,
    maxRetries: 0,
    auth: { tokenUrl: `${url}/oauth/token`, clientId: 'c', clientSecret: 's' },
  });
  clients.push(c);
  return c;
}

describe('mTLS against a real HTTPS server that demands a client certificate', () => {
  it('succeeds with a PEM certificate and key, for the token endpoint and the API alike', async () => {
    const { url, requests } = await startMtlsServer();
    const api = client(url, { cert: fixture('client.pem'), key: fixture('client.key'), ca });
    expect(await api.http.json({ method: 'GET', path: path`/cob` })).toEqual({ auth: 'Bearer tls-token' });
    expect(requests.map((r) => r.url)).toEqual(['/oauth/token', '/cob']);
  });

  it('succeeds with PEM strings and with a PFX bundle and passphrase', async () => {
    const { url } = await startMtlsServer();
    const pem = client(url, {
      cert: fixture('client.pem').toString(),
      key: fixture('client.key').toString(),
      ca: ca.toString(),
    });
    expect(await pem.http.json({ method: 'GET', path: path`/a` })).toEqual({ auth: 'Bearer tls-token' });
    const pfx = client(url, { pfx: fixture('client.p12'), passphrase: 'test-passphrase', ca });
    expect(await pfx.http.json({ method: 'GET', path: path`/b` })).toEqual({ auth: 'Bearer tls-token' });
  });

  it('reuses one keep-alive connection for the token endpoint and the API', async () => {
    const { url, requests } = await startMtlsServer();
    const api = client(url, { cert: fixture('client.pem'), key: fixture('client.key'), ca });
    for (let i = 0; i < 5; i++) await api.http.json({ method: 'GET', path: path`/cob` });
    expect(requests).toHaveLength(6);
    // Six requests over at most two pooled connections: never a connection per request.
    expect(new Set(requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(2);
  });

  it.each(['TLSv1.3', 'TLSv1.2'] as const)(
    'without a certificate fails with ConnectionError naming the TLS failure (%s)',
    async (version) => {
      const { url } = await startMtlsServer(version);
      // Trusts the server's CA but presents no client certificate: a shape the types do not offer
      // and the client's constructor refuses (ConfigurationError), so the connection is built directly.
      const plain = connect({ baseUrl: url, maxRetries: 0, auth: { getToken: async () => 't' }, tls: { ca } as never });
      clients.push(plain as unknown as InstantClient);
      const error = await plain.http.json({ method: 'GET', path: path`/cob` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      const cause = (error as ConnectionError).cause as { code?: string; message: string };
      expect(`${cause.code} ${cause.message}`).toMatch(/SSL|TLS|certificate/i);
      expect((error as Error).message).toMatch(/SSL|TLS|certificate/i);
    },
  );

  it('never switches verification off: an untrusted server certificate fails', async () => {
    const { url } = await startMtlsServer();
    const api = client(url, { cert: fixture('client.pem'), key: fixture('client.key') });
    const error = await api.http.json({ method: 'GET', path: path`/cob` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/certificate|token/i);
  });
});
