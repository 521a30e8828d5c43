/**
 * Your code: a shop's checkout. The two test files beside it show how to test code like this
 * against the sandbox, with msw (no server) or with a real local server.
 */
import { receivedPaymentsHandler, toNodeHandler, type InstantClient, type NodeHandler } from '../../src/index.ts';

/** Opens a charge for an order; the shop shows `copyAndPaste` as a QR code. */
export async function openCheckout(api: InstantClient, key: string, order: { id: string; total: string }) {
  const txid = `order${order.id}`.padEnd(26, '0');
  const cob = await api.cob.create(txid, {
    calendario: { expiracao: 900 },
    valor: { original: order.total },
    chave: key,
    solicitacaoPagador: `Order ${order.id}`,
  });
  return { txid, copyAndPaste: cob.instantCopiaECola ?? '' };
}

/** Whether the order's charge has been paid. */
export async function isPaid(api: InstantClient, txid: string): Promise<boolean> {
  return (await api.cob.get(txid)).status === 'CONCLUIDA';
}

/** The shop's webhook: marks orders paid once the service confirms the payment. */
export function paymentsWebhook(api: InstantClient, markPaid: (txid: string) => Promise<void>): NodeHandler {
  return toNodeHandler(receivedPaymentsHandler(api, { onPayment: (payment) => markPaid(payment.txid ?? '') }));
}
