import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { retryAfterMs, retrying, sleep, sleepUntil, type Retry, type RetryPlan } from '../../src/internal/retry.ts';
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

/** The names of the process warnings `body` caused (read a turn of the event loop after it). */
async function warningsDuring(body: () => Promise<void>): Promise<string[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    await body();
    await new Promise((resolve) => setImmediate(resolve));
    return warnings.map((w) => w.name);
  } finally {
    process.off('warning', onWarning);
  }
}

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
    const warnings = await warningsDuring(async () => {
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
    });
    expect(warnings).toEqual([]);
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

describe('Retry-After', () => {
  const at = new Date('2026-11-28T12:00:00Z');
  const now = () => at;

  it('a blank header is none: the backoff applies, not an immediate retry', () => {
    for (const blank of ['', '   ', null, undefined]) expect(retryAfterMs(blank, 60_000, now)).toBeUndefined();
  });

  it("an HTTP date counts from the client's clock, a past one is 0, a long one is cut to the cap", () => {
    expect(retryAfterMs(new Date(at.getTime() + 5_000).toUTCString(), 60_000, now)).toBe(5_000);
    expect(retryAfterMs(new Date(at.getTime() - 5_000).toUTCString(), 60_000, now)).toBe(0);
    expect(retryAfterMs('120', 60_000, now)).toBe(60_000);
    expect(retryAfterMs('soon', 60_000, now)).toBeUndefined();
  });
});

describe('waits and attempts under a signal', () => {
  it('a wait on a signal already aborted rejects at once with its reason', async () => {
    const started = Date.now();
    await expect(sleep(5_000, AbortSignal.abort('gone'))).rejects.toBe('gone');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('an aborted wait leaves no timer behind: the process may exit at once', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const waiting = sleep(60_000, controller.signal);
      controller.abort('shutting down');
      await expect(waiting).rejects.toBe('shutting down');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits that end leave no listener on the caller's long-lived signal (no leak, no warning)", async () => {
    const signal = new AbortController().signal;
    const warnings = await warningsDuring(async () => {
      for (let i = 0; i < 20; i++) await sleep(1, signal);
    });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(warnings).toEqual([]);
  });

  it('a pause that reaches the deadline exactly ends with expired(): no time is left for an attempt', async () => {
    const at = new Date();
    const expired = new Error('expired');
    await expect(
      sleepUntil(
        30,
        at.getTime() + 30,
        () => at,
        undefined,
        () => expired,
      ),
    ).rejects.toBe(expired);
    await expect(
      sleepUntil(
        29,
        at.getTime() + 30,
        () => at,
        undefined,
        () => expired,
      ),
    ).resolves.toBeUndefined();
  });

  it('an attempt that answers within its timeout is not cut', async () => {
    let attempts = 0;
    const answer = await retrying(
      async (signal) => {
        attempts++;
        await sleep(30, signal);
        return 'ok';
      },
      plan({ timeout: 5_000 }),
    );
    expect(answer).toBe('ok');
    expect(attempts).toBe(1);
  });

  it("with a timeout, the caller's abort during an attempt cuts it at once, with the caller's reason", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort('caller left'), 20);
    const pending = retrying(
      async (signal) => {
        await sleep(5_000, signal);
        return 'late';
      },
      plan({ timeout: 10_000, signal: controller.signal }),
    );
    await expect(pending).rejects.toBe('caller left');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("with a timeout, a caller's signal already aborted reaches the attempt aborted, with its reason; no retry", async () => {
    const seen: unknown[] = [];
    const error = await retrying(
      async (signal) => {
        seen.push(signal?.aborted && signal.reason);
        throw new Flaky();
      },
      plan({ timeout: 5_000, signal: AbortSignal.abort('caller left') }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Flaky);
    expect(seen).toEqual(['caller left']);
  });

  it('a wait longer than a timer can hold still waits (it does not fire at once)', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('woken'), 50);
    await expect(sleep(2 ** 40, controller.signal)).rejects.toBe('woken');
  });

  it('without a timeout an attempt is never cut: it takes the time it needs', async () => {
    const answer = await retrying(async (signal) => {
      await sleep(30, signal);
      return 'ok';
    }, plan());
    expect(answer).toBe('ok');
  });

  it("attempts that end leave no timer behind and no listener on the caller's signal", async () => {
    const signal = new AbortController().signal;
    vi.useFakeTimers();
    try {
      let attempts = 0;
      const answer = await retrying(
        async () => {
          if (++attempts === 1) throw new Flaky();
          return 'ok';
        },
        plan({ timeout: 60_000, signal, pause: async () => undefined }),
      );
      expect(answer).toBe('ok');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
