/**
 * Never miss a payment: the webhook handler also sweeps the service's list of received payments,
 * so a notification that never arrives is caught up, and one that did is not handed over twice.
 *
 * Run: `node examples/never-miss-a-payment.ts`.
 * - No credentials in the environment: an in-process sandbox plays the service and loses some
 *   notifications on purpose (`dropNotifications`). Three charges are paid, two of the
 *   notifications are lost for good, and a sweep hands those two over; a second sweep finds
 *   nothing new. Refunds (and the service's own returns, disputes) reach `onRefund`.
 * - With credentials (see examples/setup.ts) it sweeps your provider's last hour once, as a cron
 *   job would every few minutes (with a shared store, `sweep()` alone continues from its cursor).
 */
import { createServer } from 'node:http';
import {
  createMemoryStore,
  generateTxid,
  isDispute,
  receivedPaymentsHandler,
  type Devolucao,
  type InstantPayment,
} from '../src/index.ts';
import { connect, listenOnLoopback, runMain, type Connection } from './setup.ts';

/**
 * Your books, idempotent by endToEndId: `onPayment` runs once per payment and state (again when a
 * refund changes the record), `onRefund` once per refund and final status.
 */
const books = {
  payment: async (payment: InstantPayment) =>
    console.log(
      `recorded payment ${payment.valor} (txid ${payment.txid ?? '-'}, ${payment.devolucoes?.length ?? 0} refunds)`,
    ),
  refund: async (payment: InstantPayment, refund: Devolucao) =>
    console.log(
      `${isDispute(refund) ? 'disputed by the service' : 'refunded'}: ${refund.valor} of ${payment.valor} (${refund.status})`,
    ),
};

function handlerFor({ api }: Connection) {
  return receivedPaymentsHandler(api, {
    store: createMemoryStore(), // in production: the PostgreSQL store shared by the fleet
    onPayment: (payment) => books.payment(payment),
    onRefund: (payment, refund) => books.refund(payment, refund),
  });
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const connection = await connect({ env });
  try {
    const handler = handlerFor(connection);
    const { sandbox, api, receiverKey } = connection;
    if (!sandbox) {
      const swept = await handler.sweep({ from: new Date(Date.now() - 3_600_000) });
      console.log(`swept: ${JSON.stringify(swept)}`);
      return;
    }
    const server = createServer(handler.node);
    try {
      await api.webhook.put(receiverKey, `${await listenOnLoopback(server)}/webhook`);
      const from = new Date();
      sandbox.dropNotifications({ count: 2 }); // the service gives up on the next two
      for (const valor of ['10.00', '20.00', '30.00']) {
        const txid = generateTxid();
        await api.cob.create(txid, { calendario: { expiracao: 600 }, valor: { original: valor }, chave: receiverKey });
        await sandbox.payCharge(txid);
      }
      const paid = sandbox.notifications().length;
      const lost = sandbox.notifications().filter((n) => n.state === 'dropped').length;
      console.log(`notifications lost: ${lost}`);
      const first = await handler.sweep({ from });
      console.log(`first sweep: ${first.seen} seen, ${first.handled} handed over, ${first.duplicates} already had`);
      const again = await handler.sweep(); // from the cursor, less the overlap
      console.log(`second sweep: ${again.handled} handed over, ${again.duplicates} already had`);
      if (first.handled !== 2 || again.handled !== 0) throw new Error('the sweep did not catch up exactly once');
      // The service returns money on its own (a fraud dispute): notified like a refund, told apart by isDispute.
      const [payment] = (await api.instant.list({ inicio: from.toISOString(), fim: new Date().toISOString() })).items;
      sandbox.disputePayment(payment!.endToEndId, { natureza: 'MED_FRAUDE', valor: '5.00' });
      while (sandbox.notifications().length === paid) await new Promise((resolve) => setTimeout(resolve, 10));
      await handler.sweep();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  } finally {
    await connection.close();
  }
}

runMain(import.meta, main);
