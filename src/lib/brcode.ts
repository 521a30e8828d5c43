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
 * BR Code helpers: `brcode.parse(text)`, `brcode.build(input)`, `brcode.lint(text)` (`{ ok,
 * findings }`, never throws), `brcode.crc16(text)`: the payer entry's members and lint.
 *
 * An object here, where the payer entry has a module namespace (its browser build keeps modules
 * apart, so a bundler can follow one): in this entry's bundled builds a namespace becomes a
 * module-level call that bundlers keep even unused, which put parse, build and lint (5 KB gzip)
 * into every Workers and edge backend bundle (bench: the backend rows).
 */
export const brcode = /* @__PURE__ */ Object.freeze({
  /** Reads a BR Code into its fields, checking its CRC and every rule (`parseBrCode`). */
  parse: parseBrCode,
  /** Writes a BR Code from its fields or what `parse` returned (`buildBrCode`). */
  build: buildBrCode,
  /** Every finding on a BR Code, `{ ok, findings }`; never throws (`lintBrCode`). */
  lint: lintBrCode,
  crc16,
});
