/**
 * Reconciling a received payment with its charge: did it pay what the charge asked on the day
 * it was paid? For an immediate charge (`cob`) that is its amount (with a withdrawal or change
 * amount); for a due-date charge (`cobv`) it is `amountDue` on the payment's Brasília date, so
 * discounts, fine and interest count as the payer's service counted them.
 */
import { amountDue, type AmountDue, type AmountDueCharge, type AmountDueOptions } from '../lib/amount-due.ts';
import { todayInBrasilia } from '../lib/dates.ts';
import { fromCents, toCents } from '../lib/money.ts';

/** The parts of a received payment `reconcilePayment` reads (an `InstantPayment` fits). */
export interface ReconciledPayment {
  valor: string;
  /** RFC 3339 date-time the payment was processed. */
  horario: string;
}

/** The parts of an immediate charge `reconcilePayment` reads (a `cob` as created or fetched fits). */
export interface ReconciledCob {
  calendario?: object | undefined;
  valor: {
    original: string;
    retirada?: { saque?: { valor: string } | undefined; troco?: { valor: string } | undefined } | undefined;
  };
}

/** How a payment compares with what its charge asked on the day it was paid. */
export interface Reconciliation {
  /** `full`: exactly the amount due; `short`: less; `over`: more. */
  status: 'full' | 'short' | 'over';
  /** What the charge asked on `date`. */
  due: string;
  /** What the payment carried (`valor`; refunds are not subtracted). */
  paid: string;
  /** `paid − due`, signed: `"-2.50"`, `"0.00"`, `"1.00"`. */
  difference: string;
  /** The payment's date in Brasília (`YYYY-MM-DD`). */
  date: string;
  /** False when a due-date charge was paid after its last payable day (always true for `cob`). */
  payable: boolean;
  /** For a due-date charge: the amount due on `date`, part by part (`amountDue`'s `valor`). */
  valor?: AmountDue['valor'];
}

/**
 * Compares a received payment with its charge (`cob` or `cobv`, as `api.cob.get` or
 * `api.cobv.get` answer): the amount due on the payment's Brasília date, what was paid and the
 * difference. `options` gives the payer's calendar for a `cobv` (`codMun`, `localHolidays`);
 * without them only national holidays move its due date. Throws `RangeError` for an amount or
 * date it cannot read.
 */
export function reconcilePayment(
  payment: ReconciledPayment,
  charge: ReconciledCob | AmountDueCharge,
  options?: AmountDueOptions,
): Reconciliation {
  const date = todayInBrasilia(new Date(payment.horario));
  let due: string;
  let payable = true;
  let valor: AmountDue['valor'] | undefined;
  if (typeof (charge.calendario as { dataDeVencimento?: unknown } | undefined)?.dataDeVencimento === 'string') {
    const owed = amountDue(charge as AmountDueCharge, date, options);
    ({ payable, valor } = owed);
    due = owed.valor.final;
  } else {
    const { original, retirada } = (charge as ReconciledCob).valor;
    due = fromCents(toCents(original) + toCents(retirada?.saque?.valor ?? retirada?.troco?.valor ?? '0.00'));
  }
  const difference = toCents(payment.valor) - toCents(due);
  const out: Reconciliation = {
    status: difference === 0 ? 'full' : difference < 0 ? 'short' : 'over',
    due,
    paid: payment.valor,
    difference: (difference < 0 ? '-' : '') + fromCents(Math.abs(difference)),
    date,
    payable,
  };
  if (valor) out.valor = valor;
  return out;
}
