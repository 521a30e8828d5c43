/**
 * Dates. Civil dates (`dataDeVencimento`, `DPP`, ...) are `YYYY-MM-DD` days in Brasília
 * (America/Sao_Paulo); instants (`criacao`, `inicio`, ...) are RFC 3339 date-times.
 */
import type { Checked } from './checked.ts';
import { systemNow } from '../internal/clock.ts';

const TIME_ZONE = 'America/Sao_Paulo';
const CIVIL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 section 5.6 date-time; section 5.6 lets `T` and `Z` be lowercase.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

let formatter: Intl.DateTimeFormat | undefined;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

/**
 * Today's date in Brasília as `YYYY-MM-DD` (or the Brasília date of `now`).
 * `2026-11-21T02:30Z` is still `2026-11-20` there. Throws `RangeError` for an invalid `Date`
 * or one outside the years 0000 to 9999 there.
 */
export function todayInBrasilia(now: Date = systemNow()): string {
  formatter ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE,
    era: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  let year = 0;
  let month = '';
  let day = '';
  let beforeCommonEra = false;
  for (const part of formatter.formatToParts(now)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
    else if (part.type === 'era') beforeCommonEra = part.value === 'BC';
  }
  // The formatter counts years by era (1 BC, 1 AD); a civil date counts 1 BC as year 0000.
  if (beforeCommonEra) year = 1 - year;
  if (!(year >= 0 && year <= 9999)) throw new RangeError('date is outside the years 0000 to 9999');
  return `${String(year).padStart(4, '0')}-${month}-${day}`;
}

/** True for a strict `YYYY-MM-DD` that names a real calendar day (`2026-02-30` is false). Never throws. */
export function isCivilDate(s: unknown): s is Checked<'civilDate'> {
  if (typeof s !== 'string') return false;
  const m = CIVIL_DATE.exec(s);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * True for an RFC 3339 date-time: `T` separator, seconds, optional fraction, `Z` or `±hh:mm`,
 * on a real calendar day. Seconds may be 60 (a leap second, as RFC 3339 allows). Never throws.
 */
export function isRfc3339(s: unknown): s is Checked<'rfc3339'> {
  if (typeof s !== 'string') return false;
  const m = DATE_TIME.exec(s);
  if (m === null || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 60) return false;
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
}

function assertCivilDate(s: string, name: string): void {
  if (!isCivilDate(s)) throw new RangeError(`${name} must be a YYYY-MM-DD calendar date`);
}

/** -1, 0 or 1 as `a` is before, equal to or after `b`. Throws `RangeError` unless both are civil dates. */
export function compareCivilDates(a: string, b: string): -1 | 0 | 1 {
  assertCivilDate(a, 'a');
  assertCivilDate(b, 'b');
  // Fixed-width YYYY-MM-DD orders like the calendar.
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The civil date `n` calendar days after `date` (before it when `n` is negative).
 * Throws `RangeError` for an invalid date, a non-integer `n`, or a result outside years 0000–9999.
 */
export function addDays(date: string, n: number): string {
  assertCivilDate(date, 'date');
  if (!Number.isSafeInteger(n)) throw new RangeError('n must be an integer');
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  d.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + n);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new RangeError('resulting date is out of range');
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * The civil date `n` calendar months after `date` (before it when `n` is negative), the day
 * clamped to the last day of the month reached: a monthly due date from `2026-01-31` is
 * `2026-02-28`, then `2026-03-31` two months on (always counted from `date`, never chained).
 * Throws `RangeError` for an invalid date, a non-integer `n`, or a result outside years 0000–9999.
 */
export function addMonths(date: string, n: number): string {
  assertCivilDate(date, 'date');
  if (!Number.isSafeInteger(n)) throw new RangeError('n must be an integer');
  const index = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + n;
  const year = Math.floor(index / 12);
  if (!(year >= 0 && year <= 9999)) throw new RangeError('resulting date is out of range');
  const month = index - year * 12 + 1;
  let day = Number(date.slice(8, 10));
  while (!isRealDate(year, month, day)) day--;
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}
