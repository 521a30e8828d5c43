/**
 * Every example runs to completion against its own sandbox: spawned with Node 24 and no
 * credentials in the environment (even if the machine running the tests has some).
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLES, runExample, withoutCredentials } from '../scripts/examples.ts';

describe('examples/', () => {
  it('has the examples the README points to', () => {
    expect(EXAMPLES).toEqual(
      expect.arrayContaining([
        'cash-out.ts',
        'charges.ts',
        'due-date-batch.ts',
        'payer-app.ts',
        'quick-start.ts',
        'subscriptions.ts',
        'webhook-receiver.ts',
      ]),
    );
  });

  it.concurrent.each(EXAMPLES)('%s runs against a sandbox and exits 0', { timeout: 30_000 }, async (name) => {
    const env = withoutCredentials({
      ...process.env,
      INSTANT_CLIENT_ID: 'would-reach-a-real-provider',
      CASH_OUT_CLIENT_ID: 'same',
    });
    const run = await runExample(name, env);
    expect(run.output).not.toMatch(/AuthenticationError|Unhandled|at .*\.ts:\d+/);
    expect({ code: run.code, output: run.output }).toEqual({ code: 0, output: expect.stringMatching(/\S/) });
  });
});
