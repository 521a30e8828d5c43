/**
 * The parent's side of the fleet's processes (test/store/fleet-worker.ts, or another worker
 * script speaking the same IPC): spawn one, call it over IPC, deliver it a received-payment
 * notification, kill it with SIGKILL. Shared by the fleet tests, the nemesis suite and the
 * sweep fleet tests.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const NODE = join(process.cwd(), 'node_modules', '.bin', 'node');
const WORKER = join(import.meta.dirname, 'fleet-worker.ts');

export interface Worker {
  child: ChildProcess;
  /** The port its notification handler listens on. */
  port: number;
  /** Runs a command (see fleet-worker.ts); rejects with the worker's error, or 'worker died'. */
  call<T>(command: Record<string, unknown>): Promise<T>;
}

/** An event the worker reports on its own (`inside`, `leaving`, `outcome`...). */
export interface WorkerEvent {
  event: string;
  e2eid?: string;
  [field: string]: unknown;
}

/**
 * Starts `script` (default fleet-worker.ts: DB_URL, ENCRYPTION_KEY, PROVIDER_URL, LOG_FILE, LEASE_MS,
 * WAIT_MS, HOLD_MS...) with `env`; it reports `ready` once it takes commands.
 */
export async function spawnWorker(
  env: Record<string, string>,
  onEvent?: (worker: Worker, event: WorkerEvent) => void,
  script = WORKER,
): Promise<Worker> {
  const child = fork(script, [], {
    execPath: NODE,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const worker: Worker = {
    child,
    port: 0,
    call: <T>(command: Record<string, unknown>) =>
      new Promise<T>((resolve, reject) => {
        if (!child.connected) return reject(new Error('worker died'));
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, ...command }, (error) => {
          if (error && pending.delete(id)) reject(new Error('worker died'));
        });
      }),
  };
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    child.on('message', (message: WorkerEvent & { port?: number; id?: number; result?: unknown; error?: string }) => {
      if (message.event === 'ready') {
        worker.port = message.port!;
        resolve();
      } else if (message.event !== undefined) {
        onEvent?.(worker, message);
      } else if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.result);
      }
    });
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('worker died'));
    pending.clear();
  });
  await ready;
  return worker;
}

export const alive = (worker: Worker): boolean => worker.child.exitCode === null && worker.child.signalCode === null;

/** SIGKILL, resolved once the process is gone. */
export function kill(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    if (!alive(worker)) return resolve();
    worker.child.once('exit', () => resolve());
    worker.child.kill('SIGKILL');
  });
}

/** Delivers a received-payment notification for `e2eid`: the answer's status, 0 when none came. */
export function deliver(worker: Worker, e2eid: string): Promise<number> {
  return fetch(`http://127.0.0.1:${worker.port}/webhook/recebidos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      recebidos: [
        {
          endToEndId: e2eid,
          txid: 'fleettxid0000000000000000001',
          valor: '10.00',
          horario: '2026-10-09T20:15:00.358Z',
        },
      ],
    }),
  }).then(
    (response) => response.status,
    () => 0,
  );
}
