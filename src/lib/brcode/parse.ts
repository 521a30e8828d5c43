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

const HEX4 = /^[0-9A-Fa-f]{4}$/;
/** EMV amount: digits, an optional dot and up to two decimals (`"98."` is valid, EMV QRCPS). */
export const EMV_AMOUNT = /^(\d{1,10})(?:\.(\d{0,2}))?$/;

/** An EMV amount as a wire amount (`"10."` and `"10.5"` read `"10.00"` and `"10.50"`); `undefined` when malformed. */
export function wireAmount(amount: string): string | undefined {
  const m = EMV_AMOUNT.exec(amount);
  return m === null ? undefined : `${String(Number(m[1]))}.${(m[2] ?? '').padEnd(2, '0')}`;
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

/** `value` of a mandatory field, which must be there. */
function required(value: string | undefined, id: string, name: string): string {
  if (value === undefined) fail(`missing field ${id} (${name})`, id);
  return value;
}

/** Throws when a template repeats one of its sub-fields (`26-01`, `80-25`). */
function refuseRepeatedChild(template: BrCodeField): void {
  const repeated = findDuplicate(template.children ?? []);
  if (repeated !== undefined) {
    const at = `${template.id}-${repeated}`;
    fail(`field ${at} appears twice`, at);
  }
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
  if (top === undefined || top.length === 0) fail('malformed BR Code: not a sequence of TLV fields');
  if (top[0]?.id !== '00') fail('missing field 00 (payload format) at the start', '00');
  if (top[0].value !== '01') fail('unsupported payload format (00 must be "01")', '00');
  const last = top[top.length - 1];
  if (last?.id !== '63' || !HEX4.test(last.value)) {
    fail('missing field 63 (CRC, 4 hex digits) at the end', '63');
  }
  const duplicate = findDuplicate(top);
  if (duplicate !== undefined) fail(`field ${duplicate} appears twice`, duplicate);
  const crc = last.value.toUpperCase();
  const expected = crc16(code.slice(0, -4));
  if (crc !== expected) fail(`CRC mismatch: the code says ${crc}, its content gives ${expected}`, '63');

  const fields: BrCodeField[] = [];
  let initiation: string | undefined;
  let amount: string | undefined;
  let postalCode: string | undefined;
  let extra: BrCodeField | undefined;
  let mcc: string | undefined;
  let currency: string | undefined;
  let country: string | undefined;
  let merchantName: string | undefined;
  let merchantCity: string | undefined;
  for (const field of top) {
    const id = field.id;
    // A switch: a lookup in an object keyed "52", "53"... (array indices to the engine) was a
    // third of a parse.
    switch (id) {
      case '01':
        initiation = field.value;
        break;
      case '52':
        mcc = field.value;
        break;
      case '53':
        currency = field.value;
        break;
      case '54':
        amount = field.value;
        break;
      case '58':
        country = field.value;
        break;
      case '59':
        merchantName = field.value;
        break;
      case '60':
        merchantCity = field.value;
        break;
      case '61':
        postalCode = field.value;
        break;
    }
    const children = isTemplateId(id) ? splitTlv(field.value, astral) : undefined;
    if (children === undefined) {
      // Other schemes' templates may hold anything; 62 must be TLV.
      if (id === '62') fail('malformed field 62 (additional data)', '62');
      fields.push(field);
      continue;
    }
    const withChildren: BrCodeField = { id, value: field.value, children };
    if (id === '62') {
      const repeated = findDuplicate(children);
      if (repeated !== undefined) fail(`field 62-${repeated} appears twice`, `62-${repeated}`);
      extra = withChildren;
    }
    fields.push(withChildren);
  }

  const account = fields.find(carriesGui);
  if (account === undefined) {
    fail('missing merchant account template (26) with the scheme GUI', '26');
  }
  refuseRepeatedChild(account);
  const recurrence = fields.find(carriesRecurrence);
  if (recurrence !== undefined) refuseRepeatedChild(recurrence);
  const result: BrCode = {
    payloadFormat: '01',
    merchantName: required(merchantName, '59', 'merchant name'),
    merchantCity: required(merchantCity, '60', 'merchant city'),
    mcc: required(mcc, '52', 'merchant category code'),
    currency: required(currency, '53', 'currency'),
    country: required(country, '58', 'country'),
    crc,
    fields,
  };
  if (initiation !== undefined) {
    result.pointOfInitiation = initiation === '11' ? 'static' : initiation === '12' ? 'dynamic' : initiation;
  }
  const key = child(account, '01');
  if (key !== undefined) result.key = key;
  const info = child(account, '02');
  if (info !== undefined) result.infoAdicional = info;
  const url = child(account, '25');
  if (url !== undefined) result.url = url;
  const recurrenceUrl = child(recurrence, '25');
  if (recurrenceUrl !== undefined) result.recurrenceUrl = recurrenceUrl;
  if (amount !== undefined) {
    // EMV allows "10", "10." or "10.5"; report the wire form.
    const wire = wireAmount(amount);
    if (wire === undefined) fail('malformed amount in field 54', '54');
    result.amount = wire;
  }
  if (postalCode !== undefined) result.postalCode = postalCode;
  const txid = child(extra, '05');
  if (txid !== undefined && txid !== '***') result.txid = txid;
  return result;
}
