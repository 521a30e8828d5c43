/** Workflows built on the public resource API. */
export * from './cash-out-pay.ts';
export * from './transfer-notifications.ts';
export * from './received-payments.ts';
