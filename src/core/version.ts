/**
 * The SDK's version, written in at build time by tsup's and vitest's `define` from
 * package.json (never read from disk at run time, so bundling keeps working). Sources run
 * without a build step (the benches) say `source`.
 */
declare const __SDK_VERSION__: string | undefined;

export const SDK_VERSION: string = typeof __SDK_VERSION__ === 'string' ? __SDK_VERSION__ : 'source';

/** Sent on API and token requests (never by the payer client). */
export const USER_AGENT = `instant-payments/${SDK_VERSION}`;
