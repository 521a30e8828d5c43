/**
 * Waiting on work the SDK cannot cancel (a database query): the wait ends when the work settles,
 * when the caller's signal aborts, or at the deadline, whichever comes first. The work itself
 * goes on; its late result is dropped.
 */

/** When a wait must end: the caller's signal, and an epoch-ms deadline with the error it ends in. */
export interface Limits {
  signal?: AbortSignal | undefined;
  /** Epoch milliseconds; `Infinity` for none. */
  deadline: number;
  /** The error a wait ends in at the deadline. */
  expired: () => unknown;
}

/** `work`'s result, or a rejection with the signal's reason or `expired()`, whichever comes first. */
export function bounded<T>(work: Promise<T>, limits: Limits): Promise<T> {
  const { signal, deadline } = limits;
  if (signal === undefined && deadline === Infinity) return work;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    // Handled from the start: a late failure of work that is no longer waited for is dropped.
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
    if (signal?.aborted) return onAbort();
    const left = deadline - Date.now();
    if (left <= 0) return reject(limits.expired());
    if (deadline !== Infinity) {
      timer = setTimeout(() => {
        done();
        reject(limits.expired());
      }, left);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
