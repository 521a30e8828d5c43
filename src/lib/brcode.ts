/**
 * BR Code (the EMV QR payload, also pasted as "copia e cola"): parse, build and CRC.
 *
 * A payload is a run of TLV fields: a 2-digit ID, a 2-digit decimal length, then that many
 * characters. Field 63 closes it with a CRC16/CCITT-FALSE over the UTF-8 bytes of everything
 * before the CRC value, `6304` included.
 */

import { InstantError } from '../errors/base.ts';
import { detectKeyType } from './keys.ts';
import { isValidAmount, toCents } from './money.ts';

/** The scheme's GUI inside the merchant account template (compared case-insensitively). */
export const BR_CODE_GUI = 'br.gov.bcb.pix';

/** A BR Code that cannot be parsed, or build input that cannot make one. */
export class BrCodeError extends InstantError {
  override readonly name: string = 'BrCodeError';
  /** The field at fault, as `"63"` or `"26-01"`, when there is one. */
  readonly field?: string;

  constructor(message: string, options: { field?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    if (options.field !== undefined) this.field = options.field;
  }
}

function fail(message: string, field?: string): never {
  throw new BrCodeError(message, field === undefined ? {} : { field });
}

/** One TLV field; templates (26–51, 62, 64, 80–99) that parse as TLV carry their children. */
export interface BrCodeField {
  readonly id: string;
  readonly value: string;
  readonly children?: readonly BrCodeField[];
}

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

/** Input for a static code: a directory key, optionally an amount and a txid. */
export interface BrCodeStaticInput {
  /** A valid directory key (CPF/CNPJ digits, `+55…` phone, lowercase e-mail or EVP). */
  key: string;
  url?: never;
  /** A wire amount greater than zero; omit it to let the payer type the amount. */
  amount?: string;
  /** Up to 25 alphanumerics; default `***` (no txid). */
  txid?: string;
  /** Up to 25 characters after normalisation (plain uppercase ASCII), truncated beyond. */
  merchantName: string;
  /** Up to 15 characters after normalisation (plain uppercase ASCII), truncated beyond. */
  merchantCity: string;
  /** Free text for the payer, plain ASCII after normalisation, at most 72 characters. */
  infoAdicional?: string;
  /** A recurrence location without scheme (journey 4's static variant): written in field 80. */
  recurrenceUrl?: string;
}

/** Input for a dynamic code: the payload location; amount and txid come from the payload. */
export interface BrCodeDynamicInput {
  /** The charge's `location`, without scheme, at most 77 characters. */
  url: string;
  key?: never;
  amount?: never;
  txid?: never;
  infoAdicional?: never;
  merchantName: string;
  merchantCity: string;
  /** A recurrence location without scheme (journeys 3 and 4): written in field 80. */
  recurrenceUrl?: string;
}

/**
 * Input for a recurrence-only composite code (journey 2): the recurrence location, and neither
 * a key nor a charge location.
 */
export interface BrCodeRecurrenceInput {
  /** The recurrence location (`/locrec`), without scheme, at most 77 characters. */
  recurrenceUrl: string;
  key?: never;
  url?: never;
  amount?: never;
  txid?: never;
  infoAdicional?: never;
  merchantName: string;
  merchantCity: string;
}

/** Input of `brcode.build`. */
export type BrCodeBuildInput = BrCodeStaticInput | BrCodeDynamicInput | BrCodeRecurrenceInput;

const TWO_DIGITS = /^\d\d$/;
const HEX4 = /^[0-9A-Fa-f]{4}$/;
const STATIC_TXID = /^(?:[a-zA-Z0-9]{1,25}|\*\*\*)$/;
const EMV_AMOUNT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;
const URL_CHARS = /^[\x21-\x7E]+$/;

/**
 * CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes
 * of `text`, as 4 uppercase hex digits. `crc16('123456789')` is `'29B1'`.
 */
export function crc16(text: string): string {
  let crc = 0xffff;
  const feed = (byte: number): void => {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  };
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      feed(c);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        c = 0xfffd; // a lone surrogate encodes as U+FFFD, as TextEncoder does
      }
    }
    if (c < 0x800) {
      feed(0xc0 | (c >> 6));
    } else if (c < 0x10000) {
      feed(0xe0 | (c >> 12));
      feed(0x80 | ((c >> 6) & 0x3f));
    } else {
      feed(0xf0 | (c >> 18));
      feed(0x80 | ((c >> 12) & 0x3f));
      feed(0x80 | ((c >> 6) & 0x3f));
    }
    feed(0x80 | (c & 0x3f));
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Splits `text` into TLV fields; `undefined` when it is not a clean run of them. */
function splitTlv(text: string): BrCodeField[] | undefined {
  const fields: BrCodeField[] = [];
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const length = text.slice(i + 2, i + 4);
    if (!TWO_DIGITS.test(id) || !TWO_DIGITS.test(length)) return undefined;
    const end = i + 4 + Number(length);
    if (end > text.length) return undefined;
    fields.push({ id, value: text.slice(i + 4, end) });
    i = end;
  }
  return fields;
}

function isTemplateId(id: string): boolean {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || n === 64 || n >= 80;
}

function findDuplicate(fields: readonly BrCodeField[]): string | undefined {
  const seen = new Set<string>();
  for (const { id } of fields) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

const child = (field: BrCodeField | undefined, id: string): string | undefined =>
  field?.children?.find((c) => c.id === id)?.value;

const withGui = (field: BrCodeField, from: number, to: number): boolean =>
  Number(field.id) >= from && Number(field.id) <= to && child(field, '00')?.toLowerCase() === BR_CODE_GUI;

const carriesGui = (field: BrCodeField): boolean => withGui(field, 26, 51);

/** The recurrence template: 80 in every known code, read from the first of 80–99 with the GUI and a 25. */
const carriesRecurrence = (field: BrCodeField): boolean => withGui(field, 80, 99) && child(field, '25') !== undefined;

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
  const top = splitTlv(code);
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

  const fields = top.map((field): BrCodeField => {
    if (!isTemplateId(field.id)) return field;
    const children = splitTlv(field.value);
    if (children === undefined) {
      // Other schemes' templates may hold anything; 62 must be TLV.
      if (field.id === '62') fail('malformed field 62 (additional data)', '62');
      return field;
    }
    const repeated = findDuplicate(children);
    if (repeated !== undefined && field.id === '62') {
      fail(`field 62-${repeated} appears twice`, `62-${repeated}`);
    }
    return { ...field, children };
  });
  const byId = new Map(fields.map((f) => [f.id, f]));

  const account = fields.find(carriesGui);
  if (account === undefined) {
    fail('missing merchant account template (26) with the scheme GUI', '26');
  }
  refuseRepeatedChild(account);
  const recurrence = fields.find(carriesRecurrence);
  if (recurrence !== undefined) refuseRepeatedChild(recurrence);
  const required = (id: string, name: string): string => {
    const value = byId.get(id)?.value;
    if (value === undefined) fail(`missing field ${id} (${name})`, id);
    return value;
  };

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
  const initiation = byId.get('01')?.value;
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
  const amount = byId.get('54')?.value;
  if (amount !== undefined) {
    // EMV allows "10" or "10.5"; report the wire form.
    const m = EMV_AMOUNT.exec(amount);
    if (m === null) fail('malformed amount in field 54', '54');
    result.amount = `${String(Number(m[1]))}.${(m[2] ?? '').padEnd(2, '0')}`;
  }
  const postalCode = byId.get('61')?.value;
  if (postalCode !== undefined) result.postalCode = postalCode;
  const txid = child(byId.get('62'), '05');
  if (txid !== undefined && txid !== '***') result.txid = txid;
  return result;
}

/** Printable ASCII: accents stripped (NFD, combining marks dropped), other characters dropped. */
function plainAscii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

function merchantText(value: unknown, max: number, field: string, name: string): string {
  if (typeof value !== 'string') fail(`${name} must be a string`, field);
  const text = plainAscii(value).toUpperCase().slice(0, max).trimEnd();
  if (text === '') fail(`${name} is empty once reduced to plain ASCII`, field);
  return text;
}

function tlv(id: string, value: string): string {
  if (value.length > 99) fail(`field ${id} would be ${value.length} characters long (at most 99)`, id);
  return id + String(value.length).padStart(2, '0') + value;
}

/** A location as a code carries it: 1 to 77 printable characters, no scheme. */
function location(value: unknown, field: string, name: string): string {
  if (typeof value !== 'string' || value.length > 77 || !URL_CHARS.test(value) || HAS_SCHEME.test(value)) {
    fail(`${name} must be the location without scheme: 1 to 77 printable characters`, field);
  }
  return value;
}

/**
 * Builds a BR Code with its CRC.
 *
 * - static (`key`): fields 00, 26 (GUI, key, infoAdicional), 52 `0000`, 53 `986`, 54 when an
 *   amount is given, 58 `BR`, 59, 60, 62-05 (txid or `***`), 63. Field 01 is left out, as in
 *   the manual's static example: a static code is reusable, which is what an absent 01 means.
 * - dynamic (`url`): 00, 01 `12`, 26 (GUI, url), 52, 53, 58, 59, 60, 62-05 `***`, 63; no 54.
 * - recurrence only (`recurrenceUrl` alone, journey 2): 00, 26 (the GUI alone), 52, 53, 58,
 *   59, 60, 62-05 `***`, 80, 63; no 01 and no 54, as in every published example.
 * - composite: `recurrenceUrl` beside `url` (journeys 3 and 4) or beside `key` (the static
 *   variant of journey 4) adds field 80 (GUI, recurrence location) after 62, before 63.
 *
 * The merchant name and city are reduced to plain uppercase ASCII (accents stripped, other
 * characters dropped) and truncated to 25 and 15 characters; infoAdicional is reduced to plain
 * ASCII (case kept). Throws `BrCodeError` for anything else out of rule: an invalid key, amount
 * or txid, a url or recurrenceUrl with a scheme or over 77 characters, an amount or txid on a
 * dynamic or recurrence-only code, or a key plus infoAdicional over the template's 99 characters.
 */
export function buildBrCode(input: BrCodeBuildInput): string {
  if (typeof input !== 'object' || input === null) fail('build input must be an object');
  const { key, url, recurrenceUrl } = input as { key?: unknown; url?: unknown; recurrenceUrl?: unknown };
  if (key !== undefined && url !== undefined) fail('give one of key (static code) or url (dynamic code), not both', '26');
  if (key === undefined && url === undefined && recurrenceUrl === undefined) {
    fail('give key (static code), url (dynamic code) or recurrenceUrl alone (recurrence-only code)', '26');
  }
  const name = merchantText(input.merchantName, 25, '59', 'merchantName');
  const city = merchantText(input.merchantCity, 15, '60', 'merchantCity');
  const recurrence =
    recurrenceUrl === undefined ? '' : tlv('80', tlv('00', BR_CODE_GUI) + tlv('25', location(recurrenceUrl, '80-25', 'recurrenceUrl')));

  let account = tlv('00', BR_CODE_GUI);
  let initiation = '';
  let amountField = '';
  let txid = '***';
  if (typeof key === 'string' && detectKeyType(key) !== undefined) {
    const { amount, infoAdicional } = input as BrCodeStaticInput;
    account += tlv('01', key);
    if (infoAdicional !== undefined) {
      const info = typeof infoAdicional === 'string' ? plainAscii(infoAdicional) : '';
      if (typeof infoAdicional !== 'string' || info.length > 72) {
        fail('infoAdicional must be a string of at most 72 plain ASCII characters', '26-02');
      }
      if (info !== '') account += tlv('02', info);
    }
    if (amount !== undefined) {
      if (!isValidAmount(amount) || toCents(amount) === 0) {
        fail('amount must be a wire amount above zero ("10.00"); omit it to let the payer type one', '54');
      }
      amountField = tlv('54', amount);
    }
    const given = (input as BrCodeStaticInput).txid;
    if (given !== undefined) {
      if (typeof given !== 'string' || !STATIC_TXID.test(given)) {
        fail('a static txid is 1 to 25 alphanumerics, or ***', '62-05');
      }
      txid = given;
    }
  } else if (key !== undefined) {
    fail('key is not a valid directory key', '26-01');
  } else {
    // A dynamic code takes amount and txid from its payload; a recurrence-only code has none.
    const kind = url === undefined ? 'a recurrence-only code' : 'a dynamic code';
    const extra = input as { amount?: unknown; txid?: unknown; infoAdicional?: unknown };
    if (url !== undefined) account += tlv('25', location(url, '26-25', 'url'));
    if (extra.amount !== undefined) fail(`${kind} carries no amount`, '54');
    if (extra.txid !== undefined && extra.txid !== '***') fail(`${kind} carries no txid`, '62-05');
    if (extra.infoAdicional !== undefined) fail(`${kind} carries no infoAdicional`, '26-02');
    if (url !== undefined) initiation = tlv('01', '12');
  }
  if (account.length > 99) {
    const length = account.length;
    fail(`key and infoAdicional make the merchant account template ${length} characters long (at most 99)`, '26');
  }

  const payload =
    tlv('00', '01') +
    initiation +
    tlv('26', account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    amountField +
    tlv('58', 'BR') +
    tlv('59', name) +
    tlv('60', city) +
    tlv('62', tlv('05', txid)) +
    recurrence +
    '6304';
  return payload + crc16(payload);
}

/** BR Code helpers: `brcode.parse(text)`, `brcode.build(input)`, `brcode.crc16(text)`. */
export const brcode = {
  /** Same as `parseBrCode`. */
  parse: parseBrCode,
  /** Same as `buildBrCode`. */
  build: buildBrCode,
  /** Same as the `crc16` function. */
  crc16,
} as const;
