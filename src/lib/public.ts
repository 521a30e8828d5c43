/**
 * The helpers' public face: the pure helpers (documents, keys, ids, money, dates, the
 * business-day calendar and the amount due on a day, municipalities, BR Codes) that the package's root and `instant-payments/payer` both export.
 */
export type { Checked } from './checked.ts';
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
export { IDREC_PATTERN, IDSOLICREC_PATTERN, isValidIdRec, isValidIdSolicRec } from './ids.ts';
export {
  MONEY_PATTERN,
  MAX_CENTS,
  isValidAmount,
  toCents,
  fromCents,
  parseAmount,
  fromProviderNumber,
} from './money.ts';
export { todayInBrasilia, isCivilDate, isRfc3339, compareCivilDates, addDays, addMonths } from './dates.ts';
export {
  isBusinessDay,
  nextBusinessDay,
  addBusinessDays,
  type CalendarOptions,
  type LocalHolidays,
} from './calendar.ts';
export { amountDue, type AmountDue, type AmountDueCharge, type AmountDueOptions } from './amount-due.ts';
export { isValidMunicipalityCode } from './municipalities.ts';
// `brcode` differs per entry: the root's has lint, the payer's leaves it out (src/index.ts, src/payer.ts).
export { BR_CODE_GUI, BrCodeError, parseBrCode, buildBrCode, crc16 } from './brcode.ts';
export type {
  BrCode,
  BrCodeField,
  BrCodeBuildInput,
  BrCodeStaticInput,
  BrCodeDynamicInput,
  BrCodeRecurrenceInput,
} from './brcode.ts';
