/**
 * Recurring charges on the shared calendar: `ajusteDiaUtil` moves the expected settlement date
 * past national and local holidays (not only weekends), and the retry window counts from the
 * moved date. The clock is fixed (only `Date` is faked).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTxid } from '../../../src/lib/ids.ts';
import { approvedRec, cobrBody, expectProblem, useRecSandbox, type Json } from './support.ts';

// A local holiday given as a date (every payer of this sandbox has it).
const h = useRecSandbox({ localHolidays: ['2026-12-22'] });

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T15:00:00Z'));
});
afterAll(() => {
  vi.useRealTimers();
});

async function charge(due: string, overrides: Json = {}): Promise<Json> {
  const txid = generateTxid();
  const created = await h.call('PUT', `/cobr/${txid}`, cobrBody(await approvedRec(h), h.account, due, overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (await h.call('GET', `/cobr/${txid}`)).body;
}

describe('recurring charges on the business-day calendar', () => {
  it('ajusteDiaUtil: Christmas (a Friday) settles on Monday, a local holiday on the next day', async () => {
    expect((await charge('2026-12-25')).tentativas[0].dataLiquidacao).toBe('2026-12-28');
    expect((await charge('2026-12-22')).tentativas[0].dataLiquidacao).toBe('2026-12-23');
    expect((await charge('2026-12-25', { ajusteDiaUtil: false })).tentativas[0].dataLiquidacao).toBe('2026-12-25');
  });

  it('counts the retry window (7 days) from the moved settlement date, and moves its end like it', async () => {
    const { txid } = await charge('2026-12-25');
    await h.sandbox.settleCobr(txid, 'REJEITADA');
    // 2026-12-28 + 7 days is 2027-01-04, a Monday; the window ends there.
    expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/2027-01-05`), 400, 'CobROperacaoInvalida', ['data']);
    const retried = await h.call('POST', `/cobr/${txid}/retentativa/2027-01-04`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
  });
});
