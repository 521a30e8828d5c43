/**
 * The default store: one process's memory. With it the SDK behaves as a single process always
 * did (a token per process, notifications deduplicated within the process).
 */
import type { Store } from './types.ts';

interface Entry {
  value: string;
  /** Epoch ms; `Infinity` for no expiry. */
  expiresAt: number;
}

/** Entries kept before expired ones are swept (checked on every write). */
const SWEEP_EVERY = 1_000;

export class MemoryStore implements Store {
  readonly #values = new Map<string, Entry>();
  readonly #leases = new Map<string, { owner: string; expiresAt: number }>();
  #writes = 0;

  async lease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const held = this.#leases.get(name);
    if (held && held.owner !== owner && held.expiresAt > now) return false;
    this.#leases.set(name, { owner, expiresAt: now + ttlMs });
    this.#sweep(now);
    return true;
  }

  async unlease(name: string, owner: string): Promise<void> {
    if (this.#leases.get(name)?.owner === owner) this.#leases.delete(name);
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#values.get(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    const now = Date.now();
    this.#values.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : now + ttlMs });
    this.#sweep(now);
  }

  async delete(key: string, ifValue?: string): Promise<void> {
    if (ifValue === undefined || this.#values.get(key)?.value === ifValue) this.#values.delete(key);
  }

  async list(prefix: string): Promise<Array<{ key: string; value: string }>> {
    const now = Date.now();
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
export function createMemoryStore(): Store {
  return new MemoryStore();
}
