/**
 * Cash-out: read the balance, pay to a destination key (never twice), then receive the
 * transfer-confirmation notification on `POST /webhook/transfer-confirmation` with node:http and
 * verify it against the provider's status query before recording anything.
 *
 * Run: `node examples/cash-out.ts`.
 * - No credentials in the environment: an in-process sandbox plays the provider. The example pays
 *   10.00, receives the confirmation on a free port, verifies and records it, then shows a payment
 *   the balance does not cover refused without an order.
 * - With credentials (see examples/setup.ts) it serves your provider's notifications on PORT
 *   (default 8080) and, when CASH_OUT_DEST_KEY and CASH_OUT_CREDITOR_DOCUMENT are set, pays
 *   CASH_OUT_AMOUNT (default 0.01) once, with CASH_OUT_ORDER_KEY as idempotency key when given.
 */
import { createServer, type RequestListener } from 'node:http';
import {
  ApiError,
  type CashOutClient,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  type PayResult,
  type Transfer,
} from '../src/index.ts';
import { connect, listenOnLoopback, runMain, usesRealProvider, within } from './setup.ts';

/** Where verified outcomes go: your database. It must be idempotent by `idempotencyKey`. */
export type RecordTransfer = (transfer: Transfer) => Promise<void>;

/** Balance, then one payment. Returns `undefined` when the balance does not cover it. */
export async function payOnce(
  cashOut: CashOutClient,
  payment: { key: string; amount: string; creditorDocument: string; idempotencyKey?: string },
): Promise<PayResult | undefined> {
  const balance = await cashOut.balance.get();
  console.log(`available ${balance.available} (blocked ${balance.blocked ?? '-'})`);
  try {
    // Keep an idempotency key with your own order record and pass it: a second call with the
    // same key (after a crash, say) finds the order instead of paying again. Without one, pay()
    // generates a key and returns it.
    const result = await cashOut.pay({ ...payment, description: 'example payout' });
    console.log(`order ${result.idempotencyKey} accepted: ${result.transfer.status}`);
    return result;
  } catch (error) {
    if (error instanceof InsufficientBalanceError) {
      console.log(`not paid: available ${error.available}, needed ${error.amount}`);
      return undefined;
    }
    if (error instanceof PaymentOutcomeUnknownError) {
      // The order may exist: ask later by its key, never pay again with a new key.
      console.log(`outcome unknown; query ${error.idempotencyKey} later`);
      return undefined;
    }
    if (error instanceof ApiError) {
      console.log(`refused: ${error.status} ${error.errorType ?? ''}`);
      return undefined;
    }
    throw error;
  }
}

/** The receiver: only `POST /webhook/transfer-confirmation`, verified before it is recorded. */
export function receiver(cashOut: CashOutClient, record: RecordTransfer): RequestListener {
  const handler = cashOut.notificationHandler({
    // Record the provider's answer (`actual`), never the notification's claims.
    onConfirmed: ({ actual }) => record(actual),
    onSuspicious: ({ reason, notified }) => {
      console.warn(`suspicious notification for ${notified.idempotencyKey}: ${reason}`);
    },
    onError: (error, status) =>
      console.warn(`notification answered ${status}: ${error instanceof Error ? error.name : 'error'}`),
  });
  return (req, res) => {
    if (req.url === '/webhook/transfer-confirmation') return void handler.node(req, res);
    res.writeHead(404).end();
  };
}

/** Verifying by hand, e.g. inside another framework's route, with the raw body. */
export async function verifyByHand(cashOut: CashOutClient, rawBody: string, record: RecordTransfer): Promise<void> {
  const result = await cashOut.verifyNotification(rawBody);
  if (result.verdict === 'confirmed') await record(result.actual);
  else console.warn(`suspicious: ${result.reason}`);
}

/** Stand-in for your database: an idempotent UPSERT keyed by `idempotencyKey`. */
const record: RecordTransfer = async (transfer) => {
  console.log(
    `recorded transfer ${transfer.idempotencyKey}: ${transfer.status}${transfer.errorCode ? ` (${transfer.errorCode})` : ''}`,
  );
};

/** Real provider: serve its notifications on PORT and, when asked, pay once. */
async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const { cashOut } = await connect({ env });
  const port = Number(env['PORT'] ?? 8080);
  createServer(receiver(cashOut, record)).listen(port, () => console.log(`receiver on ${port}`));
  if (env['CASH_OUT_DEST_KEY'] && env['CASH_OUT_CREDITOR_DOCUMENT']) {
    await payOnce(cashOut, {
      key: env['CASH_OUT_DEST_KEY'],
      amount: env['CASH_OUT_AMOUNT'] ?? '0.01',
      creditorDocument: env['CASH_OUT_CREDITOR_DOCUMENT'],
      ...(env['CASH_OUT_ORDER_KEY'] ? { idempotencyKey: env['CASH_OUT_ORDER_KEY'] } : {}),
    });
  }
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (usesRealProvider(env)) return serve(env);
  // Sandbox: the receiver listens first, as the sandbox needs its URL.
  const server = createServer();
  const notificationUrl = `${await listenOnLoopback(server)}/webhook/transfer-confirmation`;
  const { cashOut, close } = await connect({
    env,
    sandbox: { balance: '100.00', transferNotificationUrl: notificationUrl },
  });
  let confirmed!: () => void;
  const done = new Promise<void>((resolve) => (confirmed = resolve));
  server.on(
    'request',
    receiver(cashOut, (transfer) => record(transfer).then(confirmed)),
  );
  try {
    const paid = await payOnce(cashOut, { key: '+5561912345678', amount: '10.00', creditorDocument: '52998224725' });
    if (!paid) throw new Error('the sandbox did not take the order');
    await within(done, 5_000, 'confirmation');
    // More than the balance: refused before any order is placed.
    await payOnce(cashOut, { key: '+5561912345678', amount: '500.00', creditorDocument: '52998224725' });
  } finally {
    await close();
    server.closeAllConnections();
    server.close();
  }
}

runMain(import.meta, main);
