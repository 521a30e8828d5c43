/**
 * The codewords of a QR symbol in mixed segments: numeric (3 digits in 10 bits), alphanumeric (2
 * characters in 11 bits) and byte (UTF-8), split where the whole takes the fewest bits. A BR Code
 * mixes digit runs (IDs, lengths, amounts) with upper-case names and lower-case locations, and one
 * mode for the whole text (all the encoder does on its own) costs it up to two versions. The
 * tables, the Reed-Solomon parity, the module placement and the mask are the `qr` package's.
 */
import { _ALPHANUMERIC, _BYTES, _ECC_BLOCKS, _GF256, _WORDS_PER_BLOCK, _tests, type ErrorCorrection } from 'qr';

/** A drawn symbol: module (x, y) is dark when bit `x & 31` of `bits[y * words + (x >>> 5)]` is set. */
export interface QrSymbol {
  version: number;
  /** Modules per side, no quiet zone. */
  size: number;
  words: number;
  bits: Uint32Array;
}

const NUMERIC = 0;
const ALPHANUMERIC = 1;
const BYTE = 2;
const MODE_INDICATOR = [0b0001, 0b0010, 0b0100];
/** Character count bits by mode, for versions 1-9, 10-26 and 27-40. */
const COUNT_BITS = [
  [10, 12, 14],
  [9, 11, 13],
  [8, 16, 16],
];
const sizeClass = (version: number): number => (version < 10 ? 0 : version < 27 ? 1 : 2);

interface Segment {
  mode: number;
  text: string;
}

/**
 * The fewest-bits split of `text` for a version class, with its length in bits. A shortest path
 * over the characters: the cost of ending at character i in mode m, in sixths of a bit (a digit is
 * 10/3 bits, an alphanumeric character 11/2), rounded up to whole bits where a segment closes.
 */
function split(text: string, sizeClassIndex: number): { segments: Segment[]; bits: number } {
  const chars = Array.from(text);
  const head = [0, 1, 2].map((mode) => (4 + (COUNT_BITS[mode] as number[])[sizeClassIndex]!) * 6);
  const from: Int8Array[] = [];
  let costs = [0, 0, 0];
  chars.forEach((char, i) => {
    const code = char.charCodeAt(0);
    const charCost = [
      code >= 48 && code <= 57 ? 20 : Infinity,
      _ALPHANUMERIC.includes(char) ? 33 : Infinity,
      48 * utf8Length(char.codePointAt(0) ?? 0),
    ];
    const next = [Infinity, Infinity, Infinity];
    const back = new Int8Array(3);
    for (let mode = 0; mode < 3; mode++) {
      if (charCost[mode] === Infinity) continue;
      if (i === 0) {
        next[mode] = head[mode]! + charCost[mode]!;
        continue;
      }
      for (let previous = 0; previous < 3; previous++) {
        const open = costs[previous]!;
        const cost = previous === mode ? open : Math.ceil(open / 6) * 6 + head[mode]!;
        if (cost + charCost[mode]! < next[mode]!) {
          next[mode] = cost + charCost[mode]!;
          back[mode] = previous;
        }
      }
    }
    from.push(back);
    costs = next;
  });
  let mode = costs.indexOf(Math.min(...costs));
  const bits = Math.ceil(costs[mode]! / 6);
  const segments: Segment[] = [];
  for (let i = chars.length - 1; i >= 0; i--) {
    const last = segments[0];
    if (last?.mode === mode) last.text = chars[i] + last.text;
    else segments.unshift({ mode, text: chars[i]! });
    mode = from[i]![mode]!;
  }
  return { segments, bits };
}

const utf8Length = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/** Data codewords of a version and level: all codewords less the parity. */
const dataCodewords = (version: number, ecc: ErrorCorrection): number =>
  _BYTES[version - 1]! - _WORDS_PER_BLOCK[ecc][version - 1]! * _ECC_BLOCKS[ecc][version - 1]!;

/** The smallest symbol for `text` at `ecc`, in mixed segments; `undefined` when no version holds it. */
export function encodeSymbol(text: string, ecc: ErrorCorrection): QrSymbol | undefined {
  const splits: ReturnType<typeof split>[] = [];
  for (let version = 1; version <= 40; version++) {
    const sizeClassIndex = sizeClass(version);
    splits[sizeClassIndex] ??= split(text, sizeClassIndex);
    const { segments, bits } = splits[sizeClassIndex];
    if (bits > dataCodewords(version, ecc) * 8 || !countsFit(segments, sizeClassIndex)) continue;
    const matrix = _tests.drawSymbol(version, ecc, codewords(segments, version, ecc));
    return { version, size: matrix.size, words: matrix.words, bits: matrix.v.slice() };
  }
  return undefined;
}

function countsFit(segments: readonly Segment[], sizeClassIndex: number): boolean {
  return segments.every((s) => count(s) < 2 ** (COUNT_BITS[s.mode] as number[])[sizeClassIndex]!);
}

const count = (segment: Segment): number =>
  segment.mode === BYTE ? new TextEncoder().encode(segment.text).length : segment.text.length;

/** The segments' bits, terminator and padding, cut in blocks, each with its parity, interleaved. */
function codewords(segments: readonly Segment[], version: number, ecc: ErrorCorrection): Uint8Array {
  const data = new Uint8Array(dataCodewords(version, ecc));
  let length = 0;
  const push = (value: number, n: number) => {
    for (let bit = n - 1; bit >= 0; bit--, length++)
      if ((value >>> bit) & 1) data[length >>> 3]! |= 0x80 >>> (length & 7);
  };
  for (const segment of segments) {
    push(MODE_INDICATOR[segment.mode]!, 4);
    push(count(segment), (COUNT_BITS[segment.mode] as number[])[sizeClass(version)]!);
    const { text } = segment;
    if (segment.mode === NUMERIC) {
      for (let i = 0; i < text.length; i += 3)
        push(Number(text.slice(i, i + 3)), [0, 4, 7, 10][Math.min(3, text.length - i)]!);
    } else if (segment.mode === ALPHANUMERIC) {
      for (let i = 0; i + 1 < text.length; i += 2)
        push(_ALPHANUMERIC.indexOf(text[i]!) * 45 + _ALPHANUMERIC.indexOf(text[i + 1]!), 11);
      if (text.length & 1) push(_ALPHANUMERIC.indexOf(text.at(-1)!), 6);
    } else {
      for (const byte of new TextEncoder().encode(text)) push(byte, 8);
    }
  }
  // The terminator (4 zero bits, fewer at the very end) and the rest of its byte are already zero.
  for (let i = (Math.min(length + 4, data.length * 8) + 7) >>> 3, pad = 0xec; i < data.length; i++, pad ^= 0xec ^ 0x11)
    data[i] = pad;

  const total = _BYTES[version - 1]!;
  const parity = _WORDS_PER_BLOCK[ecc][version - 1]!;
  const blocks = _ECC_BLOCKS[ecc][version - 1]!;
  const shortLength = Math.floor(total / blocks) - parity;
  const shortBlocks = blocks - (total % blocks);
  const generator = rsGenerator(parity);
  const dataBlocks: Uint8Array[] = [];
  const parityBlocks: Uint8Array[] = [];
  for (let b = 0, at = 0; b < blocks; b++) {
    const block = data.subarray(at, (at += shortLength + (b < shortBlocks ? 0 : 1)));
    dataBlocks.push(block);
    parityBlocks.push(_tests.rsEcc(block, generator));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i <= shortLength; i++) for (const block of dataBlocks) if (i < block.length) out[at++] = block[i]!;
  for (let i = 0; i < parity; i++) for (const block of parityBlocks) out[at++] = block[i]!;
  return out;
}

/** Coefficients (after the leading x^n) of the generator polynomial with `n` parity codewords. */
function rsGenerator(n: number): Uint8Array {
  const { exp, log } = _GF256;
  const generator = new Uint8Array(n);
  generator[n - 1] = 1;
  for (let i = 0, root = 1; i < n; i++, root = exp[log[root]! + 1]!) {
    for (let j = 0; j < n; j++) {
      const c = generator[j]!;
      generator[j] = (c ? exp[log[c]! + log[root]!]! : 0) ^ (j + 1 < n ? generator[j + 1]! : 0);
    }
  }
  return generator;
}
