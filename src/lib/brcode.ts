/**
 * BR Code helpers: parse, build, lint and CRC. The modules under `./brcode/` keep each part
 * small; a payer page that only parses and builds imports those two and leaves lint out.
 */

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

/** BR Code helpers: `brcode.parse(text)`, `brcode.build(input)`, `brcode.lint(text)`, `brcode.crc16(text)`. */
export * as brcode from './brcode/namespace.ts';
