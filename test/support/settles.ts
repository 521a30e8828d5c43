/**
 * Waiting for an outcome that must come, without making a wall-clock bound the verdict: the
 * outcome (the promise settling, a connection closing) is the event the test asserts; the guard
 * only turns "never" into a failure that says so, and is far beyond what a loaded machine takes.
 */

/** How long "never" is: far beyond any time limit under test, within the suite's 20 s per test. */
export const NEVER_MS = 15_000;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** How `promise` settled; rejects naming `what` when it has not settled after `guardMs`. */
export function settles<T>(promise: Promise<T>, what: string, guardMs = NEVER_MS): Promise<Outcome<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const never = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} had not settled after ${guardMs} ms`)), guardMs);
  });
  const outcome = promise.then(
    (value): Outcome<T> => ({ ok: true, value }),
    (error: unknown): Outcome<T> => ({ ok: false, error }),
  );
  return Promise.race([outcome, never]).finally(() => clearTimeout(timer));
}

/** The error `promise` rejects with; fails when it resolves, or has not settled after `guardMs`. */
export async function rejection(promise: Promise<unknown>, what: string, guardMs = NEVER_MS): Promise<unknown> {
  const outcome = await settles(promise, what, guardMs);
  if (outcome.ok) throw new Error(`${what} resolved; a rejection was expected`);
  return outcome.error;
}
