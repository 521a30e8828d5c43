/**
 * Parsing a BR Code (the EMV QR payload, also pasted as "copia e cola").
 *
 * A payload is a run of TLV fields: a 2-digit ID, a 2-digit decimal length, then that many
 * characters. Field 63 closes it with a CRC16/CCITT-FALSE over the UTF-8 bytes of everything
 * before the CRC value, `6304` included.
 */

import { BR_CODE_GUI, type BrCodeField, fail, hasAstral, isTemplateId, splitTlv, crc16 } from './tlv.ts';

/** A parsed BR Code. `txid` is absent when 62-05 is `***` (no txid); `fields` has everything raw. */
export interface BrCode {
  /** 00, always `"01"`. */
  payloadFormat: string;
  /** 01: `11` is `'static'` (reusable), `12` is `'dynamic'` (pay once); other values as-is. */
  pointOfInitiation?: 'static' | 'dynamic' | (string & {});
  /** Merchant account template 01: the directory key of a static code. */
  key?: string;
  /** Merchant account template 02: free text of a static code. */
  infoAdicional?: string;
  /** Merchant account template 25: the payload location of a dynamic code, without scheme. */
  url?: string;
  /**
   * The recurrence part of a composite code: sub-field 25 of the unreserved template (80, the
   * first of 80–99 that carries the GUI and a 25), the recurrence location without scheme. Beside
   * `url` (journeys 3 and 4), `key` (the static variant of journey 4), or neither (journey 2).
   */
  recurrenceUrl?: string;
  /** 54, as a wire amount (`"10.50"`); a dynamic code's amount is ignored by payers. */
  amount?: string;
  /** 59, as written in the code. */
  merchantName: string;
  /** 60, as written in the code. */
  merchantCity: string;
  /** 61. */
  postalCode?: string;
  /** 62-05, unless it is `***`. */
  txid?: string;
  /** 52. */
  mcc: string;
  /** 53 (`"986"`: BRL). */
  currency: string;
  /** 58 (`"BR"`). */
  country: string;
  /** 63, uppercase hex. */
  crc: string;
  /** Every field, in order, templates with their children. */
  fields: readonly BrCodeField[];
}

const HEX4 = /^[\dA-F]{4}$/i;
/** EMV amount: digits, an optional dot and up to two decimals (`"98."` is valid, EMV QRCPS). */
export const EMV_AMOUNT = /^(\d{1,10})(?:\.(\d{0,2}))?$/;

/** An EMV amount as a wire amount (`"10."` and `"10.5"` read `"10.00"` and `"10.50"`); `undefined` when malformed. */
export function wireAmount(amount: string): string | undefined {
  const m = EMV_AMOUNT.exec(amount);
  return m === null ? undefined : `${Number(m[1])}.${(m[2] ?? '').padEnd(2, '0')}`;
}

/** The first ID that appears twice; a pairwise loop, faster than a Set for a code's few fields. */
export function findDuplicate(fields: readonly BrCodeField[]): string | undefined {
  for (let i = 1; i < fields.length; i++) {
    const id = (fields[i] as BrCodeField).id;
    for (let j = 0; j < i; j++) if ((fields[j] as BrCodeField).id === id) return id;
  }
  return undefined;
}

export const child = (field: BrCodeField | undefined, id: string): string | undefined =>
  field?.children?.find((c) => c.id === id)?.value;

const withGui = (field: BrCodeField, from: string, to: string): boolean =>
  field.id >= from &&
  field.id <= to &&
  field.children !== undefined &&
  child(field, '00')?.toLowerCase() === BR_CODE_GUI;

export const carriesGui = (field: BrCodeField): boolean => withGui(field, '26', '51');

/** The recurrence template: 80 in every known code, read from the first of 80–99 with the GUI and a 25. */
export const carriesRecurrence = (field: BrCodeField): boolean =>
  withGui(field, '80', '99') && child(field, '25') !== undefined;

/** Throws when an ID appears twice in `fields` (the top level, or a template's sub-fields after `prefix`). */
function refuseRepeated(fields: readonly BrCodeField[] | undefined, prefix = ''): void {
  const repeated = fields && findDuplicate(fields);
  if (repeated !== undefined) fail(`field ${prefix}${repeated} appears twice`, prefix + repeated);
}

/**
 * Parses a BR Code. Surrounding whitespace is ignored; the CRC is checked (its hex digits in
 * either case). Throws `BrCodeError` for a wrong CRC, malformed TLV, a repeated field ID, or a
 * missing mandatory field: 00 (first, `01`), a merchant account template (26–51) carrying the
 * GUI, 52, 53, 58, 59, 60 and 63 (last). A composite code's recurrence part (template 80 with
 * the GUI and a 25) is read as `recurrenceUrl`.
 */
export function parseBrCode(text: string): BrCode {
  if (typeof text !== 'string') fail('a BR Code must be a string');
  const code = text.trim();
  const astral = hasAstral(code);
  const top = splitTlv(code, astral);
  if (!top?.length) fail('malformed BR Code: not a sequence of TLV fields');
  if (top[0]?.id !== '00' || top[0].value !== '01') fail('field 00 is missing, not first, or not "01"', '00');
  const last = top[top.length - 1];
  if (last?.id !== '63' || !HEX4.test(last.value))
    fail('field 63 (the CRC, 4 hex digits) is missing or not last', '63');
  refuseRepeated(top);
  const crc = last.value.toUpperCase();
  const expected = crc16(code.slice(0, -4));
  if (crc !== expected) fail(`CRC mismatch: the code says ${crc}, its content gives ${expected}`, '63');

  const fields = top.map((field): BrCodeField => {
    const children = isTemplateId(field.id) ? splitTlv(field.value, astral) : undefined;
    // Other schemes' templates may hold anything; 62 must be TLV.
    if (children === undefined && field.id === '62') fail('malformed field 62 (additional data)', '62');
    return children === undefined ? field : { id: field.id, value: field.value, children };
  });
  const value = (id: string): string | undefined => top.find((field) => field.id === id)?.value;
  const required = (id: string, name: string): string => value(id) ?? fail(`missing field ${id} (${name})`, id);
  const extra = fields.find((field) => field.id === '62');
  refuseRepeated(extra?.children, '62-');
  const account = fields.find(carriesGui);
  if (account === undefined) fail('no merchant account template (26-51) carries the GUI', '26');
  refuseRepeated(account.children, `${account.id}-`);
  const recurrence = fields.find(carriesRecurrence);
  refuseRepeated(recurrence?.children, `${recurrence?.id}-`);
  const result: BrCode = {
    payloadFormat: '01',
    merchantName: required('59', 'merchant name'),
    merchantCity: required('60', 'merchant city'),
    mcc: required('52', 'merchant category code'),
    currency: required('53', 'currency'),
    country: required('58', 'country'),
    crc,
    fields,
  };
  const optional = <K extends keyof BrCode>(name: K, found: BrCode[K] | undefined): void => {
    if (found !== undefined) result[name] = found;
  };
  const initiation = value('01');
  optional('pointOfInitiation', initiation === '11' ? 'static' : initiation === '12' ? 'dynamic' : initiation);
  optional('key', child(account, '01'));
  optional('infoAdicional', child(account, '02'));
  optional('url', child(account, '25'));
  optional('recurrenceUrl', child(recurrence, '25'));
  const amount = value('54');
  // EMV allows "10", "10." or "10.5"; report the wire form.
  if (amount !== undefined) optional('amount', wireAmount(amount) ?? fail('malformed amount in field 54', '54'));
  optional('postalCode', value('61'));
  const txid = child(extra, '05');
  if (txid !== '***') optional('txid', txid);
  return result;
}
