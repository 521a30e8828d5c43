/**
 * Civil-date arithmetic of the recurring part: the cycles of a recurrence (the window the
 * one-live-charge-per-cycle rule counts in). Business days are the shared calendar's
 * (`lib/calendar.ts`).
 *
 * A cycle is the recurrence's periodicity window anchored at its `calendario.dataInicial`: cycle
 * k runs from dataInicial + k periods (inclusive) to dataInicial + k + 1 periods (exclusive).
 * Months are added calendar-wise with the day clamped to the month's end (`addMonths`: from
 * 2026-01-31, one month later is 2026-02-28 and two months later 2026-03-31).
 */
import { daysBetween } from '../../lib/calendar.ts';
import { addMonths } from '../../lib/dates.ts';

const MONTHS_PER_PERIOD: Readonly<Record<string, number>> = { MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
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
