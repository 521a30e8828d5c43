/**
 * The nemesis suite's runner: seeded schedules of payments, recoveries and notification
 * deliveries run by real worker processes (test/store/fleet-worker.ts) on a real PostgreSQL,
 * each behind its own TCP proxy, against the loopback cash-out provider, while faults are
 * injected at seeded times: SIGKILL of a worker (at random, mid-payment, mid-callback,
 * mid-recover), its database link cut or black-holed, the provider slow, cutting its answers
 * (mid-body too), answering 5xx or refusing status lookups, the balance short. Once the faults
 * stop, `recover()` runs until no intent is open; then the invariants are checked against the
 * provider's own ledger and the database:
 *
 * 1. at most one order per idempotency key, and no order POSTed under a key that already has one
 *    (the provider's deduplication is never what keeps a payment single);
 * 2. nothing reports "not placed" for a key whose order exists: no order recorded while its key
 *    had no open intent, no `not-placed` outcome recorded after the key's order was, no
 *    `pay()` refused (balance, reused key) or `recover()` reporting `not-placed` for an order
 *    recorded before it started;
 * 3. every order at the provider is one a `pay()` asked for with its key (amount and destination);
 *    a planted intent is never paid; every `pay()` that resolved names an order the provider holds;
 * 4. each notification's `tx` effect exists exactly once (a notification answered 200 by a duplicate in
 *    flight whose running delivery then failed is delivered once more first, as a sweep would find it);
 * 5. no intent is left open after the final `recover()`; no worker died but by our SIGKILL.
 *
 * A schedule is the seed's (a small PRNG); the interleaving is the machine's, so a replay
 * (`NEMESIS_SEED=<seed>`) runs the same schedule, not always the same race. The provider's
 * slowness stays under half a lease: an order that lands later than `intents.leaseMs` plus
 * `settleDelayMs` after its process lost the key's lease is beyond what a lease can promise (the
 * README's `settleDelayMs`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CashOutClient, type PayParams, type RecoveredPayment } from '../../src/index.ts';
import { createPostgresStore, type PostgresStore } from '../../src/postgres.ts';
import { CPF, EVP, PHONE } from '../cash-out/fixtures.ts';
import {
  startProvider,
  TOKEN,
  type LookupFault,
  type PostFault,
  type Provider,
} from '../cash-out/loopback-provider.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { startFleetProvider, type FleetProvider } from './fleet-provider.ts';
import { alive, deliver, kill, spawnWorker, type Worker, type WorkerEvent } from './fleet-process.ts';
import { seededRandom } from '../support/random.ts';

const KEY = Buffer.alloc(32, 9).toString('base64');
const LEASE_MS = 1_000;
/** Payments and deliveries start within the first 1.5 s of a schedule; faults and recoveries within 2.5 s (past a killed process's lease). */
const WINDOW_MS = 1_500;
const FAULT_WINDOW_MS = 2_500;
const SETTLE_MS = 100;
const BALANCE_CENTS = 100_000_000;
const FAULTS = [
  'kill',
  'kill-mid-payment',
  'kill-mid-callback',
  'kill-mid-recover',
  'link-cut',
  'link-stall',
  'provider-slow',
  'provider-cut-mid-body',
  'provider-5xx',
  'provider-cut',
  'lookup-refused',
  'balance-short',
] as const;
type FaultKind = (typeof FAULTS)[number];

export interface Violation {
  seed: number;
  invariant: string;
  detail: string;
}

export interface NemesisFigures {
  schedules: number;
  /** Faults injected, by kind (an armed kill counts once it fired). */
  faults: Record<string, number>;
  /** Workers killed with SIGKILL by the nemesis. */
  kills: number;
  /** Orders the provider recorded; POSTs it received. */
  orders: number;
  posts: number;
  pays: number;
  recovers: number;
  deliveries: number;
  /**
   * Notifications answered 200 by a duplicate in flight whose running delivery then failed (500
   * or no answer), left without effect until delivered again (the service's or a sweep's part).
   */
  lostInFlight: number;
  /** Intents planted in the table (never to be paid). */
  planted: number;
  violations: Violation[];
}

export interface Nemesis {
  readonly figures: NemesisFigures;
  /** Runs the schedule of `seed`; resolves with its violations (also added to `figures`). */
  run(seed: number): Promise<Violation[]>;
  /** Stops every process, proxy, server and the database; safe to call twice. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const E2E = (seed: number, n: number) => `E1234567820261009${String(seed * 10 + n).padStart(15, '0')}`;
const errorName = (error: unknown) => String((error as Error).message).split(':')[0] ?? '';

interface Call {
  kind: 'pay' | 'recover';
  worker: Worker;
  key?: string;
  params?: PayParams;
  start: number;
  end?: number;
  result?: unknown;
  error?: string;
  done: Promise<void>;
}

export async function startNemesis(options: { workers?: number } = {}): Promise<Nemesis> {
  const size = options.workers ?? 4;
  const figures: NemesisFigures = {
    schedules: 0,
    faults: {},
    kills: 0,
    orders: 0,
    posts: 0,
    pays: 0,
    recovers: 0,
    deliveries: 0,
    lostInFlight: 0,
    planted: 0,
    violations: [],
  };
  const stops: Array<() => unknown> = [];
  const workers: Array<Worker | undefined> = [];
  const proxies: TcpProxy[] = [];
  /** Slots whose worker is being restarted. */
  const restarting = new Map<number, Promise<Worker>>();
  let closing = false;
  const close = async () => {
    closing = true;
    await Promise.allSettled(restarting.values());
    await Promise.all(workers.map((w) => w && kill(w)));
    for (const stop of stops.splice(0).reverse()) await Promise.resolve(stop()).catch(() => undefined);
  };

  /** What the current schedule sees; replaced per schedule. */
  let now = freshState(0);
  try {
    const db: TestPostgres = await startPostgres();
    stops.push(() => db.stop());
    const pool = new pg.Pool({ connectionString: db.url, max: 6 });
    pool.on('error', () => undefined);
    stops.push(() => pool.end());
    const store: PostgresStore = createPostgresStore({ pool, encryptionKey: KEY });
    await store.migrate();
    await pool.query('CREATE TABLE fleet_orders (e2eid text PRIMARY KEY, paid int NOT NULL DEFAULT 0)');
    const folder = mkdtempSync(join(tmpdir(), 'instant-nemesis-'));
    stops.push(() => rmSync(folder, { recursive: true, force: true }));
    const log = join(folder, 'callbacks.log');
    writeFileSync(log, '');
    const service: FleetProvider = await startFleetProvider();
    stops.push(() => service.close());

    const provider: Provider = await startProvider({
      postFault: () => now.postFaults.shift() ?? 'ok',
      lookupFault: () => now.lookupFaults.shift() ?? now.lookupPeriod ?? 'ok',
      delay: () => now.slowMs,
      balanceDelay: () => now.slowMs,
      onOrder: async (key) => {
        figures.posts++;
        if (provider.orders.has(key))
          now.violation('1 one order per key', `a second order was POSTed under ${key}, which has one`);
        const open = await pool.query(
          'SELECT 1 FROM instant_payments_values WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())',
          [`intent-open:${key}`],
        );
        now.openAtArrival.set(key, open.rowCount === 1);
        if (now.killOnOrder) {
          now.killOnOrder = false;
          const victim = now.calls.find(
            (c) => c.end === undefined && alive(c.worker) && (c.key === key || c.kind === 'recover'),
          )?.worker;
          if (victim) await nemesisKill(victim, 'kill-mid-payment');
        }
      },
      onRecorded: (key) => {
        now.recordedAt.set(key, Date.now());
        if (now.openAtArrival.get(key) === false)
          now.violation(
            '2 never "not placed" while it exists',
            `the order under ${key} was recorded while its key had no open intent`,
          );
      },
    });
    stops.push(() => provider.close());
    const balance = () => provider.setBalanceCents(BALANCE_CENTS);

    const cashOut = new CashOutClient({
      baseUrl: provider.url,
      auth: { getToken: async () => TOKEN },
      store,
      maxRetries: 0,
      timeout: 1_000,
      intents: { leaseMs: LEASE_MS },
    });
    for (let i = 0; i < size; i++) proxies.push(await startTcpProxy({ port: db.port }));
    stops.push(() => Promise.all(proxies.map((p) => p.close())));

    const onEvent = (worker: Worker, message: WorkerEvent) => {
      if (message.event === 'outcome')
        now.outcomes.push({ key: String(message['key']), state: String(message['state']), at: Number(message['at']) });
      if (message.event === 'inside' && now.killInCallback) {
        now.killInCallback = false;
        void nemesisKill(worker, 'kill-mid-callback');
      }
    };
    const start = async (slot: number) => {
      const worker = await spawnWorker(
        {
          DB_URL: proxies[slot]!.via(db.url),
          ENCRYPTION_KEY: KEY,
          PROVIDER_URL: service.url,
          CASH_OUT_URL: provider.url,
          CASH_OUT_TIMEOUT_MS: '1000',
          LOG_FILE: log,
          LEASE_MS: String(LEASE_MS),
          WAIT_MS: '1500',
          HOLD_MS: '100',
        },
        onEvent,
      );
      workers[slot] = worker;
      // Started while the suite closes: it goes too.
      if (closing) await kill(worker);
      worker.child.on('exit', (code, signal) => {
        if (!closing && signal !== 'SIGKILL')
          now.violation('5 no crash', `worker ${worker.child.pid} exited by itself (code ${code}, signal ${signal})`);
      });
      return worker;
    };
    await Promise.all(Array.from({ length: size }, (_, slot) => start(slot)));
    const live = () => workers.filter((w): w is Worker => w !== undefined && alive(w));

    async function nemesisKill(worker: Worker, kind: FaultKind): Promise<void> {
      if (!alive(worker)) return;
      count(kind);
      figures.kills++;
      await kill(worker);
      const slot = workers.indexOf(worker);
      if (slot >= 0 && !restarting.has(slot)) {
        proxies[slot]!.restore();
        const again = start(slot).finally(() => restarting.delete(slot));
        again.catch(() => undefined);
        restarting.set(slot, again);
      }
    }
    const count = (kind: string) => void (figures.faults[kind] = (figures.faults[kind] ?? 0) + 1);

    async function run(seed: number): Promise<Violation[]> {
      const rnd = seededRandom(seed);
      const int = (n: number) => Math.floor(rnd() * n);
      const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
      now = freshState(seed);
      const state = now;
      balance();
      const timers: Array<ReturnType<typeof setTimeout>> = [];
      try {
        const at = (ms: number, action: () => unknown) =>
          timers.push(setTimeout(() => void Promise.resolve(action()).catch(() => undefined), ms));
        const someWorker = () => {
          const list = live();
          return list.length === 0 ? undefined : list[int(list.length)];
        };

        // The payments: a handful of keys, some paid by several processes, one maybe reused for another payment.
        const asked = new Map<string, PayParams[]>();
        const keyCount = 3 + int(3);
        for (let k = 0; k < keyCount; k++) {
          const key = `n${seed}k${k}`;
          const amount = `${1 + int(90)}.${String(int(100)).padStart(2, '0')}`;
          const destination = pick([EVP, CPF, PHONE]);
          const variants: PayParams[] = [{ key: destination, amount, creditorDocument: CPF, idempotencyKey: key }];
          if (k === 0 && rnd() < 0.5)
            variants.push({
              key: destination,
              amount: `${Number(amount.split('.')[0]) + 1}.00`,
              creditorDocument: CPF,
              idempotencyKey: key,
            });
          asked.set(key, variants);
        }
        const keys = [...asked.keys()];
        const pays = 6 + int(7);
        for (let i = 0; i < pays; i++) {
          const variants = asked.get(pick(keys))!;
          const params = variants.length > 1 && rnd() < 0.3 ? variants[1]! : variants[0]!;
          // Some are sent by two or three processes at the same moment.
          const copies = rnd() < 0.35 ? 2 + int(2) : 1;
          at(int(WINDOW_MS), () => {
            for (const worker of live()
              .sort(() => rnd() - 0.5)
              .slice(0, copies)) {
              launch(
                state,
                { kind: 'pay', worker, key: params.idempotencyKey!, params },
                worker.call({ cmd: 'pay', params }),
              );
            }
          });
        }
        const recovers = 1 + int(3);
        for (let i = 0; i < recovers; i++) {
          const unknown = rnd() < 0.5 ? 'place' : 'mark';
          at(int(FAULT_WINDOW_MS), () => startRecover(state, someWorker(), unknown));
        }
        // A planted intent (plain JSON, a thief's key): never to be paid.
        const planted = rnd() < 0.3 ? `n${seed}planted` : undefined;
        if (planted) {
          figures.planted++;
          const body = {
            instantKey: 'thief@example.com',
            creditorDocument: CPF,
            payment: { currency: 'BRL', amount: '9999.00' },
          };
          await store.set(`intent-open:${planted}`, JSON.stringify({ body, createdAt: new Date().toISOString() }));
        }
        // The notifications: each delivered two to four times, to any process, at once or later.
        const notifications = Array.from({ length: 2 + int(3) }, (_, n) => E2E(seed, n));
        await pool.query('INSERT INTO fleet_orders (e2eid) SELECT unnest($1::text[])', [notifications]);
        for (const e2eid of notifications) {
          const base = int(WINDOW_MS);
          const copies = 2 + int(3);
          for (let c = 0; c < copies; c++) {
            at(base + (rnd() < 0.5 ? 0 : int(400)), async () => {
              const worker = someWorker();
              if (!worker) return;
              figures.deliveries++;
              if ((await deliver(worker, e2eid)) === 200) state.delivered.add(e2eid);
              else state.failedDeliveries.add(e2eid);
            });
          }
        }
        // The faults.
        const faultCount = 3 + int(5);
        for (let f = 0; f < faultCount; f++) {
          const kind = pick(FAULTS);
          const when = int(FAULT_WINDOW_MS);
          const slot = int(size);
          const length = 200 + int(1_000);
          const variant = rnd();
          at(when, () => inject(state, kind, slot, length, variant));
        }

        await sleep(FAULT_WINDOW_MS + 200);
        for (const timer of timers) clearTimeout(timer);
        // The faults stop.
        state.stopped = true;
        state.killOnOrder = false;
        state.killInCallback = false;
        state.postFaults.length = 0;
        state.lookupFaults.length = 0;
        state.lookupPeriod = undefined;
        state.slowMs = 0;
        balance();
        for (const proxy of proxies) proxy.restore();
        await Promise.race([Promise.all(state.calls.map((c) => c.done)), sleep(20_000)]);
        for (const call of state.calls.filter((c) => c.end === undefined)) {
          state.violation(
            '5 no crash',
            `a ${call.kind} of worker ${call.worker.child.pid} did not end 20 s after the faults stopped`,
          );
          await kill(call.worker);
        }
        await Promise.all(restarting.values());
        for (let slot = 0; slot < size; slot++) if (!workers[slot] || !alive(workers[slot]!)) await start(slot);
        // Past the leases of the processes killed.
        await sleep(LEASE_MS + 100);

        // Recover until nothing is open (a planted row stays, reported tampered).
        let open: string[] = [];
        for (let round = 0; round < 10; round++) {
          const results = await cashOut.recover({ settleDelayMs: SETTLE_MS }).catch((error: unknown) => {
            state.violation('5 nothing left open', `the final recover() failed: ${String(error)}`);
            return [] as RecoveredPayment[];
          });
          for (const result of results) {
            if (
              result.outcome === 'not-placed' &&
              result.error === undefined &&
              provider.orders.has(result.idempotencyKey)
            ) {
              state.violation(
                '2 never "not placed" while it exists',
                `the final recover() reported ${result.idempotencyKey} not placed; the provider has its order`,
              );
            }
            if (result.idempotencyKey === planted && result.outcome !== 'tampered')
              state.violation('3 nothing planted paid', `the planted intent was ${result.outcome}`);
          }
          open = (await store.list('intent-open:'))
            .map((e) => e.key.slice('intent-open:'.length))
            .filter((k) => k !== planted);
          if (open.length === 0) break;
          await sleep(300);
        }
        if (open.length > 0)
          state.violation('5 nothing left open', `intents still open after the final recover(): ${open.join(', ')}`);
        if (planted) await store.delete(`intent-open:${planted}`);

        // Each notification delivered until one delivery answers 200.
        for (const e2eid of notifications) {
          for (let attempt = 0; attempt < 10 && !state.delivered.has(e2eid); attempt++) {
            const list = live();
            if ((await deliver(list[attempt % list.length]!, e2eid)) === 200) state.delivered.add(e2eid);
            else await sleep(200);
          }
        }
        check(state, asked, notifications, planted);
        const effects = async () =>
          (await pool.query('SELECT e2eid, paid FROM fleet_orders WHERE e2eid = ANY($1)', [notifications]))
            .rows as Array<{ e2eid: string; paid: number }>;
        // A duplicate answered 200 while another process ran the callback, and that delivery then
        // failed (500, or killed: no answer): no effect until the notification comes again (the
        // service delivers again after the 500, or a sweep finds it). Delivered again here, as a
        // sweep would. Without a failed delivery, a missing effect stays a violation.
        for (const { e2eid, paid } of await effects()) {
          if (paid !== 0 || !state.delivered.has(e2eid) || !state.failedDeliveries.has(e2eid)) continue;
          figures.lostInFlight++;
          for (let attempt = 0, status = 0; attempt < 10 && status !== 200; attempt++) {
            const list = live();
            status = await deliver(list[attempt % list.length]!, e2eid);
            if (status !== 200) await sleep(200);
          }
        }
        const rows = await effects();
        for (const { e2eid, paid } of rows) {
          if (!state.delivered.has(e2eid)) state.violation('4 effect once', `${e2eid} was never answered 200`);
          else if (paid !== 1) state.violation('4 effect once', `${e2eid}'s effect happened ${paid} times`);
        }
        figures.schedules++;
        figures.orders += keys.filter((k) => provider.orders.has(k)).length;
        figures.violations.push(...state.violations);
        return state.violations;
      } finally {
        for (const timer of timers) clearTimeout(timer);
      }
    }

    function launch(state: State, call: Omit<Call, 'start' | 'done'>, work: Promise<unknown>): void {
      const entry = { ...call, start: Date.now() } as Call;
      if (call.kind === 'pay') figures.pays++;
      else figures.recovers++;
      entry.done = work
        .then(
          (result) => void (entry.result = result),
          (error: unknown) => void (entry.error = errorName(error)),
        )
        .finally(() => (entry.end = Date.now()));
      state.calls.push(entry);
    }

    function startRecover(state: State, worker: Worker | undefined, unknown: 'mark' | 'place'): void {
      if (!worker) return;
      launch(
        state,
        { kind: 'recover', worker },
        worker.call({ cmd: 'recover', settleDelayMs: SETTLE_MS, unknown, totalTimeout: 5_000 }),
      );
    }

    async function inject(state: State, kind: FaultKind, slot: number, length: number, variant: number): Promise<void> {
      if (state.stopped) return;
      const target = workers[slot];
      switch (kind) {
        case 'kill':
          if (target) await nemesisKill(target, kind);
          return;
        case 'kill-mid-payment':
          state.killOnOrder = true;
          return;
        case 'kill-mid-callback':
          state.killInCallback = true;
          return;
        case 'kill-mid-recover': {
          const running = state.calls.find((c) => c.kind === 'recover' && c.end === undefined && alive(c.worker));
          const victim = running?.worker ?? (target && alive(target) ? target : undefined);
          if (!victim) return;
          if (!running) startRecover(state, victim, variant < 0.5 ? 'place' : 'mark');
          await sleep(20 + Math.floor(variant * 200));
          if (!state.stopped) await nemesisKill(victim, kind);
          return;
        }
        case 'link-cut':
          count(kind);
          proxies[slot]!.cut();
          return;
        case 'link-stall':
          count(kind);
          proxies[slot]!.blackhole();
          await sleep(length);
          proxies[slot]!.restore();
          return;
        case 'provider-slow':
          count(kind);
          // Orders, lookups and balances answered late, each by less than half a lease.
          state.slowMs = 50 + Math.floor(variant * (LEASE_MS / 2 - 100));
          await sleep(length);
          state.slowMs = 0;
          return;
        case 'provider-cut-mid-body':
          count(kind);
          if (variant < 0.5) state.postFaults.push('cut-mid-body');
          else state.lookupFaults.push('cut-mid-body');
          return;
        case 'provider-5xx':
          count(kind);
          if (variant < 0.4) state.postFaults.push('500-after-record');
          else if (variant < 0.7) state.postFaults.push('500-before-record');
          else {
            // Every status lookup fails for a while.
            state.lookupPeriod = '500';
            await sleep(length);
            state.lookupPeriod = undefined;
          }
          return;
        case 'provider-cut':
          count(kind);
          state.postFaults.push(
            pick3(variant, ['cut-before-record', 'cut-after-record', 'hang-after-record'] as const),
          );
          return;
        case 'lookup-refused':
          count(kind);
          // The next lookups refused, or all of them for a while.
          if (variant < 0.5) {
            state.lookupFaults.push(pick3(variant * 2, ['401', '403', '429'] as const), 'cut');
          } else {
            // ...while a recover() runs: it must leave what it cannot ask about open.
            state.lookupPeriod = pick3(variant * 2 - 1, ['401', '403', '429'] as const);
            startRecover(state, target && alive(target) ? target : undefined, variant < 0.75 ? 'mark' : 'place');
            await sleep(length);
            state.lookupPeriod = undefined;
          }
          return;
        case 'balance-short':
          count(kind);
          provider.setBalanceCents(0);
          await sleep(length);
          if (!state.stopped) balance();
          return;
      }
    }

    /** Invariants 1 to 3 and 5 from the calls, the outcomes recorded and the provider's ledger. */
    function check(
      state: State,
      asked: Map<string, PayParams[]>,
      notifications: string[],
      planted: string | undefined,
    ): void {
      void notifications;
      const orderOf = (key: string) =>
        provider.orders.get(key) as { instantKey: string; payment: { amount: number } } | undefined;
      const matches = (key: string, params: PayParams) => {
        const order = orderOf(key);
        return order !== undefined && order.instantKey === params.key && order.payment.amount === Number(params.amount);
      };
      for (const [key] of provider.orders) {
        if (key === planted) state.violation('3 nothing planted paid', `the planted intent ${key} was paid`);
        const variants = asked.get(key);
        if (variants && !variants.some((p) => matches(key, p)))
          state.violation('3 as asked', `the order under ${key} matches no pay() with that key`);
      }
      for (const { key, state: outcome, at } of state.outcomes) {
        const recorded = state.recordedAt.get(key);
        if (outcome === 'not-placed' && recorded !== undefined && recorded < at) {
          state.violation(
            '2 never "not placed" while it exists',
            `${key} recorded not placed ${at - recorded} ms after its order was recorded`,
          );
        }
      }
      for (const call of state.calls) {
        if (call.kind === 'pay') {
          const key = call.key!;
          const recorded = state.recordedAt.get(key);
          if (call.error === undefined && !matches(key, call.params!))
            state.violation('3 as asked', `a pay() under ${key} resolved, the provider holds no such order`);
          const refused = call.error === 'InsufficientBalanceError' || call.error === 'IdempotencyKeyReusedError';
          if (refused && recorded !== undefined && recorded < call.start && matches(key, call.params!)) {
            state.violation(
              '2 never "not placed" while it exists',
              `a pay() under ${key} failed with ${call.error}; its order was recorded before it started`,
            );
          }
        } else if (Array.isArray(call.result)) {
          for (const result of call.result as RecoveredPayment[]) {
            const recorded = state.recordedAt.get(result.idempotencyKey);
            if (
              result.outcome === 'not-placed' &&
              !('error' in result) &&
              recorded !== undefined &&
              recorded < call.start
            ) {
              state.violation(
                '2 never "not placed" while it exists',
                `a recover() reported ${result.idempotencyKey} not placed; its order was recorded before it started`,
              );
            }
          }
        }
      }
    }

    return { figures, run, close };
  } catch (error) {
    await close();
    throw error;
  }
}

interface State {
  seed: number;
  stopped: boolean;
  calls: Call[];
  outcomes: Array<{ key: string; state: string; at: number }>;
  recordedAt: Map<string, number>;
  openAtArrival: Map<string, boolean>;
  delivered: Set<string>;
  /** Notifications one delivery of which was answered an error status or not at all. */
  failedDeliveries: Set<string>;
  postFaults: PostFault[];
  lookupFaults: LookupFault[];
  /** The fault of every lookup for now (after `lookupFaults`). */
  lookupPeriod: LookupFault | undefined;
  slowMs: number;
  killOnOrder: boolean;
  killInCallback: boolean;
  violations: Violation[];
  violation(invariant: string, detail: string): void;
}

function freshState(seed: number): State {
  const violations: Violation[] = [];
  return {
    seed,
    stopped: false,
    calls: [],
    outcomes: [],
    recordedAt: new Map(),
    openAtArrival: new Map(),
    delivered: new Set(),
    failedDeliveries: new Set(),
    postFaults: [],
    lookupFaults: [],
    lookupPeriod: undefined,
    slowMs: 0,
    killOnOrder: false,
    killInCallback: false,
    violations,
    violation: (invariant, detail) => void violations.push({ seed, invariant, detail }),
  };
}

function pick3<T>(r: number, list: readonly [T, T, T]): T {
  return list[Math.min(2, Math.floor(r * 3))]!;
}

/** The figures as a Markdown section (for bench/RESULTS.md). */
export function renderFigures(figures: NemesisFigures, seeds: string, seconds: number): string {
  const faults = Object.entries(figures.faults)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const total = Object.values(figures.faults).reduce((a, b) => a + b, 0);
  const lines = [
    `| Schedules (seeds ${seeds}) | ${figures.schedules} |`,
    `| Faults injected | ${total} (${faults}) |`,
    `| Workers killed (SIGKILL) | ${figures.kills} |`,
    `| Orders placed at the provider (POSTs received) | ${figures.orders} (${figures.posts}) |`,
    `| pay() / recover() calls in the schedules | ${figures.pays} / ${figures.recovers} |`,
    `| Notification deliveries (duplicated, concurrent) | ${figures.deliveries} |`,
    `| Answered by a duplicate in flight whose run then failed, delivered again | ${figures.lostInFlight} |`,
    `| Planted intents (never to be paid) | ${figures.planted} |`,
    `| Invariant violations | ${figures.violations.length} |`,
    `| Duration | ${seconds.toFixed(0)} s |`,
  ];
  return ['| Figure | Value |', '| --- | --- |', ...lines].join('\n');
}
