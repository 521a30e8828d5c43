/**
 * The payer entry's `brcode` (`brcode.parse`, `brcode.build`, `brcode.crc16`; no lint, whose
 * rules a page that reads codes does not need). A module, exported as a namespace, not an object:
 * a bundler that follows namespaces (Rollup, and Rolldown in Vite) keeps only the members a page
 * calls, where every member of an object rides along. esbuild does not follow a namespace
 * re-exported by name: it keeps all three.
 */
export { parseBrCode as parse } from './parse.ts';
export { buildBrCode as build } from './build.ts';
export { crc16 } from './tlv.ts';
