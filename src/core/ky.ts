/**
 * What the HTTP core uses of ky, loaded on the first call (http.ts imports this file lazily).
 * Named exports only: ky's own default export would reach the CommonJS build as a namespace.
 * The build bundles ky into this file's chunk (see tsup.config.ts).
 */
export { default as ky, isHTTPError, isTimeoutError, isNetworkError } from 'ky';
