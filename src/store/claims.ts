/**
 * Exactly-once work across processes: a notification's callback runs in the one process that
 * holds its claim (a lease renewed while the callback runs), and is marked done before the lease
 * is given back. A delivery that finds it done skips it; one that finds it claimed waits a little
 * for it to be done, then gives up with `ClaimBusyError` (the handler answers an error status and
 * the service sends the notification again). A callback that throws gives the claim back at once;
 * one whose process dies leaves a lease that expires, and the next delivery runs it.
 */
import { sleep } from '../internal/retry.ts';
import { ClaimBusyError, type Store } from './types.ts';

/** Lease and wait times of a fleet-wide claim (a callback run once across processes). */
export interface ClaimOptions {
  /** Lease of a running callback, renewed every third of it while the callback runs (default 30 s). */
  leaseMs?: number;
  /** How long a delivery waits for another process's run of the same callback (default 5 s). */
  waitMs?: number;
  /** How long a done mark is kept (default 30 days): a redelivery after that runs the callback again. */
  doneTtlMs?: number;
  /** Pause between looks while waiting (default 50 ms). */
  pollMs?: number;
}

const DEFAULTS = { leaseMs: 30_000, waitMs: 5_000, doneTtlMs: 30 * 24 * 3600_000, pollMs: 50 };

/**
 * Runs `work` unless it already ran for `key` anywhere the store reaches. Resolves `'ran'` or
 * `'done'` (it had run); throws what `work` threw, `ClaimBusyError` after waiting in vain for
 * another process's run, or `StoreError`.
 */
export async function runOnce(
  store: Store,
  key: string,
  work: () => unknown,
  options: ClaimOptions = {},
): Promise<'ran' | 'done'> {
  const { leaseMs, waitMs, doneTtlMs, pollMs } = { ...DEFAULTS, ...options };
  const doneKey = `done:${key}`;
  const claimKey = `claim:${key}`;
  const owner = globalThis.crypto.randomUUID();
  if ((await store.get(doneKey)) !== undefined) return 'done';

  const deadline = Date.now() + waitMs;
  while (!(await store.lease(claimKey, owner, leaseMs))) {
    if ((await store.get(doneKey)) !== undefined) return 'done';
    if (Date.now() >= deadline) throw new ClaimBusyError('Another process is handling this notification');
    await sleep(pollMs);
  }
  let renewal: ReturnType<typeof setInterval> | undefined;
  try {
    // It may have been finished between the first look and the lease.
    if ((await store.get(doneKey)) !== undefined) return 'done';
    renewal = setInterval(() => {
      store.lease(claimKey, owner, leaseMs).catch(() => undefined);
    }, leaseMs / 3);
    await work();
    await store.set(doneKey, new Date().toISOString(), doneTtlMs);
    return 'ran';
  } finally {
    clearInterval(renewal);
    await store.unlease(claimKey, owner).catch(() => undefined);
  }
}
