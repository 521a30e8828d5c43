/**
 * The in-memory store keeps the store contract on its own clock: leases and values end exactly
 * at their expiry, only an owner renews or gives back its lease, values are bounded by count.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createMemoryStore, type Store } from '../../src/index.ts';
import { sharedStore } from '../../src/store/memory.ts';

/** A memory store on a clock that moves only when the test says. */
function clocked(options: { maxEntries?: number } = {}) {
  let at = Date.parse('2026-11-29T12:00:00Z');
  const store = createMemoryStore({ ...options, now: () => new Date(at) });
  return {
    store,
    advance: (ms: number) => {
      at += ms;
    },
  };
}

describe('the in-memory store', () => {
  it('a lease is refused to another owner until the instant it expires, then taken; its owner takes it again', async () => {
    const { store, advance } = clocked();
    expect(await store.lease('l', 'a', 100)).toBe(true);
    advance(99);
    expect(await store.lease('l', 'b', 100)).toBe(false);
    expect(await store.lease('l', 'a', 100)).toBe(true);
    advance(99);
    expect(await store.lease('l', 'b', 100)).toBe(false);
    advance(1);
    expect(await store.lease('l', 'b', 100)).toBe(true);
  });

  it('renew extends only a lease its owner holds, up to the instant it expires', async () => {
    const { store, advance } = clocked();
    expect(await store.renew!('l', 'a', 100)).toBe(false);
    expect(await store.lease('l', 'a', 100)).toBe(true);
    expect(await store.renew!('l', 'b', 100)).toBe(false);
    advance(99);
    expect(await store.renew!('l', 'a', 100)).toBe(true);
    // Renewed for 100 ms from then: held at 198 ms, over at 199.
    advance(99);
    expect(await store.lease('l', 'b', 100)).toBe(false);
    advance(1);
    expect(await store.renew!('l', 'a', 100)).toBe(false);
    expect(await store.lease('l', 'b', 100)).toBe(true);
  });

  it("unlease gives back only the owner's own lease", async () => {
    const { store } = clocked();
    await store.lease('l', 'a', 1_000);
    await store.unlease('l', 'b');
    expect(await store.lease('l', 'b', 1_000)).toBe(false);
    await store.unlease('l', 'a');
    expect(await store.lease('l', 'b', 1_000)).toBe(true);
    // A lease never taken: nothing to give back, and no failure.
    await expect(store.unlease('never taken', 'a')).resolves.toBeUndefined();
  });

  it('a value lives until the instant its time-to-live ends; without one, or with Infinity, forever', async () => {
    const { store, advance } = clocked();
    await store.set('brief', 'x', 100);
    await store.set('kept', 'y');
    await store.set('forever', 'z', Infinity);
    advance(99);
    expect(await store.get('brief')).toBe('x');
    expect((await store.list('')).map((e) => e.key)).toEqual(['brief', 'kept', 'forever']);
    advance(1);
    expect(await store.get('brief')).toBeUndefined();
    expect(await store.list('')).toEqual([
      { key: 'kept', value: 'y' },
      { key: 'forever', value: 'z' },
    ]);
    advance(100 * 365 * 24 * 3600_000);
    expect(await store.get('kept')).toBe('y');
    expect(await store.get('forever')).toBe('z');
  });

  it('delete removes a value, with ifValue only while it is still that value', async () => {
    const { store } = clocked();
    await store.set('k', '1');
    await store.delete('k', '2');
    expect(await store.get('k')).toBe('1');
    await store.delete('k', '1');
    expect(await store.get('k')).toBeUndefined();
    await store.set('k', '3');
    await store.delete('k');
    expect(await store.get('k')).toBeUndefined();
    await store.delete('absent', 'x');
    expect(await store.list('')).toEqual([]);
  });

  it('list returns the live values whose key starts with the prefix', async () => {
    const { store } = clocked();
    await store.set('done:a', '1');
    await store.set('done:b', '2');
    await store.set('intent:a', '3');
    expect(await store.list('done:')).toEqual([
      { key: 'done:a', value: '1' },
      { key: 'done:b', value: '2' },
    ]);
  });

  it('keeps maxEntries values, then drops the least recently written; leases are not counted', async () => {
    const { store } = clocked({ maxEntries: 3 });
    await store.lease('l', 'a', 1_000);
    for (const key of ['a', 'b', 'c']) await store.set(key, key);
    expect((await store.list('')).map((e) => e.key)).toEqual(['a', 'b', 'c']);
    await store.set('a', 'a again');
    await store.set('d', 'd');
    expect((await store.list('')).map((e) => e.key)).toEqual(['c', 'a', 'd']);
    expect(await store.lease('l', 'b', 1_000)).toBe(false);
  });

  it('expired values do not count toward maxEntries: they are swept out, and a live value is not dropped for them', async () => {
    const { store, advance } = clocked({ maxEntries: 1_000 });
    await store.set('keep', 'k');
    for (let i = 0; i < 998; i++) await store.set(`brief:${i}`, 'b', 1);
    // Every brief one has just expired: two live values, far from 1,000.
    advance(1);
    await store.set('x', 'x');
    await store.set('y', 'y');
    expect(await store.get('keep')).toBe('k');
    expect((await store.list('')).map((e) => e.key)).toEqual(['keep', 'x', 'y']);
  });

  it('maxEntries that is not a whole number from 1 is refused where the store is built, saying what it takes', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN, '10' as never]) {
      let thrown: unknown;
      try {
        createMemoryStore({ maxEntries });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect(thrown).toMatchObject({
        option: 'maxEntries',
        message: `maxEntries must be a whole number, 1 or more (got ${String(maxEntries)})`,
      });
    }
    expect(() => createMemoryStore({ maxEntries: 1 })).not.toThrow();
  });

  it('a clock that is not a function is refused where the store is built, naming now', () => {
    expect(() => createMemoryStore({ now: new Date() as never })).toThrow(
      expect.objectContaining({ name: 'ConfigurationError', option: 'now' }),
    );
  });

  it('is not shared beyond the process: sharedStore gives undefined for it and any other store itself', () => {
    const memory = createMemoryStore();
    const other: Store = { ...memory, lease: async () => true };
    expect(sharedStore(memory)).toBeUndefined();
    expect(sharedStore(undefined)).toBeUndefined();
    expect(sharedStore(other)).toBe(other);
  });
});
