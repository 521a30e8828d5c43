/**
 * One process of the fleet in the fleet tests (run by Node 24 straight from TypeScript). It
 * builds the clients over the shared PostgreSQL store, serves received-payment notifications on
 * a loopback port, and obeys the parent's IPC commands. The callback writes `start` and `done`
 * lines to a log file shared by every process, so the parent counts runs across the fleet.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import {
  CashOutClient, InstantClient, receivedPaymentsHandler, toNodeHandler, type PayParams,
} from '../../src/index.ts';
import { createPostgresStore } from '../../src/postgres.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const pool = new pg.Pool({ connectionString: env('DB_URL'), max: 4 });
pool.on('error', () => undefined);
const store = createPostgresStore({ pool, encryptionKey: env('ENCRYPTION_KEY') });
const base = env('PROVIDER_URL');
const instantClient = (clientId: string) =>
  new InstantClient({ baseUrl: base, auth: { tokenUrl: `${base}/oauth/token`, clientId, clientSecret: 'fleet-secret' }, store, maxRetries: 0 });
const api = instantClient('fleet-client');
// Another client id (so another token) to warm the code up before the cold-start measurement.
const warm = instantClient('fleet-warm');
const cashOut = new CashOutClient({
  baseUrl: base,
  auth: { clientId: 'fleet-cash-out', clientSecret: 'fleet-secret' },
  store,
  intents: { leaseMs: Number(env('LEASE_MS')) },
  maxRetries: 0,
});
const log = env('LOG_FILE');
const holdMs = Number(env('HOLD_MS'));

const handler = receivedPaymentsHandler(api, {
  claim: { leaseMs: Number(env('LEASE_MS')), waitMs: Number(env('WAIT_MS')) },
  async onPayment(payment) {
    appendFileSync(log, `start ${process.pid} ${payment.endToEndId}\n`);
    process.send?.({ event: 'inside', e2eid: payment.endToEndId });
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    appendFileSync(log, `done ${process.pid} ${payment.endToEndId}\n`);
  },
});
const server = createServer(toNodeHandler(handler));
server.listen(0, '127.0.0.1', () => {
  process.send?.({ event: 'ready', port: (server.address() as AddressInfo).port });
});

type Command =
  | { id: number; cmd: 'calls'; count: number; e2eid: string; warm?: boolean }
  | { id: number; cmd: 'pay'; params: PayParams }
  | { id: number; cmd: 'recover'; settleDelayMs: number; unknown?: 'mark' | 'place' }
  | { id: number; cmd: 'exit' };

process.on('message', (message: Command) => {
  void run(message).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) => process.send?.({ id: message.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
});

async function run(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case 'calls': {
      const client = command.warm ? warm : api;
      const settled = await Promise.allSettled(Array.from({ length: command.count }, () => client.instant.get(command.e2eid)));
      const failures = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason?.name));
      return { ok: settled.length - failures.length, failures };
    }
    case 'pay':
      return cashOut.pay(command.params);
    case 'recover':
      return cashOut.recover({ settleDelayMs: command.settleDelayMs, ...(command.unknown && { unknown: command.unknown }) });
    case 'exit':
      server.close();
      await pool.end();
      setImmediate(() => process.exit(0));
      return 'bye';
  }
}
