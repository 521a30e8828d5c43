/**
 * The request rules of the recurring spec's section 7.3, as the client judges them before
 * sending, live in `recurring/rules/`: one file per resource (`rec`, `solicrec`, `cobr`), and here
 * what they share. They reuse the charges' rules (`collection/rules/`) where the schema is the
 * same: list queries, addresses, webhook URLs, location ids, txids.
 *
 * Each broken rule is named (`propriedade`) the way the catalogue names the violation it falls
 * under, as the official error examples do: an object when the catalogue says the object does not
 * respect its schema (`rec.vinculo`, `cobr.calendario`, `solicrec.destinatario`), a field when
 * it names the field (`rec.calendario.dataInicial`, `rec.valor.valorRec`,
 * `cobr.calendario.dataDeVencimento`). A field the catalogue does not name is named by its path
 * (`cobr.idRec`, `rec.loc`).
 *
 * Never refuse what the service may accept: documents are judged by the schema's patterns only
 * (the official examples carry CPFs whose check digits fail), and where the OpenAPI contradicts
 * itself (recurring spec, appendix B) the looser reading wins.
 */
import type { ApiErrorClass } from '../../errors/api-error.ts';
import { refuse, type RuleContext } from '../../core/validation.ts';
import { epochMs, type Now } from '../../internal/clock.ts';
import { CNPJ_PATTERN, CPF_PATTERN, isText, matches, type Fields } from '../../collection/rules/fields.ts';
import { collectListQuery } from '../../collection/rules/query.ts';
import { isCivilDate, todayInBrasilia } from '../../lib/dates.ts';
import { isValidIdRec } from '../../lib/ids.ts';

/**
 * An `idRec` or `idSolicRec` as the schema writes it: 29 letters or digits. The formation rule
 * (`IDREC_PATTERN`, `IDSOLICREC_PATTERN`) is how the service's agents form them, derived from the
 * spec's appendix A.2 and not in the schema: a request is judged by the schema, so an id of 29
 * letters or digits goes to the service, which answers whether it names anything.
 */
export const RECURRING_ID = /^[a-zA-Z0-9]{29}$/;

/**
 * How far the client's clock may run ahead of the service's. A date rule against "today" (the
 * creation date of what a request creates) compares with the Brasília date this long ago, so a
 * clock slightly ahead, or a call made just after midnight, never refuses what the service takes.
 */
export const CLOCK_SLACK_MS = 10 * 60_000;

/** The earliest Brasília date the service can call today: a creation date is never before it. */
export function earliestServiceDate(now: Now): string {
  return todayInBrasilia(new Date(epochMs(now) - CLOCK_SLACK_MS));
}

/** An `idRec` of the schema (`RECURRING_ID`), reported at `propriedade`; `required` when absent is a violation. */
export function checkIdRec(idRec: unknown, propriedade: string, ctx: RuleContext, required = true): void {
  if (idRec === undefined && !required) return;
  if (!matches(idRec, RECURRING_ID)) ctx.add(propriedade, 'idRec must be 29 letters or digits', idRec);
}

/**
 * The rule of a path id on an endpoint that declares no 400 (`GET /solicrec/{idSolicRec}`,
 * `DELETE /locrec/{id}/idRec`): an id out of its schema names nothing, and the service can only
 * answer so (404, `NotFound`). Refused before sending with that class, the id named in `violacoes`.
 */
export function refusedAsNotFound(
  NotFound: ApiErrorClass,
  check: (ctx: RuleContext) => void,
): (ctx: RuleContext) => void {
  return (ctx) => {
    check(ctx);
    refuse(NotFound, ctx.out, 'Not found: the id is out of its schema');
  };
}

/**
 * The creation date an `idRec` carries (`yyyyMMdd`, characters 11 to 18), as `YYYY-MM-DD`, or
 * `undefined` when the id is not of the formation rule or the date is not a real day.
 */
export function idRecCreationDate(idRec: unknown): string | undefined {
  if (!isValidIdRec(idRec)) return undefined;
  const date = `${idRec.slice(10, 14)}-${idRec.slice(14, 16)}-${idRec.slice(16, 18)}`;
  return isCivilDate(date) ? date : undefined;
}

/**
 * A person (`cpf` + `nome`) or a company (`cnpj` + `nome`), never both documents; `nome` at most
 * `maxNome` characters. True when it is one.
 */
export function isPerson(value: unknown, maxNome = 140): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { cpf, cnpj, nome } = value as Fields;
  if ((cpf === undefined) === (cnpj === undefined)) return false;
  const document = cpf === undefined ? matches(cnpj, CNPJ_PATTERN) : matches(cpf, CPF_PATTERN);
  return document && isText(nome, maxNome);
}

/** Exactly one of `cpf` (11 digits) or `cnpj` (14 of `[0-9A-Z]`) on `fields`. */
export function hasOneDocument(fields: Fields): boolean {
  const { cpf, cnpj } = fields;
  if ((cpf === undefined) === (cnpj === undefined)) return false;
  return cpf === undefined ? matches(cnpj, CNPJ_PATTERN) : matches(cpf, CPF_PATTERN);
}

/**
 * The query of a recurring list (`GET /rec`, `/cobr`, `/locrec`): the rules every list shares,
 * plus `convenio` (at most 60 characters).
 */
export function collectRecurringListQuery(query: unknown, ctx: RuleContext): void {
  collectListQuery(query, ctx);
  const convenio = (query as Fields | null | undefined)?.['convenio'];
  if (convenio !== undefined && !isText(convenio, 60))
    ctx.add('convenio', 'convenio must be a string of at most 60 characters');
}
