/**
 * The one lease (store/lease.ts) on its own, on the memory store: what claims and the cash-out
 * key lease both rely on. The fleet, nemesis and claims suites test it through its users.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore, StoreError, type Store } from '../../src/index.ts';
import { Lease, type StoreWait } from '../../src/store/lease.ts';

const direct: StoreWait = (call) => call;
/** Fake timers and clock: the lease's renewals and the store's expiries move only when the test says. */
const pause = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Lease', () => {
  it('is taken once, renewed while held, refused to another owner, and free once released', async () => {
    const store = createMemoryStore();
    const lease = new Lease(store, 'l1', 150, { take: direct });
    expect(await lease.take()).toBe(true);
    // Past its first term, still held: the renewals extended it.
    await pause(300);
    // Without them it would have ended: the store's clock did move.
    await store.lease('l0', 'one', 150);
    await pause(151);
    expect(await store.lease('l0', 'another', 1_000)).toBe(true);
    expect(await store.lease('l1', 'another', 1_000)).toBe(false);
    expect(await lease.confirm()).toBe(true);
    expect(lease.signal.aborted).toBe(false);
    await lease.release();
    expect(await store.lease('l1', 'another', 1_000)).toBe(true);
  });

  it('a refused renewal: signal aborted with StoreError, confirm false, no more renewals', async () => {
    const inner = createMemoryStore();
    let renewals = 0;
    const store: Store = {
      ...inner,
      lease: inner.lease.bind(inner),
      unlease: inner.unlease.bind(inner),
      renew: async () => (renewals++, false),
    };
    const lease = new Lease(store, 'l2', 90, { take: direct });
    expect(await lease.take()).toBe(true);
    await pause(200);
    expect(lease.signal.reason).toBeInstanceOf(StoreError);
    expect(await lease.confirm()).toBe(false);
    expect(renewals).toBe(1);
    await lease.release();
  });

  it('a failed renewal aborts the signal but renewing goes on (the next one may hold it)', async () => {
    const inner = createMemoryStore();
    let calls = 0;
    const store: Store = {
      ...inner,
      lease: inner.lease.bind(inner),
      unlease: inner.unlease.bind(inner),
      renew: (name, owner, ttl) =>
        ++calls === 1 ? Promise.reject(new Error('connection reset')) : inner.renew!(name, owner, ttl),
    };
    const lease = new Lease(store, 'l3', 90, { take: direct });
    expect(await lease.take()).toBe(true);
    await pause(250);
    expect(lease.signal.reason).toBeInstanceOf(StoreError);
    expect(calls).toBeGreaterThan(1);
    expect(await lease.confirm()).toBe(true);
    expect(await inner.lease('l3', 'another', 1_000)).toBe(false);
    await lease.release();
  });

  it('a lease granted after its wait was given up is given back at once', async () => {
    const inner = createMemoryStore();
    const store: Store = {
      ...inner,
      lease: (n, o, t) => new Promise((resolve) => setTimeout(resolve, 100)).then(() => inner.lease(n, o, t)),
      unlease: inner.unlease.bind(inner),
    };
    const impatient: StoreWait = (call, onLate) => {
      void call.then((value) => onLate?.(value));
      return Promise.reject(new StoreError('gave up'));
    };
    await expect(new Lease(store, 'l4', 1_000, { take: impatient }).take()).rejects.toThrow('gave up');
    await pause(150);
    expect(await inner.lease('l4', 'another', 1_000)).toBe(true);
  });
});
