/**
 * The fleet bench's harness (bench/fleet.ts) on a few payments, so that `npm run bench -- fleet`
 * cannot rot: a real PostgreSQL, the loopback service, and worker processes running the built
 * package (dist/, which `npm test` builds first). And its exactly-once check, on runs that broke it.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactlyOnceBreaks, startFleet, type Fleet } from '../../bench/fleet.ts';

describe('the fleet bench: exactly once', () => {
  const ids = ['E1', 'E2', 'E3'];
  const once = new Map(ids.map((id) => [id, 1]));

  it('holds when each payment was called back once, written once, and every delivery answered 200', () => {
    expect(exactlyOnceBreaks(ids, ['E3', 'E1', 'E2'], once, [200, 200, 200, 200, 200, 200])).toEqual([]);
    expect(exactlyOnceBreaks(ids, ['E2', 'E1', 'E3'], undefined, [200, 200])).toEqual([]);
  });

  it('breaks on a payment called back twice, one never written, a delivery not answered 200', () => {
    expect(exactlyOnceBreaks(ids, ['E1', 'E2', 'E3', 'E2'], once, [200])).toEqual([
      '4 callbacks for 3 payments, 1 not exactly once; E2: 2',
    ]);
    expect(
      exactlyOnceBreaks(
        ids,
        ['E1', 'E2', 'E3'],
        new Map([
          ['E1', 1],
          ['E3', 1],
        ]),
        [200],
      ),
    ).toEqual(['2 rows for 3 payments, 1 not exactly once; E2: 0']);
    expect(exactlyOnceBreaks(ids, ['E1', 'E2'], undefined, [200, 500, 0, 500])).toEqual([
      '2 callbacks for 3 payments, 1 not exactly once; E3: 0',
      'deliveries not answered 200: 2 × 500, 1 × no answer',
    ]);
  });
});

describe('the fleet bench: its harness on 40 payments', () => {
  let fleet: Fleet | undefined;
  beforeAll(async () => {
    if (!existsSync('dist/postgres.js')) throw new Error('dist/ is missing: `npm run build` first');
    fleet = await startFleet();
  }, 30_000);
  afterAll(() => fleet?.close());

  it('the in-memory process and the two PostgreSQL processes each call back every payment once', async () => {
    const memory = await fleet!.run('memory', 40);
    expect(memory.breaks).toEqual([]);
    // In one process a duplicate is answered from memory: one GET per payment, no database.
    expect(memory).toMatchObject({ payments: 40, deliveries: 80, getsPerDelivery: 0.5, roundTripsPerPayment: 0 });
    expect(memory.paymentsPerSecond).toBeGreaterThan(0);

    const postgres = await fleet!.run('postgres', 40);
    expect(postgres.breaks).toEqual([]);
    expect(postgres.getsPerDelivery).toBeGreaterThanOrEqual(0.5);
    expect(postgres.getsPerDelivery).toBeLessThanOrEqual(1);
    expect(postgres.earlyDuplicateGets).toBeLessThanOrEqual(postgres.earlyDuplicates);
    // A duplicate sent after its first delivery was answered finds the done mark: no GET.
    expect(postgres.lateDuplicateGets).toBe(0);
    expect(postgres.lateDuplicateGets + postgres.earlyDuplicateGets).toBeCloseTo((postgres.getsPerDelivery - 0.5) * 80);
    // The callback's INSERT and the claim's statements, counted in the workers.
    expect(postgres.roundTripsPerPayment).toBeGreaterThanOrEqual(2);
    expect(postgres.p99Ms).toBeGreaterThanOrEqual(postgres.p50Ms);
  }, 20_000);
});
