/** Workflows built on the public resource API. */
export * from './cash-out.ts';
export * from './received-payments.ts';
