/**
 * The one way the SDK reads the time. Every client takes `now` (api.md "Time"; default the
 * system clock) and hands it to whatever reads "today", an expiry or a deadline, so a test clock
 * (the sandbox's) moves the client's judgement with it. Web-standard: the payer entry uses it.
 */

/** A clock: the current instant. */
export type Now = () => Date;

/** The system clock. */
export const systemNow: Now = () => new Date();

/** The clock's instant in epoch milliseconds. */
export const epochMs = (now: Now): number => now().getTime();
