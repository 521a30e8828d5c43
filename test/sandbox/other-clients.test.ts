/**
 * The sandbox for clients in other languages: `--host` (with a warning beyond loopback) and
 * `--public-origin`, `--tls` writing a CA, a server and a client certificate, certificate-only
 * login over TLS, a JSON token request answered with the OAuth error, and `/cobv/` read as the list.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, InstantClient, generateTxid } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { freePort } from '../support/postgres.ts';

const CLI = fileURLToPath(new URL('../../src/sandbox-cli.ts', import.meta.url));
const children: ChildProcess[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Starts the CLI and waits for its printout (stdout and stderr). */
async function startCli(args: string[]): Promise<{ out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--seed', '5', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^Seed /m.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}${err}`)));
  });
  return { out, err };
}

const field = (out: string, label: string, nth = 0) =>
  [...out.matchAll(new RegExp(`${label}\\s+(\\S+)`, 'g'))][nth]?.[1] ?? '';

const cobBody = (key: string) => ({ calendario: { expiracao: 600 }, valor: { original: '3.00' }, chave: key });

describe('--host and --public-origin', () => {
  it('listens on 0.0.0.0 with a warning, and is reached over loopback', async () => {
    const { out, err } = await startCli(['--host', '0.0.0.0']);
    expect(err).toMatch(/^warning: listening on 0\.0\.0\.0, beyond loopback/m);
    const baseUrl = field(out, 'base URL');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    const api = new InstantClient({
      baseUrl,
      auth: {
        tokenUrl: field(out, 'token URL'),
        clientId: field(out, 'client id'),
        clientSecret: field(out, 'client secret'),
      },
    });
    expect((await api.cob.create(generateTxid(), cobBody(field(out, 'own keys').replace(/,$/, '')))).status).toBe(
      'ATIVA',
    );
  });

  it('prints no warning on loopback', async () => {
    const { err } = await startCli([]);
    expect(err).toBe('');
  });

  it('writes the public origin into URLs and locations', async () => {
    const port = await freePort();
    const sandbox = createSandbox({ seed: 8 });
    const publicOrigin = `http://sandbox.test:${port}`;
    await sandbox.listen({ port, publicOrigin });
    try {
      expect(sandbox.clientOptions().baseUrl).toBe(`${publicOrigin}/v2`);
      expect(sandbox.credentials.tokenUrl).toBe(`${publicOrigin}/oauth/token`);
      // The public name is the container network's; here it is reached over loopback (the
      // client sends a secret over plain http to loopback only, so the token URL is given as such).
      const api = new InstantClient({
        ...sandbox.clientOptions(),
        auth: { ...sandbox.credentials, tokenUrl: `http://127.0.0.1:${port}/oauth/token` },
        fetch: (input, init) => {
          const request = new Request(input, init);
          return fetch(new Request(request.url.replace(publicOrigin, `http://127.0.0.1:${port}`), request));
        },
      });
      const cob = await api.cob.create(generateTxid(), cobBody(sandbox.ownKeys[0]!));
      expect(cob.location).toMatch(new RegExp(`^sandbox\\.test:${port}/qr/v2/`));
    } finally {
      await sandbox.close();
    }
  });
});

describe('--tls and certificate-only login', () => {
  it('generates a CA, a server and a client certificate, prints their paths; the client id and the certificate log in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-tls-test-'));
    folders.push(dir);
    const { out } = await startCli(['--tls', '--tls-dir', dir]);
    const paths = { ca: field(out, 'CA'), cert: field(out, 'client cert'), key: field(out, 'client key') };
    expect(paths.ca).toBe(join(dir, 'ca.pem'));
    expect(field(out, 'server cert')).toBe(join(dir, 'server.pem'));
    const tls = { cert: readFileSync(paths.cert), key: readFileSync(paths.key), ca: readFileSync(paths.ca) };
    const baseUrl = field(out, 'base URL');
    expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v2$/);
    const api = new InstantClient({
      baseUrl,
      auth: {
        tokenUrl: field(out, 'token URL'),
        clientId: field(out, 'client id'),
        clientAuthentication: 'tls_client_auth',
      },
      tls,
    });
    try {
      expect((await api.cob.create(generateTxid(), cobBody(field(out, 'own keys').replace(/,$/, '')))).status).toBe(
        'ATIVA',
      );
    } finally {
      await api.close();
    }
  });

  it('refuses a login without a secret over plain HTTP, saying it needs TLS', async () => {
    const sandbox = createSandbox({ seed: 9 });
    await sandbox.listen({ port: 0 });
    try {
      const { tokenUrl, clientId } = sandbox.credentials;
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        error: 'invalid_client',
        error_description: expect.stringContaining('TLS'),
      });
      const api = new InstantClient({
        baseUrl: sandbox.baseUrl,
        auth: { tokenUrl, clientId, clientAuthentication: 'tls_client_auth' },
        fetch,
        maxRetries: 0,
      });
      await expect(api.cob.get(generateTxid())).rejects.toBeInstanceOf(AuthenticationError);
    } finally {
      await sandbox.close();
    }
  });
});

describe('token endpoint and paths as other clients send them', () => {
  it('answers a JSON token request with the OAuth error saying the body is a form', async () => {
    const sandbox = createSandbox({ seed: 10 });
    await sandbox.listen({ port: 0 });
    try {
      const { tokenUrl, clientId, clientSecret } = sandbox.credentials;
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.stringMatching(/application\/x-www-form-urlencoded/),
      });
    } finally {
      await sandbox.close();
    }
  });

  it('reads /cobv/ (a trailing slash) as the list, not as an empty txid', async () => {
    const sandbox = createSandbox({ seed: 11 });
    await sandbox.listen({ port: 0 });
    try {
      const api = new InstantClient(sandbox.clientOptions());
      const txid = generateTxid();
      await api.cobv.create(txid, {
        calendario: { dataDeVencimento: '2099-12-01' },
        devedor: { cpf: '12345678909', nome: 'Fulano' },
        valor: { original: '5.00' },
        chave: sandbox.ownKeys[0]!,
      });
      const token = (await (
        await fetch(sandbox.credentials.tokenUrl, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: sandbox.credentials.clientId,
            client_secret: sandbox.credentials.clientSecret,
          }),
        })
      ).json()) as { access_token: string };
      const query = new URLSearchParams({ inicio: '2000-01-01T00:00:00Z', fim: '2100-01-01T00:00:00Z' });
      const response = await fetch(`${sandbox.baseUrl}/cobv/?${query}`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { cobs: Array<{ txid: string }> };
      expect(body.cobs.map((cob) => cob.txid)).toEqual([txid]);
    } finally {
      await sandbox.close();
    }
  });
});
