/**
 * A sweep over 10,000 received payments in the sandbox over loopback (`receivedPaymentsHandler`'s
 * `sweep()`, pages of 1,000, no notification lost or sent): its time, and its memory. Memory is the
 * peak heap (after a collection every 500 payments) above the heap before the sweep, with
 * `maxRemembered` 500, so that only what the sweep holds (pages) could grow with the number of
 * payments; shown for the first 2,000 payments too, and set against the heap the same 10,000
 * records take when every page is kept (`for await` into an array). Goal: at most a quarter of
 * that (flat: one page at a time).
 */
import { loadSdk, fmt, type Row } from './support.ts';

const TOTAL = 10_000;
const SMALL = 2_000;
const CREATORS = 16;

export async function measure(): Promise<Row[]> {
  const sdk = await loadSdk();
  const { createSandbox } = (await import('instant-payments/sandbox' as string)) as typeof import('../src/sandbox.ts');
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const sandbox = createSandbox({ seed: 7 });
  await sandbox.listen({ port: 0 });
  const api = new sdk.InstantClient(sandbox.clientOptions());
  try {
    const [chave] = sandbox.ownKeys;
    const from = new Date(Date.now() - 1000).toISOString();
    let mid = '';
    let made = 0;
    await Promise.all(
      Array.from({ length: CREATORS }, async () => {
        while (made < TOTAL) {
          const n = made++;
          if (n === SMALL) mid = new Date().toISOString();
          const txid = `benchsweep${String(n).padStart(25, '0')}`;
          await api.cob.create(txid, { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: chave! });
          await sandbox.payCharge(txid);
        }
      }),
    );
    const until = new Date(Date.now() + 1000).toISOString();

    const sweepOf = async (end: string) => {
      let count = 0;
      gc();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      const handler = sdk.receivedPaymentsHandler(api, {
        maxRemembered: 500,
        onPayment: () => {
          if (++count % 500 === 0) {
            gc();
            peak = Math.max(peak, process.memoryUsage().heapUsed);
          }
        },
      });
      const started = performance.now();
      const result = await handler.sweep({ from, until: end });
      return { ms: performance.now() - started, growth: peak - before, result };
    };
    const small = await sweepOf(mid);
    const large = await sweepOf(until);
    if (large.result.handled !== TOTAL) throw new Error(`swept ${large.result.handled} of ${TOTAL}`);
    gc();
    const beforeHeld = process.memoryUsage().heapUsed;
    const held: unknown[] = [];
    for await (const payment of api.instant.list({ inicio: from, fim: until, paginacao: { itensPorPagina: 1000 } }))
      held.push(payment);
    gc();
    const heldBytes = process.memoryUsage().heapUsed - beforeHeld;
    if (held.length !== TOTAL) throw new Error(`listed ${held.length} of ${TOTAL}`);
    const mb = (bytes: number) => `${fmt.fixed(bytes / 1_048_576, 1)} MB`;
    const ratio = Math.max(large.growth, 0) / heldBytes;
    return [
      {
        measure: `sweep of ${fmt.int(TOTAL)} received payments in the sandbox (pages of 1,000, wall time)`,
        value: `${fmt.fixed(large.ms / 1000, 2)} s (${fmt.int(Math.round(TOTAL / (large.ms / 1000)))}/s)`,
        baseline: `${fmt.int(small.result.handled)} payments ${fmt.fixed(small.ms / 1000, 2)} s`,
        ratio: fmt.ratio(large.ms / small.ms),
        goal: 'recorded',
        holds: undefined,
      },
      {
        measure: `sweep memory: peak heap above the start, ${fmt.int(TOTAL)} payments (${fmt.int(small.result.handled)}: ${mb(small.growth)})`,
        value: mb(large.growth),
        baseline: `every page kept ${mb(heldBytes)}`,
        ratio: fmt.ratio(ratio),
        goal: '<= 0.25x (flat: one page at a time)',
        holds: ratio <= 0.25,
      },
    ];
  } finally {
    await api.close();
    await sandbox.close();
  }
}
