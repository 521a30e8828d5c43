/**
 * The default store: one process's memory. With it the SDK behaves as a single process always
 * did (a token per process, notifications deduplicated within the process). Its values are
 * bounded by count as well as by time: past `maxEntries`, the least recently written go first.
 */
import { countOption } from './options.ts';
import { checkNowOption } from '../errors/failures.ts';
import type { Store } from './types.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

interface Entry {
  value: string;
  /** Epoch ms; `Infinity` for no expiry. */
  expiresAt: number;
}

/** Options of `createMemoryStore`. */
export interface MemoryStoreOptions {
  /**
   * Most values kept (default 100 000); past it the least recently written one is dropped, as
   * a process forgets the oldest notifications it handled. Leases are not counted.
   */
  maxEntries?: number;
  /** The clock its expiries are judged by (default the system clock); a client's `now`, in tests. */
  now?: Now;
}

/** Writes between two sweeps of expired entries. */
const SWEEP_EVERY = 1_000;
const DEFAULT_MAX_ENTRIES = 100_000;

export class MemoryStore implements Store {
  /** In write order (a write moves its key to the end): the first entry is the one dropped. */
  readonly #values = new Map<string, Entry>();
  readonly #leases = new Map<string, { owner: string; expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #now: Now;
  #writes = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = countOption(options.maxEntries, 'maxEntries') ?? DEFAULT_MAX_ENTRIES;
    checkNowOption(options.now);
    this.#now = options.now ?? systemNow;
  }

  async lease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = epochMs(this.#now);
    const held = this.#leases.get(name);
    if (held && held.owner !== owner && held.expiresAt > now) return false;
    this.#leases.set(name, { owner, expiresAt: now + ttlMs });
    this.#sweep(now);
    return true;
  }

  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = epochMs(this.#now);
    const held = this.#leases.get(name);
    if (!held || held.owner !== owner || held.expiresAt <= now) return false;
    held.expiresAt = now + ttlMs;
    return true;
  }

  async unlease(name: string, owner: string): Promise<void> {
    if (this.#leases.get(name)?.owner === owner) this.#leases.delete(name);
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#values.get(key);
    return entry && entry.expiresAt > epochMs(this.#now) ? entry.value : undefined;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    const now = epochMs(this.#now);
    this.#values.delete(key);
    this.#values.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : now + ttlMs });
    if (this.#values.size > this.#maxEntries) this.#values.delete(this.#values.keys().next().value!);
    this.#sweep(now);
  }

  async delete(key: string, ifValue?: string): Promise<void> {
    if (ifValue === undefined || this.#values.get(key)?.value === ifValue) this.#values.delete(key);
  }

  async list(prefix: string): Promise<Array<{ key: string; value: string }>> {
    const now = epochMs(this.#now);
    return [...this.#values]
      .filter(([key, entry]) => key.startsWith(prefix) && entry.expiresAt > now)
      .map(([key, entry]) => ({ key, value: entry.value }));
  }

  #sweep(now: number): void {
    if (++this.#writes % SWEEP_EVERY !== 0) return;
    for (const [key, entry] of this.#values) if (entry.expiresAt <= now) this.#values.delete(key);
    for (const [name, lease] of this.#leases) if (lease.expiresAt <= now) this.#leases.delete(name);
  }
}

/** A store in this process's memory: the default of every client and handler. */
export function createMemoryStore(options?: MemoryStoreOptions): Store {
  return new MemoryStore(options);
}

/**
 * The store when it reaches beyond this process, else `undefined` (none, or the in-memory one):
 * the one decision behind a shared token, `pay()`'s intents and a cash-out handler's fleet-wide
 * claims. With memory, the SDK behaves as a single process always did.
 */
export function sharedStore(store: Store | undefined): Store | undefined {
  return store instanceof MemoryStore ? undefined : store;
}
