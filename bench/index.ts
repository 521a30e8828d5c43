/**
 * `npm run bench`: builds the package, starts the bench's server in its own process, runs every
 * section against the public API of the build, prints one table and records it with the date
 * and the machine in bench/RESULTS.md. Every figure is set against a baseline measured in the
 * same run, and every time goal is a ratio to such a baseline (never an absolute time: the
 * machine's speed moves the SDK and its baseline alike).
 *
 * `npm run bench -- <section>...` runs only those sections (the file is not rewritten);
 * `npm run bench -- fuzz` runs the fuzz suites with 10,000 runs each instead; `npm run bench --
 * nemesis` the nemesis suite over 200 seeds (bench/nemesis.ts; its own section of RESULTS.md,
 * which the full run keeps).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { nemesisSection, type BenchContext, type Row, type ServerStats } from './support.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;

const SECTIONS: Record<string, () => Promise<{ measure(ctx: BenchContext): Promise<Row[]> }>> = {
  throughput: () => import('./throughput.ts'),
  mtls: () => import('./mtls.ts'),
  tokens: () => import('./tokens.ts'),
  rules: () => import('./rules.ts'),
  'raw-responses': () => import('./raw-responses.ts'),
  'cold-start': () => import('./cold-start.ts'),
  'payer-size': () => import('./payer-size.ts'),
  brcode: () => import('./brcode.ts'),
  qr: () => import('./qr.ts'),
  'backend-size': () => import('./backend-size.ts'),
  memory: () => import('./memory.ts'),
  store: () => import('./store-latency.ts'),
  notifications: () => import('./notifications.ts'),
  sweep: () => import('./sweep.ts'),
  fleet: () => import('./fleet.ts'),
};

const args = process.argv.slice(2);
if (args.includes('fuzz')) {
  process.exitCode = fuzz();
} else if (args.includes('nemesis')) {
  process.exitCode = await (await import('./nemesis.ts')).nemesis();
} else {
  const unknown = args.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0)
    throw new Error(
      `unknown section(s) ${unknown.join(', ')}; known: fuzz, nemesis, ${Object.keys(SECTIONS).join(', ')}`,
    );
  await bench(args.length > 0 ? args : Object.keys(SECTIONS), args.length === 0);
}

/** The fuzz suites at 10,000 runs each (the test suite runs a few hundred). */
function fuzz(): number {
  const result = spawnSync(bin('vitest'), ['run', 'test/fuzz', '--coverage.enabled=false'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_RUNS: '10000' },
  });
  return result.status ?? 1;
}

async function bench(sections: string[], record: boolean): Promise<void> {
  const started = Date.now();
  const load = os.loadavg()[0] ?? 0;
  console.log('building dist/ ...');
  const build = spawnSync(bin('tsup'), ['--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');

  const server = await startServer();
  const rows: Row[] = [];
  try {
    for (const name of sections) {
      const t0 = Date.now();
      const section = await (SECTIONS[name] as () => Promise<{ measure(ctx: BenchContext): Promise<Row[]> }>)();
      rows.push(...(await section.measure(server.ctx)));
      console.log(`  ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    server.child.kill();
  }

  const table = render(rows);
  const cpus = os.cpus();
  const machine =
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ` +
    `${os.type()} ${os.release()} ${os.arch()}, Node ${process.version}; load average ${load.toFixed(2)} at start`;
  const took = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\n${table}\n${machine}; ${took} s`);
  if (!record) return;
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const kept = nemesisSection();
  writeFileSync(
    new URL('RESULTS.md', import.meta.url),
    `# Benchmark results\n\nWritten by \`npm run bench\` (bench/index.ts); the last run replaces this file.\n\n` +
      `- Date: ${date}\n- Machine: ${machine}\n- Duration: ${took} s\n\n` +
      `Every figure is set against a baseline measured in the same run; contenders were interleaved ` +
      `round by round (the order turning and reversing) and each figure is the median of its rounds. The SDK ` +
      `is judged against bare ky in duels, the two alone one right after the other over many short rounds, ` +
      `by the median of the per-round ratios with their interquartile range; a control duel of bare ky ` +
      `against a second bare ky client shows how far apart the method puts equals. ` +
      `The server runs in its own process.\n\n${table}\n` +
      (kept === '' ? '' : `\n${kept}`),
  );
  console.log('recorded in bench/RESULTS.md');
}

function render(rows: Row[]): string {
  const head = ['Measure', 'Result', 'Baseline (same run)', 'Ratio', 'Goal', 'Holds'];
  const cells = rows.map((r) => [
    r.measure,
    r.value,
    r.baseline,
    r.ratio,
    r.goal,
    r.holds === undefined ? '-' : r.holds ? 'yes' : '**no**',
  ]);
  const line = (values: string[]) => `| ${values.map((v) => v.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...cells.map(line)].join('\n');
}

async function startServer(): Promise<{ child: ChildProcess; ctx: BenchContext }> {
  const child = fork(fileURLToPath(new URL('server.ts', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const urls = await new Promise<{ httpUrl: string; httpsUrl: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { httpUrl: string; httpsUrl: string }));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const stats = () =>
    new Promise<ServerStats>((resolve) => {
      const onMessage = (message: unknown) => {
        const m = message as { stats?: ServerStats };
        if (!m.stats) return;
        child.off('message', onMessage);
        resolve(m.stats);
      };
      child.on('message', onMessage);
      child.send('stats');
    });
  return { child, ctx: { ...urls, stats } };
}
