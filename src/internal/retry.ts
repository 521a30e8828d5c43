/**
 * Retries, written once: which failures are retried, the backoff, Retry-After (capped), the
 * per-attempt timeout, the wait within a total budget (`sleepUntil`) and the loop itself
 * (`retrying`). The payer transport,
 * the token request and the cash-out order run through the loop; the backend calls through ky's
 * own, which `core/http.ts` configures from the constants here. Web-standard only: the payer
 * entry imports it.
 */
import type { Now } from './clock.ts';

/** Statuses a call that is safe to repeat is retried on. */
export const RETRY_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

/** Retries after the first attempt unless a client or a call says otherwise. */
export const DEFAULT_MAX_RETRIES = 2;

/** Longest Retry-After the SDK waits for; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** An exponential backoff: `baseMs` doubled per attempt up to `maxMs`, then jittered. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** Share of the pause always waited (0: full jitter, 0.5: between half and all of it). */
  floor: number;
}

/** The pause of every retry that has no Retry-After: 0.5 s doubled per retry up to 8 s, full jitter. */
export const BACKOFF: Backoff = { baseMs: 500, maxMs: 8_000, floor: 0 };

/** The pause before retry number `attempt + 1` (`attempt` counts from 0). */
export function backoffMs(attempt: number, policy: Backoff = BACKOFF): number {
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

/**
 * A delay a timer accepts: 0 to 2^31 - 1 ms. A longer one would fire at once, and a negative one
 * (a time already spent) makes Node print a TimeoutNegativeWarning in the user's process.
 */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(ms, 0), 2 ** 31 - 1);
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
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits `ms`, but not past `deadline` (epoch ms by `now`): when the deadline comes first, waits
 * until it and rejects with `expired()`. The signal's abort rejects at once with its reason.
 */
export async function sleepUntil(
  ms: number,
  deadline: number,
  now: Now,
  signal: AbortSignal | undefined,
  expired: () => unknown,
): Promise<void> {
  const left = deadline - now().getTime();
  await sleep(Math.min(ms, left), signal);
  if (ms >= left) throw expired();
}

/** A retry about to be sent: its number (from 1), the failure before it and the pause waited. */
export interface Retry {
  retry: number;
  error: unknown;
  waitMs: number;
}

/** How `retrying` runs: the limits, which failures are retried and what happens between attempts. */
export interface RetryPlan<T> {
  /** Attempts after the first. */
  maxRetries: number;
  now: Now;
  /** The caller's: an abort ends the loop (the attempt's failure, or the abort reason in a pause). */
  signal?: AbortSignal | undefined;
  /** Time limit of each attempt in ms (default none): the signal the attempt is given aborts then. */
  timeout?: number | undefined;
  /** The pause between attempts (default `sleep`); a total budget waits with `sleepUntil`. */
  pause?: ((ms: number) => Promise<void>) | undefined;
  /** Longest Retry-After waited (default `MAX_RETRY_AFTER_MS`). */
  maxRetryAfterMs?: number | undefined;
  /** Whether the attempt that failed with `error` is safe to send again. */
  retryable(error: unknown): boolean;
  /**
   * After the pause, before the next attempt (a log line, a span event, a lookup of what the
   * failed attempt may have left): `{ value }` ends the loop with that value.
   */
  between?: ((retry: Retry) => Promise<{ value: T } | undefined> | { value: T } | undefined) | undefined;
}

/**
 * Runs `attempt` until it succeeds, its failure is not `retryable`, the retries are spent or the
 * caller aborts; the last failure is thrown as it is. A pause is the Retry-After of the failure's
 * `response` (an `ApiError`'s), capped, else the backoff.
 */
export async function retrying<T>(
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
  plan: RetryPlan<T>,
): Promise<T> {
  const { signal, timeout } = plan;
  for (let attempts = 0; ; attempts++) {
    let error: unknown;
    const controller = timeout === undefined ? undefined : new AbortController();
    const onAbort = () => controller?.abort(signal?.reason);
    const timer = controller && setTimeout(() => controller.abort(), timerDelay(timeout ?? 0));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) onAbort();
      return await attempt(controller?.signal ?? signal);
    } catch (failure) {
      error = failure;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (signal?.aborted || attempts >= plan.maxRetries || !plan.retryable(error)) throw error;
    const response = (error as { response?: unknown } | undefined)?.response;
    const asked = response instanceof Response ? response.headers.get('retry-after') : undefined;
    const waitMs = retryAfterMs(asked, plan.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS, plan.now) ?? backoffMs(attempts);
    await (plan.pause ? plan.pause(waitMs) : sleep(waitMs, signal));
    const ended = await plan.between?.({ retry: attempts + 1, error, waitMs });
    if (ended) return ended.value;
  }
}
