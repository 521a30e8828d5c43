/** The isomorphic helpers users get from both entry points. */

export { isValidCpf, isValidCnpj, cpfOrCnpj } from './documents.ts';
export { KEY_TYPES, KEY_MAX_LENGTH, detectKeyType, isValidKey } from './keys.ts';
export type { KeyType } from './keys.ts';
export {
  TXID_PATTERN,
  E2EID_PATTERN,
  REFUND_ID_PATTERN,
  IDEMPOTENCY_KEY_PATTERN,
  isValidTxid,
  isValidE2eid,
  isValidRefundId,
  isValidIdempotencyKey,
  generateTxid,
  generateIdempotencyKey,
} from './ids.ts';
export {
  MONEY_PATTERN,
  MAX_CENTS,
  isValidAmount,
  toCents,
  fromCents,
  parseAmount,
  fromProviderNumber,
} from './money.ts';
export { todayInBrasilia, isCivilDate, isRfc3339, compareCivilDates, addDays } from './dates.ts';
export { isValidMunicipalityCode } from './municipalities.ts';
export { BR_CODE_GUI, BrCodeError, brcode, parseBrCode, buildBrCode, crc16 } from './brcode.ts';
export type {
  BrCode,
  BrCodeField,
  BrCodeBuildInput,
  BrCodeStaticInput,
  BrCodeDynamicInput,
} from './brcode.ts';
