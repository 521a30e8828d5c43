// @ts-check
/**
 * `npm run mutation`: StrykerJS over the money and security paths (docs/mutation.md says what,
 * why, and the mutants left standing). Incremental: the result file is committed, so a run
 * retests only what changed since it was written.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/cash-out/*.ts',
    'src/notifications/*.ts',
    'src/store/*.ts',
    'src/lib/money.ts',
    'src/lib/amount-due.ts',
    'src/internal/retry.ts',
    'src/core/retry-policy.ts',
  ],
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The machine is shared and has two cores.
  concurrency: 2,
  timeoutMS: 5000,
  tempDirName: '.stryker-tmp',
};
