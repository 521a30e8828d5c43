/**
 * Client-side refusals. A rule of spec section 7.3 that can be judged from the request throws
 * the same class the service would answer with, with `violacoes` shaped like the service's,
 * and `sentRequest: false`, before any I/O.
 */
import type { ApiErrorClass, Violacao } from './errors.ts';

/** One broken rule: the property as the service names it (`cob.valor.original`) and why. */
export function violation(propriedade: string, razao: string, valor?: unknown): Violacao {
  const v: Violacao = { propriedade, razao };
  if (valor !== undefined) v.valor = typeof valor === 'string' ? valor : describeValue(valor);
  return v;
}

/** JSON of an offending value; a value JSON cannot carry (a BigInt, a cycle) is named by its type. */
function describeValue(valor: unknown): string {
  try {
    return JSON.stringify(valor) ?? typeof valor;
  } catch {
    return `[unserializable ${typeof valor}]`;
  }
}

/** Throws `ErrorClass` carrying `violacoes` when there is at least one. */
export function refuse(ErrorClass: ApiErrorClass<string>, violacoes: readonly Violacao[], title?: string): void {
  if (violacoes.length === 0) return;
  throw new ErrorClass({
    title: title ?? 'Request refused before sending',
    violacoes,
    sentRequest: false,
  });
}

/** Per-call or per-client switch: `validate: false` lets the service judge instead. */
export function shouldValidate(clientDefault: boolean, callOption: boolean | undefined): boolean {
  return callOption ?? clientDefault;
}
