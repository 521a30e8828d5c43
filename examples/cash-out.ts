/**
 * Cash-out: read the balance, pay to a destination key (never twice), then receive the
 * transfer-confirmation notification on `POST /webhook/transfer-confirmation` with node:http and
 * verify it against the provider's status query before recording anything.
 *
 * Run: `node examples/cash-out.ts` with CASH_OUT_URL (host root), CASH_OUT_CLIENT_ID,
 * CASH_OUT_CLIENT_SECRET, CASH_OUT_CERT/CASH_OUT_KEY (the provider's client certificate), and
 * DEST_KEY, CREDITOR_DOCUMENT, AMOUNT (and optionally ORDER_KEY) for the payment; PORT for the receiver (default 8080).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import {
  CashOutClient,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  type PayResult,
  type Transfer,
} from '../src/index.ts';

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
    throw error;
  }
}

/** The receiver: only `POST /webhook/transfer-confirmation`, verified before it is recorded. */
export function createReceiver(cashOut: CashOutClient, record: RecordTransfer): Server {
  const handler = cashOut.notificationHandler({
    // Record the provider's answer (`actual`), never the notification's claims.
    onConfirmed: ({ actual }) => record(actual),
    onSuspicious: ({ reason, notified }) => {
      console.warn(`suspicious notification for ${notified.idempotencyKey}: ${reason}`);
    },
    onError: (error, status) => console.warn(`notification answered ${status}: ${error instanceof Error ? error.name : 'error'}`),
  });
  return createServer((req, res) => {
    if (req.url === '/webhook/transfer-confirmation') return void handler.node(req, res);
    res.writeHead(404).end();
  });
}

/** Verifying by hand, e.g. inside another framework's route, with the raw body. */
export async function verifyByHand(cashOut: CashOutClient, rawBody: string, record: RecordTransfer): Promise<void> {
  const result = await cashOut.verifyNotification(rawBody);
  if (result.verdict === 'confirmed') await record(result.actual);
  else console.warn(`suspicious: ${result.reason}`);
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const cashOut = new CashOutClient({
    baseUrl: env['CASH_OUT_URL'] ?? 'https://accounts.psp.example',
    // The token endpoint defaults to {baseUrl}/api/v2/oauth/token (JSON body); one cached token
    // serves every call, within the provider's 10 token requests a minute.
    auth: { clientId: env['CASH_OUT_CLIENT_ID'] ?? 'client-id', clientSecret: env['CASH_OUT_CLIENT_SECRET'] ?? 'client-secret' },
    ...(env['CASH_OUT_CERT'] && env['CASH_OUT_KEY']
      ? { tls: { cert: readFileSync(env['CASH_OUT_CERT']), key: readFileSync(env['CASH_OUT_KEY']) } }
      : {}),
  });

  const recorded = new Map<string, Transfer>();
  const record: RecordTransfer = async (transfer) => {
    recorded.set(transfer.idempotencyKey, transfer); // stand-in for an idempotent UPSERT
    console.log(`transfer ${transfer.idempotencyKey}: ${transfer.status}${transfer.errorCode ? ` (${transfer.errorCode})` : ''}`);
  };

  const server = createReceiver(cashOut, record);
  const port = Number(env['PORT'] ?? 8080);
  server.listen(port, () => console.log(`receiver on ${port}`));

  if (env['DEST_KEY'] && env['CREDITOR_DOCUMENT']) {
    await payOnce(cashOut, {
      key: env['DEST_KEY'],
      amount: env['AMOUNT'] ?? '0.01',
      creditorDocument: env['CREDITOR_DOCUMENT'],
      ...(env['ORDER_KEY'] ? { idempotencyKey: env['ORDER_KEY'] } : {}),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
