/**
 * JSON values as YAML block style, for `/openapi.yaml` (the package has no YAML dependency):
 * every string and key double-quoted, JSON's escapes being YAML's too.
 */

/** `value` (JSON data: objects, arrays, strings, numbers, booleans, null) as a YAML document. */
export function toYaml(value: unknown): string {
  return `${block(value, '').replace(/^\n/, '')}\n`;
}

function block(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((item) => `\n${indent}-${block(item, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([key, item]) => `\n${indent}${JSON.stringify(key)}:${block(item, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(value)}`;
}
