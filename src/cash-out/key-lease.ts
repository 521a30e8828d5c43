/**
 * The lease on an idempotency key while one `pay()` or `recover()` works on it: the store's
 * `Lease`, waited for within the caller's time, its loss told as `PaymentOutcomeUnknownError`.
 */
import { Lease } from '../store/lease.ts';
import { ClaimBusyError, type Store } from '../store/types.ts';
import type { Budget } from './budget.ts';
import { PaymentOutcomeUnknownError } from './errors.ts';

/** The lease's name: the same string as the key's outcome row, in the store's other namespace. */
const LEASE = 'intent:';
const POLL_MS = 100;
/** Default of `IntentOptions.leaseMs`. */
export const DEFAULT_KEY_LEASE_MS = 30_000;

export class KeyLease {
  readonly #key: string;
  readonly #budget: Budget;
  readonly #lease: Lease;

  constructor(store: Store, idempotencyKey: string, leaseMs: number, budget: Budget) {
    this.#key = idempotencyKey;
    this.#budget = budget;
    const wait = <T>(call: Promise<T>, onLate?: (value: T) => void) => budget.store(call, onLate);
    this.#lease = new Lease(store, LEASE + idempotencyKey, leaseMs, { take: wait });
  }

  /** One attempt: true when taken (renewed from then on). */
  take(): Promise<boolean> {
    return this.#lease.take();
  }

  /**
   * Takes the lease, waiting while a live `pay()` or `recover()` holds it. When the caller's time
   * ends first, that holder decides the key's fate: `PaymentOutcomeUnknownError`.
   */
  async wait(): Promise<void> {
    while (!(await this.take())) {
      if (this.#budget.left() <= POLL_MS) {
        throw new PaymentOutcomeUnknownError({
          idempotencyKey: this.#key,
          cause: new ClaimBusyError('Another pay() or recover() holds this idempotency key'),
        });
      }
      await this.#budget.sleep(POLL_MS);
    }
  }

  /**
   * Before an order leaves: the lease must still be held with at least half its time left
   * (renewed now otherwise), so that no `recover()` elsewhere decides the key meanwhile.
   */
  async confirm(): Promise<void> {
    if (!(await this.#lease.confirm())) {
      throw new PaymentOutcomeUnknownError({
        idempotencyKey: this.#key,
        cause: new ClaimBusyError("This call lost its idempotency key's lease"),
      });
    }
  }

  release(): Promise<void> {
    return this.#lease.release();
  }
}
