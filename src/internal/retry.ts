/**
 * Waiting between attempts, written once for every loop that retries: the backend core (through
 * ky's hooks), the payer transport, the cash-out order and the store's polls. Web-standard only:
 * the payer entry imports it.
 */
import type { Now } from './clock.ts';

/** Statuses a call that is safe to repeat is retried on. */
export const RETRY_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

/** An exponential backoff: `baseMs` doubled per attempt up to `maxMs`, then jittered. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** Share of the pause always waited (0: full jitter, 0.5: between half and all of it). */
  floor: number;
}

/** The pause before retry number `attempt + 1` (`attempt` counts from 0). */
export function backoffMs(attempt: number, policy: Backoff): number {
  const cap = Math.min(policy.baseMs * 2 ** attempt, policy.maxMs);
  return cap * (policy.floor + Math.random() * (1 - policy.floor));
}

/** A `Retry-After` header (seconds or an HTTP date, counted from `now`) in milliseconds, from 0 to `capMs`. */
export function retryAfterMs(header: string | null | undefined, capMs: number, now: Now): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now().getTime();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), capMs) : undefined;
}

/** Resolves after `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
