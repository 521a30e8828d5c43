/**
 * The sandbox delivering as a production service (`webhookClientCertificate`, the command's
 * `--webhook-mtls`): its webhook CA, HTTPS only, and the command printing the CA. The end to end
 * run with the three handlers is test/e2e/webhook-mtls.test.ts.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { generateCertificates } from '../../src/sandbox/certificates.ts';
import { cobBody, startCommand } from './support.ts';

it('has a webhook CA only when asked, and with it delivers over HTTPS only', async () => {
  expect(createSandbox().webhookCa).toBeUndefined();
  const sandbox = createSandbox({ webhookClientCertificate: true, redelivery: { attempts: 1 } });
  const ca = new X509Certificate(sandbox.webhookCa!);
  expect(ca.ca).toBe(true);
  await sandbox.listen();
  const api = new InstantClient(sandbox.clientOptions());
  try {
    await api.webhook.put(sandbox.ownKeys[0]!, 'http://127.0.0.1:9/webhook');
    const cob = await api.cob.create(generateTxid(), cobBody(sandbox.ownKeys[0]!));
    await sandbox.payCharge(cob.txid);
    expect(sandbox.notifications().at(-1)).toMatchObject({
      state: 'failed',
      lastAnswer: { error: expect.stringMatching(/HTTPS only/) },
    });
  } finally {
    await api.close();
    await sandbox.close();
  }
});

it('instant-payments-sandbox --webhook-mtls --webhook-server-ca prints the webhook CA', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-ca-'));
  const serverCa = join(dir, 'receiver-ca.pem');
  writeFileSync(serverCa, generateCertificates().ca.cert);
  const { out, stop } = await startCommand(['--webhook-mtls', '--webhook-server-ca', serverCa]);
  try {
    const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(out)?.[0];
    expect(pem).toBeDefined();
    expect(new X509Certificate(pem!).ca).toBe(true);
    expect(out).toContain('authenticate.clientCertificate.ca');
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
