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

describe('Lease: renewals', () => {
  /** `inner`'s methods, bound; `overrides` replace some. */
  const over = (inner: Store, overrides: Partial<Store>): Store => ({
    lease: inner.lease.bind(inner),
    renew: inner.renew!.bind(inner),
    unlease: inner.unlease.bind(inner),
    get: inner.get.bind(inner),
    set: inner.set.bind(inner),
    delete: inner.delete.bind(inner),
    list: inner.list.bind(inner),
    ...overrides,
  });

  it('a lease not taken is never renewed, and its signal stays quiet', async () => {
    const inner = createMemoryStore();
    await inner.lease('l5', 'another', 10_000);
    let renewals = 0;
    const store = over(inner, { renew: async () => (renewals++, false) });
    const lease = new Lease(store, 'l5', 90, { take: direct });
    expect(await lease.take()).toBe(false);
    await pause(500);
    expect(renewals).toBe(0);
    expect(lease.signal.aborted).toBe(false);
  });

  it('confirm right after a renewal costs no store call', async () => {
    let renewals = 0;
    const inner = createMemoryStore();
    const store = over(inner, { renew: (n, o, t) => (renewals++, inner.renew!(n, o, t)) });
    const lease = new Lease(store, 'l6', 300, { take: direct });
    expect(await lease.take()).toBe(true);
    // Renewed at 100 and 200 ms: held until 500 ms, more than half of it left at 250 ms.
    await pause(250);
    expect(renewals).toBe(2);
    expect(await lease.confirm()).toBe(true);
    expect(renewals).toBe(2);
    await lease.release();
  });

  it('release waits for a renewal on its way, so that a store without renew is not taken again after it', async () => {
    const inner = createMemoryStore();
    let first = true;
    // No `renew`: renewals go through `lease`, and each one reaches the store 20 ms late.
    const { renew: _renew, ...withoutRenew } = over(inner, {});
    const store: Store = {
      ...withoutRenew,
      lease: (n, o, t) => {
        if (first) return ((first = false), inner.lease(n, o, t));
        return new Promise((resolve) => setTimeout(resolve, 20)).then(() => inner.lease(n, o, t));
      },
    };
    const lease = new Lease(store, 'l7', 90, { take: direct });
    expect(await lease.take()).toBe(true);
    // The first renewal left at 30 ms and lands at 50 ms.
    await pause(35);
    const released = lease.release();
    await pause(30);
    await released;
    expect(await inner.lease('l7', 'another', 1_000)).toBe(true);
  });

  it('confirm renews only when less than half the lease is left', async () => {
    let renewals = 0;
    const inner = createMemoryStore();
    const store = over(inner, { renew: (n, o, t) => (renewals++, inner.renew!(n, o, t)) });
    let at = Date.now();
    const lease = new Lease(store, 'l10', 300, { take: direct, now: () => new Date(at) });
    expect(await lease.take()).toBe(true);
    at += 150;
    expect(await lease.confirm()).toBe(true);
    expect(renewals).toBe(0);
    at += 1;
    expect(await lease.confirm()).toBe(true);
    expect(renewals).toBe(1);
    await lease.release();
  });

  it('a lease refused after its wait was given up costs no further store call', async () => {
    const inner = createMemoryStore();
    await inner.lease('l11', 'another', 10_000);
    let unleases = 0;
    const store = over(inner, {
      lease: (n, o, t) => new Promise((resolve) => setTimeout(resolve, 100)).then(() => inner.lease(n, o, t)),
      unlease: async (n, o) => (unleases++, inner.unlease(n, o)),
    });
    const impatient: StoreWait = (call, onLate) => {
      void call.then((value) => onLate?.(value));
      return Promise.reject(new StoreError('gave up'));
    };
    await expect(new Lease(store, 'l11', 1_000, { take: impatient }).take()).rejects.toThrow('gave up');
    await pause(150);
    expect(unleases).toBe(0);
  });

  it('a renewal unanswered for a third of the lease aborts the signal by two thirds of it', async () => {
    const inner = createMemoryStore();
    const store = over(inner, { renew: () => new Promise<boolean>(() => undefined) });
    const lease = new Lease(store, 'l8', 90, { take: direct });
    expect(await lease.take()).toBe(true);
    // Sent at 30 ms, given up at 60 ms.
    await pause(59);
    expect(lease.signal.aborted).toBe(false);
    await pause(1);
    expect(lease.signal.aborted).toBe(true);
    await lease.release();
  });

  it("the signal's reason tells why the lease was lost, with the store's failure as its cause", async () => {
    const reasonOf = async (renew: NonNullable<Store['renew']>) => {
      const lease = new Lease(over(createMemoryStore(), { renew }), 'l9', 90, { take: direct });
      await lease.take();
      await pause(60);
      await lease.release();
      return lease.signal.reason as StoreError;
    };
    const refused = await reasonOf(async () => false);
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused.message).toBe('The lease was lost: its lease was taken or had expired');
    const reset = new Error('connection reset');
    const failed = await reasonOf(() => Promise.reject(reset));
    expect(failed.message).toBe('The lease was lost: its renewal failed');
    expect(failed.cause).toBe(reset);
    const silent = await reasonOf(() => new Promise<boolean>(() => undefined));
    expect(silent.message).toBe('The lease was lost: its renewal failed');
    expect(silent.cause).toBeInstanceOf(StoreError);
    expect((silent.cause as StoreError).message).toBe('The store did not answer within 30 ms');
  });
});
