/**
 * The other two ways the sandbox is served: HTTPS demanding a client certificate (the payer
 * side stays open, as in the spec), and the `instant-payments-sandbox` command.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { cobBody } from './support.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));

describe('HTTPS', () => {
  it('demands a client certificate on the API; the payer side needs none', async () => {
    const sandbox = createSandbox({ seed: 5 });
    await sandbox.listen({ tls: { cert: fixture('server.pem'), key: fixture('server.key'), ca: fixture('ca.pem') } });
    const withCert = new InstantClient({ ...sandbox.clientOptions(), tls: { cert: fixture('client.pem'), key: fixture('client.key'), ca: fixture('ca.pem') } });
    try {
      expect(sandbox.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const txid = generateTxid();
      const cob = await withCert.cob.create(txid, cobBody(sandbox.ownKeys[0]!));
      const payer = new PayerClient(sandbox.payerOptions());
      await expect(payer.cobPayload.getCob(cob.location!)).resolves.toMatchObject({ txid });
      // Without a client certificate the API refuses (a fetch that trusts the CA, nothing more).
      const anonymous = await sandbox.payerOptions().fetch!(`${sandbox.origin}/v2/cob/${txid}`);
      expect(anonymous.status).toBe(403);
      expect(await anonymous.json()).toMatchObject({ type: expect.stringMatching(/\/AcessoNegado$/) });
    } finally {
      await withCert.close();
      await sandbox.close();
    }
  });
});

describe('instant-payments-sandbox', () => {
  it('serves on the given port and prints the URLs and credentials that work', async () => {
    const cli = fileURLToPath(new URL('../../src/sandbox-cli.ts', import.meta.url));
    const child = spawn(process.execPath, [cli, '--port', '0', '--seed', '3', '--balance', '12.34'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Payloads')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const field = (label: string, nth = 0) => [...out.matchAll(new RegExp(`${label}\\s+(\\S+)`, 'g'))][nth]?.[1] ?? '';
      expect(field('balance')).toBe('12.34');
      const api = new InstantClient({
        baseUrl: field('base URL'),
        auth: { tokenUrl: field('token URL'), clientId: field('client id'), clientSecret: field('client secret') },
      });
      const cob = await api.cob.create(generateTxid(), cobBody(field('own keys')));
      expect(cob.status).toBe('ATIVA');
      expect(field('client secret', 1)).toMatch(/^[a-zA-Z0-9]{32}$/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
