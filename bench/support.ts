/**
 * What every bench section shares: the row of the results table, medians, interleaved rounds,
 * a driver that keeps N calls in flight, and the public SDK as built in dist/.
 */
import { readFileSync } from 'node:fs';
import type * as Main from '../src/index.ts';

/** The heading of RESULTS.md's section written by `npm run bench -- nemesis`, which the full run keeps. */
export const NEMESIS_HEADING = '## Nemesis';

/** The Nemesis section of bench/RESULTS.md as it stands ('' when there is none). */
export function nemesisSection(): string {
  const text = readFileSync(new URL('RESULTS.md', import.meta.url), 'utf8');
  const at = text.indexOf(`\n${NEMESIS_HEADING}\n`);
  return at < 0 ? '' : text.slice(at + 1);
}

/** One line of the results table. */
export interface Row {
  /** What is measured, with its unit. */
  measure: string;
  /** The figure for the SDK (or the thing under test). */
  value: string;
  /** The baseline measured in the same run, with its name: "bare ky 5,210/s". */
  baseline: string;
  /** value / baseline, the figure the goal is judged on when the goal is a ratio. */
  ratio: string;
  goal: string;
  holds: boolean | undefined;
}

/** What sections get: the loopback servers' URLs and a way to read the servers' counters. */
export interface BenchContext {
  httpUrl: string;
  httpsUrl: string;
  /** Token requests and TLS handshakes the server process has seen so far. */
  stats(): Promise<ServerStats>;
}

export interface ServerStats {
  tokenRequests: number;
  handshakes: number;
}

/**
 * The SDK's public entry as a user imports it: `instant-payments` resolved through the package's
 * own exports map to dist/ (built by the bench first). Typed from the source entry so the bench
 * type-checks on a fresh clone, before any build.
 */
export async function loadSdk(): Promise<typeof Main> {
  const specifier = 'instant-payments';
  return (await import(specifier)) as typeof Main;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * Runs every contender once per round and returns each contender's results in round order. The
 * order turns each round and runs backwards every other round, so no contender always goes first
 * or always follows the same one (whose garbage it would collect). With `--expose-gc` (as `npm
 * run bench` runs), the young generation is collected before each contender, for the same reason;
 * not the whole heap: after a full collection the next few thousand calls ran 2.5 times slower
 * than in a process that runs on.
 */
export async function interleave<T>(
  rounds: number,
  contenders: Record<string, () => Promise<T>>,
): Promise<Record<string, T[]>> {
  const names = Object.keys(contenders);
  const out: Record<string, T[]> = Object.fromEntries(names.map((name) => [name, [] as T[]]));
  const collect = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const at = round % 2 === 0 ? i + round : round - i + names.length;
      const name = names[at % names.length] as string;
      collect?.({ type: 'minor' });
      out[name]?.push(await (contenders[name] as () => Promise<T>)());
    }
  }
  return out;
}

export interface DriveResult {
  calls: number;
  callsPerSecond: number;
  /** Client CPU (user + system) per call, in microseconds. */
  cpuUsPerCall: number;
}

/**
 * Keeps `concurrency` calls in flight for `ms` milliseconds (calls already started finish);
 * measures the calls per second and this process's CPU per call. Bounded by time rather than by
 * a number of calls, so a loaded machine makes the bench no longer, only its figures noisier.
 */
export async function drive(ms: number, concurrency: number, call: () => Promise<unknown>): Promise<DriveResult> {
  let done = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await call();
        done++;
      }
    }),
  );
  const elapsed = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { calls: done, callsPerSecond: (done * 1000) / elapsed, cpuUsPerCall: (used.user + used.system) / done };
}

/** Average time of one call of `fn` over `n` sequential calls, in microseconds. */
export async function perCallUs(n: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - t0) * 1000) / n;
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const fmt = {
  int: (n: number) => grouped.format(n),
  fixed: (n: number, digits = 1) => n.toFixed(digits),
  ratio: (n: number) => `${n.toFixed(2)}x`,
};

/** The value at fraction `q` (0 to 1) of `values` sorted, by linear interpolation. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return (sorted[low] ?? 0) + ((sorted[Math.ceil(at)] ?? 0) - (sorted[low] ?? 0)) * (at - low);
}

/**
 * `a` against `b` round by round (each round ran both, one after the other), so a drift of the
 * machine between rounds cancels: the median of the per-round ratios and their interquartile range.
 */
export function pairedRatio<T>(
  runs: Record<string, T[]>,
  a: string,
  b: string,
  field: (run: T) => number,
): { median: number; q1: number; q3: number } {
  const over = runs[b] ?? [];
  const ratios = (runs[a] ?? []).map((run, i) => field(run) / field(over[i] as T));
  return { median: median(ratios), q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75) };
}

/** The median of each contender's runs of one field. */
export function medians<T>(runs: Record<string, T[]>, field: (run: T) => number): Record<string, number> {
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, median(list.map(field))]));
}
