/**
 * Brazilian taxpayer documents: CPF (people) and CNPJ (companies, numeric or alphanumeric).
 *
 * Only the bare forms are accepted, as the service sends and expects them: a CPF is 11 digits,
 * a CNPJ is 14 characters (12 of `[0-9A-Z]`, uppercase only, then 2 check digits). Punctuated
 * forms (`123.456.789-09`, `12.345.678/0001-95`) are rejected: strip the punctuation first.
 */
import type { Checked } from './checked.ts';

const CPF_SHAPE = /^\d{11}$/;
const CNPJ_SHAPE = /^[0-9A-Z]{12}\d{2}$/;
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** CPF check digit over `s[0..count)`, weights `count + 1` down to 2. */
function cpfDigit(s: string, count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i++) sum += (s.charCodeAt(i) - 48) * (count + 1 - i);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/**
 * Check digit over `s[0..count)` with the CNPJ weights. A character's value is its char code
 * minus 48, so digits keep their value and `A` counts 17 (the alphanumeric CNPJ rule of 2026).
 */
function cnpjDigit(s: string, count: number): number {
  let sum = 0;
  const offset = CNPJ_WEIGHTS.length - count;
  for (let i = 0; i < count; i++) sum += (s.charCodeAt(i) - 48) * (CNPJ_WEIGHTS[offset + i] ?? 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

function allSame(s: string): boolean {
  for (let i = 1; i < s.length; i++) if (s[i] !== s[0]) return false;
  return true;
}

/** True for an 11-digit CPF with valid check digits (`00000000000` and the like are rejected). */
export function isValidCpf(s: unknown): s is Checked<'cpf'> {
  if (typeof s !== 'string' || !CPF_SHAPE.test(s) || allSame(s)) return false;
  return cpfDigit(s, 9) === s.charCodeAt(9) - 48 && cpfDigit(s, 10) === s.charCodeAt(10) - 48;
}

/**
 * True for a 14-character CNPJ, numeric or alphanumeric (12 of `[0-9A-Z]`, uppercase, then 2
 * check digits), with valid check digits. All-same-character values are rejected.
 */
export function isValidCnpj(s: unknown): s is Checked<'cnpj'> {
  if (typeof s !== 'string' || !CNPJ_SHAPE.test(s) || allSame(s)) return false;
  return cnpjDigit(s, 12) === s.charCodeAt(12) - 48 && cnpjDigit(s, 13) === s.charCodeAt(13) - 48;
}

/** `'cpf'` or `'cnpj'` when `s` is a valid bare document of that kind, else `undefined`. */
export function cpfOrCnpj(s: unknown): 'cpf' | 'cnpj' | undefined {
  if (isValidCpf(s)) return 'cpf';
  if (isValidCnpj(s)) return 'cnpj';
  return undefined;
}
