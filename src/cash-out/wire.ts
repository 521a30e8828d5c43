/**
 * From the provider's wire shapes to the SDK's: float money to exact two-decimal strings, the two
 * `refunds` shapes to one, the `{ data }` envelope removed. Unknown fields pass through.
 */
import { isRecord } from '../internal/json.ts';
import { wireAmount } from '../lib/money.ts';
import { CashOutResponseError } from './errors.ts';
import type { Balance, BalanceEntry, Money, Transfer, TransferRefund } from './types.ts';

/** Money from the wire (`wireAmount`); an amount out of range is a `CashOutResponseError`. */
function money(value: unknown): string | undefined {
  try {
    return wireAmount(value);
  } catch (error) {
    throw new CashOutResponseError('The provider answered an amount out of range', { cause: error });
  }
}

/** `{ currency, amount: 0.1 }` → `{ currency, amount: "0.10" }`, other fields kept. */
function toMoney(value: unknown): Money | undefined {
  if (!isRecord(value)) return undefined;
  const amount = money(value['amount']);
  if (amount === undefined) return undefined;
  return { ...value, currency: typeof value['currency'] === 'string' ? value['currency'] : 'BRL', amount };
}

function toRefund(value: unknown): TransferRefund {
  // The 202 answer lists refunds as bare numbers; read as amounts.
  if (typeof value === 'number') return { instantRefundAmount: { amount: money(value) ?? '' } };
  if (!isRecord(value)) return { value };
  const out: TransferRefund = { ...value };
  const amount = isRecord(value['instantRefundAmount']) ? money(value['instantRefundAmount']['amount']) : undefined;
  if (amount !== undefined) out.instantRefundAmount = { ...(value['instantRefundAmount'] as object), amount };
  return out;
}

/** The record inside `{ data: {...} }`, or the body itself when it comes without the envelope. */
export function unwrap(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  return isRecord(body['data']) ? body['data'] : body;
}

/**
 * A transfer record in SDK shape. `defaults` fill what the wire leaves out but the caller knows
 * (the idempotency key it used; `PROCESSING` for a 202). Returns `undefined` when the record has
 * no status and no default is given.
 */
export function readTransfer(
  record: Record<string, unknown>,
  defaults: { idempotencyKey?: string; status?: string } = {},
): Transfer | undefined {
  const status = typeof record['status'] === 'string' ? record['status'] : defaults.status;
  const idempotencyKey =
    typeof record['idempotencyKey'] === 'string' ? record['idempotencyKey'] : defaults.idempotencyKey;
  if (status === undefined || idempotencyKey === undefined) return undefined;
  const transfer: Transfer = {
    ...record,
    idempotencyKey,
    status,
    refunds: Array.isArray(record['refunds']) ? record['refunds'].map(toRefund) : [],
  };
  const payment = toMoney(record['payment']);
  if (payment !== undefined) transfer.payment = payment;
  return transfer;
}

/** A transfer from an answer body, or `CashOutResponseError`. */
export function transferFrom(body: unknown, defaults: { idempotencyKey?: string; status?: string }): Transfer {
  const record = unwrap(body);
  const transfer = record === undefined ? undefined : readTransfer(record, defaults);
  if (transfer === undefined) throw new CashOutResponseError('The provider answered without a readable transfer');
  return transfer;
}

function toEntry(value: unknown): BalanceEntry | undefined {
  if (!isRecord(value)) return undefined;
  const amounts = isRecord(value['balanceAmount']) ? value['balanceAmount'] : value;
  const available = money(amounts['available']);
  if (available === undefined) return undefined;
  return {
    eventDate: typeof value['eventDate'] === 'string' ? value['eventDate'] : undefined,
    name: typeof amounts['name'] === 'string' ? amounts['name'] : undefined,
    available,
    blocked: money(amounts['blocked']),
    overdraft: money(amounts['overdraft']),
  };
}

/**
 * `{ data: [ { eventDate, balanceAmount: { name, available, blocked, overdraft } } ] }` in SDK
 * shape. The figures are those of the entry with the latest `eventDate`; entries whose date does
 * not parse lose to any that does, and the first entry wins a tie.
 */
export function balanceFrom(body: unknown): Balance {
  const data = isRecord(body) ? body['data'] : undefined;
  const list: unknown[] = Array.isArray(data) ? data : isRecord(data) ? [data] : [];
  const entries = list.map(toEntry).filter((entry): entry is BalanceEntry => entry !== undefined);
  let chosen: BalanceEntry | undefined;
  let chosenTime = Number.NEGATIVE_INFINITY;
  for (const entry of entries) {
    const time = entry.eventDate === undefined ? Number.NaN : Date.parse(entry.eventDate);
    const rank = Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
    if (chosen === undefined || rank > chosenTime) {
      chosen = entry;
      chosenTime = rank;
    }
  }
  if (chosen === undefined) throw new CashOutResponseError('The provider answered without a readable balance');
  return { ...chosen, entries, raw: body };
}
