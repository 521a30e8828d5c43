/**
 * A seeded RSA key for the payload signatures: the same seed, the same key pair, so a payer
 * that read the key set before a restart keeps verifying after it, and a key set written down
 * once stays true. The primes are found the usual way, drawing from the seeded generator
 * instead of the platform's: a window of odd numbers of the right size from a random start,
 * sieved by the primes below 2^16, the survivors tested in order by the platform's primality
 * test (node:crypto `checkPrime`, off the main thread). A sandbox key guards nothing: this is
 * test data that repeats. A key takes some tens of milliseconds.
 */
import { checkPrime } from 'node:crypto';
import { promisify } from 'node:util';
import { base64url, type JWK } from 'jose';
import type { Random } from './random.ts';

const isPrime = promisify(checkPrime);

const E = 65_537n;
/** Odd candidates per window: far more than the gap between two 1024-bit primes (about 355 odd numbers). */
const WINDOW = 4096;
let sievePrimes: number[] | undefined;

/** An RSA private key of `bits` bits as a JWK (`n`, `e`, `d` and the CRT parameters), from `random`. */
export async function seededRsaKey(random: Random, bits = 2048): Promise<JWK> {
  for (;;) {
    const p = await prime(random, bits / 2);
    const q = await prime(random, bits / 2);
    const n = p * q;
    if (p === q || n.toString(2).length !== bits) continue;
    const d = inverse(E, lcm(p - 1n, q - 1n));
    const [big, small] = p > q ? [p, q] : [q, p];
    return {
      kty: 'RSA',
      n: encode(n),
      e: encode(E),
      d: encode(d),
      p: encode(big),
      q: encode(small),
      dp: encode(d % (big - 1n)),
      dq: encode(d % (small - 1n)),
      qi: encode(inverse(small, big)),
    };
  }
}

/** A prime of exactly `bits` bits whose `p - 1` is prime to `E`. */
async function prime(random: Random, bits: number): Promise<bigint> {
  sievePrimes ??= oddPrimesBelow(1 << 16);
  for (;;) {
    // Top two bits set (so the product of two has all its bits), odd; index i stands for start + 2i.
    const start = randomBits(random, bits) | (3n << BigInt(bits - 2)) | 1n;
    const composite = new Uint8Array(WINDOW);
    for (const p of sievePrimes) {
      const r = Number(start % BigInt(p));
      // The first i with start + 2i ≡ 0 (mod p): i ≡ -r · 2⁻¹, and 2⁻¹ ≡ (p + 1) / 2.
      for (let i = (((p - r) % p) * ((p + 1) / 2)) % p; i < WINDOW; i += p) composite[i] = 1;
    }
    for (let i = 0; i < WINDOW; i++) {
      if (composite[i] === 1) continue;
      const candidate = start + BigInt(2 * i);
      if (candidate % E === 1n) continue;
      if (candidate.toString(2).length === bits && (await isPrime(candidate))) return candidate;
    }
  }
}

function randomBits(random: Random, bits: number): bigint {
  let out = 0n;
  for (let i = 0; i < bits; i += 32) out = (out << 32n) | BigInt(Math.floor(random.next() * 2 ** 32));
  return out >> BigInt((32 - (bits % 32)) % 32);
}

/** `a`⁻¹ mod `m` (extended Euclid); `a` and `m` are coprime here. */
function inverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

function lcm(a: bigint, b: bigint): bigint {
  let [x, y] = [a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return (a / x) * b;
}

/** Big-endian bytes, no leading zero, base64url. */
function encode(n: bigint): string {
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return base64url.encode(bytes);
}

/** The odd primes below `limit` (a sieve of Eratosthenes). */
function oddPrimesBelow(limit: number): number[] {
  const composite = new Uint8Array(limit);
  const out: number[] = [];
  for (let n = 3; n < limit; n += 2) {
    if (composite[n] === 1) continue;
    out.push(n);
    for (let m = n * n; m < limit; m += 2 * n) composite[m] = 1;
  }
  return out;
}
