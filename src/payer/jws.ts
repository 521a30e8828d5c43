/**
 * Verifies a payload served as a compact JWS (`application/jose`) before anything in it is
 * trusted: the key comes from the JWKS at the header's `jku`, which must be HTTPS on the very
 * host the location named, is picked by `kid`, and must be an RSA public key; the algorithm is
 * RS256 or PS256. The JWKS is fetched through the payer client's own HTTP (its `fetch`, its
 * time-outs), never through a side channel, and kept per `jku` for a few minutes.
 */
import type { JWK } from 'jose';
import { PayloadVerificationError, type PayloadVerificationReason } from './errors.ts';
import { classifyHost } from './location.ts';
import type { PayerHttp, PayerRequestOptions } from './transport.ts';
import { epochMs, type Now } from '../internal/clock.ts';

export const ALLOWED_ALGORITHMS = ['RS256', 'PS256'] as const;

/** How long a fetched JWKS is reused, in milliseconds. */
export const JWKS_MAX_AGE_MS = 5 * 60_000;
const JWKS_CACHE_ENTRIES = 32;
const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]+$/;

interface CachedJwks {
  at: number;
  keys: Promise<JWK[]>;
}

/** True when `text` has the shape of a compact JWS (`header.payload.signature`). */
export function looksLikeCompactJws(text: string): boolean {
  return COMPACT_JWS.test(text.trim());
}

export class JwsVerifier {
  readonly #http: PayerHttp;
  readonly #allowPrivateHosts: boolean;
  readonly #now: Now;
  readonly #cache = new Map<string, CachedJwks>();

  constructor(http: PayerHttp, allowPrivateHosts: boolean, now: Now) {
    this.#http = http;
    this.#allowPrivateHosts = allowPrivateHosts;
    this.#now = now;
  }

  /** The verified payload, parsed as JSON; `location` is the URL the JWS was fetched from. */
  async verify(jws: string, location: URL, options?: PayerRequestOptions): Promise<unknown> {
    // jose is loaded on the first signed payload: an app that never reads one never pays for it.
    const { compactVerify, decodeProtectedHeader, importJWK } = await import('./jose.ts');
    const token = jws.trim();
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      if (!COMPACT_JWS.test(token)) throw new TypeError('not a compact JWS');
      header = decodeProtectedHeader(token);
    } catch (cause) {
      throw fail('malformed', 'the payload is not a readable compact JWS', cause);
    }
    const alg = header.alg;
    if (typeof alg !== 'string' || !(ALLOWED_ALGORITHMS as readonly string[]).includes(alg)) {
      throw fail('algorithm-not-allowed', `only ${ALLOWED_ALGORITHMS.join(' and ')} are accepted`);
    }
    const jku = this.#checkJku(header.jku, location);
    const kid = typeof header.kid === 'string' ? header.kid : undefined;

    let jwk = pick(await this.#jwks(jku, false, options), kid, alg);
    // A key missing from a set read earlier may be a rotation: read the set once more.
    if (!jwk) jwk = pick(await this.#jwks(jku, true, options), kid, alg);
    if (!jwk) throw fail('key-not-found', 'no RSA public key in the key set matches the header');

    let key: Awaited<ReturnType<typeof importJWK>>;
    try {
      key = await importJWK(jwk, alg);
    } catch (cause) {
      throw fail('key-not-found', 'the matching key in the key set is unusable', cause);
    }
    let payload: Uint8Array;
    try {
      ({ payload } = await compactVerify(token, key, { algorithms: [...ALLOWED_ALGORITHMS] }));
    } catch (cause) {
      const code = (cause as { code?: unknown }).code;
      if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
        throw fail('bad-signature', 'the signature does not match', cause);
      throw fail('malformed', 'the JWS could not be verified', cause);
    }
    try {
      return JSON.parse(new TextDecoder().decode(payload)) as unknown;
    } catch (cause) {
      throw fail('malformed', 'the signed payload is not JSON', cause);
    }
  }

  #checkJku(jku: unknown, location: URL): URL {
    if (typeof jku !== 'string' || jku === '') throw fail('jku-missing', 'the JWS header names no key set (jku)');
    let url: URL;
    try {
      url = new URL(jku);
    } catch (cause) {
      throw fail('jku-not-https', 'the key set address (jku) is not a valid URL', cause);
    }
    const plainHttpAllowed =
      url.protocol === 'http:' && this.#allowPrivateHosts && classifyHost(url.hostname) === 'private';
    if (url.protocol !== 'https:' && !plainHttpAllowed)
      throw fail('jku-not-https', 'the key set address (jku) is not https');
    if (url.host !== location.host || url.username !== '' || url.password !== '') {
      throw fail('jku-host-mismatch', 'the key set (jku) is not on the host that served the payload');
    }
    return url;
  }

  async #jwks(jku: URL, refresh: boolean, options: PayerRequestOptions | undefined): Promise<JWK[]> {
    const now = epochMs(this.#now);
    const cached = this.#cache.get(jku.href);
    // A refresh is skipped when the set was read moments ago (the same call, or a burst of them).
    if (cached && now - cached.at < (refresh ? 10_000 : JWKS_MAX_AGE_MS)) return cached.keys;
    const keys = this.#fetchJwks(jku, options);
    this.#cache.delete(jku.href);
    this.#cache.set(jku.href, { at: now, keys });
    if (this.#cache.size > JWKS_CACHE_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
    keys.catch(() => {
      if (this.#cache.get(jku.href)?.keys === keys) this.#cache.delete(jku.href);
    });
    return keys;
  }

  async #fetchJwks(jku: URL, options: PayerRequestOptions | undefined): Promise<JWK[]> {
    let text: string;
    try {
      ({ text } = await this.#http.get(
        jku,
        `GET ${jku.origin}/… (key set)`,
        'application/jwk-set+json, application/json',
        undefined,
        options ?? {},
      ));
    } catch (cause) {
      if (options?.signal?.aborted) throw cause;
      throw fail('jwks-unavailable', 'the key set could not be fetched', cause);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw fail('jwks-unavailable', 'the key set is not JSON', cause);
    }
    const keys = (body as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys)) throw fail('jwks-unavailable', 'the key set has no "keys" array');
    return keys.filter((k): k is JWK => typeof k === 'object' && k !== null && !Array.isArray(k));
  }
}

/** The one RSA public verification key for `kid` (or the only one, when the header names none). */
function pick(keys: readonly JWK[], kid: string | undefined, alg: string): JWK | undefined {
  const usable = keys.filter(
    (k) =>
      k.kty === 'RSA' &&
      k.d === undefined &&
      (k.use === undefined || k.use === 'sig') &&
      (k.alg === undefined || k.alg === alg) &&
      (kid === undefined || k.kid === kid),
  );
  return usable.length === 1 ? usable[0] : undefined;
}

function fail(reason: PayloadVerificationReason, detail: string, cause?: unknown): PayloadVerificationError {
  return new PayloadVerificationError(reason, detail, cause === undefined ? undefined : { cause });
}
