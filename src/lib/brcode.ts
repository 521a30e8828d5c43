/**
 * BR Code helpers: parse, build, lint and CRC. The modules under `./brcode/` keep each part
 * small; a payer page that only parses and builds imports those two and leaves lint out.
 */

import { buildBrCode } from './brcode/build.ts';
import { lintBrCode } from './brcode/lint.ts';
import { parseBrCode } from './brcode/parse.ts';
import { crc16 } from './brcode/tlv.ts';

export { BR_CODE_GUI, BrCodeError, crc16, type BrCodeField } from './brcode/tlv.ts';
export { parseBrCode, type BrCode } from './brcode/parse.ts';
export {
  buildBrCode,
  type BrCodeBuildInput,
  type BrCodeDynamicInput,
  type BrCodeRecurrenceInput,
  type BrCodeStaticInput,
} from './brcode/build.ts';
export { lintBrCode, LINT_RULES, type BrCodeFinding, type BrCodeLint, type BrCodeLintRule } from './brcode/lint.ts';

/**
 * The payer entry's `brcode`: `brcode.parse(text)`, `brcode.build(input)`, `brcode.crc16(text)`.
 * No lint: a payer page reads codes, and lint's rules would add 3 KB to its bundle.
 */
export const payerBrcode = {
  /** Same as `parseBrCode`. */
  parse: parseBrCode,
  /** Same as `buildBrCode`. */
  build: buildBrCode,
  /** Same as the `crc16` function. */
  crc16,
} as const;

/** BR Code helpers: `brcode.parse(text)`, `brcode.build(input)`, `brcode.lint(text)`, `brcode.crc16(text)`. */
export const brcode = {
  /** Same as `parseBrCode`. */
  parse: parseBrCode,
  /** Same as `buildBrCode`. */
  build: buildBrCode,
  /** Same as the `crc16` function. */
  crc16,
  /** Same as `lintBrCode`: `{ ok, findings }`, never throws. */
  lint: lintBrCode,
} as const;
