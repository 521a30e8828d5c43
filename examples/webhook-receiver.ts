/**
 * Webhook receiver: register the callback for a directory key, then serve the received-payment
 * notifications. Each notified payment is confirmed with the service (`api.instant.get`)
 * before it is recorded; duplicates are dropped; a failure to record answers 500 so that the
 * service sends it again.
 *
 * Run: `node examples/webhook-receiver.ts` with BASE_URL, TOKEN_URL, CLIENT_ID, CLIENT_SECRET,
 * CLIENT_CERT/CLIENT_KEY (mTLS to the API) and, to register, CHAVE and WEBHOOK_URL. The
 * service calls back over mTLS: with SERVER_CERT, SERVER_KEY and SERVICE_CA the receiver is
 * an HTTPS server that demands the service's client certificate.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  InstantClient,
  receivedPaymentsHandler,
  toNodeHandler,
  type InstantPayment,
  type ReceivedPaymentsApi,
} from '../src/index.ts';

/** Where confirmed payments go: your database. It must be idempotent by endToEndId. */
export type RecordPayment = (payment: InstantPayment) => Promise<void>;

/** The web-standard handler: usable as is in Deno, Bun, edge runtimes and frameworks. */
export function notificationHandler(api: ReceivedPaymentsApi, record: RecordPayment): (request: Request) => Promise<Response> {
  return receivedPaymentsHandler(api, {
    onPayment: (payment) => record(payment),
    onUnconfirmed: ({ reason, notified }) => {
      // Not from the service, or not what the service recorded: never credit it.
      console.warn(`unconfirmed notification (${reason}) for ${notified.endToEndId}`);
    },
  });
}

/** The Node server. The service posts to `webhookUrl + "/<list name>"`: every path is served. */
export function createReceiver(api: ReceivedPaymentsApi, record: RecordPayment, tls?: { cert: Buffer; key: Buffer; ca: Buffer }): Server {
  const listener = toNodeHandler(notificationHandler(api, record), { maxBodyBytes: 256 * 1024 });
  return tls ? createHttpsServer({ ...tls, requestCert: true, rejectUnauthorized: true }, listener) : createHttpServer(listener);
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const baseUrl = env['BASE_URL'] ?? 'https://api.psp.example/v2';
  const api = new InstantClient({
    baseUrl,
    auth: {
      tokenUrl: env['TOKEN_URL'] ?? `${baseUrl}/oauth/token`,
      clientId: env['CLIENT_ID'] ?? 'client-id',
      clientSecret: env['CLIENT_SECRET'] ?? 'client-secret',
      scope: env['SCOPE'] ?? 'webhook.write instant.read',
    },
    ...(env['CLIENT_CERT'] && env['CLIENT_KEY'] ? { tls: { cert: readFileSync(env['CLIENT_CERT']), key: readFileSync(env['CLIENT_KEY']) } } : {}),
  });
  if (env['CHAVE'] && env['WEBHOOK_URL']) await api.webhook.put(env['CHAVE'], env['WEBHOOK_URL']);

  const seen = new Set<string>();
  const record: RecordPayment = async (payment) => {
    seen.add(payment.endToEndId); // stand-in for an idempotent INSERT
    console.log(`received ${payment.valor} (txid ${payment.txid ?? '-'})`);
  };
  const tls =
    env['SERVER_CERT'] && env['SERVER_KEY'] && env['SERVICE_CA']
      ? { cert: readFileSync(env['SERVER_CERT']), key: readFileSync(env['SERVER_KEY']), ca: readFileSync(env['SERVICE_CA']) }
      : undefined;
  const server = createReceiver(api, record, tls);
  const port = Number(env['PORT'] ?? 8080);
  server.listen(port, () => console.log(`listening on ${port}`));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
