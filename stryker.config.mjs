// @ts-check
/**
 * `npm run mutation`: StrykerJS over the money and security paths (docs/mutation.md: what is
 * mutated and why, the figures, the mutants left standing). Incremental: the result file is
 * committed, so a run retests only the mutants whose code or covering tests changed.
 */
import { readFileSync } from 'node:fs';

/**
 * The lines of `file` from the one starting with `from` up to the one before `to` (both found
 * by their text, so the range follows the code as it moves), as a Stryker mutate range.
 */
function section(file, from, to) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith(from));
  const end = lines.findIndex((line, i) => i > start && line.trimStart().startsWith(to));
  if (start < 0 || end < 0) throw new Error(`stryker.config.mjs: ${file} has no section ${from} … ${to}`);
  return `${file}:${start + 1}-${end}`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Child processes, not the runner's default worker threads: as fast (order.ts's mutants, four
  // runners: 3 min 9 s against 3 min 28 s), and Node 24.21's native abort, which hit worker threads
  // eight times in a whole run, did not happen once in child processes (docs/mutation.md).
  vitest: { configFile: 'vitest.mutation.config.ts', pool: 'forks' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/cash-out/*.ts',
    'src/notifications/*.ts',
    'src/store/*.ts',
    'src/lib/money.ts',
    'src/lib/amount-due.ts',
    'src/internal/retry.ts',
    'src/core/retry-policy.ts',
    // The HTTP core's retries (ky's options and its beforeRetry hook, the look before a create is
    // sent again), the 401 replay, and each call's retry policy; the token cache a 401 clears.
    section('src/core/http.ts', '#create(', '#fetchAttempt('),
    section('src/core/http.ts', 'send<T>(', '#transmit('),
    section('src/core/http.ts', '#retryPolicy(', '/** The typed error of a failed call'),
    section('src/core/auth.ts', 'async getTokenInfo(', 'async #request('),
  ],
  // A mutant of module-level code (a schema, a constant) needs every test file reloaded: minutes each.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Four test runners on two cores: a runner waits on servers, timers and its PostgreSQL about half
  // the time (43% of two cores busy with two runners; order.ts's mutants 1.7x faster with four).
  // On a machine shared with others, `-- --concurrency 1`.
  concurrency: 4,
  timeoutMS: 5000,
};
