/**
 * Webhook receiver: register the callback for a directory key, then serve the received-payment
 * notifications. Each notified payment is confirmed with the service (`api.instant.get`)
 * before it is recorded; duplicates are dropped; a failure to record answers 500 so that the
 * service sends it again.
 *
 * Run: `node examples/webhook-receiver.ts`.
 * - No credentials in the environment: an in-process sandbox plays the service. The receiver
 *   listens on a free port, registers itself for the sandbox's key, a payer pays a charge, and the
 *   example exits once the payment is confirmed and recorded.
 * - With credentials (see examples/setup.ts) it serves your provider on PORT (default 8080),
 *   after registering INSTANT_WEBHOOK_URL for INSTANT_RECEIVER_KEY when that is set. The service
 *   calls back over mTLS: with SERVER_CERT, SERVER_KEY and SERVICE_CA the receiver is an HTTPS
 *   server that demands the service's client certificate.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  generateTxid,
  receivedPaymentsHandler,
  toNodeHandler,
  type InstantPayment,
  type ReceivedPaymentsApi,
} from '../src/index.ts';
import type { Sandbox } from '../src/sandbox.ts';
import { connect, listenOnLoopback, runMain, within, type Connection } from './setup.ts';

/** Where confirmed payments go: your database. It must be idempotent by endToEndId. */
export type RecordPayment = (payment: InstantPayment) => Promise<void>;

/** The web-standard handler: usable as is in Deno, Bun, edge runtimes and frameworks. */
export function notificationHandler(
  api: ReceivedPaymentsApi,
  record: RecordPayment,
): (request: Request) => Promise<Response> {
  return receivedPaymentsHandler(api, {
    onPayment: (payment) => record(payment),
    onUnconfirmed: ({ reason, notified }) => {
      // Not from the service, or not what the service recorded: never credit it.
      console.warn(`unconfirmed notification (${reason}) for ${notified.endToEndId}`);
    },
  });
}

/** The Node server. The service posts to `webhookUrl + "/<list name>"`: every path is served. */
export function createReceiver(
  api: ReceivedPaymentsApi,
  record: RecordPayment,
  tls?: { cert: Buffer; key: Buffer; ca: Buffer },
): Server {
  const listener = toNodeHandler(notificationHandler(api, record), { maxBodyBytes: 256 * 1024 });
  return tls
    ? createHttpsServer({ ...tls, requestCert: true, rejectUnauthorized: true }, listener)
    : createHttpServer(listener);
}

/** Sandbox: the whole round trip, from registration to a recorded payment. */
async function roundTrip({ api, receiverKey }: Connection, sandbox: Sandbox): Promise<void> {
  let recorded!: () => void;
  const done = new Promise<void>((resolve) => (recorded = resolve));
  const server = createReceiver(api, async (payment) => {
    console.log(`recorded ${payment.valor} (e2eid ${payment.endToEndId}, txid ${payment.txid ?? '-'})`);
    recorded();
  });
  const url = `${await listenOnLoopback(server)}/webhook`;
  try {
    await api.webhook.put(receiverKey, url);
    console.log(`webhook registered: ${(await api.webhook.get(receiverKey)).webhookUrl}`);
    const txid = generateTxid();
    await api.cob.create(txid, { calendario: { expiracao: 600 }, valor: { original: '42.00' }, chave: receiverKey });
    await sandbox.payCharge(txid); // a payer pays; the service POSTs the notification to `${url}/<list name>`
    await within(done, 5_000, 'notification');
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Real provider: register the URL if asked, then serve until stopped. */
async function serve({ api, receiverKey }: Connection, env: NodeJS.ProcessEnv): Promise<void> {
  if (env['INSTANT_WEBHOOK_URL']) await api.webhook.put(receiverKey, env['INSTANT_WEBHOOK_URL']);
  const record: RecordPayment = async (payment) => {
    // stand-in for an idempotent INSERT keyed by endToEndId
    console.log(`received ${payment.valor} (txid ${payment.txid ?? '-'})`);
  };
  const tls =
    env['SERVER_CERT'] && env['SERVER_KEY'] && env['SERVICE_CA']
      ? {
          cert: readFileSync(env['SERVER_CERT']),
          key: readFileSync(env['SERVER_KEY']),
          ca: readFileSync(env['SERVICE_CA']),
        }
      : undefined;
  const port = Number(env['PORT'] ?? 8080);
  createReceiver(api, record, tls).listen(port, () => console.log(`listening on ${port}`));
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const connection = await connect({ env });
  if (!connection.sandbox) return serve(connection, env);
  try {
    await roundTrip(connection, connection.sandbox);
  } finally {
    await connection.close();
  }
}

runMain(import.meta, main);
