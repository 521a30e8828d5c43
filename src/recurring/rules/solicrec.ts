/** The rules of a confirmation request: `POST /solicrec` (`SolicRecSolicitada`). */
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { isText, matches } from '../../collection/rules/fields.ts';
import { isRfc3339, todayInBrasilia } from '../../lib/dates.ts';
import { RECURRING_ID, checkIdRec, earliestServiceDate, hasOneDocument } from './fields.ts';

const ISPB = /^[0-9A-Z]{8}$/;

/**
 * `POST /solicrec`: `idRec` of 29 letters or digits; `calendario.dataExpiracaoSolicitacao` an RFC
 * 3339 date-time whose Brasília date is not before today (the request's creation date);
 * `destinatario` with `conta` (≤ 20), `ispbParticipante` (8 of `[0-9A-Z]`), `agencia` (≤ 4) if
 * given, and exactly one of `cpf` or `cnpj`. `pagador`, which the schema lists as required but
 * never defines (appendix B, item 5), is not asked for. Whether another request is active for the
 * same recurrence, the service judges.
 */
export function checkSolicRec(body: unknown, ctx: RuleContext): void {
  if (!isRecord(body)) return ctx.add('solicrec', 'the confirmation request must be an object');
  checkIdRec(body['idRec'], 'solicrec.idRec', ctx);
  const { calendario, destinatario } = body;
  const expiry = isRecord(calendario) ? calendario['dataExpiracaoSolicitacao'] : undefined;
  const day = isRfc3339(expiry) ? brasiliaDateOf(expiry) : undefined;
  if (!isRfc3339(expiry)) {
    ctx.add('solicrec.calendario', 'calendario.dataExpiracaoSolicitacao is required, an RFC 3339 date-time', expiry);
  } else if (day !== undefined && day < earliestServiceDate(ctx.now)) {
    ctx.add(
      'solicrec.calendario.dataExpiracaoSolicitacao',
      'dataExpiracaoSolicitacao falls on a day before today in Brasília, the creation date of the request',
      expiry,
    );
  }
  if (
    !isRecord(destinatario) ||
    !isText(destinatario['conta'], 20) ||
    !matches(destinatario['ispbParticipante'], ISPB) ||
    (destinatario['agencia'] !== undefined && !isText(destinatario['agencia'], 4)) ||
    !hasOneDocument(destinatario)
  ) {
    ctx.add(
      'solicrec.destinatario',
      'destinatario needs conta (at most 20 characters), ispbParticipante (8 of 0-9/A-Z), agencia of at most 4 if given, and cpf (11 digits) or cnpj (14 of 0-9/A-Z), not both',
    );
  }
}

/** The Brasília date of an RFC 3339 instant; `undefined` when JavaScript cannot place it (a leap second, year 0000). */
function brasiliaDateOf(instant: string): string | undefined {
  try {
    return todayInBrasilia(new Date(Date.parse(instant)));
  } catch {
    return undefined;
  }
}

/** `idSolicRec` in a path (propriedade `idSolicRec`): 29 letters or digits (`RECURRING_ID`). */
export function checkIdSolicRec(idSolicRec: unknown, ctx: RuleContext): void {
  if (!matches(idSolicRec, RECURRING_ID)) ctx.add('idSolicRec', 'idSolicRec must be 29 letters or digits', idSolicRec);
}
