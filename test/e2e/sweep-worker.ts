/**
 * One process sweeping in the sweep fleet tests (run by Node 24 straight from TypeScript; spawned
 * with test/store/fleet-process.ts). Its own `InstantClient` on the sandbox (`CLIENT_OPTIONS`: the
 * sandbox's `clientOptions()` as JSON) and its own `receivedPaymentsHandler` named `NAME` over the
 * PostgreSQL store at `DB_URL`. `onPayment` writes a row to the user's `swept` table through `tx`
 * and `start`/`done` lines to the shared `LOG_FILE`, so the parent counts effects across
 * processes. `SWEEP_OVERLAP_MS` is the handler's `sweepOverlapMs` (default the SDK's). With `BLOCK_AT=k`, this process's k-th callback reports `blocked` after its write and
 * never returns (the parent kills the process there). The parent sends `sweep` commands.
 */
import { appendFileSync } from 'node:fs';
import pg from 'pg';
import { InstantClient, receivedPaymentsHandler, type SweepOptions } from '../../src/index.ts';
import { createPostgresStore } from '../../src/postgres.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const pool = new pg.Pool({ connectionString: env('DB_URL'), max: 8 });
pool.on('error', () => undefined);
const store = createPostgresStore({ pool });
const api = new InstantClient({ ...JSON.parse(env('CLIENT_OPTIONS')), maxRetries: 0 });
const log = env('LOG_FILE');
const blockAt = Number(process.env['BLOCK_AT'] ?? 0);
let calls = 0;

const handler = receivedPaymentsHandler(api, {
  store,
  name: env('NAME'),
  ...(process.env['SWEEP_OVERLAP_MS'] !== undefined && { sweepOverlapMs: Number(process.env['SWEEP_OVERLAP_MS']) }),
  async onPayment(payment, { tx }) {
    appendFileSync(log, `start ${process.pid} ${payment.endToEndId}\n`);
    await tx.query('INSERT INTO swept (e2eid, pid) VALUES ($1, $2)', [payment.endToEndId, process.pid]);
    if (++calls === blockAt) {
      process.send?.({ event: 'blocked', e2eid: payment.endToEndId });
      await new Promise(() => undefined);
    }
    appendFileSync(log, `done ${process.pid} ${payment.endToEndId}\n`);
  },
});

type Command = { id: number; cmd: 'sweep'; options: SweepOptions } | { id: number; cmd: 'exit' };

process.on('message', (command: Command) => {
  void run(command).then(
    (result) => process.send?.({ id: command.id, result }),
    (error: unknown) =>
      process.send?.({
        id: command.id,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
  );
});

async function run(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case 'sweep':
      return handler.sweep(command.options);
    case 'exit':
      await api.close();
      await pool.end();
      setImmediate(() => process.exit(0));
      return 'bye';
  }
}

process.send?.({ event: 'ready', port: 0 });
