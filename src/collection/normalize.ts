/**
 * Lenient reading: the service's examples are looser than its schema, so a few shapes are
 * straightened. Answers are straightened after parsing (in place); a request is sent in the
 * schema's form without touching the caller's object. Nothing else is touched: unknown fields and
 * enum values pass through, money stays a string.
 */
import { isRecord } from '../internal/json.ts';

/** Where a charge holds integers that the official examples write as strings (`"3600"`, modalidade `"2"`). */
const CHARGE_INTEGERS: ReadonlyArray<readonly string[]> = [
  ['revisao'],
  ['calendario', 'expiracao'],
  ['calendario', 'validadeAposVencimento'],
  ['valor', 'modalidadeAlteracao'],
  ['valor', 'multa', 'modalidade'],
  ['valor', 'juros', 'modalidade'],
  ['valor', 'abatimento', 'modalidade'],
  ['valor', 'desconto', 'modalidade'],
  ['valor', 'retirada', 'saque', 'modalidadeAlteracao'],
  ['valor', 'retirada', 'troco', 'modalidadeAlteracao'],
  ['loc', 'id'],
];

/** A charge answer (cob, cobv): the integer fields written as strings become numbers, in place. */
export function normalizeCharge<T>(charge: T): T {
  for (const path of CHARGE_INTEGERS) withInteger(charge, path, 0, false);
  return charge;
}

/**
 * A charge request (cob, cobv) in the schema's form: the integer fields written as strings (as
 * the official `cobBody1` does) become numbers, so the rules judge, and the service receives,
 * what the schema declares. The caller's object is never changed: what must change is copied,
 * and a body already in the schema's form is returned as it is.
 */
export function chargeRequest<T>(charge: T): T {
  let out: unknown = charge;
  for (const path of CHARGE_INTEGERS) out = withInteger(out, path, 0, true);
  return out as T;
}

/** A batch request (lotecobv): each of its `cobsv` as `chargeRequest` does. */
export function batchRequest<T>(batch: T): T {
  if (!isRecord(batch) || !Array.isArray(batch['cobsv'])) return batch;
  const cobsv: unknown[] = batch['cobsv'];
  const items = cobsv.map(chargeRequest);
  return items.some((item, i) => item !== cobsv[i]) ? ({ ...batch, cobsv: items } as T) : batch;
}

/** A received payment: `devolucoes` given as one object becomes a one-item array. */
export function normalizePayment<T>(payment: T): T {
  const fields: unknown = payment;
  if (isRecord(fields) && isRecord(fields['devolucoes'])) fields['devolucoes'] = [fields['devolucoes']];
  return payment;
}

/**
 * `value` with the digit string at `path` (from `index`) as a number; `copy` copies each object
 * on the way down instead of changing it. Returns `value` itself when there is nothing to change.
 */
function withInteger(value: unknown, path: readonly string[], index: number, copy: boolean): unknown {
  if (!isRecord(value)) return value;
  const key = path[index]!;
  const field = value[key];
  const next = index === path.length - 1 ? integerOf(field) : withInteger(field, path, index + 1, copy);
  if (next === field) return value;
  const target = copy ? { ...value } : value;
  target[key] = next;
  return target;
}

function integerOf(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}
