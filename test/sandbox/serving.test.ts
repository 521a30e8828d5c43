/**
 * The other two ways the sandbox is served: HTTPS demanding a client certificate (the payer
 * side stays open, as in the spec), and the `instant-payments-sandbox` command.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { createSandbox, sandboxPayerOptions } from '../../src/sandbox.ts';
import { cobBody, startCommand } from './support.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));

describe('HTTPS', () => {
  it('demands a client certificate on the API; the payer side needs none', async () => {
    const sandbox = createSandbox({ seed: 5 });
    await sandbox.listen({ tls: { cert: fixture('server.pem'), key: fixture('server.key'), ca: fixture('ca.pem') } });
    const withCert = new InstantClient({
      ...sandbox.clientOptions(),
      tls: { cert: fixture('client.pem'), key: fixture('client.key'), ca: fixture('ca.pem') },
    });
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
      expect(anonymous.headers.get('access-control-allow-origin')).toBe('*');
      // A browser's preflight carries no certificate: it is answered; so are the test controls.
      const preflight = await sandbox.payerOptions().fetch!(`${sandbox.origin}/v2/cob/${txid}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(preflight.status).toBe(204);
      const paid = await sandbox.payerOptions().fetch!(`${sandbox.origin}/sandbox/charges/${txid}/pay`, {
        method: 'POST',
      });
      expect(paid.status).toBe(200);
      expect(await paid.json()).toMatchObject({ txid, valor: '10.00' });
    } finally {
      await withCert.close();
      await sandbox.close();
    }
  });
});

describe('instant-payments-sandbox', () => {
  it('serves on the given port and prints the URLs, the credentials and the test controls, all of which work', async () => {
    const { out, stop } = await startCommand(['--seed', '3', '--balance', '12.34']);
    try {
      const field = (label: string, nth = 0) =>
        [...out.matchAll(new RegExp(`${label}\\s+(\\S+)`, 'g'))][nth]?.[1] ?? '';
      expect(field('balance')).toBe('12.34');
      const api = new InstantClient({
        baseUrl: field('base URL'),
        auth: { tokenUrl: field('token URL'), clientId: field('client id'), clientSecret: field('client secret') },
      });
      const cob = await api.cob.create(generateTxid(), cobBody(field('own keys')));
      expect(cob.status).toBe('ATIVA');
      expect(field('client secret', 1)).toMatch(/^[a-zA-Z0-9]{32}$/);
      // Every control is listed; the one that pays works as printed, from any HTTP client.
      const routes = [...out.matchAll(/^ {2}(GET|POST|PUT) +(\/sandbox\/\S+) +\S/gm)].map((m) => `${m[1]} ${m[2]}`);
      expect(routes).toEqual([
        'POST /sandbox/charges/{txid}/pay',
        'POST /sandbox/transfers/{idempotencyKey}/settle',
        'POST /sandbox/transfers/{idempotencyKey}/forge',
        'PUT /sandbox/balance',
        'POST /sandbox/faults',
        'POST /sandbox/tokens/expire',
        'GET /sandbox/clock',
        'POST /sandbox/clock',
        'GET /sandbox/notifications',
        'POST /sandbox/notifications/drop',
        'POST /sandbox/notifications/{id}/redeliver',
        'POST /sandbox/payments/{e2eid}/dispute',
        'POST /sandbox/recs/{idRec}/approve',
        'POST /sandbox/recs/{idRec}/reject',
        'POST /sandbox/solicrecs/{idSolicRec}/answer',
        'POST /sandbox/cobrs/{txid}/settle',
      ]);
      const origin = /^Test controls\s+(\S+)\/sandbox\/\.\.\./m.exec(out)?.[1];
      // The payer setup as printed reaches the payload from this process (the command is another).
      const payerOrigin = /^Payer\s+new PayerClient\(sandboxPayerOptions\('([^']+)'\)\)/m.exec(out)?.[1];
      expect(payerOrigin).toBe(origin);
      await expect(
        new PayerClient(sandboxPayerOptions(payerOrigin!)).cobPayload.getCob(cob.location!),
      ).resolves.toMatchObject({ txid: cob.txid });
      const paid = await fetch(`${origin}/sandbox/charges/${cob.txid}/pay`, { method: 'POST' });
      expect(paid.status).toBe(200);
      expect((await api.cob.get(cob.txid)).status).toBe('CONCLUIDA');
    } finally {
      await stop();
    }
  });
});
