/**
 * The fleet at peak (issue 42), measured from outside: received-payment notifications POSTed over
 * loopback to real worker processes (bench/fleet-worker.ts, the built package as a user runs it),
 * each notification delivered twice, `IN_FLIGHT` deliveries in flight. Two processes on one real
 * PostgreSQL (fsync on), the duplicate to the other process, against the ceiling measured in the
 * same run: the in-memory store in one process, the duplicate to the same process. A duplicate
 * goes two windows of deliveries after its first (`LAG`): most find their first answered, a few
 * (the row says how many) arrive while it is still in flight.
 *
 * Counted: the loopback service's confirmation GETs (test/store/fleet-provider.ts), the
 * statements each worker sends through its pool (every one a round trip: the store's and the
 * callback's INSERT through `tx`), and exactly once: every payment called back once, its row
 * written once, every delivery answered 200. A run that breaks it fails the bench.
 *
 * `FLEET_PAYMENTS` (default 2,000) and `FLEET_ROUNDS` (default 3) shorten a run while developing.
 */
import pg from 'pg';
import { startPostgres, type TestPostgres } from '../test/support/postgres.ts';
import { startFleetProvider, type FleetProvider } from '../test/store/fleet-provider.ts';
import { deliver, kill, spawnWorker, type Worker } from '../test/store/fleet-process.ts';
import { fmt, interleave, median, pairedRatio, quantile, type Row } from './support.ts';

const PAYMENTS = Number(process.env['FLEET_PAYMENTS'] ?? 2_000);
const ROUNDS = Number(process.env['FLEET_ROUNDS'] ?? 3);
const WARM_UP = 200;
export const IN_FLIGHT = 32;
/** Deliveries between a notification's first delivery and its duplicate: two windows of deliveries in flight. */
const LAG = 2 * IN_FLIGHT;
const WORKER = new URL('fleet-worker.ts', import.meta.url).pathname;
const KEY = Buffer.alloc(32, 5).toString('base64');

/** The fleet of two processes on PostgreSQL, or one process on the in-memory store. */
export type Setup = 'postgres' | 'memory';

/** One run's figures. */
export interface FleetRun {
  payments: number;
  deliveries: number;
  paymentsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  getsPerDelivery: number;
  /** GETs beyond the first one of a payment, for duplicates sent after their first delivery was answered. */
  lateDuplicateGets: number;
  /** The same for duplicates sent while their first delivery was in flight, and how many those were. */
  earlyDuplicateGets: number;
  earlyDuplicates: number;
  roundTripsPerPayment: number;
  /** How exactly once broke ([] when it held). */
  breaks: string[];
}

export interface Fleet {
  /** Delivers `payments` new payments twice each to `setup`'s processes. */
  run(setup: Setup, payments: number): Promise<FleetRun>;
  close(): Promise<void>;
}

interface WorkerStats {
  called: string[];
  statements: number;
}

const e2eid = (n: number) => `E1234567820261009${String(n).padStart(15, '0')}`;

/** Starts PostgreSQL (fsync on), the loopback service, two PostgreSQL workers and one in-memory worker. */
export async function startFleet(): Promise<Fleet> {
  let db: TestPostgres | undefined;
  let pool: pg.Pool | undefined;
  let service: FleetProvider | undefined;
  const workers: Worker[] = [];
  const close = async () => {
    await Promise.all(workers.map(kill));
    await service?.close();
    await pool?.end();
    await db?.stop();
  };
  try {
    db = await startPostgres({ durable: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => undefined);
    const { createPostgresStore } = (await import(
      'instant-payments/postgres' as string
    )) as typeof import('../src/postgres.ts');
    await createPostgresStore({ pool }).migrate();
    await pool.query('CREATE TABLE fleet_paid (e2eid text NOT NULL, pid int NOT NULL)');
    service = await startFleetProvider();
    const env = { DB_URL: db.url, ENCRYPTION_KEY: KEY, SERVICE_URL: service.url };
    workers.push(
      ...(await Promise.all(
        ['postgres', 'postgres', 'memory'].map((store) => spawnWorker({ ...env, STORE: store }, undefined, WORKER)),
      )),
    );
  } catch (error) {
    await close();
    throw error;
  }
  const [first, second, memory] = workers as [Worker, Worker, Worker];
  let issued = 0;

  const run = async (setup: Setup, payments: number): Promise<FleetRun> => {
    const targets = setup === 'postgres' ? [first, second] : [memory, memory];
    const processes = [...new Set(targets)];
    const ids = Array.from({ length: payments }, () => e2eid(++issued));
    await Promise.all(processes.map((worker) => worker.call<WorkerStats>({ cmd: 'stats' })));

    // Payment p's first delivery goes to targets[p % 2], its duplicate LAG deliveries later to the other one.
    const lag = LAG / 2;
    const queue: Array<{ payment: number; copy: 0 | 1 }> = [];
    for (let i = 0; i < payments + lag; i++) {
      if (i < payments) queue.push({ payment: i, copy: 0 });
      if (i >= lag) queue.push({ payment: i - lag, copy: 1 });
    }
    const firstAnswered = new Set<number>();
    const latencies: number[] = [];
    const statuses: number[] = [];
    const early = new Set<number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < queue.length) {
          const { payment, copy } = queue[next++]!;
          if (copy === 1 && !firstAnswered.has(payment)) early.add(payment);
          const sent = performance.now();
          statuses.push(await deliver(targets[(payment + copy) % 2]!, ids[payment]!));
          latencies.push(performance.now() - sent);
          if (copy === 0) firstAnswered.add(payment);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const stats = await Promise.all(processes.map((worker) => worker.call<WorkerStats>({ cmd: 'stats' })));
    const rows = setup === 'postgres' ? await rowsOf(pool!, ids) : undefined;
    return {
      payments,
      deliveries: queue.length,
      paymentsPerSecond: payments / seconds,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      ...duplicateGets(ids, service!.paymentGets, early),
      roundTripsPerPayment: stats.reduce((sum, s) => sum + s.statements, 0) / payments,
      earlyDuplicates: early.size,
      breaks: exactlyOnceBreaks(
        ids,
        stats.flatMap((s) => s.called),
        rows,
        statuses,
      ),
    };
  };
  return { run, close };
}

/** GETs per delivery; GETs beyond one per payment, for duplicates sent `early` (payment indexes) and the others. */
function duplicateGets(
  ids: readonly string[],
  gets: ReadonlyMap<string, number>,
  early: ReadonlySet<number>,
): Pick<FleetRun, 'getsPerDelivery' | 'lateDuplicateGets' | 'earlyDuplicateGets'> {
  let total = 0;
  let late = 0;
  let inFlight = 0;
  for (const [payment, id] of ids.entries()) {
    const count = gets.get(id) ?? 0;
    total += count;
    if (early.has(payment)) inFlight += Math.max(0, count - 1);
    else late += Math.max(0, count - 1);
  }
  return { getsPerDelivery: total / (2 * ids.length), lateDuplicateGets: late, earlyDuplicateGets: inFlight };
}

/** Rows of the user's table per e2eid of `ids`. */
async function rowsOf(pool: pg.Pool, ids: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ e2eid: string; n: number }>(
    'SELECT e2eid, count(*)::int AS n FROM fleet_paid WHERE e2eid = ANY($1) GROUP BY e2eid',
    [ids],
  );
  return new Map(rows.map((row) => [row.e2eid, row.n]));
}

/**
 * How exactly once broke for the payments `e2eids` (empty when it held): each must be called back
 * once (`called`: every callback's e2eid), have one row (`rows`, when there is a table), and every
 * delivery must have been answered 200 (`statuses`; 0 for no answer).
 */
export function exactlyOnceBreaks(
  e2eids: readonly string[],
  called: readonly string[],
  rows: ReadonlyMap<string, number> | undefined,
  statuses: readonly number[],
): string[] {
  const breaks: string[] = [];
  const callbacks = new Map<string, number>();
  for (const id of called) callbacks.set(id, (callbacks.get(id) ?? 0) + 1);
  const check = (counts: ReadonlyMap<string, number>, what: string, total: number) => {
    const wrong = e2eids.filter((id) => counts.get(id) !== 1);
    if (wrong.length > 0 || total !== e2eids.length) {
      const example = wrong[0] === undefined ? '' : `; ${wrong[0]}: ${counts.get(wrong[0]) ?? 0}`;
      breaks.push(`${total} ${what} for ${e2eids.length} payments, ${wrong.length} not exactly once${example}`);
    }
  };
  check(callbacks, 'callbacks', called.length);
  if (rows)
    check(
      rows,
      'rows',
      [...rows.values()].reduce((sum, n) => sum + n, 0),
    );
  const refused = new Map<number, number>();
  for (const status of statuses) if (status !== 200) refused.set(status, (refused.get(status) ?? 0) + 1);
  if (refused.size > 0) {
    const counts = [...refused].map(([status, n]) => `${n} × ${status === 0 ? 'no answer' : status}`).join(', ');
    breaks.push(`deliveries not answered 200: ${counts}`);
  }
  return breaks;
}

/**
 * For `npm run bench`: after a warm-up of each, `ROUNDS` rounds of the fleet and of its in-memory
 * baseline interleaved; each figure the median of its rounds, the ratio the median of the rounds' ratios.
 */
export async function measure(): Promise<Row[]> {
  const fleet = await startFleet();
  const all: FleetRun[] = [];
  let runs: Record<string, FleetRun[]>;
  try {
    const once = async (setup: Setup, payments: number) => {
      const run = await fleet.run(setup, payments);
      all.push(run);
      return run;
    };
    await once('memory', WARM_UP);
    await once('postgres', WARM_UP);
    runs = await interleave(ROUNDS, {
      postgres: () => once('postgres', PAYMENTS),
      memory: () => once('memory', PAYMENTS),
    });
  } finally {
    await fleet.close();
  }
  const broken = all.filter((run) => run.breaks.length > 0);
  if (broken.length > 0) {
    console.error(`\n  FLEET: EXACTLY ONCE BROKE in ${broken.length} of ${all.length} runs:`);
    for (const run of broken) for (const line of run.breaks) console.error(`    ${line}`);
    process.exitCode = 1;
  }
  const of = (setup: Setup, field: (run: FleetRun) => number) => median((runs[setup] ?? []).map(field));
  const latency = (setup: Setup) =>
    `p50 ${fmt.fixed(of(setup, (r) => r.p50Ms))} ms, p99 ${fmt.fixed(of(setup, (r) => r.p99Ms))} ms`;
  const ratio = pairedRatio(runs, 'postgres', 'memory', (run) => run.paymentsPerSecond);
  const total = (field: (run: FleetRun) => number) => (runs['postgres'] ?? []).reduce((sum, r) => sum + field(r), 0);
  const memoryBaseline = 'in-memory store, 1 process';
  return [
    {
      measure:
        `fleet at peak: 2 processes on PostgreSQL (fsync on), ${fmt.int(PAYMENTS)} payments each notified twice ` +
        `(the duplicate to the other process, ${LAG} deliveries later), ${IN_FLIGHT} deliveries in flight: ` +
        `payments/s (median of ${ROUNDS} rounds interleaved with the baseline's)`,
      value: `${fmt.int(of('postgres', (r) => r.paymentsPerSecond))}/s (${latency('postgres')})`,
      baseline: `${memoryBaseline}, the duplicate to it ${fmt.int(of('memory', (r) => r.paymentsPerSecond))}/s (${latency('memory')})`,
      ratio: `${fmt.ratio(ratio.median)} (rounds' IQR ${fmt.ratio(ratio.q1)}–${fmt.ratio(ratio.q3)})`,
      goal: '≥ 0.5x the in-memory single process',
      holds: ratio.median >= 0.5,
    },
    {
      measure:
        `fleet at peak: service GETs per delivery, 2 PostgreSQL processes (the ${ROUNDS} rounds' duplicates sent after ` +
        `their first delivery was answered: ${fmt.int(total((r) => r.lateDuplicateGets))} GETs for ` +
        `${fmt.int(total((r) => r.payments - r.earlyDuplicates))}; sent while it was in flight: ` +
        `${fmt.int(total((r) => r.earlyDuplicateGets))} GETs for ${fmt.int(total((r) => r.earlyDuplicates))})`,
      value: fmt.fixed(
        of('postgres', (r) => r.getsPerDelivery),
        2,
      ),
      baseline: `${memoryBaseline} ${fmt.fixed(
        of('memory', (r) => r.getsPerDelivery),
        2,
      )}`,
      ratio: '-',
      goal: '0.5: no GET for a duplicate sent after its first was answered',
      holds: total((r) => r.lateDuplicateGets) === 0,
    },
    {
      measure:
        'fleet at peak: PostgreSQL round trips per payment (statements counted through each process’s pool, the callback’s INSERT through tx included)',
      value: fmt.fixed(
        of('postgres', (r) => r.roundTripsPerPayment),
        1,
      ),
      baseline: `${memoryBaseline} ${fmt.fixed(
        of('memory', (r) => r.roundTripsPerPayment),
        1,
      )}`,
      ratio: '-',
      goal: '(for reference)',
      holds: undefined,
    },
    {
      measure:
        'fleet at peak: exactly once (each payment called back once and its row written once through tx, every delivery answered 200)',
      value: `held in ${all.length - broken.length} of ${all.length} runs (warm-ups included)`,
      baseline: broken.length === 0 ? '-' : (broken[0]?.breaks.join('; ') ?? '-'),
      ratio: '-',
      goal: 'every run',
      holds: broken.length === 0,
    },
  ];
}
