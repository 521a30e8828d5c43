/**
 * The QR symbol of a text, as rows of dark and light modules with the quiet zone around them.
 * Encoding is the `qr` package's (a small, dependency-free encoder of ISO/IEC 18004) but for the
 * split in segments (segments.ts); this file checks the caller's options.
 */
import type { ErrorCorrection } from 'qr';
import { ConfigurationError } from '../errors/failures.ts';
import { encodeSymbol, type QrSymbol } from './segments.ts';

/** QR error correction: L 7%, M 15%, Q 25%, H 30% of the symbol may be lost and still read. */
export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

/** Options of `qrSvg` and `qrPng`. */
export interface QrOptions {
  /** Light modules around the symbol (the quiet zone), 0 to 40; default 4, the QR standard's minimum. */
  margin?: number;
  /** Pixels per module, 1 to 64 (the PNG's pixels, the SVG's `width`/`height`); default 8. */
  scale?: number;
  /**
   * Default `'M'`: the common level for codes shown on screens and printed on receipts. A BR
   * Code is short, so M keeps the symbol small (the longest one `brcode.build` makes, 236
   * characters, is version 9: 53×53 modules) while a smudge or glare over 15% of it still
   * reads. `'Q'` or `'H'` for print that may wear; `'L'` only for a clean screen.
   */
  errorCorrection?: QrErrorCorrection;
}

/** A symbol ready to draw: its modules (no quiet zone), the quiet zone and the scale. */
export interface QrMatrix {
  symbol: QrSymbol;
  /** Light modules on each side. */
  margin: number;
  /** Pixels per module. */
  scale: number;
}

const LEVELS: Record<QrErrorCorrection, ErrorCorrection> = { L: 'low', M: 'medium', Q: 'quartile', H: 'high' };

/** The symbol of `text` and how to draw it; throws `ConfigurationError` for options or text it cannot render. */
export function qrMatrix(text: string, options: QrOptions = {}): QrMatrix {
  if (typeof text !== 'string' || text === '') throw new ConfigurationError('text', 'text must be a non-empty string');
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('options', 'options must be an object');
  const margin = integerOption('margin', options.margin, 4, 0, 40);
  const scale = integerOption('scale', options.scale, 8, 1, 64);
  const level = options.errorCorrection ?? 'M';
  if (!Object.hasOwn(LEVELS, level))
    throw new ConfigurationError('errorCorrection', "errorCorrection must be 'L', 'M', 'Q' or 'H'");
  const symbol = encodeSymbol(text, LEVELS[level]);
  if (symbol === undefined)
    throw new ConfigurationError('text', `text is longer than a QR code holds at error correction ${level}`);
  return { symbol, margin, scale };
}

/** Whether module `x` of row `y` of the symbol is dark. */
export const isDark = ({ words, bits }: QrSymbol, x: number, y: number): boolean =>
  ((bits[y * words + (x >>> 5)]! >>> (x & 31)) & 1) === 1;

function integerOption(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigurationError(name, `${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}
