/**
 * Money. On the wire an amount is a decimal string `^\d{1,10}\.\d{2}$` (`"10.00"`); inside the
 * SDK it is an integer number of cents. Conversions work on the digits, never through floats.
 */
import type { Checked } from './checked.ts';

/** A wire amount: 1 to 10 integer digits, a dot, exactly 2 decimals. */
export const MONEY_PATTERN = /^\d{1,10}\.\d{2}$/;

/** The largest amount the wire format can carry, in cents (`9999999999.99`). */
export const MAX_CENTS = 999_999_999_999;

// What `parseAmount` accepts from people: 0 to 2 decimals ("10", "10.5", "10.50").
const LENIENT_AMOUNT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** True when `s` is a wire amount (`"0.00"` to `"9999999999.99"`). Never throws. */
export function isValidAmount(s: unknown): s is Checked<'amount'> {
  return typeof s === 'string' && MONEY_PATTERN.test(s);
}

/** A wire amount as integer cents: `"10.05"` → `1005`. Throws `RangeError` on anything else. */
export function toCents(amount: string): number {
  if (!isValidAmount(amount)) throw new RangeError('amount must match ^\\d{1,10}\\.\\d{2}$');
  // Both halves are short digit strings, so this is exact integer arithmetic.
  return Number(amount.slice(0, -3)) * 100 + Number(amount.slice(-2));
}

/** True when the wire amount `amount` (already checked against the pattern) is zero: no digit but 0. */
export function isZeroAmount(amount: string): boolean {
  for (let i = 0; i < amount.length; i++) {
    const c = amount.charCodeAt(i);
    if (c > 0x30 && c <= 0x39) return false;
  }
  return true;
}

/** Two amounts name the same sum: compared in cents when both are wire amounts, else as text. */
export function sameAmount(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return isValidAmount(a) && isValidAmount(b) ? toCents(a) === toCents(b) : a === b;
}

/**
 * `cents` × `a` × `b` / `denominator` in whole cents, rounded half up, exactly (no float on the
 * way: `centsTimes(1001, 1, 1, 2)` is 501). All are non-negative integers.
 * @internal
 */
export function centsTimes(cents: number, a: number, b: number, denominator: number): number {
  const d = BigInt(denominator);
  return Number((BigInt(cents) * BigInt(a) * BigInt(b) * 2n + d) / (2n * d));
}

/**
 * Integer cents as a wire amount: `1005` → `"10.05"`. Throws `RangeError` unless `cents` is an
 * integer from 0 to `MAX_CENTS`.
 */
export function fromCents(cents: number): string {
  if (!Number.isInteger(cents) || cents < 0 || cents > MAX_CENTS) {
    throw new RangeError(`cents must be an integer from 0 to ${MAX_CENTS}`);
  }
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Normalises an amount given by a person or a program to the wire form.
 *
 * - a string is read as reais with a dot and 0 to 2 decimals: `"10"` → `"10.00"`,
 *   `"10.5"` → `"10.50"`, `"0010.50"` → `"10.50"`; more decimals, commas, signs or spaces are a
 *   `RangeError` (nothing is rounded);
 * - a number is read as **integer cents** (`1050` → `"10.50"`); a fraction is a `RangeError`,
 *   so a float amount in reais (`10.5`) fails loudly instead of turning into 10 cents.
 *
 * Throws `TypeError` for any other type.
 */
export function parseAmount(input: string | number): string {
  if (typeof input === 'number') return fromCents(input);
  if (typeof input !== 'string') throw new TypeError('amount must be a string or integer cents');
  const match = LENIENT_AMOUNT.exec(input);
  if (match === null) {
    throw new RangeError('amount must be a decimal string with a dot and at most 2 decimals');
  }
  const [, units = '0', decimals = ''] = match;
  return fromCents(Number(units) * 100 + Number(decimals.padEnd(2, '0')));
}

/**
 * The string to pass for an amount given as the number `amount`, when it reads as reais with
 * at most two decimals (`59.9` → `"59.90"`); `undefined` otherwise.
 */
export function amountForNumber(amount: number): string | undefined {
  const written = String(amount);
  return /^\d{1,10}(?:\.\d{1,2})?$/.test(written) ? parseAmount(written) : undefined;
}

/**
 * Why `value` is not a wire amount, for a refusal of the field `name`: a number is named as
 * one, with the string to pass instead (`got the number 59.9; pass the string "59.90"`), and so
 * is a string short of two decimals (`"59.9"`: write `"59.90"`).
 */
export function amountRefusal(name: string, value: unknown): string {
  if (typeof value === 'string' && /^\d{1,10}(?:\.\d)?$/.test(value))
    return `${name} needs two decimals: write "${parseAmount(value)}", not ${JSON.stringify(value)}`;
  if (typeof value !== 'number') return `${name} must be a decimal string with two decimals, such as "10.00"`;
  const suggestion = amountForNumber(value);
  const got = `${name} must be a decimal string: got the number ${String(value)}`;
  return suggestion === undefined ? `${got} (money is never a number)` : `${got}; pass the string "${suggestion}"`;
}

/**
 * The cash-out provider's float money (`0.1`, `1234.5`, `19.99`, `-12.3`) as an exact
 * 2-decimal string (`"0.10"`, `"1234.50"`, `"19.99"`, `"-12.30"`).
 *
 * Rounding is done on the number's shortest round-trip decimal form (what `String(n)` prints),
 * half away from zero at the third decimal: `1.005` gives `"1.01"` where `toFixed(2)` gives
 * `"1.00"`. Negative values keep a leading `-` (balances and overdrafts may be negative);
 * `-0` and values that round to zero give `"0.00"`. Throws `RangeError` for a non-number,
 * `NaN`, an infinity, or a magnitude that rounds above `9999999999.99`.
 */
export function fromProviderNumber(n: number): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw new RangeError('provider amount must be a finite number');
  }
  const text = String(Math.abs(n));
  let cents: number;
  if (text.includes('e')) {
    // Exponent form appears only below 1e-6 (rounds to zero) or at 1e21 and above.
    if (Math.abs(n) >= 1) throw new RangeError('provider amount is out of range');
    cents = 0;
  } else {
    const dot = text.indexOf('.');
    const units = dot === -1 ? text : text.slice(0, dot);
    const decimals = dot === -1 ? '' : text.slice(dot + 1);
    if (units.length > 10) throw new RangeError('provider amount is out of range');
    const roundUp = decimals.length > 2 && decimals.charCodeAt(2) >= 53; // '5'
    cents = Number(units) * 100 + Number(decimals.slice(0, 2).padEnd(2, '0')) + (roundUp ? 1 : 0);
    if (cents > MAX_CENTS) throw new RangeError('provider amount is out of range');
  }
  return (n < 0 && cents > 0 ? '-' : '') + fromCents(cents);
}

/**
 * An amount as a service sent it, as a decimal string: a number is converted exactly
 * (`fromProviderNumber`, which throws a `RangeError` out of range), a decimal comma
 * (`"140,45"`) becomes a dot, any other string is kept as sent; `undefined` for anything else.
 * @internal
 */
export function wireAmount(value: unknown): string | undefined {
  if (typeof value === 'number') return fromProviderNumber(value);
  if (typeof value !== 'string') return undefined;
  if (!/^\s*\d+,\d{1,2}\s*$/.test(value)) return value;
  const [units, decimals = ''] = value.trim().split(',');
  return `${units}.${decimals.padEnd(2, '0')}`;
}
