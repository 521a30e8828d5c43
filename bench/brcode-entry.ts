/** What a payer page ships to read and write BR Codes: parse and build only (no lint). */
export { parseBrCode } from '../src/lib/brcode/parse.ts';
export { buildBrCode } from '../src/lib/brcode/build.ts';
