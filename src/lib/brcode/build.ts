/**
 * Building a BR Code: from the fields a user gives (key or location, amount, name, city...),
 * or from what `parseBrCode` returned, written back byte for byte.
 */

import { detectKeyType } from '../keys.ts';
import { isValidAmount } from '../money.ts';
import { type BrCode, carriesGui, carriesRecurrence, child, wireAmount } from './parse.ts';
import { BR_CODE_GUI, type BrCodeField, crc16, fail, tlv } from './tlv.ts';

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

/** Input of `brcode.build`: fields to make a code from, or a code `brcode.parse` returned. */
export type BrCodeBuildInput = BrCodeStaticInput | BrCodeDynamicInput | BrCodeRecurrenceInput | BrCode;

const STATIC_TXID = /^(?:[a-zA-Z0-9]{1,25}|\*\*\*)$/;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;
const URL_CHARS = /^[\x21-\x7E]+$/;

type Mutable = { id: string; value: string; children?: Mutable[] | undefined };

/** Sets (or, for `undefined`, removes) field `id` in `list`; a new field goes in ID order. */
function put(list: Mutable[], id: string, value: string | undefined): void {
  const at = list.findIndex((f) => f.id === id);
  if (value === undefined) {
    if (at >= 0) list.splice(at, 1);
  } else if (at >= 0) {
    if (list[at]!.value !== value) list[at] = { id, value };
  } else {
    // Before the first field of a greater ID, or the CRC (last in a parsed code).
    const next = list.findIndex((f) => f.id > id || f.id === '63');
    list.splice(next >= 0 ? next : list.length, 0, { id, value });
  }
}

const INITIATION: Record<string, string> = { static: '11', dynamic: '12' };

/**
 * A parsed code written back: its fields in their order, with the typed properties laid over
 * them (so an edited `amount` or `merchantName` is what gets written), lengths redone, CRC redone.
 */
function buildFromParsed(code: BrCode): string {
  const copy = (f: BrCodeField): Mutable => ({ id: f.id, value: f.value, children: f.children?.map(copy) });
  const top = code.fields.map(copy);
  put(
    top,
    '01',
    code.pointOfInitiation === undefined ? undefined : (INITIATION[code.pointOfInitiation] ?? code.pointOfInitiation),
  );
  for (const [id, value] of [
    ['52', code.mcc],
    ['53', code.currency],
    ['58', code.country],
    ['59', code.merchantName],
    ['60', code.merchantCity],
    ['61', code.postalCode],
  ] as const) {
    put(top, id, value);
  }
  const raw = top.find((f) => f.id === '54')?.value;
  // A written amount that reads as `amount` stays as written ("10." stays "10.").
  put(top, '54', code.amount !== undefined && raw !== undefined && wireAmount(raw) === code.amount ? raw : code.amount);
  const account = top.find((f) => carriesGui(f as BrCodeField));
  if (account?.children !== undefined) {
    put(account.children, '01', code.key);
    put(account.children, '02', code.infoAdicional);
    put(account.children, '25', code.url);
  }
  const recurrence = top.find((f) => carriesRecurrence(f as BrCodeField));
  if (recurrence?.children !== undefined && code.recurrenceUrl !== undefined)
    put(recurrence.children, '25', code.recurrenceUrl);
  const extra = top.find((f) => f.id === '62');
  const reference = child(extra as BrCodeField | undefined, 5);
  if (extra?.children !== undefined && (code.txid !== undefined || (reference !== undefined && reference !== '***'))) {
    put(extra.children, '05', code.txid ?? '***');
  }
  const write = (f: Mutable): string =>
    f.id === '63' ? '' : tlv(f.id, f.children === undefined ? f.value : f.children.map(write).join(''));
  const payload = `${top.map(write).join('')}6304`;
  return payload + crc16(payload);
}

/** Printable ASCII: accents stripped (NFD, combining marks dropped), other characters dropped. */
function plainAscii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[^\x20-\x7E\s]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function merchantText(value: unknown, max: number, field: string, name: string): string {
  if (typeof value !== 'string') fail(`${name} must be a string`, field);
  const text = plainAscii(value).toUpperCase().slice(0, max).trimEnd();
  if (text === '') fail(`${name} is empty once reduced to plain ASCII`, field);
  return text;
}

/** A location as a code carries it: 1 to 77 printable characters, no scheme. */
function location(value: unknown, field: string, name: string): string {
  if (typeof value !== 'string' || value.length > 77 || !URL_CHARS.test(value) || HAS_SCHEME.test(value)) {
    fail(`${name} must be 1 to 77 printable characters, without scheme`, field);
  }
  return value;
}

/**
 * Builds a BR Code with its CRC.
 *
 * Given what `parseBrCode` returned, writes that code back: every field kept in its order
 * (01, 61, 26-03, unknown templates, case as written), the typed properties laid over them, so
 * `buildBrCode(parseBrCode(text))` is `text` for every code in canonical form. Given fields:
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
  if (Array.isArray((input as Partial<BrCode>).fields)) return buildFromParsed(input as BrCode);
  const { key, url, recurrenceUrl } = input as { key?: unknown; url?: unknown; recurrenceUrl?: unknown };
  if (key !== undefined && url !== undefined) fail('give key (static code) or url (dynamic code), not both', '26');
  if (key === undefined && url === undefined && recurrenceUrl === undefined) {
    fail('give key (static code), url (dynamic code) or recurrenceUrl alone', '26');
  }
  const name = merchantText(input.merchantName, 25, '59', 'merchantName');
  const city = merchantText(input.merchantCity, 15, '60', 'merchantCity');
  const recurrence =
    recurrenceUrl === undefined
      ? ''
      : tlv('80', tlv('00', BR_CODE_GUI) + tlv('25', location(recurrenceUrl, '80-25', 'recurrenceUrl')));

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
        fail('infoAdicional must be at most 72 plain ASCII characters', '26-02');
      }
      if (info !== '') account += tlv('02', info);
    }
    if (amount !== undefined) {
      if (!isValidAmount(amount) || !/[1-9]/.test(amount)) {
        fail('amount must be a wire amount above zero ("10.00"), or omitted', '54');
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
