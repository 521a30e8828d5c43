/**
 * Lenient reading: the service's examples are looser than its schema, so a few shapes are
 * straightened. Answers are straightened after parsing (in place); a request is sent in the
 * schema's form without touching the caller's object. Nothing else is touched: unknown fields and
 * enum values pass through, money stays a string.
 */
import { isRecord } from '../internal/json.ts';

/**
 * Where a charge holds integers that the official examples write as strings (`"3600"`, modalidade
 * `"2"`), as a tree: a charge is walked once, and only into the objects it has.
 */
const CHARGE_INTEGERS: IntegerShape = {
  revisao: true,
  calendario: { expiracao: true, validadeAposVencimento: true },
  valor: {
    modalidadeAlteracao: true,
    multa: { modalidade: true },
    juros: { modalidade: true },
    abatimento: { modalidade: true },
    desconto: { modalidade: true },
    retirada: { saque: { modalidadeAlteracao: true }, troco: { modalidadeAlteracao: true } },
  },
  loc: { id: true },
};

/** A charge answer (cob, cobv): the integer fields written as strings become numbers, in place. */
export function normalizeCharge<T>(charge: T): T {
  withIntegers(charge, CHARGE_INTEGERS, false);
  return charge;
}

/**
 * A charge request (cob, cobv) in the schema's form: the integer fields written as strings (as
 * the official `cobBody1` does) become numbers, so the rules judge, and the service receives,
 * what the schema declares. The caller's object is never changed: what must change is copied,
 * and a body already in the schema's form is returned as it is.
 */
export function chargeRequest<T>(charge: T): T {
  return withIntegers(charge, CHARGE_INTEGERS, true) as T;
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

/** Integer fields by name: `true` for the field itself, a subtree for an object holding some. */
interface IntegerShape {
  readonly [key: string]: true | IntegerShape;
}

/**
 * `value` with the digit strings the shape names as numbers; `copy` copies each object on the way
 * down instead of changing it. Returns `value` itself when there is nothing to change.
 */
function withIntegers(value: unknown, shape: IntegerShape, copy: boolean): unknown {
  if (!isRecord(value)) return value;
  let target = value;
  for (const key in shape) {
    const sub = shape[key] as true | IntegerShape;
    const field = value[key];
    if (field === undefined) continue;
    const next = sub === true ? integerOf(field) : withIntegers(field, sub, copy);
    if (next === field) continue;
    if (copy && target === value) target = { ...value };
    target[key] = next;
  }
  return target;
}

function integerOf(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}
