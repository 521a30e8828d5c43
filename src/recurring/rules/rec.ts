/** The rules of a recurrence: `POST /rec` (`RecSolicitada`), `PATCH /rec/{idRec}` (`RecRevisada`), `GET /rec`. */
import { amountRefusal } from '../../lib/money.ts';
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { isMoney, isText, type Fields } from '../../collection/rules/fields.ts';
import { checkFlag } from '../../collection/rules/query.ts';
import { addDays, isCivilDate } from '../../lib/dates.ts';
import { isValidTxid } from '../../lib/ids.ts';
import { checkIdRec, collectRecurringListQuery, earliestServiceDate, idRecCreationDate, isPerson } from './fields.ts';

/** `calendario.periodicidade`. */
export const PERIODICIDADES: readonly unknown[] = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'];
/** `politicaRetentativa` (recurrence and recurring charge). */
export const POLITICAS_RETENTATIVA: readonly unknown[] = ['NAO_PERMITE', 'PERMITE_3R_7D'];
/** The one status a PATCH body may carry (recurrence, confirmation request, recurring charge). */
export const CANCEL_STATUS = 'CANCELADA';

/**
 * `POST /rec`. `idRec` is not required (appendix B, item 1: the schema lists it, the examples
 * omit it and the service generates it), nor is `retentativa` (item 1: no such field).
 * `dataInicial` must not be before today in Brasília (the creation date), `dataFinal` not before
 * `dataInicial`; the service judges `loc` (exists, unused) and `recebedor.convenio` (accepted).
 */
export function checkRec(body: unknown, ctx: RuleContext): void {
  if (!isRecord(body)) return ctx.add('rec', 'the recurrence must be an object');
  checkIdRec(body['idRec'], 'rec.idRec', ctx, false);
  checkVinculo(body['vinculo'], ctx);
  checkCalendario(body['calendario'], ctx);
  checkValor(body['valor'], ctx);
  const { politicaRetentativa, recebedor } = body;
  if (!POLITICAS_RETENTATIVA.includes(politicaRetentativa)) {
    ctx.add(
      'rec.politicaRetentativa',
      'politicaRetentativa is required: NAO_PERMITE or PERMITE_3R_7D',
      politicaRetentativa,
    );
  }
  if (
    recebedor !== undefined &&
    !(isRecord(recebedor) && (recebedor['convenio'] === undefined || isText(recebedor['convenio'], 60)))
  ) {
    ctx.add('rec.recebedor', 'recebedor takes only convenio, a string of at most 60 characters');
  }
  checkLoc(body['loc'], ctx);
  checkAtivacao(body['ativacao'], ctx);
}

/**
 * `PATCH /rec/{idRec}`: every field optional; `status` only CANCELADA; `vinculo.devedor` is
 * `{ nome }` (appendix B, item 7: its two identical branches make any value fail the schema's
 * oneOf, so only the field itself is judged). `calendario.dataInicial` must not be before the
 * recurrence's creation date, which its `idRec` carries (one day of margin, for an agent that
 * wrote the date in another zone); what the recurrence's status allows, the service judges.
 */
export function checkRecRevisada(idRec: string, body: unknown, ctx: RuleContext): void {
  if (!isRecord(body)) return ctx.add('rec', 'the revision must be an object');
  const { status, vinculo, calendario } = body;
  if (status !== undefined && status !== CANCEL_STATUS)
    ctx.add('rec.status', 'status can only be set to CANCELADA', status);
  if (vinculo !== undefined) {
    const devedor = isRecord(vinculo) ? vinculo['devedor'] : undefined;
    if (!isRecord(vinculo) || (devedor !== undefined && !(isRecord(devedor) && isText(devedor['nome'], 140)))) {
      ctx.add('rec.vinculo', 'vinculo.devedor takes nome, a string of at most 140 characters');
    }
  }
  if (calendario !== undefined) {
    if (!isRecord(calendario)) ctx.add('rec.calendario.dataInicial', 'calendario must be an object { dataInicial }');
    else checkRevisedStart(idRec, calendario['dataInicial'], ctx);
  }
  checkLoc(body['loc'], ctx);
  checkAtivacao(body['ativacao'], ctx);
}

/** A revised `dataInicial`: a date, not before the creation date in `idRec` less one day. */
function checkRevisedStart(idRec: string, dataInicial: unknown, ctx: RuleContext): void {
  if (dataInicial === undefined) return;
  if (!isCivilDate(dataInicial)) {
    ctx.add('rec.calendario.dataInicial', 'calendario.dataInicial must be a YYYY-MM-DD calendar date', dataInicial);
    return;
  }
  const created = idRecCreationDate(idRec);
  // More than a day before it (`dataInicial < created` first: no date overflow past 9999-12-31).
  if (created !== undefined && dataInicial < created && addDays(dataInicial, 1) < created) {
    ctx.add(
      'rec.calendario.dataInicial',
      `dataInicial is before ${created}, the creation date of the recurrence (its idRec)`,
      dataInicial,
    );
  }
}

/** `GET /rec`: the list rules, `locationPresente` a boolean, `convenio` at most 60. */
export function checkRecQuery(query: unknown, ctx: RuleContext): void {
  collectRecurringListQuery(query, ctx);
  checkFlag((query as Fields | null | undefined)?.['locationPresente'], 'locationPresente', ctx);
}

/** `vinculo`: `contrato` (≤ 35) and `devedor` (a person or a company) required, `objeto` ≤ 35. */
function checkVinculo(vinculo: unknown, ctx: RuleContext): void {
  if (
    !isRecord(vinculo) ||
    !isText(vinculo['contrato'], 35) ||
    (vinculo['objeto'] !== undefined && !isText(vinculo['objeto'], 35)) ||
    !isPerson(vinculo['devedor'])
  ) {
    ctx.add(
      'rec.vinculo',
      'vinculo needs contrato (at most 35 characters), devedor (cpf of 11 digits or cnpj of 14 of 0-9/A-Z, not both, and nome of at most 140) and objeto of at most 35 if given',
    );
  }
}

function checkCalendario(calendario: unknown, ctx: RuleContext): void {
  const fields: Fields = isRecord(calendario) ? calendario : {};
  const { dataInicial, dataFinal, periodicidade } = fields;
  if (!isCivilDate(dataInicial)) {
    ctx.add(
      'rec.calendario.dataInicial',
      'calendario.dataInicial is required, a YYYY-MM-DD calendar date',
      dataInicial,
    );
  } else if (dataInicial < earliestServiceDate(ctx.now)) {
    ctx.add(
      'rec.calendario.dataInicial',
      'dataInicial is before today in Brasília, the creation date of the recurrence',
      dataInicial,
    );
  }
  if (dataFinal !== undefined) {
    if (!isCivilDate(dataFinal))
      ctx.add('rec.calendario.dataFinal', 'calendario.dataFinal must be a YYYY-MM-DD calendar date', dataFinal);
    else if (isCivilDate(dataInicial) && dataFinal < dataInicial)
      ctx.add('rec.calendario.dataFinal', 'dataFinal is before dataInicial', dataFinal);
  }
  if (!PERIODICIDADES.includes(periodicidade)) {
    ctx.add(
      'rec.calendario.periodicidade',
      'calendario.periodicidade is required: SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL or ANUAL',
      periodicidade,
    );
  }
}

/** `valor`: both optional, money each, never both. */
function checkValor(valor: unknown, ctx: RuleContext): void {
  if (valor === undefined) return;
  if (!isRecord(valor)) return ctx.add('rec.valor', 'valor must be an object');
  const { valorRec, valorMinimoRecebedor } = valor;
  if (valorRec !== undefined && !isMoney(valorRec))
    ctx.add('rec.valor.valorRec', amountRefusal('valorRec', valorRec), valorRec);
  if (valorMinimoRecebedor !== undefined && !isMoney(valorMinimoRecebedor)) {
    ctx.add(
      'rec.valor.valorMinimoRecebedor',
      amountRefusal('valorMinimoRecebedor', valorMinimoRecebedor),
      valorMinimoRecebedor,
    );
  } else if (valorRec !== undefined && valorMinimoRecebedor !== undefined) {
    ctx.add(
      'rec.valor.valorMinimoRecebedor',
      'valorMinimoRecebedor cannot be given together with valorRec (a fixed amount)',
    );
  }
}

/** `loc`: the integer id of a recurrence location (not an object, unlike a charge's). */
function checkLoc(loc: unknown, ctx: RuleContext): void {
  if (loc !== undefined && !(Number.isSafeInteger(loc) && (loc as number) >= 0)) {
    ctx.add('rec.loc', 'loc is the integer id of a recurrence location (POST /locrec)', loc);
  }
}

/** `ativacao.dadosJornada.txid`: the immediate charge of journey 3, a txid. */
function checkAtivacao(ativacao: unknown, ctx: RuleContext): void {
  if (ativacao === undefined) return;
  const dadosJornada = isRecord(ativacao) ? ativacao['dadosJornada'] : undefined;
  if (
    !isRecord(ativacao) ||
    (dadosJornada !== undefined && !(isRecord(dadosJornada) && isValidTxid(dadosJornada['txid'])))
  ) {
    const txid = isRecord(dadosJornada) ? dadosJornada['txid'] : undefined;
    ctx.add(
      'rec.ativacao.dadosJornada.txid',
      'ativacao.dadosJornada.txid must be a txid (26 to 35 letters or digits)',
      txid,
    );
  }
}

/** `idRec` in a path (propriedade `idRec`). */
export function checkIdRecParam(idRec: unknown, ctx: RuleContext): void {
  checkIdRec(idRec, 'idRec', ctx);
}
