/**
 * Redaction of what an error may carry: no document number, e-mail address, bearer token or
 * secret reaches a message, `JSON.stringify(error)` or `util.inspect(error)`. Internal: used
 * by the error classes, the token provider and nothing a user imports.
 */
import type { Violacao } from './base.ts';

/** Properties whose offending value is personal data: the value is never kept in an error. */
const PERSONAL_FIELDS = new Set([
  'cpf',
  'cnpj',
  'nome',
  'email',
  'chave',
  'logradouro',
  'cep',
  'cidade',
  'key',
  'instantkey',
  'creditordocument',
  'document',
  'devedor',
  'recebedor',
  // The recurring part: the paying user's account and the debtor inside a recurrence's link.
  'destinatario',
  'pagador',
  'vinculo',
  'conta',
  'agencia',
]);

const BEARER = /Bearer\s+[\w.~+/=-]+/gi;
// An address is found from its '@' (then up to 64 characters back): a pattern starting with
// `[\w.+-]+@` is quadratic on a long run of word characters.
const DOMAIN = /@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g;
const LOCAL = /[\w.+-]/;
const DOCUMENT = /\b[0-9A-Z]{12}\d{2}\b|\b\d{11}\b|\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}/g;

/** Masks what looks like a document number, e-mail address or bearer token in free text. */
export function scrub(text: string): string {
  // Shorter text holds no bearer token (8 characters at least) nor document number (11): an
  // amount or a date skips the patterns.
  let out = text.length < 8 ? text : text.replace(BEARER, 'Bearer [redacted]');
  if (out.includes('@')) out = maskEmails(out);
  return out.length < 11 ? out : out.replace(DOCUMENT, '[redacted]');
}

function maskEmails(text: string): string {
  let out = '';
  let kept = 0;
  for (const match of text.matchAll(DOMAIN)) {
    let start = match.index;
    while (start > kept && match.index - start < 64 && LOCAL.test(text[start - 1]!)) start--;
    if (start === match.index) continue;
    out += `${text.slice(kept, start)}[redacted]`;
    kept = match.index + match[0].length;
  }
  return out + text.slice(kept);
}

/**
 * Masks the literal `secret` (when not empty), then scrubs the rest. A secret that is an
 * ordinary word (letters only: `wrong`) is masked only where it reads as a value (after `=` or
 * `:`, or quoted), so `wrong secret` in the service's message stays readable.
 */
export function maskSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return scrub(text);
  if (!/^[A-Za-z]+$/.test(secret)) return scrub(text.split(secret).join('[redacted]'));
  const asValue = new RegExp(`([=:]\\s*["']?|["'])${secret}(?![A-Za-z])`, 'g');
  return scrub(text.replace(asValue, '$1[redacted]'));
}

/**
 * A `violacoes` entry fit to keep: a personal field's value is replaced, any other value
 * scrubbed. `razao` is scrubbed when it came from the wire; the SDK's own (`trusted`, a
 * refusal before sending) names no value and is kept as written.
 */
export function redactViolacao(v: Violacao, trusted: boolean): Violacao {
  const out: Violacao = {};
  if (v.razao !== undefined) out.razao = trusted ? v.razao : scrub(v.razao);
  if (v.propriedade !== undefined) out.propriedade = v.propriedade;
  if (v.valor !== undefined) out.valor = isPersonal(v.propriedade) ? '[redacted]' : scrub(v.valor);
  return out;
}

function isPersonal(propriedade: string | undefined): boolean {
  if (propriedade === undefined) return false;
  let leaf = propriedade.slice(propriedade.lastIndexOf('.') + 1);
  if (leaf.endsWith(']')) leaf = leaf.replace(/\[\d+\]$/, '');
  leaf = leaf.toLowerCase();
  return PERSONAL_FIELDS.has(leaf);
}
