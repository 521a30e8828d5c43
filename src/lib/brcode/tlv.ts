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

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Splits `text` into TLV fields, lengths in code points; `undefined` when it is not a clean run
 * of them. `astral` says whether `text` may hold surrogates (the slow walk); callers that checked
 * the whole code once pass it down to its templates.
 */
export function splitTlv(text: string, astral = SURROGATE.test(text)): BrCodeField[] | undefined {
  const fields: BrCodeField[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i + 2);
    const d = text.charCodeAt(i + 3);
    // Past the end, charCodeAt is NaN: not a digit.
    if (!isDigit(text.charCodeAt(i)) || !isDigit(text.charCodeAt(i + 1)) || !isDigit(c) || !isDigit(d))
      return undefined;
    const length = (c - 48) * 10 + (d - 48);
    let end = i + 4 + length;
    if (astral) {
      // A surrogate pair is one character; past the end, codePointAt is undefined and counts 1.
      end = i + 4;
      for (let k = 0; k < length; k++) end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
    }
    if (end > text.length) return undefined;
    fields.push({ id: text.slice(i, i + 2), value: text.slice(i + 4, end) });
    i = end;
  }
  return fields;
}

/** IDs whose value is itself TLV: merchant account templates, 62, 64 and the unreserved 80–99. */
export function isTemplateId(id: string): boolean {
  const n = (id.charCodeAt(0) - 48) * 10 + (id.charCodeAt(1) - 48); // two digits, as splitTlv reads them
  return (n >= 26 && n <= 51) || n === 62 || n === 64 || n >= 80;
}

/** Whether `text` holds a surrogate (needs the code point walk). */
export const hasAstral = (text: string): boolean => SURROGATE.test(text);

let table: Uint16Array | undefined;

/**
 * CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes
 * of `text`, as 4 uppercase hex digits. `crc16('123456789')` is `'29B1'`.
 */
export function crc16(text: string): string {
  // The byte table, made on first use.
  table ??= Uint16Array.from({ length: 256 }, (_, n) => {
    let c = n << 8;
    for (let bit = 0; bit < 8; bit++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
    return c;
  });
  let crc = 0xffff;
  // ASCII is its own UTF-8: read from the string, no copy. From the first other character on,
  // the rest goes through TextEncoder (a lone surrogate as U+FFFD).
  let i = 0;
  for (; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit > 0x7f) break;
    crc = ((crc << 8) & 0xffff) ^ (table[((crc >> 8) ^ unit) & 0xff] as number);
  }
  if (i < text.length) {
    for (const byte of new TextEncoder().encode(text.slice(i)))
      crc = ((crc << 8) & 0xffff) ^ (table[((crc >> 8) ^ byte) & 0xff] as number);
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
