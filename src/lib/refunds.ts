/**
 * The natures of a refund the service makes on its own, without the receiving user's request
 * (special returns for an operational failure, a fraud, or an automatic recurring payment's
 * dispute): what `isDispute` tells apart, and what the sandbox's `disputePayment` creates.
 */
import { BR_CODE_GUI } from './brcode.ts';

/** The last part of a dotted name, as a type: `'a.b.c'` → `'c'`. */
type LastPart<S extends string> = S extends `${string}.${infer Rest}` ? LastPart<Rest> : S;

/** The scheme's name as the standard spells it in wire names (the BR Code GUI's last part, lowercase). */
export const SCHEME_NAME = BR_CODE_GUI.slice(BR_CODE_GUI.lastIndexOf('.') + 1) as LastPart<typeof BR_CODE_GUI>;

/**
 * The nature of a return the service makes for an automatic recurring payment: a wire value of
 * the standard, which spells the scheme's name in it (built from the BR Code GUI's last part).
 */
export const MED_AUTOMATIC =
  `MED_${SCHEME_NAME.toUpperCase()}_AUTOMATICO` as `MED_${Uppercase<typeof SCHEME_NAME>}_AUTOMATICO`;

/** Every nature of a return the service makes on its own. */
export const DISPUTE_NATURES = ['MED_OPERACIONAL', 'MED_FRAUDE', MED_AUTOMATIC] as const;

/** A nature of a return the service makes on its own. */
export type DisputeNature = (typeof DISPUTE_NATURES)[number];

/** True for a return the service made on its own (a `MED_*` nature), not one the receiving user asked for. */
export function isDispute(refund: { readonly natureza?: unknown }): boolean {
  return (DISPUTE_NATURES as readonly unknown[]).includes(refund?.natureza);
}
