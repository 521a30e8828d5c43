/** Cash-out: balance, orders, settlement, notifications: the SDK against a sandbox over real HTTP. */
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsufficientBalanceError, toCents, type NotificationVerification } from '../../src/index.ts';
import { startReceiver, useSandbox } from './harness.ts';

// The receiver listens before the sandbox starts: the sandbox is told where to POST.
const notifications: NotificationVerification[] = [];
let handler: RequestListener | undefined;
const receiver = await startReceiver((req, res) => (handler ? handler(req, res) : res.writeHead(503).end()));
const s = useSandbox({
  balance: '100.00',
  settle: 'manual',
  transferNotificationUrl: `${receiver.url}/webhook/transfer-confirmation`,
});

beforeAll(() => {
  handler = s.cashOut.notificationHandler({
    onConfirmed: (result) => void notifications.push(result),
    onSuspicious: (result) => void notifications.push(result),
  }).node;
});
afterAll(() => receiver.close());

const PAYMENT = { key: '+5561912345678', creditorDocument: '52998224725' };
const about = (key: string) => notifications.filter((n) => n.notified.idempotencyKey === key);

describe('cash-out', () => {
  it('pays: 202 PROCESSING, settled LIQUIDATED, balance debited, notified and confirmed', async () => {
    const before = toCents((await s.cashOut.balance.get()).available);
    const { idempotencyKey, transfer } = await s.cashOut.pay({ ...PAYMENT, amount: '12.34' });
    expect(transfer.status).toBe('PROCESSING');
    await s.sandbox.settleTransfer(idempotencyKey, 'LIQUIDATED');

    await expect.poll(() => about(idempotencyKey).map((n) => n.verdict)).toEqual(['confirmed']);
    expect(about(idempotencyKey)[0]?.actual).toMatchObject({ idempotencyKey, status: 'LIQUIDATED' });
    expect((await s.cashOut.payments.getByIdempotencyKey(idempotencyKey)).status).toBe('LIQUIDATED');
    expect(toCents((await s.cashOut.balance.get()).available)).toBe(before - 1234);
  });

  it('never places a second order for the same idempotency key', async () => {
    const before = toCents((await s.cashOut.balance.get()).available);
    const first = await s.cashOut.pay({ ...PAYMENT, amount: '1.00', idempotencyKey: 'order77' });
    const again = await s.cashOut.pay({ ...PAYMENT, amount: '1.00', idempotencyKey: 'order77' });
    expect(again.transfer.idempotencyKey).toBe(first.transfer.idempotencyKey);
    await s.sandbox.settleTransfer('order77', 'LIQUIDATED');
    expect(toCents((await s.cashOut.balance.get()).available)).toBe(before - 100);
  });

  it('places an order with the lower-level payments.create, and a repeat with its key is the same order', async () => {
    const body = {
      instantKey: PAYMENT.key,
      creditorDocument: PAYMENT.creditorDocument,
      payment: { currency: 'BRL' as const, amount: '0.50' },
    };
    const first = await s.cashOut.payments.create(body, { idempotencyKey: 'lowlevel1' });
    const again = await s.cashOut.payments.create(body, { idempotencyKey: 'lowlevel1' }).catch((e: unknown) => e);
    // The provider answers the same transfer, or a conflict; never a second order.
    if (!(again instanceof Error))
      expect((again as { idempotencyKey: string }).idempotencyKey).toBe(first.idempotencyKey);
    await s.sandbox.settleTransfer('lowlevel1', 'LIQUIDATED');
    expect((await s.cashOut.payments.getByIdempotencyKey('lowlevel1')).payment?.amount).toBe('0.50');
  });

  it('refuses a payment the balance does not cover, with no order placed', async () => {
    const error = await s.cashOut
      .pay({ ...PAYMENT, amount: '5000.00', idempotencyKey: 'toolarge1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    await expect(s.cashOut.payments.getByIdempotencyKey('toolarge1')).rejects.toMatchObject({ status: 404 });
  });

  it('cancels an order the balance no longer covers when it settles, with an error code', async () => {
    const { idempotencyKey } = await s.cashOut.pay({ ...PAYMENT, amount: '2.00' });
    const left = (await s.cashOut.balance.get()).available;
    s.sandbox.setBalance('1.00');
    await s.sandbox.settleTransfer(idempotencyKey, 'LIQUIDATED');
    const transfer = await s.cashOut.payments.getByIdempotencyKey(idempotencyKey);
    expect(transfer).toMatchObject({ status: 'CANCELED', errorCode: expect.any(String) });
    await expect.poll(() => about(idempotencyKey).map((n) => n.verdict)).toEqual(['confirmed']);
    s.sandbox.setBalance(left);
  });

  it('catches a forged notification', async () => {
    const { idempotencyKey } = await s.cashOut.pay({ ...PAYMENT, amount: '3.00' });
    await s.sandbox.settleTransfer(idempotencyKey, 'LIQUIDATED');
    await expect.poll(() => about(idempotencyKey).length).toBe(1);
    await s.sandbox.forgeTransferNotification({ idempotencyKey, status: 'CANCELED' });
    await s.sandbox.forgeTransferNotification({ idempotencyKey: 'neverplaced1', status: 'LIQUIDATED' });
    await expect.poll(() => about(idempotencyKey).map((n) => n.verdict)).toEqual(['confirmed', 'suspicious']);
    await expect
      .poll(() => about('neverplaced1')[0])
      .toMatchObject({ verdict: 'suspicious', reason: 'unknown-transfer' });
  });
});
