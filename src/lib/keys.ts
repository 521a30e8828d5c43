/**
 * Directory keys (`chave`), in the formats of the official directory (DICT) table: anchored,
 * case-sensitive, at most 77 characters.
 */

import type { Checked } from './checked.ts';
import { isValidCnpj, isValidCpf } from './documents.ts';

/** The five key types, in detection order. */
export const KEY_TYPES = ['cpf', 'cnpj', 'phone', 'email', 'evp'] as const;

/** A directory key type. */
export type KeyType = (typeof KEY_TYPES)[number];

/** Longest key the directory and the service accept. */
export const KEY_MAX_LENGTH = 77;

const PHONE = /^\+[1-9][0-9]\d{1,14}$/;
// The directory's own e-mail pattern: lowercase only. The 77-character cap is checked first,
// which also bounds the backtracking in the domain labels.
const EMAIL =
  /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const CHECKS: Record<KeyType, (key: string) => boolean> = {
  cpf: isValidCpf,
  cnpj: isValidCnpj,
  phone: (key) => PHONE.test(key),
  email: (key) => EMAIL.test(key),
  evp: (key) => EVP.test(key),
};

/**
 * The type of a directory key, as trying CPF, CNPJ, phone, e-mail and EVP in that order would
 * find it; `undefined` when the string is no valid key. An 11-digit string is a CPF (phones
 * always carry `+`), so an 11-digit string with wrong check digits is no key at all. Never throws.
 */
export function detectKeyType(key: unknown): KeyType | undefined {
  if (typeof key !== 'string' || key.length === 0 || key.length > KEY_MAX_LENGTH) return undefined;
  const type = candidateType(key);
  return type !== undefined && CHECKS[type](key) ? type : undefined;
}

/**
 * The one type whose format `key` could have: the five formats are disjoint (only an e-mail has
 * `@`, and it may start with `+`; only a phone starts with `+` otherwise; an EVP has 36
 * characters, a CPF 11, a CNPJ 14), so one check is made instead of up to five.
 */
function candidateType(key: string): KeyType | undefined {
  if (key.includes('@')) return 'email';
  if (key.charCodeAt(0) === 0x2b) return 'phone';
  if (key.length === 36) return 'evp';
  if (key.length === 11) return 'cpf';
  if (key.length === 14) return 'cnpj';
  return undefined;
}

/**
 * True when `key` is a valid directory key; with `type`, only when it is a valid key of that
 * type. Never throws.
 */
export function isValidKey(key: unknown, type?: KeyType): key is Checked<'key'> {
  if (type === undefined) return detectKeyType(key) !== undefined;
  if (typeof key !== 'string' || key.length > KEY_MAX_LENGTH) return false;
  const check = typeof type === 'string' && Object.hasOwn(CHECKS, type) ? CHECKS[type] : undefined;
  return check?.(key) ?? false;
}
