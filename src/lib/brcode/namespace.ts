/** The root entry's `brcode`: the payer entry's members and `brcode.lint` (`{ ok, findings }`, never throws). */
export * from './payer-namespace.ts';
export { lintBrCode as lint } from './lint.ts';
