/**
 * The request body as sent: JSON text, or a refusal before sending when the body holds a value
 * JSON cannot carry, with the field named like the rules name theirs.
 */
import { refusalClass } from '../errors/factory.ts';
import type { CallSpec } from './types.ts';

/** The request body as JSON text; a value JSON cannot hold (BigInt, a cycle) is refused before sending. */
export function serialize(spec: CallSpec): string | undefined {
  if (spec.body === undefined) return undefined;
  try {
    return JSON.stringify(spec.body);
  } catch {
    const Refusal = refusalClass(spec.errors);
    const razao = 'cannot be written as JSON (a BigInt, or an object that contains itself)';
    throw new Refusal({
      title: 'Request refused before sending',
      detail: `the body ${razao}`,
      violacoes: [{ propriedade: unserializableAt(spec.body, '', new Set()) ?? '', razao }],
      sentRequest: false,
    });
  }
}

/** The dotted path of the first value JSON cannot hold (only walked once serialising failed). */
function unserializableAt(value: unknown, at: string, open: Set<object>): string | undefined {
  if (typeof value === 'bigint') return at;
  if (typeof value !== 'object' || value === null) return undefined;
  if (open.has(value)) return at;
  open.add(value);
  for (const [key, child] of Object.entries(value)) {
    const found = unserializableAt(child, at ? `${at}.${key}` : key, open);
    if (found !== undefined) return found;
  }
  open.delete(value);
  return undefined;
}
