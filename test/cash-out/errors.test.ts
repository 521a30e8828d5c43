/** What each cash-out error tells the caller who catches it: its name, its message, its fields. */
import { describe, expect, it } from 'vitest';
import {
  CashOutConflictError,
  CashOutPreconditionFailedError,
  CashOutRateLimitedError,
  CashOutResponseError,
  CashOutUnprocessableError,
  IdempotencyKeyReusedError,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  TransferNotFoundError,
} from '../../src/cash-out/errors.ts';

describe('cash-out errors as the caller reads them', () => {
  it('InsufficientBalanceError names both figures and says no order was placed', () => {
    const error = new InsufficientBalanceError({ available: '9.99', amount: '10.00' });
    expect(error.name).toBe('InsufficientBalanceError');
    expect(error.message).toBe('Available balance 9.99 does not cover 10.00; no order was placed');
    expect(error).toMatchObject({ available: '9.99', amount: '10.00' });
  });

  it('PaymentOutcomeUnknownError says what to do, carries the key and what failed', () => {
    const cause = new Error('connection reset');
    const error = new PaymentOutcomeUnknownError({ idempotencyKey: 'abc123', cause });
    expect(error.name).toBe('PaymentOutcomeUnknownError');
    expect(error.message).toBe(
      'The payment order may exist but its outcome is unknown; pay again with its idempotency key or query it',
    );
    expect(error).toMatchObject({ idempotencyKey: 'abc123', cause });
  });

  it('IdempotencyKeyReusedError: a 409 of its own type and title, with the violations when given', () => {
    const violacoes = [{ propriedade: 'idempotencyKey', razao: 'already names another order' }];
    const error = new IdempotencyKeyReusedError({ idempotencyKey: 'abc123', sentRequest: false, violacoes });
    expect(error.name).toBe('IdempotencyKeyReusedError');
    expect(error).toMatchObject({
      status: 409,
      idempotencyKey: 'abc123',
      sentRequest: false,
      type: 'urn:instant-payments:error/IdempotencyKeyReusedError',
      title: 'The idempotency key already names a different payment order',
      violacoes,
    });
    expect(error.message).toContain('The idempotency key already names a different payment order');
    const bare = new IdempotencyKeyReusedError({ idempotencyKey: 'abc123', sentRequest: true });
    expect(bare.violacoes).toEqual([]);
    expect(bare.sentRequest).toBe(true);
  });

  it('CashOutResponseError and the classes of the provider statuses are named so', () => {
    expect(new CashOutResponseError('unreadable').name).toBe('CashOutResponseError');
    const byStatus = [
      [TransferNotFoundError, 'TransferNotFoundError', 404],
      [CashOutConflictError, 'CashOutConflictError', 409],
      [CashOutPreconditionFailedError, 'CashOutPreconditionFailedError', 412],
      [CashOutUnprocessableError, 'CashOutUnprocessableError', 422],
      [CashOutRateLimitedError, 'CashOutRateLimitedError', 429],
    ] as const;
    for (const [ErrorClass, name, status] of byStatus) {
      expect(new ErrorClass({})).toMatchObject({ name, status });
    }
  });
});
