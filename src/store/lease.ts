/**
 * A lease held while some work runs, across processes: taken, renewed every third of its time,
 * confirmed before a step that must happen under it, given back. The one implementation behind
 * the once-only claims (`claims.ts`) and the cash-out key lease (`cash-out/key-lease.ts`).
 */
import { bounded } from '../internal/bounded.ts';
import { StoreError, type Store } from './types.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

/**
 * How the holder waits for a store call that takes or gives back the lease (its time limit and
 * signal, as `bounded` does); `onLate` receives an answer that came after the wait was given up.
 */
export type StoreWait = <T>(call: Promise<T>, onLate?: (value: T) => void) => Promise<T>;

export class Lease {
  readonly #store: Store;
  readonly #name: string;
  readonly #ms: number;
  readonly #wait: StoreWait;
  readonly #giveBackWait: StoreWait;
  readonly #now: Now;
  readonly #owner = globalThis.crypto.randomUUID();
  readonly #lost = new AbortController();
  /** Local time by which the lease ends at the latest, as last taken or renewed. */
  #heldUntil = 0;
  /** A renewal was refused: the lease is gone for good. */
  #refused = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;

  /**
   * The lease `name` for `ms`. `wait` bounds taking and confirming it, `giveBack` (default:
   * `wait`) giving it back; renewals are bounded by a third of the lease. `now`: the clock its
   * remaining time is judged by (default the system clock).
   */
  constructor(
    store: Store,
    name: string,
    ms: number,
    waits: { take: StoreWait; giveBack?: StoreWait; now?: Now | undefined },
  ) {
    this.#store = store;
    this.#name = name;
    this.#ms = ms;
    this.#wait = waits.take;
    this.#giveBackWait = waits.giveBack ?? waits.take;
    this.#now = waits.now ?? systemNow;
  }

  /**
   * Aborts (with a `StoreError`) when a renewal is refused, fails or does not answer within a
   * third of the lease: the lease may be gone, and another process may run the work. Renewals go
   * on after a failure (the next one may hold it still), never after a refusal.
   */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /** One attempt: true when taken (renewed from then on). A lease granted after its wait was given up is given back at once. */
  async take(): Promise<boolean> {
    const sent = epochMs(this.#now);
    const taken = await this.#wait(this.#store.lease(this.#name, this.#owner, this.#ms), (late) => {
      if (late) this.#store.unlease(this.#name, this.#owner).catch(() => undefined);
    });
    if (taken) {
      this.#heldUntil = Math.max(this.#heldUntil, sent + this.#ms);
      this.#timer = setInterval(() => this.#tick(), this.#ms / 3);
    }
    return taken;
  }

  /**
   * True when the lease is held with at least half its time left, renewed now when less is left;
   * false when it was lost (a renewal was refused).
   */
  async confirm(): Promise<boolean> {
    if (this.#refused) return false;
    if (this.#heldUntil - epochMs(this.#now) >= this.#ms / 2) return true;
    return this.#renew(this.#wait);
  }

  /** Stops renewing and gives the lease back, after the last renewal has answered (or timed out). Never throws. */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    if (this.#running) await this.#giveBackWait(this.#running).catch(() => undefined);
    await this.#giveBackWait(this.#store.unlease(this.#name, this.#owner)).catch(() => undefined);
  }

  #tick(): void {
    if (this.#running) return;
    const third = this.#ms / 3;
    const wait: StoreWait = (call) =>
      bounded(call, third, undefined, () => new StoreError(`The store did not answer within ${Math.round(third)} ms`));
    this.#running = this.#renew(wait)
      .then(
        (held) => {
          if (!held) this.#lose('its lease was taken or had expired');
        },
        (error: unknown) => this.#lose('its renewal failed', error),
      )
      .finally(() => {
        this.#running = undefined;
      });
  }

  /**
   * Extends the lease: with the store's `renew`, only while it is still held, so that a renewal
   * that arrives after the lease ran out (a stalled link) never takes back a lease another
   * process took and gave back meanwhile. Without `renew`, by `lease`, which can.
   */
  async #renew(wait: StoreWait): Promise<boolean> {
    const sent = epochMs(this.#now);
    const store = this.#store;
    const held = await wait(
      store.renew ? store.renew(this.#name, this.#owner, this.#ms) : store.lease(this.#name, this.#owner, this.#ms),
    );
    if (held) this.#heldUntil = Math.max(this.#heldUntil, sent + this.#ms);
    else {
      this.#refused = true;
      clearInterval(this.#timer);
    }
    return held;
  }

  #lose(why: string, cause?: unknown): void {
    this.#lost.abort(new StoreError(`The lease was lost: ${why}`, { cause }));
  }
}
