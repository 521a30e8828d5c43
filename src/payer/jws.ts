/**
 * Verifies a payload served as a compact JWS (`application/jose`) before anything in it is
 * trusted: the key comes from the JWKS at the header's `jku`, which must be HTTPS on the very
 * host the location named, is picked by `kid`, and must be an RSA public key; the algorithm is
 * RS256 or PS256. The JWKS is fetched through the payer client's own HTTP (its `fetch`, its
 * time-outs), never through a side channel, and kept per `jku` for a few minutes.
 *
 * The signature is checked with the runtime's WebCrypto, which every runtime the payer entry
 * names has: two algorithms over one key type need no JOSE library (jose was 5 KB of a payer
 * app's bundle). What such a library checks besides, this does too: the header is a JSON object,
 * extensions (`crit`) are refused (RFC 7515 4.1.11: none is understood here), the key is an RSA
 * public key of 2048 bits or more (RFC 7518 3.3 and 3.5).
 */
import { isRecord } from '../internal/json.ts';
import { PayloadVerificationError, type PayloadVerificationReason } from './errors.ts';
import { classifyHost } from './location.ts';
import type { PayerHttp, PayerRequestOptions } from './transport.ts';
import { epochMs, type Now } from '../internal/clock.ts';

/** The accepted algorithms and their WebCrypto parameters (PS256: a salt as long as the hash, RFC 7518 3.5). */
const ALGORITHMS = {
  RS256: { name: 'RSASSA-PKCS1-v1_5' },
  PS256: { name: 'RSA-PSS', saltLength: 32 },
} as const;
export const ALLOWED_ALGORITHMS = Object.keys(ALGORITHMS) as ReadonlyArray<keyof typeof ALGORITHMS>;

/** A key of a key set, as read (its members checked where used). */
type Jwk = Record<string, unknown>;

/** How long a fetched JWKS is reused, in milliseconds. */
export const JWKS_MAX_AGE_MS = 5 * 60_000;
const JWKS_CACHE_ENTRIES = 32;
const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]+$/;

interface CachedJwks {
  at: number;
  keys: Promise<Jwk[]>;
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
    const token = jws.trim();
    const [encodedHeader = '', encodedPayload = '', encodedSignature = ''] = token.split('.');
    let header: unknown;
    try {
      if (!COMPACT_JWS.test(token)) throw new TypeError('not a compact JWS');
      header = JSON.parse(new TextDecoder().decode(base64url(encodedHeader)));
    } catch (cause) {
      throw fail('malformed', 'the payload is not a readable compact JWS', cause);
    }
    if (!isRecord(header)) throw fail('malformed', 'the JWS header is not a JSON object');
    const alg = header.alg;
    if (typeof alg !== 'string' || !Object.hasOwn(ALGORITHMS, alg)) {
      throw fail('algorithm-not-allowed', `only ${ALLOWED_ALGORITHMS.join(' and ')} are accepted`);
    }
    if (header.crit !== undefined) throw fail('malformed', 'the JWS header asks for extensions (crit)');
    const algorithm = ALGORITHMS[alg as keyof typeof ALGORITHMS];
    const jku = this.#checkJku(header.jku, location);
    const kid = typeof header.kid === 'string' ? header.kid : undefined;

    let jwk = pick(await this.#jwks(jku, false, options), kid, alg);
    // A key missing from a set read earlier may be a rotation: read the set once more.
    if (!jwk) jwk = pick(await this.#jwks(jku, true, options), kid, alg);
    if (!jwk) throw fail('key-not-found', 'no RSA public key in the key set matches the header');

    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey(
        'jwk',
        { kty: 'RSA', n: jwk.n as string, e: jwk.e as string },
        { ...algorithm, hash: 'SHA-256' },
        false,
        ['verify'],
      );
    } catch (cause) {
      throw fail('key-not-found', 'the matching key in the key set is unusable', cause);
    }
    if ((key.algorithm as RsaHashedKeyAlgorithm).modulusLength < 2048) {
      throw fail('key-not-found', 'the matching key in the key set is shorter than 2048 bits');
    }
    let valid: boolean;
    try {
      const signed = new TextEncoder().encode(`${encodedHeader}.${encodedPayload}`);
      valid = await crypto.subtle.verify(algorithm, key, base64url(encodedSignature), signed);
    } catch (cause) {
      throw fail('malformed', 'the JWS could not be verified', cause);
    }
    if (!valid) throw fail('bad-signature', 'the signature does not match');
    try {
      return JSON.parse(new TextDecoder().decode(base64url(encodedPayload))) as unknown;
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

  async #jwks(jku: URL, refresh: boolean, options: PayerRequestOptions | undefined): Promise<Jwk[]> {
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

  async #fetchJwks(jku: URL, options: PayerRequestOptions | undefined): Promise<Jwk[]> {
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
    return keys.filter(isRecord);
  }
}

/** The one RSA public verification key for `kid` (or the only one, when the header names none). */
function pick(keys: readonly Jwk[], kid: string | undefined, alg: string): Jwk | undefined {
  const usable = keys.filter(
    (k) =>
      k.kty === 'RSA' &&
      typeof k.n === 'string' &&
      typeof k.e === 'string' &&
      k.d === undefined &&
      (k.use === undefined || k.use === 'sig') &&
      (k.alg === undefined || k.alg === alg) &&
      (kid === undefined || k.kid === kid),
  );
  return usable.length === 1 ? usable[0] : undefined;
}

/** The bytes of a base64url text (unpadded, as JWS writes it). */
function base64url(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
}

function fail(reason: PayloadVerificationReason, detail: string, cause?: unknown): PayloadVerificationError {
  return new PayloadVerificationError(reason, detail, cause === undefined ? undefined : { cause });
}
