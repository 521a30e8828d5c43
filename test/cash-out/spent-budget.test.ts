/**
 * A cash-out call whose time is spent arms no timer with a negative delay: Node would print a
 * `TimeoutNegativeWarning` in the user's process (seen through the key lease's release).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Budget } from '../../src/cash-out/budget.ts';
import { KeyLease } from '../../src/cash-out/key-lease.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { Now } from '../../src/internal/clock.ts';

describe('a spent budget', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });
  /** Warnings are emitted on the next tick: let them arrive. */
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('gives the key lease back without a negative timer', async () => {
    let ms = Date.parse('2026-11-28T12:00:00Z');
    const now: Now = () => new Date(ms);
    const budget = new Budget({ totalTimeout: 50 }, undefined, now);
    const lease = new KeyLease(createMemoryStore(), 'abc123', 30_000, budget);
    expect(await lease.take()).toBe(true);
    ms += 10_000; // the call's time ran out while it worked
    expect(budget.spent()).toBe(true);
    await lease.release();
    await expect(budget.store(new Promise(() => undefined))).rejects.toMatchObject({ name: 'TimeoutError' });
    await settled();
    expect(warnings.map((w) => w.name)).toEqual([]);
  });
});
