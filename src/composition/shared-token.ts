/**
 * One OAuth token for a fleet of processes. The token lives in the store, sealed, under a name
 * hashed from what makes it distinct (token URL, client id, scope, client certificate; never
 * the secret). When it is missing or due for refresh, the one process that takes the store's
 * fetch lease fetches it; the others keep using a still-valid token meanwhile, or wait for the
 * new one. A 401 deletes the shared token only if it is still the one refused.
 *
 * Times are durations, never dates: the token is stored twice with time-to-lives, so the
 * store's clock says when it is due (`token:<hash>`, until its refresh) and when it expired
 * (`token:<hash>:valid`), and a process's own clock only measures how long it keeps a token it
 * read (half the refresh margin, so a call costs no store round trip in between).
 *
 * A failed fetch is remembered fleet-wide: its count and status in `token:<hash>:failed`, and
 * the fetch lease held through a back-off (doubling from 1 s to a minute, or the endpoint's
 * `Retry-After` if longer), so no process asks the endpoint again before it lapses; meanwhile
 * calls fail at once with an `AuthenticationError` (or use a still-valid token). The fetch
 * lease lasts a token request's own time limit: a fetcher that died stalls the others no longer.
 */
import { abortable, type TokenInfo } from '../core/auth.ts';
import { AuthenticationError, ConfigurationError } from '../errors/failures.ts';
import type { TokenProvider } from '../core/types.ts';
import { sha256Hex } from '../store/crypto.ts';
import { bounded } from '../internal/bounded.ts';
import { backoffMs, sleep, type Backoff } from '../internal/retry.ts';
import { StoreError, type Sealer, type Store } from '../store/types.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

/** The provider that really fetches tokens (`ClientCredentialsProvider`). */
export interface TokenSource {
  getTokenInfo(signal?: AbortSignal): Promise<TokenInfo>;
  invalidate(rejected?: string): void;
}

export interface SharedTokenOptions {
  /** What tells this token apart from others in the same store (hashed before use). */
  identity: readonly string[];
  /**
   * A token request's own time limit (default 30 s): the fetch lease lasts that long, and so
   * does the longest wait for one store call.
   */
  requestTimeoutMs?: number;
  /** How often a waiting process looks for the token another is fetching (default 100 ms). */
  pollMs?: number;
  /** The client's clock (default the system clock). */
  now?: Now;
}

/** Pauses between failed token requests, fleet-wide: 1 s doubling to a minute (the reference provider allows 10 a minute). */
const FAILURE_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000, floor: 1 };
/** How long the count of failures in a row is kept after the last one. */
const FAILURE_MEMORY_MS = 10 * 60_000;
/** How long a process that read of a failure in the store answers with it before looking again. */
const FAILURE_RECHECK_MS = 250;

interface Held {
  value: string;
  /** How long a process that reads this token may keep it without asking the store again. */
  holdMs: number;
  /** The value as stored: what a compare-and-delete names. */
  sealed: string;
}

interface Names {
  /** The token while no refresh is due; also the sealing context of both copies. */
  fresh: string;
  /** The same token until it expires. */
  valid: string;
  failed: string;
  lease: string;
}

export class SharedTokenProvider implements TokenProvider {
  readonly #source: TokenSource;
  readonly #store: Store;
  readonly #sealer: Sealer;
  readonly #names: Promise<Names>;
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  readonly #now: Now;
  #held: Held | undefined;
  /** Epoch ms (this process's clock) until which `#held` is handed out without asking the store. */
  #useUntil = 0;
  /** The last failure, answered without asking anyone until `until` (this process's clock). */
  #failure: { error: unknown; until: number } | undefined;
  #inflight: Promise<Held> | undefined;
  #invalidating: Promise<void> | undefined;
  /** The last token the API refused: never taken from the store again. */
  #refused: string | undefined;

  constructor(source: TokenSource, store: Store, options: SharedTokenOptions) {
    if (!store.sealer) {
      throw new ConfigurationError(
        'store',
        'This store has no encryptionKey: it refuses to keep tokens (give createPostgresStore an encryptionKey)',
      );
    }
    this.#source = source;
    this.#store = store;
    this.#sealer = store.sealer;
    this.#names = sha256Hex(JSON.stringify(options.identity)).then((hash) => {
      const fresh = `token:${hash}`;
      return { fresh, valid: `${fresh}:valid`, failed: `${fresh}:failed`, lease: `${fresh}:fetch` };
    });
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#pollMs = options.pollMs ?? 100;
    this.#now = options.now ?? systemNow;
  }

  async getToken(signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    if (this.#invalidating) await this.#invalidating;
    if (this.#held && epochMs(this.#now) < this.#useUntil) return this.#held.value;
    if (this.#failure && epochMs(this.#now) < this.#failure.until) throw this.#failure.error;
    this.#inflight ??= this.#sync().finally(() => {
      this.#inflight = undefined;
    });
    return (await abortable(this.#inflight, signal)).value;
  }

  /** @internal The token this process holds while it may use it, without waiting. */
  tokenNow(): string | undefined {
    if (this.#invalidating) return undefined;
    return this.#held && epochMs(this.#now) < this.#useUntil ? this.#held.value : undefined;
  }

  invalidate(rejected?: string): void {
    const held = this.#held;
    // A token newer than the refused one is kept.
    if (rejected !== undefined && held !== undefined && held.value !== rejected) return;
    this.#held = undefined;
    this.#useUntil = 0;
    if (rejected !== undefined) this.#refused = rejected;
    const sealed = held?.sealed;
    if (sealed === undefined) return;
    // The replayed call waits for this, so it does not read the refused token back.
    this.#invalidating = this.#names
      .then(({ fresh, valid }) =>
        Promise.all([this.#ask(this.#store.delete(fresh, sealed)), this.#ask(this.#store.delete(valid, sealed))]),
      )
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.#invalidating = undefined;
      });
  }

  async #sync(): Promise<Held> {
    const names = await this.#names;
    // One owner per attempt: a lease this process holds through a back-off stops it too.
    const owner = globalThis.crypto.randomUUID();
    // Past a live fetcher's whole request (and the lease of a dead one), something has changed.
    const deadline = epochMs(this.#now) + 2 * this.#timeoutMs;
    for (;;) {
      const fresh = await this.#read(names.fresh, names);
      if (fresh) return this.#keep(fresh, fresh.holdMs);
      if (
        await this.#ask(
          this.#store.lease(names.lease, owner, this.#timeoutMs),
          (taken) => taken && this.#unlease(names, owner),
        )
      ) {
        return this.#fetch(names, owner);
      }
      // Another process is fetching, or the endpoint is in its back-off: a valid token serves meanwhile.
      const valid = await this.#read(names.valid, names);
      if (valid) return this.#keep(valid, this.#pollMs);
      const failed = await this.#ask(this.#store.get(names.failed));
      if (failed !== undefined) throw this.#remember(failureError(failed), FAILURE_RECHECK_MS);
      if (epochMs(this.#now) >= deadline)
        throw new AuthenticationError('Timed out waiting for another process to fetch the token');
      await sleep(this.#pollMs);
    }
  }

  /** Under the fetch lease: fetches and shares a token, unless another process just did. */
  async #fetch(names: Names, owner: string): Promise<Held> {
    let backingOff = false;
    try {
      const fresh = await this.#read(names.fresh, names);
      if (fresh) return this.#keep(fresh, fresh.holdMs);
      const failedBefore = await this.#ask(this.#store.get(names.failed));
      const failures = failureCount(failedBefore);
      this.#source.invalidate();
      let info: TokenInfo;
      try {
        info = await this.#source.getTokenInfo();
      } catch (error) {
        const pauseMs = Math.max(
          backoffMs(failures, FAILURE_BACKOFF),
          error instanceof AuthenticationError ? (error.retryAfterMs ?? 0) : 0,
        );
        const status = error instanceof AuthenticationError ? error.status : undefined;
        await this.#ask(
          this.#store.set(names.failed, JSON.stringify({ failures: failures + 1, status }), FAILURE_MEMORY_MS),
        );
        // The lease, held through the pause on the store's clock, keeps every process from asking.
        const renew = this.#store.renew ? this.#store.renew.bind(this.#store) : this.#store.lease.bind(this.#store);
        backingOff = await this.#ask(renew(names.lease, owner, pauseMs)).catch(() => false);
        const valid = await this.#read(names.valid, names);
        if (valid) return this.#keep(valid, Math.min(pauseMs, valid.holdMs));
        throw this.#remember(error, pauseMs);
      }
      // Durations on this process's clock, measured right after the answer: no other clock is involved.
      const now = epochMs(this.#now);
      const refreshMs = info.refreshAt - now;
      const expiresMs = info.expiresAt - now;
      const holdMs = Math.max(0, (expiresMs - refreshMs) / 2);
      const sealed = await this.#sealer.seal(JSON.stringify({ value: info.value, holdMs }), names.fresh);
      if (refreshMs > 0) await this.#ask(this.#store.set(names.fresh, sealed, refreshMs));
      // A process that reads this copy keeps it `pollMs` at most: the copy ends that much early.
      if (expiresMs > this.#pollMs) await this.#ask(this.#store.set(names.valid, sealed, expiresMs - this.#pollMs));
      if (failedBefore !== undefined) await this.#ask(this.#store.delete(names.failed));
      this.#failure = undefined;
      return this.#keep({ value: info.value, holdMs, sealed }, Math.max(0, refreshMs));
    } finally {
      if (!backingOff) await this.#unlease(names, owner);
    }
  }

  async #read(key: string, names: Names): Promise<Held | undefined> {
    const sealed = await this.#ask(this.#store.get(key));
    if (sealed === undefined) return undefined;
    // A value this key cannot open (another key wrote it) counts as no token: it is replaced.
    const plain = await this.#sealer.open(sealed, names.fresh).catch(() => undefined);
    if (plain === undefined) return undefined;
    const token = parse(plain);
    if (token === undefined || token.value === this.#refused) return undefined;
    return { ...token, sealed };
  }

  #keep(token: Held, holdMs: number): Held {
    this.#held = token;
    this.#useUntil = epochMs(this.#now) + holdMs;
    return token;
  }

  #remember(error: unknown, forMs: number): unknown {
    this.#failure = { error, until: epochMs(this.#now) + forMs };
    return error;
  }

  #unlease(names: Names, owner: string): Promise<void> {
    return this.#ask(this.#store.unlease(names.lease, owner)).catch(() => undefined);
  }

  /** A store call bounded by the token request's time limit: a stalled store fails the call, not the provider. */
  #ask<T>(call: Promise<T>, onLate?: (value: T) => void): Promise<T> {
    return bounded(
      call,
      this.#timeoutMs,
      undefined,
      () => new StoreError(`The store did not answer within ${this.#timeoutMs} ms`),
      onLate,
    );
  }
}

function parse(plain: string): { value: string; holdMs: number } | undefined {
  try {
    const token = JSON.parse(plain) as { value?: unknown; holdMs?: unknown };
    if (typeof token.value !== 'string' || typeof token.holdMs !== 'number' || !(token.holdMs >= 0)) return undefined;
    return { value: token.value, holdMs: token.holdMs };
  } catch {
    return undefined;
  }
}

/** Failures in a row recorded in `token:<hash>:failed` (0 when none). */
function failureCount(record: string | undefined): number {
  if (record === undefined) return 0;
  try {
    const failures = (JSON.parse(record) as { failures?: unknown }).failures;
    return typeof failures === 'number' && Number.isSafeInteger(failures) && failures > 0 ? failures : 1;
  } catch {
    return 1;
  }
}

/** What a process that did not fetch learns of the fleet's last failed token request. */
function failureError(record: string): AuthenticationError {
  let status: number | undefined;
  try {
    const value = (JSON.parse(record) as { status?: unknown }).status;
    if (typeof value === 'number') status = value;
  } catch {
    // An unreadable record still says the endpoint failed.
  }
  const failures = failureCount(record);
  return new AuthenticationError(
    `The token endpoint failed ${failures} time${failures === 1 ? '' : 's'} in a row${status === undefined ? '' : ` (last status ${status})`}: token requests are paused fleet-wide for a moment`,
    status === undefined ? {} : { status },
  );
}

/**
 * What names a shared token: token URL, client id, scope, and the client certificate's hash
 * (the certificate, or the PKCS#12 bundle, is hashed; the secret takes no part).
 */
export function tokenIdentity(
  credentials: { tokenUrl: string; clientId: string; scope?: string | undefined },
  certificate: string | Uint8Array | undefined,
): string[] {
  const cert =
    certificate === undefined
      ? ''
      : typeof certificate === 'string'
        ? certificate
        : [...certificate].map((b) => b.toString(16)).join('');
  return [credentials.tokenUrl, credentials.clientId, credentials.scope ?? '', cert];
}
