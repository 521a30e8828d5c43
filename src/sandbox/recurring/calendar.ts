/**
 * Civil-date arithmetic of the recurring part: the cycles of a recurrence (the window the
 * one-live-charge-per-cycle rule counts in), business days, and day counts.
 *
 * A cycle is the recurrence's periodicity window anchored at its `calendario.dataInicial`: cycle
 * k runs from dataInicial + k periods (inclusive) to dataInicial + k + 1 periods (exclusive).
 * Months are added calendar-wise with the day clamped to the month's end (`addMonths`: from
 * 2026-01-31, one month later is 2026-02-28 and two months later 2026-03-31).
 */
import { addDays, addMonths } from '../../lib/dates.ts';

const MONTHS_PER_PERIOD: Readonly<Record<string, number>> = { MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const at = (date: string) => {
    const [y, m, d] = parts(date);
    const day = new Date(0);
    day.setUTCFullYear(y, m - 1, d);
    return day.getTime();
  };
  return Math.round((at(to) - at(from)) / 86_400_000);
}

/** The index of the cycle `date` falls in, for a recurrence starting on `start` (negative before it). */
export function cycleOf(start: string, periodicidade: string, date: string): number {
  const step = MONTHS_PER_PERIOD[periodicidade];
  if (step === undefined) return Math.floor(daysBetween(start, date) / 7); // SEMANAL
  const [y1, m1] = parts(start);
  const [y2, m2] = parts(date);
  let months = (y2 - y1) * 12 + (m2 - m1);
  if (addMonths(start, months) > date) months -= 1;
  return Math.floor(months / step);
}

/** `date`, or the Monday after it when it falls on a weekend (the sandbox keeps no holiday table). */
export function nextBusinessDay(date: string): string {
  const [y, m, d] = parts(date);
  const day = new Date(0);
  day.setUTCFullYear(y, m - 1, d);
  const weekday = day.getUTCDay();
  return weekday === 6 ? addDays(date, 2) : weekday === 0 ? addDays(date, 1) : date;
}
