/** Cash-out: the client, its resources, types and errors. */
export {
  CashOutClient,
  CASH_OUT_TOKEN_PATH,
  type CashOutClientOptions,
  type CashOutCredentials,
} from './client.ts';
export { CashOutBalance } from './balance.ts';
export {
  CashOutPayments,
  IDEMPOTENCY_HEADER,
  type CreatePaymentOptions,
} from './payments.ts';
export {
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  IdempotencyKeyReusedError,
  CashOutResponseError,
  TransferNotFoundError,
  CashOutConflictError,
  CashOutPreconditionFailedError,
  CashOutUnprocessableError,
  CashOutRateLimitedError,
} from './errors.ts';
export * from './types.ts';
