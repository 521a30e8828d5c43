/**
 * The financial system's business days, on civil dates (`YYYY-MM-DD`, Brasília), computed for
 * any year: no table that runs out, nothing downloaded.
 *
 * Not a business day "para fins de operações praticadas no mercado financeiro" (CMN Resolution
 * 4.880/2020, as Resolution 2.516/1998 before it): Saturdays, Sundays, the national holidays,
 * Carnival Monday and Tuesday, and Corpus Christi. Good Friday is a holiday by Lei 9.093/1995
 * (art. 2) and the financial system closes on it (ANBIMA's national holiday list). December 24 and 31 are
 * business days: banks may open late or serve no public, but settlement runs (ANBIMA's list,
 * note 4, leaves out "o último dia do ano"; the official OpenAPI's example D counts 2020-12-31 as
 * a day of validity).
 */
import { addDays, isCivilDate } from './dates.ts';

/**
 * Local (state and municipal) holidays: `YYYY-MM-DD` dates, `MM-DD` days of every year, or a
 * function of the payer's municipality code (IBGE, 7 digits) that gives them.
 */
export type LocalHolidays = readonly string[] | ((codMun: string) => readonly string[]);

/** Options of the calendar functions. */
export interface CalendarOptions {
  /** The holidays of the payer's place, on top of the national ones. */
  localHolidays?: LocalHolidays | undefined;
  /** The payer's municipality, given to a `localHolidays` function (without it a function gives none). */
  codMun?: string | undefined;
}

// Lei 662/1949 art. 1 (as Lei 10.607/2002 wrote it): Jan 1, Apr 21, May 1, Sep 7, Nov 2, Nov 15,
// Dec 25; Lei 6.802/1980: Oct 12.
const FIXED = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '12-25'];
// Days from Easter Sunday: Carnival Monday and Tuesday, Good Friday, Corpus Christi.
const FROM_EASTER = [-48, -47, -2, 60];
const NATIONAL = new Map<number, Set<string>>();

/** Easter Sunday of a Gregorian year (the anonymous algorithm of 1876, Meeus's form). */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((b - Math.floor((b + 8) / 25) + 1) / 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const n = h + l - 7 * m + 114;
  return `${String(year).padStart(4, '0')}-0${Math.floor(n / 31)}-${String((n % 31) + 1).padStart(2, '0')}`;
}

function national(year: number): Set<string> {
  let days = NATIONAL.get(year);
  if (days === undefined) {
    const y = String(year).padStart(4, '0');
    // Lei 14.759/2023: November 20 is a national holiday from 2024 on.
    days = new Set([...FIXED, ...(year >= 2024 ? ['11-20'] : [])].map((md) => `${y}-${md}`));
    const sunday = easter(year);
    for (const n of FROM_EASTER) days.add(addDays(sunday, n));
    NATIONAL.set(year, days);
  }
  return days;
}

function check(date: string, name = 'date'): void {
  if (!isCivilDate(date)) throw new RangeError(`${name} must be a YYYY-MM-DD calendar date`);
}

function utc(date: string): Date {
  const d = new Date(0);
  d.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return d;
}

/** True for a local holiday as `localHolidays` lists it: `YYYY-MM-DD`, or `MM-DD` (every year). @internal */
export function isHolidayEntry(day: unknown): boolean {
  return isCivilDate(day) || (typeof day === 'string' && day.length === 5 && isCivilDate(`2000-${day}`));
}

/**
 * The test "is `date` a business day" for these options, built once (local holidays checked).
 * Throws `RangeError` for a local holiday that is neither `YYYY-MM-DD` nor `MM-DD`.
 * @internal
 */
export function businessDayTest(options: CalendarOptions = {}): (date: string) => boolean {
  const { localHolidays: local, codMun } = options;
  const list = typeof local === 'function' ? (codMun === undefined ? [] : local(codMun)) : (local ?? []);
  const own = new Set<string>();
  for (const day of list) {
    if (!isHolidayEntry(day)) throw new RangeError('a local holiday must be YYYY-MM-DD or MM-DD');
    own.add(day);
  }
  return (date) => {
    const w = utc(date).getUTCDay();
    return (
      w !== 0 && w !== 6 && !national(Number(date.slice(0, 4))).has(date) && !own.has(date) && !own.has(date.slice(5))
    );
  };
}

/**
 * True when `date` is a business day of the financial system: not a weekend, a national
 * holiday, Carnival Monday or Tuesday, Good Friday, Corpus Christi, nor one of `localHolidays`.
 * Throws `RangeError` for an invalid date or local holiday.
 */
export function isBusinessDay(date: string, options?: CalendarOptions): boolean {
  check(date);
  return businessDayTest(options)(date);
}

/** `date` when it is a business day, else the first business day after it (a due date's roll). */
export function nextBusinessDay(date: string, options?: CalendarOptions): string {
  check(date);
  return roll(date, businessDayTest(options));
}

/** `date`, or the first day after it that passes `open`. @internal */
export function roll(date: string, open: (date: string) => boolean): string {
  while (!open(date)) date = addDays(date, 1);
  return date;
}

/**
 * The date `n` business days after `date` (before it when `n` is negative; `date` itself for 0):
 * `addBusinessDays('2026-12-24', 1)` is `2026-12-28`. Throws `RangeError` for an invalid date or
 * an `n` that is not an integer from -2,000 to 2,000 (about 8 years: the days are stepped one by
 * one).
 */
export function addBusinessDays(date: string, n: number, options?: CalendarOptions): string {
  check(date);
  if (!(Number.isInteger(n) && Math.abs(n) <= 2000)) throw new RangeError('n must be an integer from -2000 to 2000');
  const open = businessDayTest(options);
  const step = n < 0 ? -1 : 1;
  for (let left = Math.abs(n); left > 0; ) {
    date = addDays(date, step);
    if (open(date)) left--;
  }
  return date;
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). @internal */
export function daysBetween(from: string, to: string): number {
  return Math.round((utc(to).getTime() - utc(from).getTime()) / 86_400_000);
}

/**
 * Business days `d` with `from < d <= to` (0 when `to` is not after `from`); `RangeError` over
 * more than 1,830 days (about 5 years: the days are stepped one by one). @internal
 */
export function businessDaysBetween(from: string, to: string, open: (date: string) => boolean): number {
  if (daysBetween(from, to) > 1830) throw new RangeError('business days are counted over 5 years at most');
  let count = 0;
  for (let d = from; d < to; ) {
    d = addDays(d, 1);
    if (open(d)) count++;
  }
  return count;
}
