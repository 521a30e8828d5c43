/** `npm start`: the tour runs against its in-process sandbox, shows every step, and exits 0 within 10 s. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withoutCredentials } from '../scripts/examples.ts';

describe('npm start (scripts/tour.ts)', () => {
  it('tours every workflow against the sandbox and exits 0 within 10 s', { timeout: 20_000 }, () => {
    const started = performance.now();
    const run = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/tour.ts', import.meta.url))], {
      env: withoutCredentials(process.env),
      encoding: 'utf8',
      timeout: 10_000,
    });
    const seconds = (performance.now() - started) / 1000;
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(seconds).toBeLessThan(10);
    for (const step of [
      /PUT +\/cob\/\S+ +rev 0 ATIVA 120\.00/,
      /revised: rev 1 100\.00; revision 0 still reads 120\.00/,
      /removed: REMOVIDA_PELO_USUARIO_RECEBEDOR/,
      /refused before sending: CobOperacaoInvalida/,
      /processed asynchronously: CRIADA, CRIADA, NEGADA/,
      /signature verified/,
      /webhook received, confirmed/,
      /the charge is now CONCLUIDA/,
      /devolucao\/D1 +20\.00/,
      /order \S+ PROCESSING/,
      /notification: LIQUIDATED, .*: confirmed/,
      /InsufficientBalanceError: available 750\.00, no order placed/,
      /forged "CANCELED" .*: suspicious \(status-mismatch\)/,
    ]) {
      expect(run.stdout).toMatch(step);
    }
  });
});
