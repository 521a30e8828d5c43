/**
 * The fault workload: 500 operations from a fixed seed (charge PUTs, revisions, payments and
 * cash-out orders) against a sandbox that injects a fault into 20% of its answers, of every
 * kind (503/504 with Retry-After, connections dropped before and after the change is applied,
 * bodies cut mid-way, latency). The caller does what a careful integration does: on a failed
 * write it reads back before going on. Asserted afterwards, with faults off:
 *
 * - every charge exists exactly once, with the content the caller asked for;
 * - no cash-out order was made twice: the balance went down by exactly the orders the caller
 *   knows of (a key it got back or a `PaymentOutcomeUnknownError` carrying one);
 * - every failure the caller saw is an `InstantError`.
 *
 * Interleaving across concurrent chains varies from run to run, so the counts printed may
 * vary a little; the operations and the sandbox's fault sequence come from the seed.
 */
import { expect, it } from 'vitest';
import {
  CobNaoEncontrado,
  InstantError,
  PaymentOutcomeUnknownError,
  TransferNotFoundError,
  fromCents,
  toCents,
  type CobCompleta,
} from '../../src/index.ts';
import { FAULT_KINDS } from '../../src/sandbox.ts';
import { aroundNow, useSandbox } from './harness.ts';
import { seededRandom } from '../support/random.ts';

const SEED = 20_260_101;
const OPERATIONS = 500;
const FAULT_RATE = 0.2;
const PARALLEL = 16;
const BALANCE = '1000000.00';

const s = useSandbox({ seed: SEED, balance: BALANCE, settle: 'auto' });

interface Content {
  valor: string;
  text: string;
  status: 'ATIVA' | 'CONCLUIDA';
}
type ChargeOp = { kind: 'create' } | { kind: 'revise'; valor?: string; text?: string } | { kind: 'pay' };
interface Charge {
  txid: string;
  amount: string;
  ops: ChargeOp[];
  /** What the caller knows the charge to be; `undefined` while it may not exist. */
  known?: Content;
  /** The caller lost track (a read-back failed too): only "at most once" is asserted. */
  lost?: boolean;
  revisions: number;
}

/**
 * The seeded plan: 500 operations, in chains per charge, and independent cash-out orders; `tasks`
 * in the order they were planned (a chain starts where its charge was created).
 */
function plan(next: () => number) {
  const charges: Charge[] = [];
  const orders: string[] = [];
  const tasks: ({ charge: Charge } | { order: string })[] = [];
  const open = () => charges.filter((c) => c.ops.at(-1)?.kind !== 'pay');
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;
  for (let i = 0; i < OPERATIONS; i++) {
    const r = next();
    const candidates = open();
    if (r < 0.35 || candidates.length === 0) {
      const n = charges.length;
      const charge: Charge = {
        txid: `fault${SEED}n${String(n).padStart(4, '0')}`.padEnd(26, 'x'),
        amount: fromCents(100 + n),
        ops: [{ kind: 'create' }],
        revisions: 0,
      };
      charges.push(charge);
      tasks.push({ charge });
    } else if (r < 0.65) {
      const c = pick(candidates);
      c.ops.push(
        next() < 0.5
          ? { kind: 'revise', valor: fromCents(100 + Math.floor(next() * 10_000)) }
          : { kind: 'revise', text: `text ${i}` },
      );
    } else if (r < 0.8) {
      pick(candidates).ops.push({ kind: 'pay' });
    } else {
      const order = fromCents(1 + orders.length); // distinct amounts: a duplicate would show in the balance
      orders.push(order);
      tasks.push({ order });
    }
  }
  return { charges, orders, tasks };
}

const contentOf = (cob: CobCompleta): Content => ({
  valor: cob.valor.original,
  text: cob.solicitacaoPagador ?? '',
  status: cob.status as Content['status'],
});

it('keeps every charge once and every order once under 20% injected faults of every kind', {
  timeout: 120_000,
}, async () => {
  const { api, cashOut, sandbox, receiverKey } = s;
  const { charges, orders, tasks } = plan(seededRandom(SEED));
  const seen: { op: string; error: unknown }[] = [];
  const fail = (op: string, error: unknown) => void seen.push({ op, error });
  const counts = { create: 0, revise: 0, pay: 0, order: 0 };

  /** Reads the charge back after a failed write; up to 5 tries (each already retried by the SDK). */
  const readBack = async (c: Charge): Promise<Content | undefined | 'unreadable'> => {
    for (let i = 0; i < 5; i++) {
      try {
        return contentOf(await api.cob.get(c.txid));
      } catch (error) {
        if (error instanceof CobNaoEncontrado) return undefined;
        fail('read-back', error);
      }
    }
    return 'unreadable';
  };

  const runCharge = async (c: Charge) => {
    for (const op of c.ops) {
      if (c.lost) return;
      counts[op.kind]++;
      if (op.kind === 'create') {
        const body = {
          calendario: { expiracao: 86_400 },
          valor: { original: c.amount },
          chave: receiverKey,
          solicitacaoPagador: `created ${c.txid}`,
        };
        // PUT is idempotent: on failure the caller sends it again, up to 3 times.
        for (let attempt = 0; attempt < 3 && !c.known; attempt++) {
          try {
            c.known = contentOf(await api.cob.create(c.txid, body));
          } catch (error) {
            fail('create', error);
          }
        }
        if (!c.known) c.lost = true;
      } else if (op.kind === 'revise' && c.known) {
        const wanted: Content = { ...c.known, ...(op.valor && { valor: op.valor }), ...(op.text && { text: op.text }) };
        try {
          c.known = contentOf(
            await api.cob.update(c.txid, {
              ...(op.valor && { valor: { original: op.valor } }),
              ...(op.text && { solicitacaoPagador: op.text }),
            }),
          );
          c.revisions++;
        } catch (error) {
          fail('revise', error);
          // PATCH is never retried: did it apply? Either outcome is fine, anything else is not.
          const actual = await readBack(c);
          if (actual === 'unreadable') c.lost = true;
          else {
            expect([c.known, wanted], `charge ${c.txid} after a failed revision`).toContainEqual(actual);
            if (actual) c.known = actual;
          }
        }
      } else if (op.kind === 'pay' && c.known) {
        const payment = await sandbox.payCharge(c.txid);
        c.known = { ...c.known, status: 'CONCLUIDA' };
        try {
          expect((await api.instant.get(payment.endToEndId)).valor).toBe(c.known.valor);
        } catch (error) {
          if (!(error instanceof InstantError)) throw error;
          fail('payment-read', error);
        }
      }
    }
  };

  const placed = new Map<string, string>(); // idempotency key -> amount, as the caller knows them
  const unknown = new Map<string, string>();
  const runOrder = async (amount: string) => {
    counts.order++;
    try {
      const { idempotencyKey } = await cashOut.pay({
        key: '+5561912345678',
        amount,
        creditorDocument: '52998224725',
        description: `fault workload ${amount}`,
      });
      placed.set(idempotencyKey, amount);
    } catch (error) {
      fail('order', error);
      if (error instanceof PaymentOutcomeUnknownError) unknown.set(error.idempotencyKey, amount);
    }
  };

  sandbox.injectFaults({ rate: FAULT_RATE, kinds: [...FAULT_KINDS] });
  const started = performance.now();
  // PARALLEL workers take the tasks in planned order; a charge's operations run in sequence.
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let task = queue.shift(); task; task = queue.shift())
        await ('charge' in task ? runCharge(task.charge) : runOrder(task.order));
    }),
  );
  const workloadMs = performance.now() - started;
  const injected = sandbox.faultCounts();
  sandbox.injectFaults({ rate: 0 });

  // 1. Every failure the caller saw is an InstantError.
  const notInstant = seen.filter(({ error }) => !(error instanceof InstantError));
  expect(
    notInstant.map(
      ({ op, error }) => `${op}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    ),
  ).toEqual([]);

  // 2. Every charge exists exactly once, with the content asked for.
  const listed = new Map<string, number>();
  for await (const cob of api.cob.list({ ...aroundNow(), paginacao: { itensPorPagina: 1000 } }))
    listed.set(cob.txid, (listed.get(cob.txid) ?? 0) + 1);
  for (const c of charges) {
    expect(listed.get(c.txid) ?? 0, `charge ${c.txid} listed`).toBeLessThanOrEqual(1);
    if (c.lost) continue;
    expect(listed.get(c.txid), `charge ${c.txid} listed`).toBe(1);
    const cob = await api.cob.get(c.txid);
    expect(contentOf(cob), `charge ${c.txid}`).toEqual(c.known);
    expect(cob.revisao).toBeGreaterThanOrEqual(c.revisions);
  }

  // 3. No order made twice: the balance went down by exactly the orders the caller knows of.
  for (const [key, amount] of unknown) {
    try {
      await cashOut.payments.getByIdempotencyKey(key);
      placed.set(key, amount);
    } catch (error) {
      if (!(error instanceof TransferNotFoundError)) throw error;
    }
  }
  const final = async () =>
    (await Promise.all([...placed.keys()].map((k) => cashOut.payments.getByIdempotencyKey(k)))).every(
      (t) => t.status === 'LIQUIDATED',
    );
  await expect.poll(final, { timeout: 10_000 }).toBe(true);
  const debited = [...placed.values()].reduce((sum, amount) => sum + toCents(amount), 0);
  expect(toCents((await cashOut.balance.get()).available)).toBe(toCents(BALANCE) - debited);

  const failures: Record<string, number> = {};
  for (const { op, error } of seen)
    failures[`${op}: ${error instanceof Error ? error.name : typeof error}`] =
      (failures[`${op}: ${error instanceof Error ? error.name : typeof error}`] ?? 0) + 1;
  console.log(
    [
      `fault workload, seed ${SEED}: ${OPERATIONS} operations in ${(workloadMs / 1000).toFixed(1)} s`,
      `  operations: ${JSON.stringify(counts)}`,
      `  faults injected: ${JSON.stringify(injected)}`,
      `  failures the caller saw (all InstantError): ${JSON.stringify(failures)}`,
      `  charges: ${charges.length} planned, ${charges.filter((c) => !c.lost).length} known, ${[...listed.keys()].filter((t) => t.startsWith(`fault${SEED}`)).length} listed`,
      `  orders: ${orders.length} asked, ${placed.size} placed (${unknown.size} with unknown outcome), debited ${fromCents(debited)}`,
    ].join('\n'),
  );
});
