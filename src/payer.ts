/** instant-payments/payer: what a payer app needs. No Node built-ins; runs in any runtime. */
export * from './payer/index.ts';
export * from './core/errors.ts';
