/** `npm start`: the tour runs against its in-process sandbox, shows every step, and exits 0 within 10 s. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withoutCredentials } from '../scripts/examples.ts';

/** The output with what changes from run to run (ports, ids, keys, timings) replaced by placeholders. */
function normalize(output: string): string {
  return output
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\b[A-Za-z0-9]{20,}\b/g, '<id>')
    .replace(/\b[A-Za-z0-9]{8}…/g, '<txid>…')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/Done in [\d.]+ s/, 'Done in <n> s')
    .trim();
}

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
      /denied \S+, made earlier by PUT \/cobv: CobVOperacaoInvalida/,
      /signature verified/,
      /webhook received, confirmed/,
      /the charge is now CONCLUIDA/,
      /devolucao\/D1 +20\.00: EM_PROCESSAMENTO, then DEVOLVIDO/,
      /recurrence payload verified: 29\.90 MENSAL, PERMITE_3R_7D/,
      /recurrence APROVADA \(JORNADA_3\), confirmed with GET \/rec\/\{idRec\}/,
      /month 2 AGND REJEITADA, then POST …\/retentativa\/\{data\}: NTAG AGENDADA/,
      /9 states notified, each handled once by recurringHandler; charges CONCLUIDA, CONCLUIDA, CONCLUIDA/,
      /order \S+ PROCESSING/,
      /notification: LIQUIDATED, .*: confirmed/,
      /InsufficientBalanceError: available 750\.00, no order placed/,
      /forged "CANCELED" .*: suspicious \(status-mismatch\)/,
    ]) {
      expect(run.stdout).toMatch(step);
    }
    // The README shows this output: it must stay what the tour prints.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const shown = /<!-- tour:start -->\n```text\n([\s\S]*?)```\n<!-- tour:end -->/.exec(readme)?.[1] ?? '';
    expect(normalize(shown)).toBe(normalize(run.stdout));
  });
});
