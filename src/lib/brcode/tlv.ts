/**
 * The TLV layer of a BR Code: errors, the field shape, lengths, the CRC and the walk over fields.
 *
 * Lengths count characters. EMV QRCPS says "number of characters"; this code counts Unicode
 * code points, so a character outside the BMP (an emoji, written as two UTF-16 units in a JS
 * string) counts once, as it does for Python's `len()`, Go's rune count and the Rust crates we
 * compared against. A grapheme made of several code points (a flag, a ZWJ sequence) counts as
 * its code points: no reader in the field counts grapheme clusters, and no code we collected
 * relies on it.
 */

import { InstantError } from '../../errors/base.ts';

/** The scheme's GUI inside the merchant account template (compared case-insensitively). */
export const BR_CODE_GUI = 'br.gov.bcb.pix';

/** A BR Code that cannot be parsed, or build input that cannot make one. */
export class BrCodeError extends InstantError {
  override readonly name: string = 'BrCodeError';
  /** The field at fault, as `"63"` or `"26-01"`, when there is one. */
  readonly field?: string;

  constructor(message: string, options: { field?: string | undefined; cause?: unknown } = {}) {
    super(message, options);
    if (options.field !== undefined) this.field = options.field;
  }
}

export function fail(message: string, field?: string): never {
  throw new BrCodeError(message, { field });
}

/** One TLV field; templates (26–51, 62, 64, 80–99) that parse as TLV carry their children. */
export interface BrCodeField {
  readonly id: string;
  readonly value: string;
  readonly children?: readonly BrCodeField[];
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in characters (code points); the UTF-16 length when no surrogate is present. */
export function charLength(value: string): number {
  if (!SURROGATE.test(value)) return value.length;
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Writes one field: ID, 2-digit length in characters, value. */
export function tlv(id: string, value: string): string {
  const length = charLength(value);
  if (length > 99) fail(`field ${id} would be ${length} characters long (at most 99)`, id);
  return id + (length < 10 ? '0' : '') + String(length) + value;
}

/** The digit a UTF-16 unit stands for; 10 or more (never a digit) for anything else. */
const digit = (unit: number): number => (unit - 48) >>> 0;

/**
 * Splits `text` into TLV fields, lengths in code points; `undefined` when it is not a clean run
 * of them. `astral` says whether `text` may hold surrogates (the slow walk); callers that checked
 * the whole code once pass it down to its templates. With `deep`, a template (`isTemplateId`)
 * whose value is itself a clean run of fields carries them as `children`.
 */
export function splitTlv(text: string, astral = hasAstral(text), deep = false): BrCodeField[] | undefined {
  const fields: BrCodeField[] = [];
  for (let i = 0; i < text.length; ) {
    if (i + 4 > text.length) return undefined;
    const high = digit(text.charCodeAt(i));
    const low = digit(text.charCodeAt(i + 1));
    const tens = digit(text.charCodeAt(i + 2));
    const units = digit(text.charCodeAt(i + 3));
    if (high > 9 || low > 9 || tens > 9 || units > 9) return undefined;
    const length = tens * 10 + units;
    let end = i + 4 + length;
    if (astral) {
      // A surrogate pair is one character; past the end, codePointAt is undefined and counts 1.
      end = i + 4;
      for (let k = 0; k < length; k++) end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
    }
    if (end > text.length) return undefined;
    const id = text.slice(i, i + 2);
    const value = text.slice(i + 4, end);
    const children = deep && isTemplate(high * 10 + low) ? splitTlv(value, astral) : undefined;
    fields.push(children === undefined ? { id, value } : { id, value, children });
    i = end;
  }
  return fields;
}

const isTemplate = (n: number): boolean => (n >= 26 && n <= 51) || n === 62 || n === 64 || n >= 80;

/** IDs whose value is itself TLV: merchant account templates, 62, 64 and the unreserved 80–99. */
export const isTemplateId = (id: string): boolean => isTemplate(idNumber(id));

/** A field's two-digit ID as a number (`"05"` is 5): compared faster than the string. */
export const idNumber = (id: string): number => id.charCodeAt(0) * 10 + id.charCodeAt(1) - 528;

/** Whether `text` holds a surrogate (needs the code point walk). */
export const hasAstral = (text: string): boolean => SURROGATE.test(text);

/** The CRC tables, made on first use: `one` moves a CRC one byte on, `two` a byte and a zero byte. */
let one: Int32Array | undefined;
let two: Int32Array | undefined;

/** One byte into the CRC; `crc >>> 8 ^ byte` is a byte, no mask needed. */
const step = (table: Int32Array, crc: number, byte: number): number =>
  ((crc << 8) & 0xff00) ^ (table[(crc >>> 8) ^ byte] as number);

/**
 * The CRC of `text` up to `end` (exclusive), as a number; `crc16` explains it. ASCII is its own
 * UTF-8: read from the string two characters a step (slicing-by-2), no copy. From the first
 * other character on, the rest goes through TextEncoder (a lone surrogate as U+FFFD).
 */
export function crcOf(text: string, end: number): number {
  const bytes = (one ??= Int32Array.from({ length: 256 }, (_, n) => {
    let c = n << 8;
    for (let bit = 0; bit < 8; bit++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
    return c & 0xffff;
  }));
  const pairs = (two ??= bytes.map((c) => step(bytes, c, 0)));
  let crc = 0xffff;
  let i = 0;
  for (; i + 1 < end; i += 2) {
    const high = text.charCodeAt(i);
    const low = text.charCodeAt(i + 1);
    if ((high | low) > 0x7f) break;
    const x = crc ^ (high << 8) ^ low;
    crc = (pairs[x >>> 8] as number) ^ (bytes[x & 0xff] as number);
  }
  if (i + 1 === end && text.charCodeAt(i) <= 0x7f) return step(bytes, crc, text.charCodeAt(i));
  if (i < end) for (const byte of new TextEncoder().encode(text.slice(i, end))) crc = step(bytes, crc, byte);
  return crc;
}

/** A CRC as 4 uppercase hex digits. */
export const hex4 = (crc: number): string => crc.toString(16).toUpperCase().padStart(4, '0');

/**
 * CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes
 * of `text`, as 4 uppercase hex digits. `crc16('123456789')` is `'29B1'`.
 */
export const crc16 = (text: string): string => hex4(crcOf(text, text.length));
