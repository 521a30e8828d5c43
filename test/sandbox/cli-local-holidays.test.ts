/**
 * `instant-payments-sandbox --local-holidays`: the payers' local holidays given on the command
 * line move due dates like the national ones; a value that is no date stops the command.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { CPF } from './support.ts';

const CLI = fileURLToPath(new URL('../../src/sandbox-cli.ts', import.meta.url));

function run(args: string[]): { child: ReturnType<typeof spawn>; out: Promise<string> } {
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15_000,
  }); // never outlives the test
  let text = '';
  const out = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/^Seed /m.test(text)) resolve(text);
    });
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
  return { child, out };
}

describe('instant-payments-sandbox --local-holidays', () => {
  it('rolls a due date past a local holiday given on the command line', async () => {
    const { child, out } = run(['--local-holidays', '2099-01-20, 12-24']);
    try {
      const text = await out;
      expect(text).toMatch(
        /^Due dates +roll past weekends and national holidays, and the local holidays 2099-01-20, 12-24$/m,
      );
      const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(text)?.[1] ?? '';
      const api = new InstantClient({
        baseUrl: field('base URL'),
        auth: { tokenUrl: field('token URL'), clientId: field('client id'), clientSecret: field('client secret') },
      });
      // Due Tuesday 2099-01-20, a local holiday, payable 0 days after: through Wednesday the 21st.
      const cobv = await api.cobv.create(generateTxid(), {
        calendario: { dataDeVencimento: '2099-01-20', validadeAposVencimento: 0 },
        devedor: { cpf: CPF, nome: 'Fulano de Tal' },
        valor: { original: '10.00' },
        chave: field('own keys'),
      });
      expect((await fetch(`http://${cobv.location}?DPP=2099-01-21`)).status).toBe(200);
      expect((await fetch(`http://${cobv.location}?DPP=2099-01-22`)).status).toBe(400);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('stops on a value that is no date', async () => {
    const { out } = run(['--local-holidays', '20/01']);
    await expect(out).rejects.toThrow(/exited with 1: localHolidays must be YYYY-MM-DD or MM-DD/);
  });
});
