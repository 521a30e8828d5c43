/**
 * BR Codes: parse, build (of the parsed code, written back) and lint time per code over the
 * corpus of published codes (test/fixtures/brcode-corpus.json), through the built package. What
 * a page that parses and builds pays in bundle size is the payer-size section's (the installed
 * package). The times are for reference: no absolute-time goal, the machine's speed moves them.
 *
 * Run alone: `node bench/brcode.ts`.
 */
import { readFileSync } from 'node:fs';
import { fmt, loadSdk, median, type Row } from './support.ts';

const ROUNDS = 31;
const PASSES = 50;

interface Entry {
  code: string;
  parseError?: string;
}

/** Median over rounds of the time per code of `fn` over `codes`, in µs. */
function perCode<T>(codes: readonly T[], fn: (code: T) => unknown): number {
  const rounds: number[] = [];
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let p = 0; p < PASSES; p++) for (const code of codes) sink += fn(code) === undefined ? 0 : 1;
    rounds.push(((performance.now() - t0) * 1000) / (PASSES * codes.length));
  }
  if (sink < 0) console.log(sink);
  return median(rounds);
}

const timeRow = (what: string, us: number, count: number): Row => ({
  measure: `brcode.${what}, µs per code over ${count} published codes (median of ${ROUNDS} rounds)`,
  value: `${fmt.fixed(us, 2)} µs`,
  baseline: '-',
  ratio: '-',
  goal: '(for reference)',
  holds: undefined,
});

export async function measure(): Promise<Row[]> {
  const { brcode } = await loadSdk();
  const corpus = JSON.parse(readFileSync(new URL('../test/fixtures/brcode-corpus.json', import.meta.url), 'utf8')) as {
    codes: Entry[];
  };
  const readable = corpus.codes.filter((c) => c.parseError === undefined).map((c) => c.code);
  const all = corpus.codes.map((c) => c.code);
  const parsed = readable.map((code) => brcode.parse(code));
  perCode(readable, brcode.parse); // warm-up
  const parseUs = perCode(readable, brcode.parse);
  const buildUs = perCode(parsed, brcode.build);
  perCode(all, brcode.lint);
  const lintUs = perCode(all, brcode.lint);
  return [
    timeRow('parse', parseUs, readable.length),
    timeRow('build (a parsed code written back)', buildUs, parsed.length),
    timeRow('lint', lintUs, all.length),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await measure())
    console.log(
      `${row.measure}: ${row.value} (goal ${row.goal}: ${row.holds === undefined ? '-' : row.holds ? 'holds' : 'MISSED'})`,
    );
}
