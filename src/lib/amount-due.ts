/**
 * What a due-date charge (`cobv`) asks on a given day, by the official OpenAPI
 * (`calendario.validadeAposVencimento`, examples A–G, and `CobVValor`'s modalities).
 *
 * - The due date rolls to the first business day on or after it (the payer's calendar: national
 *   days plus `localHolidays`); discounts, fine, interest and validity count from the rolled date.
 * - Payable through `lastPayableDay`: the rolled due date plus `validadeAposVencimento` calendar
 *   days (default 30), itself rolled to a business day (examples A–G).
 * - `abatimento` always: 1 fixed, 2 percent of `original`.
 * - `desconto`: 1/2 the amount/percent of the earliest `descontoDataFixa` date whose rolled date
 *   (each rolled like the due date) is on or after the day; paid before the due date, 3/5 an
 *   amount/percent per calendar day early, 4/6 per business day early.
 * - Paid after the due date: `multa` once (1 fixed, 2 percent of `original`); `juros`, simple, on
 *   `original`, per calendar day late (1–4) or per business day late (5–8): 1/5 an amount per
 *   day, 2/6 percent per day, 3/7 percent per month (a month is 30 calendar or 21 business days),
 *   4/8 percent per year (365 calendar or 252 business days, the financial market's year).
 * - Business days early or late: those after the earlier date up to and including the later.
 *
 * Rounding: each component is computed exactly and rounded once, half up, to the cent; `final` is
 * `original − abatimento − desconto + multa + juros`, and a discount never takes it below 0.01.
 */
import { addDays, isCivilDate } from './dates.ts';
import { businessDaysBetween, businessDayTest, daysBetween, roll, type CalendarOptions } from './calendar.ts';
import { centsTimes, fromCents, toCents } from './money.ts';

interface ValorPart {
  modalidade: number | string;
  valorPerc: string;
}

/** The parts of a due-date charge `amountDue` reads (a `cobv` as created or fetched fits). */
export interface AmountDueCharge {
  calendario: { dataDeVencimento: string; validadeAposVencimento?: number | undefined };
  valor: {
    original: string;
    multa?: ValorPart | undefined;
    juros?: ValorPart | undefined;
    abatimento?: ValorPart | undefined;
    desconto?:
      | {
          modalidade: number | string;
          valorPerc?: string | undefined;
          descontoDataFixa?: readonly { data: string; valorPerc: string }[] | undefined;
        }
      | undefined;
  };
}

/** Options of `amountDue`: the payer's calendar. */
export type AmountDueOptions = CalendarOptions;

/** What a due-date charge asks on a day (decimal strings). */
export interface AmountDue {
  /** True when the charge can be paid on that day (on or before `lastPayableDay`). */
  payable: boolean;
  /** The due date, rolled to a business day. */
  dueDate: string;
  /** The last day the charge can be paid. */
  lastPayableDay: string;
  /** Each component the charge has, and the amount to pay. */
  valor: { original: string; multa?: string; juros?: string; abatimento?: string; desconto?: string; final: string };
}

function modalidade(part: { modalidade: number | string }, max: number): number {
  const m = Number(part.modalidade);
  if (!(Number.isInteger(m) && m >= 1 && m <= max)) throw new RangeError(`modalidade must be 1 to ${max}`);
  return m;
}

/**
 * What `cobv` asks when paid on `date` (`YYYY-MM-DD`): whether it is payable that day, its last
 * payable day and `valor` with each component and `final`. Throws `RangeError` for an invalid
 * date, amount or modality, or a business-day modality counted over more than 5 years.
 */
export function amountDue(cobv: AmountDueCharge, date: string, options?: AmountDueOptions): AmountDue {
  const { calendario, valor } = cobv;
  if (!isCivilDate(date) || !isCivilDate(calendario.dataDeVencimento))
    throw new RangeError('dates must be YYYY-MM-DD calendar dates');
  const validade = calendario.validadeAposVencimento ?? 30;
  if (!Number.isSafeInteger(validade) || validade < 0)
    throw new RangeError('validadeAposVencimento must be a whole number of days');
  const open = businessDayTest(options);
  const dueDate = roll(calendario.dataDeVencimento, open);
  const lastPayableDay = roll(addDays(dueDate, validade), open);
  const original = toCents(valor.original);
  const percent = (rate: string, times = 1, per = 1) => centsTimes(original, toCents(rate), times, 10_000 * per);
  const { multa: mt, juros: jr, abatimento: ab, desconto: ds } = valor;
  const late = date > dueDate;
  let abatimento = 0;
  let desconto = 0;
  let multa = 0;
  let juros = 0;
  if (ab) abatimento = modalidade(ab, 2) === 1 ? toCents(ab.valorPerc) : percent(ab.valorPerc);
  if (ds) {
    const m = modalidade(ds, 6);
    if (m <= 2) {
      // Sorted by the date as written: of two dates that roll to the same day, the earlier one counts.
      const tier = ds.descontoDataFixa
        ?.filter((t) => isCivilDate(t.data))
        .sort((a, b) => a.data.localeCompare(b.data))
        .find((t) => date <= roll(t.data, open));
      if (tier) desconto = m === 1 ? toCents(tier.valorPerc) : percent(tier.valorPerc);
    } else if (date < dueDate) {
      // 3 and 5 count calendar days, 4 and 6 business days; 3 and 4 are amounts, 5 and 6 percentages.
      const early = m % 2 === 1 ? daysBetween(date, dueDate) : businessDaysBetween(date, dueDate, open);
      desconto = m <= 4 ? centsTimes(toCents(ds.valorPerc ?? ''), early, 1, 1) : percent(ds.valorPerc ?? '', early);
    }
  }
  if (mt) {
    const m = modalidade(mt, 2);
    if (late) multa = m === 1 ? toCents(mt.valorPerc) : percent(mt.valorPerc);
  }
  if (jr) {
    const m = modalidade(jr, 8);
    const business = m > 4;
    const days = !late ? 0 : business ? businessDaysBetween(dueDate, date, open) : daysBetween(dueDate, date);
    const per = [1, 1, business ? 21 : 30, business ? 252 : 365][(m - 1) % 4]!;
    juros = m % 4 === 1 ? centsTimes(toCents(jr.valorPerc), days, 1, 1) : percent(jr.valorPerc, days, per);
  }
  desconto = Math.min(desconto, Math.max(0, original - abatimento - 1));
  const parts: Omit<AmountDue['valor'], 'final'> = { original: fromCents(original) };
  if (mt) parts.multa = fromCents(multa);
  if (jr) parts.juros = fromCents(juros);
  if (ab) parts.abatimento = fromCents(abatimento);
  if (ds) parts.desconto = fromCents(desconto);
  const final = fromCents(Math.max(0, original - abatimento - desconto + multa + juros));
  return { payable: date <= lastPayableDay, dueDate, lastPayableDay, valor: { ...parts, final } };
}
