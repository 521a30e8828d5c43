/**
 * A store that reaches beyond this process as far as the SDK can tell (not the in-memory class,
 * no `claim`: claims are leases), over one memory store that several handlers share.
 */
import { createMemoryStore, type Store } from '../../src/index.ts';

export function sharedStore(): Store {
  const inner = createMemoryStore();
  return {
    lease: (...args) => inner.lease(...args),
    renew: (...args) => inner.renew!(...args),
    unlease: (...args) => inner.unlease(...args),
    get: (...args) => inner.get(...args),
    set: (...args) => inner.set(...args),
    delete: (...args) => inner.delete(...args),
    list: (...args) => inner.list(...args),
  };
}

/**
 * A shared store with `claim` that answers at once, as the PostgreSQL store's does: `'done'`
 * once the mark is written, `'running'` while another holder has the claim.
 */
export function claimingStore(): Store {
  const store = sharedStore();
  const held = new Set<string>();
  return {
    ...store,
    claim: async (key) => {
      if ((await store.get(key)) !== undefined) return 'done';
      if (held.has(key)) return 'running';
      held.add(key);
      return {
        signal: new AbortController().signal,
        commit: async () => {
          await store.set(key, 'done');
          held.delete(key);
        },
        release: async () => void held.delete(key),
      };
    },
  };
}
