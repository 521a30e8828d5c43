import { describe, expect, it } from 'vitest';
import { retrying, sleepUntil, type Retry, type RetryPlan } from '../../src/internal/retry.ts';
import { systemNow } from '../../src/internal/clock.ts';

class Flaky extends Error {
  readonly response: Response | undefined;
  constructor(response?: Response) {
    super('flaky');
    this.response = response;
  }
}

const plan = (extra: Partial<RetryPlan<string>> = {}): RetryPlan<string> => ({
  maxRetries: 2,
  now: systemNow,
  retryable: (error) => error instanceof Flaky,
  ...extra,
});

describe('retrying', () => {
  it('sends a retryable failure again up to maxRetries, then throws the last failure', async () => {
    let attempts = 0;
    const failures: Flaky[] = [];
    const error = await retrying(async () => {
      attempts++;
      const failure = new Flaky();
      failures.push(failure);
      throw failure;
    }, plan()).catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(error).toBe(failures[2]);
  });

  it('throws a failure that is not retryable after one attempt', async () => {
    let attempts = 0;
    const refused = new Error('refused');
    await expect(
      retrying(async () => {
        attempts++;
        throw refused;
      }, plan()),
    ).rejects.toBe(refused);
    expect(attempts).toBe(1);
  });

  it('cuts an attempt at its timeout (its signal aborts) and sends it again', async () => {
    let attempts = 0;
    const answer = await retrying(
      (signal) => {
        attempts++;
        if (attempts > 1) return Promise.resolve('answered');
        return new Promise<string>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Flaky())));
      },
      plan({ timeout: 30 }),
    );
    expect(answer).toBe('answered');
    expect(attempts).toBe(2);
  });

  it("waits the answer's Retry-After, cut to maxRetryAfterMs", async () => {
    const seen: Retry[] = [];
    let attempts = 0;
    const started = Date.now();
    const answer = await retrying(
      async () => {
        if (attempts++ === 0) throw new Flaky(new Response(null, { status: 503, headers: { 'retry-after': '3600' } }));
        return 'answered';
      },
      plan({ maxRetryAfterMs: 40, between: (retry) => void seen.push(retry) }),
    );
    expect(answer).toBe('answered');
    expect(seen.map((r) => [r.retry, r.waitMs])).toEqual([[1, 40]]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('ends with the value a between-attempts hook finds (a lookup), sending nothing more', async () => {
    let attempts = 0;
    const answer = await retrying(
      async () => {
        attempts++;
        throw new Flaky();
      },
      plan({ between: async () => ({ value: 'found by the lookup' }) }),
    );
    expect(answer).toBe('found by the lookup');
    expect(attempts).toBe(1);
  });

  it('a wait within a spent budget ends with expired() and arms no negative timer', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const expired = new Error('expired');
      let attempts = 0;
      const error = await retrying(
        async () => {
          attempts++;
          throw new Flaky();
        },
        plan({ pause: (ms) => sleepUntil(ms, Date.now() - 60_000, systemNow, undefined, () => expired) }),
      ).catch((e: unknown) => e);
      expect(error).toBe(expired);
      expect(attempts).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("rejects a pause at once with the caller's abort reason", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = retrying(
      async () => {
        throw new Flaky(new Response(null, { status: 503, headers: { 'retry-after': '30' } }));
      },
      plan({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort('caller left'), 20);
    await expect(pending).rejects.toBe('caller left');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
