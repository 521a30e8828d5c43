/**
 * The caller's time for a whole `pay()` or `recover()`: `signal` and `totalTimeout` bound every
 * provider call, wait and store call of it, not each one alone. A store call cannot be cancelled
 * (a query on a stalled link stays pending); the wait for it ends with the caller's time.
 */
import { DEFAULT_TOTAL_TIMEOUT_MS } from '../core/http.ts';
import type { RequestOptions } from '../core/types.ts';
import { TimeoutError } from '../errors/failures.ts';
import { bounded } from '../internal/bounded.ts';
import { sleepUntil } from '../internal/retry.ts';
import { systemNow, type Now } from '../internal/clock.ts';

export class Budget {
  readonly signal: AbortSignal | undefined;
  /** Epoch ms; `Infinity` when the caller set no time. */
  readonly deadline: number;
  readonly #options: RequestOptions;
  /** The client's clock. */
  readonly clock: Now;

  /** `defaultMs`: the time when `options.totalTimeout` is not given (`Infinity`: none). */
  constructor(options: RequestOptions = {}, defaultMs: number = DEFAULT_TOTAL_TIMEOUT_MS, now: Now = systemNow) {
    this.#options = options;
    this.clock = now;
    this.signal = options.signal;
    this.deadline = this.now() + (options.totalTimeout ?? defaultMs);
  }

  /** The client's clock, in epoch ms. */
  now(): number {
    return this.clock().getTime();
  }

  /** Milliseconds left, never below 0 (`Infinity` when the caller set no time). */
  left(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** The caller's request options with the time left as the call's `totalTimeout`. */
  request(): RequestOptions {
    if (this.deadline === Infinity) return this.#options;
    return { ...this.#options, totalTimeout: Math.max(1, this.left()) };
  }

  /** True once the signal aborted or the time is up. */
  spent(): boolean {
    return this.signal?.aborted === true || this.left() === 0;
  }

  /** Throws the signal's reason, or `TimeoutError` when the time is up. */
  check(): void {
    this.signal?.throwIfAborted();
    if (this.left() === 0) throw this.expired();
  }

  /** A store call, waited for no longer than the caller's time (`onLate`: see `bounded`). */
  store<T>(work: Promise<T>, onLate?: (value: T) => void): Promise<T> {
    return bounded(work, this.left(), this.signal, this.expired, onLate);
  }

  /** Waits `ms`, or throws as `check()` does when the time ends first. */
  sleep(ms: number): Promise<void> {
    return sleepUntil(ms, this.deadline, this.clock, this.signal, this.expired);
  }

  /** The error of a call whose time is up. */
  readonly expired = (): TimeoutError => new TimeoutError('The call ran out of its time (totalTimeout)');
}
