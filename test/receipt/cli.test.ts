/**
 * `instant-payments receipt`: the command (from the sources) reads the payment from a service
 * configured through the environment (a sandbox of the test's own) and writes its PDF; with
 * `--sandbox` it writes a demo payment's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  sandbox = createSandbox({ ownKeys: ['loja@example.com'] });
  await sandbox.listen();
  const { tokenUrl, clientId, clientSecret } = sandbox.credentials;
  env = {
    PATH: process.env['PATH'] ?? '',
    INSTANT_BASE_URL: sandbox.baseUrl,
    INSTANT_TOKEN_URL: tokenUrl,
    INSTANT_CLIENT_ID: clientId,
    INSTANT_CLIENT_SECRET: clientSecret,
  };
  dir = mkdtempSync(join(tmpdir(), 'receipt-cli-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command to its end (spawned: the sandbox answers from this process meanwhile). */
function run(args: string[], extraEnv: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'receipt', ...args], { env: { ...env, ...extraEnv } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function textOf(file: string): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(readFileSync(file)));
  return (await extractText(doc, { mergePages: true })).text.replace(/\s+/g, ' ');
}

// Each run starts Node on the sources and writes a PDF: seconds each on a busy machine.
describe('instant-payments receipt', { timeout: 60_000 }, () => {
  it("writes a configured service's payment, and one of its refunds, to PDF", async () => {
    const api = new InstantClient(sandbox.clientOptions());
    const charge = await api.cob.create({
      calendario: { expiracao: 3600 },
      valor: { original: '25.90' },
      chave: 'loja@example.com',
    });
    const { endToEndId } = await sandbox.payCharge(charge.txid);
    await api.instant.refund(endToEndId, 'dev1', { valor: '5.00' });
    await api.close();

    const file = join(dir, 'payment.pdf');
    const paid = await run([endToEndId, '--out', file]);
    expect(paid.stderr).toBe('');
    expect(paid).toMatchObject({ status: 0, stdout: `Wrote ${file}\n` });
    const text = await textOf(file);
    expect(text).toContain(`ID fim a fim (E2E) ${endToEndId}`);
    expect(text).toContain(`txid ${charge.txid}`);
    expect(text).toContain('Valor R$ 25,90');

    const refundFile = join(dir, 'refund.pdf');
    expect((await run([endToEndId, '--refund', 'dev1', '--out', refundFile])).status).toBe(0);
    expect(await textOf(refundFile)).toContain('Comprovante de devolução Valor R$ 5,00');
  });

  it('answers an unknown payment with the SDK error, exit 1, and never prints the secret', async () => {
    const missing = await run(['E99999999202611290000aaaaaaaaaaa', '--out', join(dir, 'x.pdf')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/InstantNaoEncontrado|not found/i);
    const wrong = await run(['E99999999202611290000aaaaaaaaaaa'], { INSTANT_CLIENT_SECRET: 'wrong-secret-9876543210' });
    expect(wrong.status).toBe(1);
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain('wrong-secret-9876543210');
  });

  it('--sandbox writes the receipt of a demo payment', async () => {
    const file = join(dir, 'demo.pdf');
    const demo = await run(['--sandbox', '--out', file], { INSTANT_BASE_URL: '' });
    expect(demo.status).toBe(0);
    expect(await textOf(file)).toMatch(
      /Comprovante de pagamento recebido Valor R\$ 10,00 .* ID fim a fim \(E2E\) E\w{31} /,
    );
  });
});
