/**
 * The tests `npm run mutation` (StrykerJS, stryker.config.mjs) runs against the mutated money and
 * security paths: the files that exercise them in-process. Left out: the suites whose work happens
 * in child processes (fleet, nemesis, the sweep across processes), which a mutant in this process
 * cannot reach and which would cost minutes per mutant.
 */
import { statSync } from 'node:fs';
import type { TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * Stryker stops a mutant's run at its first failing test: the small unit files go first, the
 * files that start a PostgreSQL or a sandbox last, so a killed mutant rarely waits for those.
 */
class CheapestFirst {
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }
  sort(files: TestSpecification[]): TestSpecification[] {
    const cost = (file: string) => (/postgres|e2e/.test(file) ? Number.MAX_SAFE_INTEGER : statSync(file).size);
    return [...files].sort((a, b) => cost(a.moduleId) - cost(b.moduleId));
  }
}

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/cash-out/*.test.ts',
      'test/notifications/*.test.ts',
      'test/store/{claims,claim-options,lease,lease-claim-order,memory-store,pg-driver-failures,postgres-store,read-batches,run-once,sealer}.test.ts',
      'test/lib/{money,amount-due}.test.ts',
      'test/internal/retry.test.ts',
      'test/core/{auth,http,request,create-after-cut,telemetry,operating-options,hostile-server}.test.ts',
      'test/collection/received-payments*.test.ts',
      'test/recurring/notifications.test.ts',
      'test/errors/echoed-credentials.test.ts',
      'test/e2e/sweep.test.ts',
    ],
    sequence: { sequencer: CheapestFirst },
    // One PostgreSQL per test runner process: a mutant's run of a file creates a database on it
    // (milliseconds) instead of starting a server (seconds).
    globalSetup: ['test/support/shared-postgres.ts'],
  },
});
