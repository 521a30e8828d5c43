import { describe, expect, it } from 'vitest';
import { addBusinessDays, isBusinessDay, nextBusinessDay } from '../../src/index.ts';
import * as payer from '../../src/payer.ts';
import { addDays } from '../../src/lib/dates.ts';

/**
 * ANBIMA's national holiday list (https://www.anbima.com.br/feriados/feriados.asp, the days the
 * financial system does not settle), as copied in wilsonfreitas/R-bizdays
 * `inst/extdata/Brazil_ANBIMA.json` (2001–2078, before Lei 14.759/2023), plus November 20 from
 * 2024 as ANBIMA's current list has it ("Dia Nacional de Zumbi e da Consciência Negra", seen in
 * philss/feriados-anbima's copy of the page). Month-day pairs per year.
 */
const ANBIMA: Record<number, string> = {
  2010: '01-01 02-15 02-16 04-02 04-21 05-01 06-03 09-07 10-12 11-02 11-15 12-25',
  2011: '01-01 03-07 03-08 04-21 04-22 05-01 06-23 09-07 10-12 11-02 11-15 12-25',
  2012: '01-01 02-20 02-21 04-06 04-21 05-01 06-07 09-07 10-12 11-02 11-15 12-25',
  2013: '01-01 02-11 02-12 03-29 04-21 05-01 05-30 09-07 10-12 11-02 11-15 12-25',
  2014: '01-01 03-03 03-04 04-18 04-21 05-01 06-19 09-07 10-12 11-02 11-15 12-25',
  2015: '01-01 02-16 02-17 04-03 04-21 05-01 06-04 09-07 10-12 11-02 11-15 12-25',
  2016: '01-01 02-08 02-09 03-25 04-21 05-01 05-26 09-07 10-12 11-02 11-15 12-25',
  2017: '01-01 02-27 02-28 04-14 04-21 05-01 06-15 09-07 10-12 11-02 11-15 12-25',
  2018: '01-01 02-12 02-13 03-30 04-21 05-01 05-31 09-07 10-12 11-02 11-15 12-25',
  2019: '01-01 03-04 03-05 04-19 04-21 05-01 06-20 09-07 10-12 11-02 11-15 12-25',
  2020: '01-01 02-24 02-25 04-10 04-21 05-01 06-11 09-07 10-12 11-02 11-15 12-25',
  2021: '01-01 02-15 02-16 04-02 04-21 05-01 06-03 09-07 10-12 11-02 11-15 12-25',
  2022: '01-01 02-28 03-01 04-15 04-21 05-01 06-16 09-07 10-12 11-02 11-15 12-25',
  2023: '01-01 02-20 02-21 04-07 04-21 05-01 06-08 09-07 10-12 11-02 11-15 12-25',
  2024: '01-01 02-12 02-13 03-29 04-21 05-01 05-30 09-07 10-12 11-02 11-15 11-20 12-25',
  2025: '01-01 03-03 03-04 04-18 04-21 05-01 06-19 09-07 10-12 11-02 11-15 11-20 12-25',
  2026: '01-01 02-16 02-17 04-03 04-21 05-01 06-04 09-07 10-12 11-02 11-15 11-20 12-25',
  2027: '01-01 02-08 02-09 03-26 04-21 05-01 05-27 09-07 10-12 11-02 11-15 11-20 12-25',
  2028: '01-01 02-28 02-29 04-14 04-21 05-01 06-15 09-07 10-12 11-02 11-15 11-20 12-25',
  2029: '01-01 02-12 02-13 03-30 04-21 05-01 05-31 09-07 10-12 11-02 11-15 11-20 12-25',
  2030: '01-01 03-04 03-05 04-19 04-21 05-01 06-20 09-07 10-12 11-02 11-15 11-20 12-25',
  2031: '01-01 02-24 02-25 04-11 04-21 05-01 06-12 09-07 10-12 11-02 11-15 11-20 12-25',
  2032: '01-01 02-09 02-10 03-26 04-21 05-01 05-27 09-07 10-12 11-02 11-15 11-20 12-25',
  2033: '01-01 02-28 03-01 04-15 04-21 05-01 06-16 09-07 10-12 11-02 11-15 11-20 12-25',
  2034: '01-01 02-20 02-21 04-07 04-21 05-01 06-08 09-07 10-12 11-02 11-15 11-20 12-25',
};

const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

describe('the business-day calendar', () => {
  it.each(Object.entries(ANBIMA))(
    "%s: every day is a business day unless a weekend or on ANBIMA's list",
    (year, days) => {
      const holidays = new Set(days.split(' ').map((md) => `${year}-${md}`));
      const wrong: string[] = [];
      for (let d = `${year}-01-01`; d.startsWith(year); d = addDays(d, 1)) {
        const expected = weekday(d) !== 0 && weekday(d) !== 6 && !holidays.has(d);
        if (isBusinessDay(d) !== expected) wrong.push(d);
      }
      expect(wrong).toEqual([]);
    },
  );

  it('keeps computing past any table (Easter by algorithm)', () => {
    // Easter 2100: March 28 (Good Friday the 26th); 2285: March 22, the earliest; 2038: April 25, the latest.
    expect(isBusinessDay('2100-03-26')).toBe(false);
    expect(isBusinessDay('2285-03-20')).toBe(false);
    expect(isBusinessDay('2038-04-23')).toBe(false);
    expect(isBusinessDay('2038-06-24')).toBe(false); // Corpus Christi, Easter + 60
  });

  it('counts November 20 from 2024 on only (Lei 14.759/2023), and December 24 and 31 as business days', () => {
    expect(isBusinessDay('2023-11-20')).toBe(true);
    expect(isBusinessDay('2024-11-20')).toBe(false);
    expect(isBusinessDay('2026-12-24')).toBe(true);
    expect(isBusinessDay('2026-12-31')).toBe(true);
  });

  it('takes local holidays as dates, days of every year, or a function of codMun', () => {
    expect(isBusinessDay('2026-01-20', { localHolidays: ['2026-01-20'] })).toBe(false);
    expect(isBusinessDay('2027-01-20', { localHolidays: ['01-20'] })).toBe(false);
    const byCity = (codMun: string) => (codMun === '3304557' ? ['01-20'] : []);
    expect(isBusinessDay('2026-01-20', { localHolidays: byCity, codMun: '3304557' })).toBe(false);
    expect(isBusinessDay('2026-01-20', { localHolidays: byCity, codMun: '3550308' })).toBe(true);
    // Without codMun a function gives no holiday (the service then assumes none).
    expect(isBusinessDay('2026-01-20', { localHolidays: byCity })).toBe(true);
    expect(() => isBusinessDay('2026-01-20', { localHolidays: ['20/01'] })).toThrow(RangeError);
    expect(() => isBusinessDay('2026-02-30')).toThrow(RangeError);
  });

  it('rolls and steps over weekends and holidays', () => {
    expect(nextBusinessDay('2026-12-25')).toBe('2026-12-28');
    expect(nextBusinessDay('2026-12-28')).toBe('2026-12-28');
    expect(nextBusinessDay('2026-04-03')).toBe('2026-04-06'); // Good Friday
    expect(nextBusinessDay('2026-02-14')).toBe('2026-02-18'); // Carnival weekend
    expect(nextBusinessDay('2026-01-19', { localHolidays: ['2026-01-19', '2026-01-20'] })).toBe('2026-01-21');
    expect(addBusinessDays('2026-12-24', 1)).toBe('2026-12-28');
    expect(addBusinessDays('2026-12-28', -1)).toBe('2026-12-24');
    expect(addBusinessDays('2026-12-26', 0)).toBe('2026-12-26');
    expect(addBusinessDays('2026-11-19', 2)).toBe('2026-11-24'); // Nov 20 (Friday) skipped
    expect(() => addBusinessDays('2026-11-19', 1.5)).toThrow(RangeError);
  });

  it('is the same calendar from the payer entry', () => {
    expect(payer.isBusinessDay).toBe(isBusinessDay);
    expect(payer.nextBusinessDay).toBe(nextBusinessDay);
    expect(payer.addBusinessDays).toBe(addBusinessDays);
  });
});
