/**
 * The tests `npm run mutation` (StrykerJS, stryker.config.mjs) runs against the mutated money and
 * security paths: the files that exercise them in-process. Left out: the suites whose work happens
 * in child processes (fleet, nemesis, the sweep across processes), which a mutant in this process
 * cannot reach and which would cost minutes per mutant.
 */
import { statSync } from 'node:fs';
import type { TestSpecification, Vitest } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * Stryker stops a mutant's run at its first failing test, so the file most likely to fail goes
 * first: the one named after the mutated source file (`src/core/http.ts`: `test/core/http.test.ts`;
 * `src/cash-out/pay.ts`: `pay.test.ts`, `pay-chaos.test.ts`...), which Stryker gives vitest as its
 * `related` file. Then the small unit files, and the files that start a PostgreSQL or a sandbox last.
 */
class MutatedFileFirst {
  readonly #vitest: Vitest;
  constructor(vitest: Vitest) {
    this.#vitest = vitest;
  }
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }
  sort(files: TestSpecification[]): TestSpecification[] {
    const stems = (this.#vitest.config.related ?? []).map((file) => file.split('/src/').at(-1)?.replace(/\.ts$/, ''));
    const named = (file: string) => {
      const test = file.split('/test/').at(-1) ?? '';
      return stems.some((stem) => stem && (test.startsWith(`${stem}.`) || test.startsWith(`${stem}-`)));
    };
    const cost = (file: string) =>
      named(file) ? -1 : /postgres|e2e/.test(file) ? Number.MAX_SAFE_INTEGER : statSync(file).size;
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
    sequence: { sequencer: MutatedFileFirst },
    // One PostgreSQL per test runner process: a mutant's run of a file creates a database on it
    // (milliseconds) instead of starting a server (seconds).
    globalSetup: ['test/support/shared-postgres.ts'],
  },
});
