/**
 * Sweeps across real processes (test/e2e/sweep-worker.ts, each with its own client and handler)
 * on one real PostgreSQL store, against the sandbox over real HTTP, every notification lost for
 * good: three processes sweeping the same period hand each payment over once between them, and a
 * process killed with SIGKILL inside a callback halfway through a sweep leaves no gap for the
 * next process's `sweep()`. Effects are counted in the user's own table (written through `tx`)
 * and in a shared start/done log.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTxid, type SweepOptions, type SweepResult } from '../../src/index.ts';
import { createPostgresStore, type PostgresStore } from '../../src/postgres.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { kill, spawnWorker, type Worker } from '../store/fleet-process.ts';
import { startReceiver, useSandbox, type Receiver } from './harness.ts';

const s = useSandbox({ redelivery: { attempts: 1 } });
const WORKER = join(import.meta.dirname, 'sweep-worker.ts');
/** Payments per test: six pages of 50. */
const N = 300;
const PAGE = 50;

let db: TestPostgres;
let pool: pg.Pool;
let store: PostgresStore;
let receiver: Receiver;
let webhookHits = 0;
let folder: string;
let log: string;
const spawned: Worker[] = [];

beforeAll(async () => {
  db = await startPostgres();
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  store = createPostgresStore({ pool });
  await store.migrate();
  await pool.query('CREATE TABLE swept (e2eid text NOT NULL, pid int NOT NULL)');
  receiver = await startReceiver((_req, res) => {
    webhookHits++;
    res.writeHead(500).end();
  });
  await s.api.webhook.put(s.receiverKey, `${receiver.url}/hook`);
  // Every notification is lost for good: only sweeps find the payments.
  s.sandbox.dropNotifications({ rate: 1 });
  folder = mkdtempSync(join(tmpdir(), 'instant-sweep-fleet-'));
  log = join(folder, 'callbacks.log');
  writeFileSync(log, '');
}, 30_000);

afterAll(async () => {
  await Promise.all(spawned.map(kill));
  receiver?.close();
  await pool?.end();
  await db?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A sweeping process for the handler `name` (see sweep-worker.ts); `events` gets what it reports. */
async function sweeper(
  name: string,
  extraEnv: Record<string, string> = {},
  events?: (event: string, e2eid: string | undefined) => void,
): Promise<Worker> {
  const env = {
    DB_URL: db.url,
    CLIENT_OPTIONS: JSON.stringify(s.sandbox.clientOptions()),
    LOG_FILE: log,
    NAME: name,
    ...extraEnv,
  };
  const worker = await spawnWorker(env, (_worker, { event, e2eid }) => events?.(event, e2eid), WORKER);
  spawned.push(worker);
  return worker;
}

const sweep = (worker: Worker, options: SweepOptions) => worker.call<SweepResult>({ cmd: 'sweep', options });

/** Pays `N` new charges (8 at a time); resolves with their e2eids and a period that holds them. */
async function payments(): Promise<{ e2eids: string[]; from: string; until: string }> {
  const from = new Date().toISOString();
  const notified = s.sandbox.notifications().length;
  const e2eids: string[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (e2eids.length < N) {
        const txid = generateTxid();
        e2eids.push('');
        const at = e2eids.length - 1;
        await s.api.cob.create(txid, {
          calendario: { expiracao: 3600 },
          valor: { original: '10.00' },
          chave: s.receiverKey,
        });
        e2eids[at] = (await s.sandbox.payCharge(txid)).endToEndId;
      }
    }),
  );
  const lost = s.sandbox.notifications().slice(notified);
  expect(lost.map((n) => n.state)).toEqual(e2eids.map(() => 'dropped'));
  expect(webhookHits).toBe(0);
  return { e2eids, from, until: new Date(Date.now() + 1_000).toISOString() };
}

/** The rows of the user's table for `e2eids`: how many per payment, and per process. */
async function rows(e2eids: readonly string[]): Promise<{ perPayment: number[]; perPid: Map<number, number> }> {
  const { rows } = await pool.query<{ e2eid: string; pid: number }>(
    'SELECT e2eid, pid FROM swept WHERE e2eid = ANY($1)',
    [e2eids],
  );
  const perPayment = new Map<string, number>();
  const perPid = new Map<number, number>();
  for (const row of rows) {
    perPayment.set(row.e2eid, (perPayment.get(row.e2eid) ?? 0) + 1);
    perPid.set(row.pid, (perPid.get(row.pid) ?? 0) + 1);
  }
  return { perPayment: e2eids.map((e2eid) => perPayment.get(e2eid) ?? 0), perPid };
}

/** `start` and `done` lines of the shared log for each of `e2eids`. */
function runs(e2eids: readonly string[]): Array<{ start: number; done: number }> {
  const counts = new Map<string, { start: number; done: number }>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const [kind, , e2eid] = line.split(' ');
    if (e2eid === undefined || (kind !== 'start' && kind !== 'done')) continue;
    const count = counts.get(e2eid) ?? { start: 0, done: 0 };
    count[kind]++;
    counts.set(e2eid, count);
  }
  return e2eids.map((e2eid) => counts.get(e2eid) ?? { start: 0, done: 0 });
}

const once = (e2eids: readonly string[]) => e2eids.map(() => ({ start: 1, done: 1 }));

describe('sweep() across processes (PostgreSQL store)', () => {
  it('three processes sweeping the same period at once hand every payment over exactly once between them', async () => {
    const { e2eids, from, until } = await payments();
    const workers = await Promise.all([sweeper('fleet'), sweeper('fleet'), sweeper('fleet')]);
    try {
      // Different page sizes and concurrencies, so that the processes meet in different places.
      const results = await Promise.all([
        sweep(workers[0]!, { from, until, pageSize: PAGE }),
        sweep(workers[1]!, { from, until, pageSize: PAGE, concurrency: 3 }),
        sweep(workers[2]!, { from, until, pageSize: 70, concurrency: 2 }),
      ]);
      for (const result of results) {
        expect(result).toMatchObject({ seen: N, until });
        expect(result.handled + result.duplicates).toBe(N);
      }
      expect(results.reduce((sum, result) => sum + result.handled, 0)).toBe(N);
      const written = await rows(e2eids);
      expect(written.perPayment).toEqual(e2eids.map(() => 1));
      // Each process's rows are what its sweep says it handled.
      expect(workers.map((w) => written.perPid.get(w.child.pid!) ?? 0)).toEqual(results.map((r) => r.handled));
      expect(runs(e2eids)).toEqual(once(e2eids));
      expect(await store.get('sweep:fleet')).toBe(until);
    } finally {
      await Promise.all(workers.map(kill));
    }
  }, 30_000);

  it('a process killed (SIGKILL) inside a callback halfway through a sweep: the next process resumes without a gap', async () => {
    const { e2eids, from, until } = await payments();
    // The 130th callback (third page of six) blocks after its write, and its process dies there.
    const BLOCK_AT = 130;
    let blocked!: (e2eid: string) => void;
    const blockedOn = new Promise<string>((resolve) => (blocked = resolve));
    // No overlap: the resumed sweep starts exactly at the cursor, so a cursor moved too far shows as a gap.
    const env = { BLOCK_AT: String(BLOCK_AT), SWEEP_OVERLAP_MS: '0' };
    const victim = await sweeper('crash', env, (event, e2eid) => event === 'blocked' && blocked(e2eid!));
    const dying = sweep(victim, { from, until, pageSize: PAGE });
    const killedOn = await blockedOn;
    await kill(victim);
    await expect(dying).rejects.toThrow('worker died');

    // What the dead process finished stays; its last write rolled back; the cursor did not move.
    const before = await rows(e2eids);
    expect(before.perPayment.filter((n) => n === 1)).toHaveLength(BLOCK_AT - 1);
    expect(before.perPayment.filter((n) => n > 1)).toEqual([]);
    expect(before.perPayment[e2eids.indexOf(killedOn)]).toBe(0);
    expect(await store.get('sweep:crash')).toBe(from);

    const fresh = await sweeper('crash', { SWEEP_OVERLAP_MS: '0' });
    try {
      const resumed = await sweep(fresh, { pageSize: PAGE });
      expect(resumed).toMatchObject({ seen: N, handled: N - (BLOCK_AT - 1), duplicates: BLOCK_AT - 1 });
      const after = await rows(e2eids);
      expect(after.perPayment).toEqual(e2eids.map(() => 1));
      expect(after.perPid.get(victim.child.pid!)).toBe(BLOCK_AT - 1);
      expect(after.perPid.get(fresh.child.pid!)).toBe(N - (BLOCK_AT - 1));
      // Every payment started and finished once, but the one the dead process was inside: started twice.
      const expected = once(e2eids);
      expected[e2eids.indexOf(killedOn)] = { start: 2, done: 1 };
      expect(runs(e2eids)).toEqual(expected);
      expect(await store.get('sweep:crash')).toBe(resumed.until);
    } finally {
      await kill(fresh);
    }
  }, 30_000);
});
