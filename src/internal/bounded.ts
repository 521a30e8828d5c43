/**
 * A wait with a time limit and a caller's signal, for work the SDK cannot cancel and that has no
 * time limit of its own (a database query over a link that stopped answering never settles by
 * itself). The wait ends when the work settles, the signal aborts, or the time is up.
 */
import { timerDelay } from './retry.ts';

/**
 * Resolves or rejects as `promise` does, unless `ms` pass first (`Infinity`: no limit) (rejects with `timeoutError()`)
 * or `signal` aborts (rejects with its reason). The promise itself goes on: `onLate` receives
 * what it resolves with after the wait was given up (a connection to give back, say).
 */
export function bounded<T>(
  promise: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  timeoutError: () => unknown,
  onLate?: (value: T) => void,
): Promise<T> {
  if (signal === undefined && ms === Infinity) return promise;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    const timer = setTimeout(() => finish(() => reject(timeoutError())), timerDelay(ms));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        if (settled) onLate?.(value);
        finish(() => resolve(value));
      },
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
