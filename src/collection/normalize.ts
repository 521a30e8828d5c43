/**
 * Lenient reading of answers: the service's examples are looser than its schema, so a few
 * shapes are straightened after parsing. Nothing else is touched: unknown fields and enum
 * values pass through, money stays a string. Both functions mutate and return the parsed body.
 */
import { isRecord } from '../internal/json.ts';

/** A charge (cob, cobv): the integer fields the official examples write as strings (`"3600"`, modalidade `"2"`) become numbers. */
export function normalizeCharge<T>(charge: T): T {
  if (!isRecord(charge)) return charge;
  toInteger(charge, 'revisao');
  const { calendario, valor, loc } = charge;
  if (isRecord(calendario)) {
    toInteger(calendario, 'expiracao');
    toInteger(calendario, 'validadeAposVencimento');
  }
  if (isRecord(valor)) {
    toInteger(valor, 'modalidadeAlteracao');
    for (const key of ['multa', 'juros', 'abatimento', 'desconto']) {
      const part = valor[key];
      if (isRecord(part)) toInteger(part, 'modalidade');
    }
  }
  if (isRecord(loc)) toInteger(loc, 'id');
  return charge;
}

/** A received payment: `devolucoes` given as one object becomes a one-item array. */
export function normalizePayment<T>(payment: T): T {
  const fields: unknown = payment;
  if (isRecord(fields) && isRecord(fields['devolucoes'])) fields['devolucoes'] = [fields['devolucoes']];
  return payment;
}

function toInteger(record: Record<string, unknown>, key: string): void {
  const value = record[key];
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) record[key] = Number(value);
}
