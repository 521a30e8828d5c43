import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, compareCivilDates, isCivilDate, isRfc3339, todayInBrasilia } from '../../src/lib/dates.ts';
import { anyStringArb } from './arbitraries.ts';

describe('todayInBrasilia', () => {
  it.each([
    ['2026-11-21T02:30:00Z', '2026-11-20'], // 23:30 on the 20th in Brasília
    ['2026-11-21T02:59:59.999Z', '2026-11-20'],
    ['2026-11-21T03:00:00Z', '2026-11-21'],
    ['2026-11-20T23:59:00Z', '2026-11-20'],
    ['2027-01-01T02:00:00Z', '2026-12-31'],
    ['2028-03-01T01:00:00Z', '2028-02-29'],
    ['0999-06-15T12:00:00Z', '0999-06-15'],
  ])('%s is %s', (instant, day) => {
    expect(todayInBrasilia(new Date(instant))).toBe(day);
  });

  it('defaults to now and gives a civil date', () => {
    expect(isCivilDate(todayInBrasilia())).toBe(true);
  });

  it('throws RangeError for an invalid Date', () => {
    expect(() => todayInBrasilia(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('counts 1 BC as year 0000 and refuses years outside 0000-9999 (found by fuzzing)', () => {
    expect(todayInBrasilia(new Date('0000-06-15T12:00:00Z'))).toBe('0000-06-15');
    expect(todayInBrasilia(new Date('9999-12-31T12:00:00Z'))).toBe('9999-12-31');
    expect(() => todayInBrasilia(new Date('-000001-06-15T12:00:00Z'))).toThrow(RangeError);
    expect(() => todayInBrasilia(new Date('-009998-01-01T03:06:27.999Z'))).toThrow(RangeError);
    expect(() => todayInBrasilia(new Date('+010000-01-02T12:00:00Z'))).toThrow(RangeError);
  });
});

describe('isCivilDate', () => {
  it.each(['2026-02-28', '2028-02-29', '2000-02-29', '2026-12-31', '0000-01-01'])('accepts %s', (s) => {
    expect(isCivilDate(s)).toBe(true);
  });

  it.each([
    '2026-02-29',
    '1900-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-1-01',
    '20260101',
    '2026-01-01T00:00:00Z',
    ' 2026-01-01',
    '',
  ])('rejects %j', (s) => {
    expect(isCivilDate(s)).toBe(false);
  });
});

describe('isRfc3339', () => {
  it.each([
    '2020-09-09T20:15:00.358Z',
    '2020-09-09T20:15:00Z',
    '2020-09-09T20:15:00-03:00',
    '2020-09-09T20:15:00.1+05:30',
    '2020-09-09t20:15:00z',
    '2016-12-31T23:59:60Z',
  ])('accepts %s', (s) => {
    expect(isRfc3339(s)).toBe(true);
  });

  it.each([
    '2020-09-09',
    '2020-09-09 20:15:00Z',
    '2020-09-09T20:15Z',
    '2020-09-09T20:15:00',
    '2020-09-09T24:00:00Z',
    '2020-09-09T20:60:00Z',
    '2020-09-09T20:15:61Z',
    '2020-09-09T20:15:00.Z',
    '2020-09-09T20:15:00+0300',
    '2020-09-09T20:15:00+24:00',
    '2020-02-30T20:15:00Z',
  ])('rejects %j', (s) => {
    expect(isRfc3339(s)).toBe(false);
  });

  it('accepts what Date#toISOString prints', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (d) => isRfc3339(d.toISOString()),
      ),
    );
  });
});

describe('compareCivilDates', () => {
  it('orders like the calendar', () => {
    expect(compareCivilDates('2026-01-31', '2026-02-01')).toBe(-1);
    expect(compareCivilDates('2026-02-01', '2026-02-01')).toBe(0);
    expect(compareCivilDates('2027-01-01', '2026-12-31')).toBe(1);
  });

  it('throws RangeError for a non-date', () => {
    expect(() => compareCivilDates('2026-02-30', '2026-02-01')).toThrow(RangeError);
    expect(() => compareCivilDates('2026-02-01', 'tomorrow')).toThrow(RangeError);
  });
});

describe('addMonths', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-28'],
    ['2026-01-31', 2, '2026-03-31'],
    ['2028-01-31', 1, '2028-02-29'],
    ['2026-11-15', 2, '2027-01-15'],
    ['2026-03-31', -1, '2026-02-28'],
    ['2026-01-15', -13, '2024-12-15'],
    ['2026-05-10', 0, '2026-05-10'],
    ['0000-01-01', 0, '0000-01-01'],
  ] as const)('%s + %i months is %s', (date, n, out) => {
    expect(addMonths(date, n)).toBe(out);
  });

  it('throws RangeError for a bad date, a fractional n, or a year outside 0000-9999', () => {
    expect(() => addMonths('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addMonths('2026-02-01', 0.5)).toThrow(RangeError);
    expect(() => addMonths('9999-12-01', 1)).toThrow(RangeError);
    expect(() => addMonths('0000-01-01', -1)).toThrow(RangeError);
  });

  it('lands in the month reached, on the same day or the last day of that month', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -600, max: 600 }),
        (d, n) => {
          const day = d.toISOString().slice(0, 10);
          const later = addMonths(day, n);
          const months =
            (Number(later.slice(0, 4)) - Number(day.slice(0, 4))) * 12 +
            Number(later.slice(5, 7)) -
            Number(day.slice(5, 7));
          const lastOfMonth = addDays(later, 1).slice(5, 7) !== later.slice(5, 7);
          return (
            isCivilDate(later) &&
            months === n &&
            (later.slice(8) === day.slice(8) || (later.slice(8) < day.slice(8) && lastOfMonth))
          );
        },
      ),
    );
  });
});

describe('addDays', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-05-10', 0, '2026-05-10'],
    ['2026-05-10', 30, '2026-06-09'],
    ['2026-05-10', 365, '2027-05-10'],
    ['0050-01-01', 1, '0050-01-02'],
  ] as const)('%s + %i is %s', (date, n, out) => {
    expect(addDays(date, n)).toBe(out);
  });

  it('throws RangeError for a bad date, a fractional n, or a year outside 0000-9999', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('2026-02-01', 1.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0000-01-01', -1)).toThrow(RangeError);
    expect(() => addDays('2026-01-01', Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
  });

  it('is consistent with compareCivilDates and inverts itself', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -5000, max: 5000 }),
        (d, n) => {
          const day = d.toISOString().slice(0, 10);
          const later = addDays(day, n);
          return isCivilDate(later) && addDays(later, -n) === day && compareCivilDates(later, day) === Math.sign(n);
        },
      ),
    );
  });
});

describe('date predicates', () => {
  it('never throw on arbitrary strings', () => {
    fc.assert(
      fc.property(anyStringArb, (s) => {
        expect(typeof isCivilDate(s)).toBe('boolean');
        expect(typeof isRfc3339(s)).toBe('boolean');
      }),
    );
  });
});
