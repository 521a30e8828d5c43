/**
 * Reads that share statements (the PostgreSQL store's `get` and its claim's first look): what
 * goes out when, what each reader gets, and that a stuck batch holds the others back for
 * `stallMs` at most. On a real PostgreSQL: postgres-store.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedReads } from '../../src/store/read-batches.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A read whose batches the test answers one by one (`answer(i, found)` or `fail(i, error)`). */
function scriptedRead() {
  const batches: Array<{
    keys: string[];
    answer: (found: Record<string, string>) => void;
    fail: (error: unknown) => void;
  }> = [];
  const read = (keys: string[]) =>
    new Promise<ReadonlyMap<string, string>>((resolve, reject) => {
      batches.push({ keys, answer: (found) => resolve(new Map(Object.entries(found))), fail: reject });
    });
  return { read, batches };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('batched reads', () => {
  it('a read alone goes at once, as a batch of its own key', async () => {
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const value = get('a');
    expect(batches.map((b) => b.keys)).toEqual([['a']]);
    batches[0]!.answer({ a: '1' });
    expect(await value).toBe('1');
  });

  it('reads made while a batch is out go together as the next batch, each answered with its own value', async () => {
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const first = get('a');
    const later = [get('b'), get('c'), get('b'), get('missing')];
    expect(batches).toHaveLength(1);
    batches[0]!.answer({ a: '1' });
    await settle();
    // One key once, however many readers asked for it.
    expect(batches.map((b) => b.keys)).toEqual([['a'], ['b', 'c', 'missing']]);
    batches[1]!.answer({ b: '2', c: '3', a: 'not asked for in this batch' });
    expect(await first).toBe('1');
    expect(await Promise.all(later)).toEqual(['2', '3', '2', undefined]);
    // Nothing was waiting: the next read goes at once again.
    void get('d');
    expect(batches.map((b) => b.keys).at(-1)).toEqual(['d']);
  });

  it("a failed batch fails each of its reads with the read's error; the reads waiting behind it still go", async () => {
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const first = get('x');
    const failing = [get('a'), get('a')];
    batches[0]!.answer({});
    expect(await first).toBeUndefined();
    await settle();
    const waiting = get('b');
    const broken = new Error('connection terminated');
    batches[1]!.fail(broken);
    for (const reading of failing) await expect(reading).rejects.toBe(broken);
    await settle();
    expect(batches.map((b) => b.keys)).toEqual([['x'], ['a'], ['b']]);
    batches[2]!.answer({ b: '2' });
    expect(await waiting).toBe('2');
  });

  it('a read made after its key went out waits for the next batch (it must see writes finished before it)', async () => {
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const before = get('a');
    const after = get('a');
    batches[0]!.answer({});
    await settle();
    batches[1]!.answer({ a: 'written meanwhile' });
    expect([await before, await after]).toEqual([undefined, 'written meanwhile']);
  });

  it('a batch out longer than stallMs stops holding the next one back; its late answer still reaches its readers', async () => {
    vi.useFakeTimers();
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const stuck = get('a');
    const behind = get('b');
    await vi.advanceTimersByTimeAsync(49);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches.map((b) => b.keys)).toEqual([['a'], ['b']]);
    batches[1]!.answer({ b: '2' });
    expect(await behind).toBe('2');
    // The stuck one's answer arriving now neither fails nor sends anything.
    batches[0]!.answer({ a: '1' });
    expect(await stuck).toBe('1');
    expect(batches).toHaveLength(2);
  });

  it("a stalled batch's late answer does not let the reads behind the next batch go before it answers", async () => {
    vi.useFakeTimers();
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const stuck = get('a');
    await vi.advanceTimersByTimeAsync(50);
    const next = get('b');
    expect(batches.map((b) => b.keys)).toEqual([['a'], ['b']]);
    batches[0]!.answer({ a: '1' });
    expect(await stuck).toBe('1');
    const behind = get('c');
    await vi.advanceTimersByTimeAsync(0);
    // 'b' is still out: 'c' waits for it.
    expect(batches).toHaveLength(2);
    batches[1]!.answer({ b: '2' });
    expect(await next).toBe('2');
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b.keys)).toEqual([['a'], ['b'], ['c']]);
    batches[2]!.answer({ c: '3' });
    expect(await behind).toBe('3');
  });

  it('an answered batch leaves no stall timer behind', async () => {
    vi.useFakeTimers();
    const { read, batches } = scriptedRead();
    const get = batchedReads(read, 50);
    const value = get('a');
    expect(vi.getTimerCount()).toBe(1);
    batches[0]!.answer({ a: '1' });
    await value;
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
