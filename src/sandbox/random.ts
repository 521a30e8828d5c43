/**
 * The sandbox's seeded randomness: one generator per stream (ids, faults), so that a run with
 * the same seed makes the same ids and the same faults in the same order. Access tokens and
 * client secrets never come from here (they use the platform's CSPRNG).
 */
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** mulberry32: a small, fast 32-bit generator; plenty for test data. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  alphanumeric(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHANUMERIC[this.below(62)];
    return out;
  }

  /** A lowercase version-4 UUID (an EVP key). */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 32; i++) hex += HEX[this.below(16)];
    const variant = HEX[8 + this.below(4)];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

/** A secret: 32 alphanumerics from the platform's CSPRNG. */
export function secret(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => ALPHANUMERIC[b % 62]).join('');
}
