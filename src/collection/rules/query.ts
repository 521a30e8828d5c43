/** The rules of path and query parameters: a txid, a revision, and the query every list shares. */
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { isRfc3339 } from '../../lib/dates.ts';
import { isValidTxid } from '../../lib/ids.ts';
import { CNPJ_PATTERN, CPF_PATTERN, isInt, matches } from './fields.ts';

// A location id is an int64 on the wire and a string in the path: 1 to 19 digits.
const LOCATION_ID = /^\d{1,19}$/;

/** A charge txid in a path: 26 to 35 letters or digits (propriedade `txid`). */
export function checkTxid(txid: unknown, ctx: RuleContext): void {
  if (!isValidTxid(txid)) ctx.add('txid', 'txid must be 26 to 35 letters or digits', txid);
}

/**
 * A location id in a path (`/loc/{id}`, `/locrec/{id}`): a non-negative integer, or a decimal
 * string of one (propriedade `id`). True when it is.
 */
export function checkLocationId(id: unknown, ctx: RuleContext): boolean {
  const valid =
    typeof id === 'number' ? Number.isSafeInteger(id) && id >= 0 : typeof id === 'string' && LOCATION_ID.test(id);
  if (!valid) ctx.add('id', 'a location id is a non-negative integer', id);
  return valid;
}

/** `revisao` of GET /cob/{txid} and /cobv/{txid}: an integer, zero or more. */
export function checkRevisao(revisao: unknown, ctx: RuleContext): void {
  if (revisao !== undefined && !isInt(revisao, 0))
    ctx.add('revisao', 'revisao must be an integer, zero or more', revisao);
}

/**
 * The list-query rules: `inicio` and `fim` RFC 3339 (required unless `requireRange` is false),
 * `fim` not before `inicio`, `cpf` (11 digits) and `cnpj` (14 of `[0-9A-Z]`) not both,
 * `paginacao.paginaAtual` ≥ 0, `paginacao.itensPorPagina` 1 to 1000. Properties are named as the
 * query parameters are, prefixed with `root.` when given.
 */
export function collectListQuery(query: unknown, ctx: RuleContext, root = '', requireRange = true): void {
  const at = (name: string) => (root === '' ? name : `${root}.${name}`);
  if (query === undefined && !requireRange) return;
  if (!isRecord(query)) return ctx.add(at('inicio'), 'the query must be an object with inicio and fim');
  const { inicio, fim, cpf, cnpj, paginacao } = query;
  const start = checkInstant(inicio, at('inicio'), ctx, requireRange);
  const end = checkInstant(fim, at('fim'), ctx, requireRange);
  if (start !== undefined && end !== undefined && end < start) ctx.add(at('fim'), 'fim is earlier than inicio', fim);
  if (cpf !== undefined && cnpj !== undefined) ctx.add(at('cpf'), 'cpf and cnpj cannot both be given');
  else if (cpf !== undefined && !matches(cpf, CPF_PATTERN)) ctx.add(at('cpf'), 'cpf must be 11 digits');
  else if (cnpj !== undefined && !matches(cnpj, CNPJ_PATTERN)) {
    ctx.add(at('cnpj'), 'cnpj must be 14 characters of 0-9/A-Z');
  }
  if (paginacao === undefined) return;
  if (!isRecord(paginacao)) return ctx.add(at('paginacao'), 'paginacao must be an object');
  const { paginaAtual, itensPorPagina } = paginacao;
  if (paginaAtual !== undefined && !isInt(paginaAtual, 0)) {
    ctx.add(at('paginacao.paginaAtual'), 'paginacao.paginaAtual must be an integer, zero or more', paginaAtual);
  }
  if (itensPorPagina !== undefined && !isInt(itensPorPagina, 1, 1000)) {
    ctx.add(
      at('paginacao.itensPorPagina'),
      'paginacao.itensPorPagina must be an integer from 1 to 1000',
      itensPorPagina,
    );
  }
}

function checkInstant(value: unknown, p: string, ctx: RuleContext, required: boolean): number | undefined {
  if (value === undefined) {
    if (required) ctx.add(p, `${p.slice(p.lastIndexOf('.') + 1)} is required (RFC 3339 date-time)`);
    return undefined;
  }
  if (!isRfc3339(value)) {
    ctx.add(p, 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z', value);
    return undefined;
  }
  return Date.parse(value);
}

/** A boolean filter of a list query (`txIdPresente`, `devolucaoPresente`), when given. */
export function checkFlag(value: unknown, name: string, ctx: RuleContext): void {
  if (value !== undefined && typeof value !== 'boolean') ctx.add(name, 'must be a boolean', value);
}
