/**
 * The intent and outcome rows of a cash-out payment in a shared store. An open intent
 * (`intent-open:<key>`) is the order about to be sent, written right before it leaves: it means
 * "this order may have been sent, and nobody knows its fate". Closing it records the outcome
 * (`intent:<key>`). With a sealer, intents are read only through it: a row it does not open is
 * reported, never acted on. `pay-with-intent.ts` writes them, `recover.ts` settles them.
 */
import type { Logger } from '../core/log.ts';
import { InstantError } from '../errors/base.ts';
import { isRecord, parseJson } from '../internal/json.ts';
import { MONEY_PATTERN } from '../lib/money.ts';
import { durationOption } from '../store/options.ts';
import type { Store } from '../store/types.ts';
import type { Budget } from './budget.ts';
import type { CashOutPaymentRequest, Transfer } from './types.ts';
import type { Now } from '../internal/clock.ts';

/** How `pay()` holds its idempotency key in a shared store while it runs. */
export interface IntentOptions {
  /** Lease on a key while its `pay()` runs, renewed every third of it (default 30 s). */
  leaseMs?: number;
}

/** An open intent as stored: the order about to be sent. */
export interface OpenIntent {
  body: CashOutPaymentRequest;
  createdAt: string;
}

/** Prefix of open intents' keys. */
export const OPEN = 'intent-open:';
const OUTCOME = 'intent:';
/** How long an outcome is kept. */
const OUTCOME_TTL_MS = 90 * 24 * 3600_000;

/**
 * `leaseMs` out of range (`NaN`, under 100 ms, beyond 2^31 ms) is a `ConfigurationError` naming
 * the option (`prefix` + `leaseMs`): a zero or NaN lease would let a second `pay()` with the key
 * run at once.
 */
export function checkIntentOptions(options: IntentOptions | undefined, prefix: string): void {
  durationOption(options?.leaseMs, `${prefix}leaseMs`, 100);
}

/** The intent and outcome rows of one key. */
export class Intents {
  readonly #store: Store;
  readonly #key: string;
  readonly #budget: Budget;
  readonly #logger: Logger | undefined;
  readonly #now: Now;

  constructor(store: Store, idempotencyKey: string, budget: Budget, logger: Logger | undefined, now: Now) {
    this.#store = store;
    this.#key = idempotencyKey;
    this.#budget = budget;
    this.#logger = logger;
    this.#now = now;
  }

  /** The client's clock's instant, as an intent or outcome records it. */
  stamp(): string {
    return this.#now().toISOString();
  }

  /** The open intent's stored value, `undefined` when there is none. */
  openValue(): Promise<string | undefined> {
    return this.#budget.store(this.#store.get(OPEN + this.#key));
  }

  /** Intents name a destination key and a document: sealed when the store has a key. */
  seal(intent: OpenIntent | Record<string, unknown>, context = OPEN): Promise<string> {
    const json = JSON.stringify(intent);
    const sealer = this.#store.sealer;
    return sealer ? sealer.seal(json, context + this.#key) : Promise.resolve(json);
  }

  /**
   * The intent in `value`, or `undefined` (logged) when it is not one this store wrote: with a
   * sealer, anything it does not open (plain JSON included); without, anything that does not read
   * as an order.
   */
  async read(value: string): Promise<OpenIntent | undefined> {
    let text = value;
    const sealer = this.#store.sealer;
    if (sealer) {
      try {
        text = await sealer.open(value, OPEN + this.#key);
      } catch {
        this.ignored('not sealed with the store key');
        return undefined;
      }
    }
    const intent = parseJson(text);
    const body = isRecord(intent) ? intent['body'] : undefined;
    const amount = isRecord(body) && isRecord(body['payment']) ? body['payment']['amount'] : undefined;
    if (
      !isRecord(body) ||
      typeof body['instantKey'] !== 'string' ||
      typeof body['creditorDocument'] !== 'string' ||
      typeof amount !== 'string' ||
      !MONEY_PATTERN.test(amount)
    ) {
      this.ignored('unreadable');
      return undefined;
    }
    return intent as unknown as OpenIntent;
  }

  /**
   * Closes the intent `open` (only while it is still that value: another call's is never
   * deleted), then records `outcome`. Closing first: a crash in between loses a record, never
   * leaves an intent that could be acted on again. The close must succeed (it throws); the
   * record is best effort.
   */
  async close(
    open: string | undefined,
    outcome: { state: 'placed'; transfer: Transfer } | { state: 'not-placed' } | undefined,
  ): Promise<void> {
    if (open !== undefined) await this.#budget.store(this.#store.delete(OPEN + this.#key, open));
    if (outcome === undefined) return;
    try {
      const value = await this.seal({ ...outcome, settledAt: this.stamp() }, OUTCOME);
      await this.#budget.store(this.#store.set(OUTCOME + this.#key, value, OUTCOME_TTL_MS));
    } catch (error) {
      this.#logger?.warn?.('payment outcome not recorded', { reason: reasonOf(error) });
    }
  }

  /** Logs a row left alone (never its content). */
  ignored(reason: string): void {
    this.#logger?.warn?.('payment intent ignored', { reason });
  }
}

/** An error's name for a log line (never its message, which may quote values). */
export function reasonOf(error: unknown): string {
  return error instanceof InstantError || error instanceof Error ? error.name : typeof error;
}
