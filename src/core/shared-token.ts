/**
 * One OAuth token for a fleet of processes. The token lives in the store, sealed, under a name
 * hashed from what makes it distinct (token URL, client id, scope, client certificate; never
 * the secret). When it is missing or due for refresh, the one process that takes the store's
 * lease fetches it; the others keep using a still-valid token meanwhile, or wait for the new
 * one. A 401 deletes the shared token only if it is still the one refused. Each process keeps
 * the token in memory until its refresh time, so a call costs no store round trip.
 */
import { abortable, type TokenInfo } from './auth.ts';
import { AuthenticationError } from '../errors/failures.ts';
import type { TokenProvider } from './types.ts';
import { sha256Hex } from '../store/crypto.ts';
import { sleep } from '../internal/retry.ts';
import type { Sealer, Store } from '../store/types.ts';

/** The provider that really fetches tokens (`ClientCredentialsProvider`). */
export interface TokenSource {
  getTokenInfo(signal?: AbortSignal): Promise<TokenInfo>;
  invalidate(rejected?: string): void;
}

export interface SharedTokenOptions {
  /** What tells this token apart from others in the same store (hashed before use). */
  identity: readonly string[];
  /** How long one process may hold the right to fetch (default 60 s: a token request's time-out and more). */
  fetchLeaseMs?: number;
  /** How often a waiting process looks for the token another is fetching (default 100 ms). */
  pollMs?: number;
  /** Longest wait for another process's fetch before `AuthenticationError` (default 60 s). */
  maxWaitMs?: number;
}

interface Held extends TokenInfo {
  /** The value as stored: what a compare-and-delete names. */
  sealed: string;
}

export class SharedTokenProvider implements TokenProvider {
  readonly #source: TokenSource;
  readonly #store: Store;
  readonly #sealer: Sealer;
  readonly #name: Promise<string>;
  readonly #owner = globalThis.crypto.randomUUID();
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #maxWaitMs: number;
  #held: Held | undefined;
  /** Epoch ms until which `#held` is handed out without asking the store. */
  #useUntil = 0;
  #inflight: Promise<Held> | undefined;
  #invalidating: Promise<void> | undefined;
  /** The last token the API refused: never taken from the store again. */
  #refused: string | undefined;

  constructor(source: TokenSource, store: Store, options: SharedTokenOptions) {
    if (!store.sealer) {
      throw new TypeError('This store has no encryptionKey: it refuses to keep tokens (give createPostgresStore an encryptionKey)');
    }
    this.#source = source;
    this.#store = store;
    this.#sealer = store.sealer;
    this.#name = sha256Hex(JSON.stringify(options.identity)).then((hash) => `token:${hash}`);
    this.#leaseMs = options.fetchLeaseMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 100;
    this.#maxWaitMs = options.maxWaitMs ?? 60_000;
  }

  async getToken(signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    if (this.#invalidating) await this.#invalidating;
    if (this.#held && Date.now() < this.#useUntil) return this.#held.value;
    this.#inflight ??= this.#sync().finally(() => {
      this.#inflight = undefined;
    });
    return (await abortable(this.#inflight, signal)).value;
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
    this.#invalidating = this.#name
      .then((name) => this.#store.delete(name, sealed))
      .catch(() => undefined)
      .finally(() => {
        this.#invalidating = undefined;
      });
  }

  async #sync(): Promise<Held> {
    const name = await this.#name;
    const deadline = Date.now() + this.#maxWaitMs;
    for (;;) {
      const shared = await this.#read(name);
      if (shared && Date.now() < shared.refreshAt) return this.#keep(shared, shared.refreshAt);
      if (await this.#store.lease(`${name}:fetch`, this.#owner, this.#leaseMs)) {
        try {
          return await this.#fetch(name);
        } finally {
          await this.#store.unlease(`${name}:fetch`, this.#owner).catch(() => undefined);
        }
      }
      // Another process is fetching: a token that is still valid serves meanwhile.
      if (shared && Date.now() < shared.expiresAt) return this.#keep(shared, Date.now() + this.#pollMs);
      if (Date.now() > deadline) throw new AuthenticationError('Timed out waiting for another process to fetch the token');
      await sleep(this.#pollMs);
    }
  }

  /** Under the fetch lease: fetches and shares a token, unless another process just did. */
  async #fetch(name: string): Promise<Held> {
    const shared = await this.#read(name);
    if (shared && Date.now() < shared.refreshAt) return this.#keep(shared, shared.refreshAt);
    this.#source.invalidate();
    const fresh = await this.#source.getTokenInfo();
    const payload = JSON.stringify({ value: fresh.value, refreshAt: fresh.refreshAt, expiresAt: fresh.expiresAt });
    const sealed = await this.#sealer.seal(payload, name);
    await this.#store.set(name, sealed, Math.max(1, fresh.expiresAt - Date.now()));
    return this.#keep({ ...fresh, sealed }, fresh.refreshAt);
  }

  async #read(name: string): Promise<Held | undefined> {
    const sealed = await this.#store.get(name);
    if (sealed === undefined) return undefined;
    // A value this key cannot open (another key wrote it) counts as no token: it is replaced.
    const plain = await this.#sealer.open(sealed, name).catch(() => undefined);
    if (plain === undefined) return undefined;
    const token = JSON.parse(plain) as TokenInfo;
    if (token.value === this.#refused) return undefined;
    return { ...token, sealed };
  }

  #keep(token: Held, useUntil: number): Held {
    this.#held = token;
    this.#useUntil = Math.min(useUntil, token.refreshAt);
    return token;
  }
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
    certificate === undefined ? '' : typeof certificate === 'string' ? certificate : [...certificate].map((b) => b.toString(16)).join('');
  return [credentials.tokenUrl, credentials.clientId, credentials.scope ?? '', cert];
}
