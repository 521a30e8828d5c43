/**
 * Memory: 50,000 GETs through one SDK client at concurrency 32, in a fresh process with
 * `--expose-gc`. RSS and heap after a full collection every 10,000 calls; the figure at 50,000
 * against the one at 10,000 (the warmed-up baseline). Goal: no growth, within 15% (the
 * checkpoints of a steady client wander that much; a leak of even 100 bytes a call would not).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchContext, Row } from './support.ts';

const TOTAL = 50_000;
const BASELINE_AT = 10_000;
const root = fileURLToPath(new URL('..', import.meta.url));

interface Snapshot {
  rss: number;
  heap: number;
}

const script = (baseUrl: string) => `
const { InstantClient } = await import('instant-payments');
const api = new InstantClient({ baseUrl: ${JSON.stringify(baseUrl)}, auth: { getToken: async () => 'bench-token' } });
let started = 0;
const until = (n) => Promise.all(Array.from({ length: 32 }, async () => {
  while (started < n) { started++; await api.cob.get('benchcharge0000000000000000006'); }
}));
const snapshot = () => { gc(); gc(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed }; };
const series = [];
for (let n = ${BASELINE_AT}; n <= ${TOTAL}; n += ${BASELINE_AT}) {
  await until(n);
  series.push(snapshot());
}
process.stdout.write(JSON.stringify(series));
process.exit(0);
`;

export async function measure(ctx: BenchContext): Promise<Row[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', script(ctx.httpUrl)], {
    cwd: root,
    timeout: 90_000,
  });
  const series = JSON.parse(stdout) as Snapshot[];
  const baseline = series[0] as Snapshot;
  const end = series.at(-1) as Snapshot;
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
  const rss = end.rss / baseline.rss;
  const heap = end.heap / baseline.heap;
  const path = series.map((s) => (s.rss / 2 ** 20).toFixed(0)).join(' → ');
  return [
    {
      measure: `RSS after ${TOTAL.toLocaleString('en-US')} calls through one client, heap after GC (RSS MB every 10,000: ${path})`,
      value: `${mb(end.rss)} (heap ${mb(end.heap)})`,
      baseline: `after ${BASELINE_AT.toLocaleString('en-US')} calls ${mb(baseline.rss)} (heap ${mb(baseline.heap)})`,
      ratio: `${rss.toFixed(2)}x (heap ${heap.toFixed(2)}x)`,
      goal: 'no growth (RSS and heap ≤ 1.15x)',
      holds: rss <= 1.15 && heap <= 1.15,
    },
  ];
}
