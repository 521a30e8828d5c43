/**
 * The recurring rules' shared pieces: "today" for a creation date (with the clock's slack), the
 * creation date an idRec carries, and the wire form of a recurring charge.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_SLACK_MS, earliestServiceDate, idRecCreationDate } from '../../src/recurring/rules/fields.ts';
import { wireCobR } from '../../src/recurring/rules/cobr.ts';
import { checkRec } from '../../src/recurring/rules/rec.ts';
import { broken } from '../support/rules.ts';
import { recBody } from './fixtures.ts';

/** A clock stopped at `instant`. */
const at = (instant: string | number) => () => new Date(instant);

describe('earliestServiceDate', () => {
  it('is today in Brasília, or yesterday in the first minutes after midnight there', () => {
    // 2026-03-10 12:00 in Brasília (UTC-3).
    expect(earliestServiceDate(at('2026-03-10T15:00:00Z'))).toBe('2026-03-10');
    // 00:01 and 00:03 in Brasília: a service whose clock is a few minutes behind still says 2026-03-09.
    expect(earliestServiceDate(at('2026-03-10T00:01:00-03:00'))).toBe('2026-03-09');
    expect(earliestServiceDate(at('2026-03-10T03:03:00Z'))).toBe('2026-03-09');
    expect(earliestServiceDate(at(Date.parse('2026-03-10T03:00:00Z') + CLOCK_SLACK_MS))).toBe('2026-03-10');
    // 23:59 in Brasília is still that day, whatever UTC says.
    expect(earliestServiceDate(at('2026-03-10T23:59:00-03:00'))).toBe('2026-03-10');
  });

  it('is what the date rules compare with: just after midnight, yesterday still passes', () => {
    const withStart = (dataInicial: string) => ({ ...recBody(), calendario: { dataInicial, periodicidade: 'MENSAL' } });
    const justAfterMidnight = at('2026-03-10T00:01:00-03:00');
    expect(broken((ctx) => checkRec(withStart('2026-03-09'), ctx), undefined, justAfterMidnight)).toEqual([]);
    expect(broken((ctx) => checkRec(withStart('2026-03-08'), ctx), undefined, justAfterMidnight)).toEqual([
      'rec.calendario.dataInicial',
    ]);
    const beforeMidnight = at('2026-03-10T23:59:00-03:00');
    expect(broken((ctx) => checkRec(withStart('2026-03-10'), ctx), undefined, beforeMidnight)).toEqual([]);
    expect(broken((ctx) => checkRec(withStart('2026-03-09'), ctx), undefined, beforeMidnight)).toEqual([
      'rec.calendario.dataInicial',
    ]);
  });
});

describe('idRecCreationDate', () => {
  it('reads yyyyMMdd from characters 11 to 18', () => {
    expect(idRecCreationDate('RR1234567820240115abcdefghijk')).toBe('2024-01-15');
    expect(idRecCreationDate('RNABCDEFGH20251231a1b2c3d4e5f')).toBe('2025-12-31');
  });

  it('is undefined for an id of another form or a day that does not exist', () => {
    expect(idRecCreationDate('RR1234567820240230abcdefghijk')).toBeUndefined();
    expect(idRecCreationDate('RX1234567820240115abcdefghijk')).toBeUndefined();
    expect(idRecCreationDate(42)).toBeUndefined();
  });
});

describe('wireCobR', () => {
  it('leaves a non-object alone and copies only when it changes something', () => {
    expect(wireCobR('x')).toBe('x');
    expect(wireCobR(null)).toBe(null);
    const complete = { ajusteDiaUtil: false, devedor: { cep: '89256140' } };
    expect(wireCobR(complete)).toBe(complete);
    expect(wireCobR({ devedor: { cep: '89256-1400' } })).toEqual({
      ajusteDiaUtil: true,
      devedor: { cep: '89256-1400' },
    });
  });
});
