/**
 * Once-only claims (`runOnce`) without a database: on the in-memory store (a claim held by a
 * lease) and on a store whose `claim` follows the Store contract to the letter. What a delivery
 * resolves, what it costs the store, when it stops waiting, and what it tells the store.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClaimBusyError, createMemoryStore, StoreError, type Store } from '../../src/index.ts';
import { claimSettings, runOnce, type ClaimContext } from '../../src/store/claims.ts';
import type { ClaimTerms, HeldClaim } from '../../src/store/types.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A store over `inner` that records the name of every method called; `overrides` replace some. */
function recording(inner: Store, overrides: Partial<Store> = {}) {
  const calls: string[] = [];
  const store: Store = {
    lease: (name, owner, ttl) => (calls.push('lease'), inner.lease(name, owner, ttl)),
    renew: (name, owner, ttl) => (calls.push('renew'), inner.renew!(name, owner, ttl)),
    unlease: (name, owner) => (calls.push('unlease'), inner.unlease(name, owner)),
    get: (key) => (calls.push('get'), inner.get(key)),
    set: (key, value, ttl) => (calls.push('set'), inner.set(key, value, ttl)),
    delete: (key, ifValue) => (calls.push('delete'), inner.delete(key, ifValue)),
    list: (prefix) => (calls.push('list'), inner.list(prefix)),
    ...overrides,
  };
  return { store, calls };
}

/** A clock that stands still: only what the code does, never the machine's speed, decides. */
const frozen = () => new Date('2026-11-29T12:00:00Z');

/**
 * A store with `claim` and no transaction, keeping the Store contract literally: it skips its
 * own look for the mark when told `markChecked`, answers `'running'` while another holder has
 * the claim open, and writes the mark on `commit`.
 */
function claimingStore() {
  const marks = new Set<string>();
  const open = new Map<string, AbortController>();
  const terms: ClaimTerms[] = [];
  const { store } = recording(createMemoryStore(), {
    claim: async (key, given): Promise<HeldClaim | 'done' | 'running'> => {
      terms.push(given);
      if (!given.markChecked && marks.has(key)) return 'done';
      if (open.has(key)) return 'running';
      const controller = new AbortController();
      open.set(key, controller);
      return {
        signal: controller.signal,
        commit: async () => {
          marks.add(key);
          open.delete(key);
        },
        release: async () => void open.delete(key),
      };
    },
  });
  /** Another process takes the claim on `key`; `finish()` commits its mark. */
  const heldElsewhere = async (key: string) => {
    const held = await store.claim!(`done:${key}`, { leaseMs: 1_000, waitMs: 0, doneTtlMs: 60_000 });
    if (typeof held === 'string') throw new Error(`not taken: ${held}`);
    return { finish: () => held.commit() };
  };
  /** Loses every claim held now (its link failed). */
  const loseAll = () => {
    for (const controller of open.values()) controller.abort(new StoreError('lost'));
  };
  return { store, terms, heldElsewhere, loseAll };
}

describe('the lease-based claim (a store without claim)', () => {
  it('a duplicate of a finished run costs one read of its done mark: no lease taken', async () => {
    const { store, calls } = recording(createMemoryStore());
    expect(await runOnce(store, 'payment:E1', () => undefined)).toBe('ran');
    calls.length = 0;
    let again = 0;
    expect(await runOnce(store, 'payment:E1', () => void again++)).toBe('done');
    expect(calls).toEqual(['get']);
    expect(again).toBe(0);
  });

  it('waitMs 0: a claim held elsewhere is not waited for: one attempt, then ClaimBusyError saying so', async () => {
    const memory = createMemoryStore();
    await memory.lease('claim:payment:E2', 'another process', 60_000);
    let attempts = 0;
    const { store } = recording(memory, {
      lease: (name, owner, ttl) =>
        ++attempts > 1 ? Promise.reject(new Error('looked again')) : memory.lease(name, owner, ttl),
    });
    const ran = vi.fn();
    const outcome = runOnce(store, 'payment:E2', ran, claimSettings({ waitMs: 0, pollMs: 1 }), undefined, frozen);
    await expect(outcome).rejects.toBeInstanceOf(ClaimBusyError);
    await expect(outcome).rejects.toThrow(/another process is handling/i);
    expect(ran).not.toHaveBeenCalled();
  });

  it('a run that another process finishes while this one waits for its lease resolves done, and does not run again', async () => {
    const store = createMemoryStore();
    await store.lease('claim:payment:E3', 'another process', 60_000);
    const ran = vi.fn();
    const waiting = runOnce(store, 'payment:E3', ran, claimSettings({ pollMs: 1 }));
    // The other process writes its mark and still holds its lease (it has not given it back yet).
    await store.set('done:payment:E3', '2026-11-29T12:00:00.000Z');
    expect(await waiting).toBe('done');
    expect(ran).not.toHaveBeenCalled();
  });

  it('a run finished between the first look and the lease resolves done, and does not run again', async () => {
    const memory = createMemoryStore();
    const { store } = recording(memory, {
      // The other process writes its mark and gives its lease back just before this one takes it.
      lease: async (name, owner, ttl) => {
        await memory.set('done:payment:E4', '2026-11-29T12:00:00.000Z');
        return memory.lease(name, owner, ttl);
      },
    });
    const ran = vi.fn();
    expect(await runOnce(store, 'payment:E4', ran)).toBe('done');
    expect(ran).not.toHaveBeenCalled();
  });

  it('claims of two notifications do not wait for each other', async () => {
    const store = createMemoryStore();
    let finish!: () => void;
    const first = runOnce(store, 'payment:E5', () => new Promise<void>((resolve) => (finish = resolve)));
    await vi.waitUntil(() => finish !== undefined);
    expect(await runOnce(store, 'payment:E6', () => undefined, claimSettings({ waitMs: 0 }))).toBe('ran');
    finish();
    expect(await first).toBe('ran');
  });

  it('a store that does not answer fails the delivery with StoreError after claim.waitMs and a second of grace, not before', async () => {
    vi.useFakeTimers();
    const { store } = recording(createMemoryStore(), { get: () => new Promise<never>(() => undefined) });
    const ran = vi.fn();
    let failure: unknown;
    const outcome = runOnce(store, 'payment:E7', ran, claimSettings({ waitMs: 100 })).catch((error: unknown) => {
      failure = error;
    });
    await vi.advanceTimersByTimeAsync(1_099);
    expect(failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as StoreError).message).toBe('The store did not answer within 1100 ms');
    expect(ran).not.toHaveBeenCalled();
  });
});

describe('a store with claim (no transaction)', () => {
  it("the callback's signal is the claim's: it aborts when the claim is lost; there is no tx", async () => {
    const { store, loseAll } = claimingStore();
    let seen: ClaimContext | undefined;
    expect(
      await runOnce(store, 'payment:E8', (context) => {
        seen = context;
        loseAll();
      }),
    ).toBe('ran');
    expect(seen?.signal.aborted).toBe(true);
    expect(seen?.signal.reason).toBeInstanceOf(StoreError);
    expect(seen).not.toHaveProperty('tx');
  });

  it("inFlight 'answer': a claim held elsewhere resolves 'running' at once, without running", async () => {
    const { store, heldElsewhere } = claimingStore();
    await heldElsewhere('payment:E9');
    const ran = vi.fn();
    expect(await runOnce(store, 'payment:E9', ran, undefined, undefined, undefined, { inFlight: 'answer' })).toBe(
      'running',
    );
    expect(ran).not.toHaveBeenCalled();
  });

  it('waitMs 0: a claim held elsewhere is not waited for: one attempt, then ClaimBusyError saying so', async () => {
    const { store, terms, heldElsewhere } = claimingStore();
    await heldElsewhere('payment:E10');
    const ran = vi.fn();
    const outcome = runOnce(store, 'payment:E10', ran, claimSettings({ waitMs: 0, pollMs: 1 }), undefined, frozen);
    await expect(outcome).rejects.toBeInstanceOf(ClaimBusyError);
    await expect(outcome).rejects.toThrow(/another process is handling/i);
    // Its own attempt only (after the other process's).
    expect(terms).toHaveLength(2);
    expect(ran).not.toHaveBeenCalled();
  });

  it('a delivery that waited while another process ran it finds it done: after the wait it never tells the store the mark was just checked', async () => {
    const { store, heldElsewhere } = claimingStore();
    const other = await heldElsewhere('payment:E11');
    const ran = vi.fn();
    // The caller had looked for the mark before it was written.
    const waiting = runOnce(store, 'payment:E11', ran, claimSettings({ pollMs: 1 }), undefined, undefined, {
      markChecked: true,
    });
    await other.finish();
    expect(await waiting).toBe('done');
    expect(ran).not.toHaveBeenCalled();
  });
});
