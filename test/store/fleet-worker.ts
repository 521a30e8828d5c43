/**
 * One process of the fleet in the fleet tests (run by Node 24 straight from TypeScript). It
 * builds the clients over the shared PostgreSQL store, serves received-payment notifications on
 * a loopback port, and obeys the parent's IPC commands. The callback marks the payment paid in
 * the user's own table through `tx` and writes `start` and `done` lines to a log file shared by
 * every process, so the parent counts runs and effects across the fleet.
 *
 * `CLOCK_SKEW_MS` moves this process's clock (`Date.now`); `TOKEN_TIMEOUT_MS` is the clients'
 * time limit (a token request's included). `CASH_OUT_URL` (else `PROVIDER_URL`) is the cash-out
 * provider, `CASH_OUT_TIMEOUT_MS` its calls' time limit. Every payment outcome the cash-out client
 * records is reported to the parent (`outcome`, with the time it was decided) for the nemesis suite.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import {
  CashOutClient,
  InstantClient,
  receivedPaymentsHandler,
  toNodeHandler,
  type PayParams,
} from '../../src/index.ts';
import { createPostgresStore } from '../../src/postgres.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const skew = Number(process.env['CLOCK_SKEW_MS'] ?? 0);
/** This process's clock, `skew` off the machine's: given to the store and the clients as `now`. */
const now = () => new Date(Date.now() + skew);

const pool = new pg.Pool({ connectionString: env('DB_URL'), max: 4 });
pool.on('error', () => undefined);
const store = createPostgresStore({ pool, encryptionKey: env('ENCRYPTION_KEY'), now });
const record = store.set;
store.set = async (key, value, ttlMs) => {
  if (key.startsWith('intent:')) {
    const { state } = JSON.parse(await store.sealer!.open(value, key)) as { state: string };
    process.send?.({ event: 'outcome', key: key.slice('intent:'.length), state, at: Date.now() });
  }
  return record(key, value, ttlMs);
};
const base = env('PROVIDER_URL');
const timeout = Number(process.env['TOKEN_TIMEOUT_MS'] ?? 30_000);
const clients = new Map<string, InstantClient>();
const instantClient = (clientId: string) => {
  let client = clients.get(clientId);
  if (!client) {
    client = new InstantClient({
      baseUrl: base,
      auth: { tokenUrl: `${base}/oauth/token`, clientId, clientSecret: 'fleet-secret' },
      store,
      maxRetries: 0,
      timeout,
      now,
    });
    clients.set(clientId, client);
  }
  return client;
};
const api = instantClient('fleet-client');
const cashOut = new CashOutClient({
  baseUrl: process.env['CASH_OUT_URL'] ?? base,
  auth: { clientId: 'fleet-cash-out', clientSecret: 'fleet-secret' },
  store,
  intents: { leaseMs: Number(env('LEASE_MS')) },
  maxRetries: 0,
  now,
  ...(process.env['CASH_OUT_TIMEOUT_MS'] !== undefined && { timeout: Number(process.env['CASH_OUT_TIMEOUT_MS']) }),
});
const log = env('LOG_FILE');
const holdMs = Number(env('HOLD_MS'));

const handler = receivedPaymentsHandler(api, {
  store,
  claim: { leaseMs: Number(env('LEASE_MS')), waitMs: Number(env('WAIT_MS')) },
  async onPayment(payment, { tx, signal }) {
    appendFileSync(log, `start ${process.pid} ${payment.endToEndId}\n`);
    await tx.query('UPDATE fleet_orders SET paid = paid + 1 WHERE e2eid = $1', [payment.endToEndId]);
    process.send?.({ event: 'inside', e2eid: payment.endToEndId });
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    // The claim was lost meanwhile (the link was cut): another process may run it, stop here.
    signal.throwIfAborted();
    appendFileSync(log, `done ${process.pid} ${payment.endToEndId}\n`);
    process.send?.({ event: 'leaving', e2eid: payment.endToEndId });
  },
});
const server = createServer(toNodeHandler(handler));
server.listen(0, '127.0.0.1', () => {
  process.send?.({ event: 'ready', port: (server.address() as AddressInfo).port });
});

type Command =
  | { id: number; cmd: 'calls'; count: number; e2eid: string; clientId?: string }
  | { id: number; cmd: 'sequential'; count: number; pauseMs: number; e2eid: string; clientId: string }
  | { id: number; cmd: 'pay'; params: PayParams }
  | { id: number; cmd: 'recover'; settleDelayMs: number; unknown?: 'mark' | 'place'; totalTimeout?: number }
  | { id: number; cmd: 'exit' };

process.on('message', (message: Command) => {
  void run(message).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) =>
      process.send?.({
        id: message.id,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
  );
});

const failureName = (reason: unknown) => String((reason as Error | undefined)?.name);

async function run(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case 'calls': {
      const client = instantClient(command.clientId ?? 'fleet-client');
      const settled = await Promise.allSettled(
        Array.from({ length: command.count }, () => client.instant.get(command.e2eid)),
      );
      const failures = settled
        .filter((s) => s.status === 'rejected')
        .map((s) => failureName((s as PromiseRejectedResult).reason));
      return { ok: settled.length - failures.length, failures };
    }
    case 'sequential': {
      const client = instantClient(command.clientId);
      const failures: string[] = [];
      for (let i = 0; i < command.count; i++) {
        await client.instant.get(command.e2eid).catch((error: unknown) => failures.push(failureName(error)));
        await new Promise((resolve) => setTimeout(resolve, command.pauseMs));
      }
      return { ok: command.count - failures.length, failures };
    }
    case 'pay':
      return cashOut.pay(command.params);
    case 'recover':
      return cashOut.recover({
        settleDelayMs: command.settleDelayMs,
        ...(command.unknown && { unknown: command.unknown }),
        ...(command.totalTimeout !== undefined && { totalTimeout: command.totalTimeout }),
      });
    case 'exit':
      server.close();
      await pool.end();
      setImmediate(() => process.exit(0));
      return 'bye';
  }
}
