/**
 * The figures of the committed mutation result (reports/mutation/incremental.json), per file and
 * per area of docs/mutation.md, and with `--survivors <file…>` the mutants left standing there:
 * `node scripts/mutation-figures.ts [--survivors src/store/claims.ts]`.
 */
import { readFileSync } from 'node:fs';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}
const result = JSON.parse(readFileSync('reports/mutation/incremental.json', 'utf8')) as {
  files: Record<string, { source: string; mutants: Mutant[] }>;
};

const areas: [string, RegExp][] = [
  ['retries and the 401 replay', /internal\/retry|retry-policy|core\/http|core\/auth/],
  ['money and amounts', /lib\/(money|amount-due)/],
  ['stores and claims', /src\/store\//],
  ['notifications and their authentication', /src\/notifications\//],
  ['cash-out', /src\/cash-out\//],
];
const killed = new Set(['Killed', 'Timeout']);
const scored = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

function tally(mutants: Mutant[]) {
  const counted = mutants.filter((m) => scored.has(m.status));
  const k = counted.filter((m) => killed.has(m.status)).length;
  const survived = counted.filter((m) => m.status === 'Survived').length;
  return { scored: counted.length, killed: k, survived, noCoverage: counted.length - k - survived };
}
const percent = (t: { scored: number; killed: number }) => (t.scored ? ((100 * t.killed) / t.scored).toFixed(1) : '-');

const survivorsOf = process.argv.indexOf('--survivors');
if (survivorsOf >= 0) {
  for (const file of process.argv.slice(survivorsOf + 1)) {
    const { source, mutants } = result.files[file] ?? { source: '', mutants: [] };
    const lines = source.split('\n');
    for (const m of mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')) {
      const { line, column } = m.location.start;
      console.log(`${file}:${line}:${column} ${m.status} ${m.mutatorName} -> ${JSON.stringify(m.replacement ?? '')}`);
      console.log(`    ${lines[line - 1]?.trim()}`);
    }
  }
} else {
  const all: Mutant[] = [];
  for (const [area, pattern] of areas) {
    const files = Object.keys(result.files).filter((f) => pattern.test(f));
    const mutants = files.flatMap((f) => result.files[f]?.mutants ?? []);
    all.push(...mutants);
    const t = tally(mutants);
    console.log(
      `${area}: ${t.scored} scored, ${t.killed} killed or timed out, ${t.survived} survived, ${t.noCoverage} no test: ${percent(t)}%`,
    );
    for (const f of files) {
      const ft = tally(result.files[f]?.mutants ?? []);
      console.log(
        `  ${f}: ${ft.scored} scored, ${ft.killed} killed, ${ft.survived} survived, ${ft.noCoverage} no test: ${percent(ft)}%`,
      );
    }
  }
  const t = tally(all);
  console.log(`all: ${t.scored} scored, ${t.killed} killed or timed out: ${percent(t)}%`);
}
