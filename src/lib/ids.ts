/** Identifier patterns (anchored) and random identifier generation. */
import type { Checked } from './checked.ts';

/** A charge txid (`TxId`): 26 to 35 alphanumeric characters. */
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
/** An end-to-end id (`EndToEndId`): exactly 32 alphanumeric characters. */
export const E2EID_PATTERN = /^[a-zA-Z0-9]{32}$/;
/** A refund id (`DevolucaoId`): 1 to 35 alphanumeric characters, chosen by the client. */
export const REFUND_ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
/** A cash-out idempotency key: 1 to 50 alphanumeric characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[a-zA-Z0-9]{1,50}$/;
/**
 * A recurrence id (`idRec`), 29 characters by its formation rule: `R`, then `R` (retries
 * allowed after the due date) or `N` (not), the agent's 8 characters of `[0-9A-Z]`, the
 * creation date `yyyyMMdd`, and an 11-character sequence of letters and digits.
 */
export const IDREC_PATTERN = /^R[RN][0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/;
/**
 * A confirmation request id (`idSolicRec`), 29 characters: `SC`, the sending agent's 8
 * characters of `[0-9A-Z]`, the date `yyyyMMdd`, and an 11-character sequence.
 */
export const IDSOLICREC_PATTERN = /^SC[0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/;

const test = <Tag extends string>(pattern: RegExp, s: unknown): s is Checked<Tag> =>
  typeof s === 'string' && pattern.test(s);

/** True for a charge txid (26 to 35 alphanumerics). Never throws. */
export function isValidTxid(s: unknown): s is Checked<'txid'> {
  return test(TXID_PATTERN, s);
}

/** True for an end-to-end id (32 alphanumerics). Never throws. */
export function isValidE2eid(s: unknown): s is Checked<'e2eid'> {
  return test(E2EID_PATTERN, s);
}

/** True for a refund id (1 to 35 alphanumerics). Never throws. */
export function isValidRefundId(s: unknown): s is Checked<'refundId'> {
  return test(REFUND_ID_PATTERN, s);
}

/** True for a cash-out idempotency key (1 to 50 alphanumerics). Never throws. */
export function isValidIdempotencyKey(s: unknown): s is Checked<'idempotencyKey'> {
  return test(IDEMPOTENCY_KEY_PATTERN, s);
}

/** True for a recurrence id of the formation rule (`IDREC_PATTERN`). Never throws. */
export function isValidIdRec(s: unknown): s is Checked<'idRec'> {
  return test(IDREC_PATTERN, s);
}

/** True for a confirmation request id of the formation rule (`IDSOLICREC_PATTERN`). Never throws. */
export function isValidIdSolicRec(s: unknown): s is Checked<'idSolicRec'> {
  return test(IDSOLICREC_PATTERN, s);
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Bytes at or above 248 (= 4 * 62) are discarded so that `byte % 62` is uniform.
const UNBIASED_LIMIT = 248;

/** `length` characters drawn uniformly from the 62 alphanumerics with the platform's CSPRNG. */
function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    // 248/256 of the bytes are kept; a few spare bytes make a second round rare.
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length - out.length + 8));
    for (const byte of bytes) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHANUMERIC[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A random txid of `length` alphanumeric characters (26 to 35, default 35), uniform over the
 * 62 characters (Web Crypto, no modulo bias). Throws `RangeError` for any other length.
 */
export function generateTxid(length = 35): string {
  if (!Number.isInteger(length) || length < 26 || length > 35) {
    throw new RangeError(`txid length must be an integer from 26 to 35, got ${String(length)}`);
  }
  return randomAlphanumeric(length);
}

/** A random cash-out idempotency key: 32 alphanumeric characters, same generator as txids. */
export function generateIdempotencyKey(): string {
  return randomAlphanumeric(32);
}
