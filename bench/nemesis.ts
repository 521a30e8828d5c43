/**
 * `npm run bench -- nemesis`: the nemesis suite (test/store/nemesis.ts) over many seeds, 1 to
 * `NEMESIS_SEEDS` (200), or the seeds listed in `NEMESIS_SEED` (`7,42`). Prints the figures and
 * writes them as the "Nemesis" section of bench/RESULTS.md (the rest of the file is kept; the
 * full bench keeps this section). Exits 1 when an invariant was violated, naming the seeds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { renderFigures, startNemesis } from '../test/store/nemesis.ts';
import { NEMESIS_HEADING } from './support.ts';

const RESULTS = new URL('RESULTS.md', import.meta.url);

export async function nemesis(): Promise<number> {
  const listed = process.env['NEMESIS_SEED'];
  const seeds = listed
    ? listed.split(',').map(Number)
    : Array.from({ length: Number(process.env['NEMESIS_SEEDS'] ?? 200) }, (_, i) => i + 1);
  const label = listed ? listed : `1 to ${seeds.length}`;
  const started = Date.now();
  const load = os.loadavg()[0] ?? 0;
  const suite = await startNemesis();
  try {
    for (const [i, seed] of seeds.entries()) {
      const violations = await suite.run(seed);
      for (const v of violations) console.log(`  seed ${seed}: invariant ${v.invariant}: ${v.detail}`);
      if ((i + 1) % 10 === 0 || i === seeds.length - 1) {
        console.log(
          `  ${i + 1}/${seeds.length} schedules, ${suite.figures.violations.length} violations, ${((Date.now() - started) / 1000).toFixed(0)} s`,
        );
      }
    }
  } finally {
    await suite.close();
  }
  const seconds = (Date.now() - started) / 1000;
  const table = renderFigures(suite.figures, label, seconds);
  const failed = [...new Set(suite.figures.violations.map((v) => v.seed))];
  console.log(`\n${table}\n`);
  if (failed.length > 0)
    console.log(`violations in seeds ${failed.join(', ')}: replay with NEMESIS_SEED=${failed.join(',')}`);
  const cpus = os.cpus();
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const section =
    `${NEMESIS_HEADING}\n\nWritten by \`npm run bench -- nemesis\` (bench/nemesis.ts, test/store/nemesis.ts); the last such run ` +
    `replaces this section. ${date}; ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; load average ` +
    `${load.toFixed(2)} at start. Each schedule: 4 worker processes on one PostgreSQL, each behind its own TCP proxy; ` +
    `6 to 12 payments on 3 to 5 keys, about a third sent by 2 or 3 processes at once, 1 to 3 recover() calls and one more under each lookup outage, 2 to 4 notifications delivered 2 to 4 times each; 3 to 7 faults within 2.5 s. ` +
    `The invariants are listed in test/store/nemesis.ts.\n\n${table}\n` +
    (failed.length > 0 ? `\nViolations in seeds ${failed.join(', ')}.\n` : '');
  const text = readFileSync(RESULTS, 'utf8');
  const at = text.indexOf(`\n${NEMESIS_HEADING}\n`);
  writeFileSync(RESULTS, `${(at < 0 ? text : text.slice(0, at + 1)).trimEnd()}\n\n${section}`);
  console.log('recorded in bench/RESULTS.md (Nemesis section)');
  return failed.length > 0 ? 1 : 0;
}
