/**
 * The rules of a recurring charge: `PUT /cobr/{txid}` and `POST /cobr` (`CobRSolicitada`),
 * `PATCH /cobr/{txid}` (`CobRRevisada`), `POST /cobr/{txid}/retentativa/{data}`, `GET /cobr`;
 * and the wire form of a charge body.
 */
import { amountRefusal } from '../../lib/money.ts';
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { checkAddress, isMoney, isText, type Fields } from '../../collection/rules/fields.ts';
import { isCivilDate } from '../../lib/dates.ts';
import { CANCEL_STATUS } from './rec.ts';
import { checkIdRec, collectRecurringListQuery, earliestServiceDate } from './fields.ts';

/** `recebedor.tipoConta`. */
export const TIPOS_CONTA: readonly unknown[] = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'];
/** The statuses of a recurring charge (`CobRStatus`). */
export const COBR_STATUSES: readonly unknown[] = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'];

/** An account of the receiving user, as the `ownAccounts` option lists them. */
export interface AccountRef {
  conta: string;
  agencia?: string | undefined;
}

/** `cep` as people write it (`89256-140`); the schema's form is the 8 digits. */
const HYPHENATED_CEP = /^\d{5}-\d{3}$/;

/**
 * The body as it is sent: `devedor.cep` written `00000-000` becomes its 8 digits (the schema's
 * form: the official example `cobRBody1` writes it with the hyphen, appendix B item 17), and an
 * absent `ajusteDiaUtil` is sent as `true`, the schema's default (it also lists the field as
 * required, appendix B item 19). Returns a copy when it changes anything; never mutates `body`.
 */
export function wireCobR<T>(body: T): T {
  if (!isRecord(body)) return body;
  let out: Fields = body;
  if (out['ajusteDiaUtil'] === undefined) out = { ...out, ajusteDiaUtil: true };
  const devedor = out['devedor'];
  if (isRecord(devedor) && typeof devedor['cep'] === 'string' && HYPHENATED_CEP.test(devedor['cep'])) {
    out = { ...out, devedor: { ...devedor, cep: devedor['cep'].replace('-', '') } };
  }
  return out as T;
}

/**
 * A recurring charge body (after `wireCobR`). `dataDeVencimento` must not be before today in
 * Brasília: the charge is created now (a PUT creates only). With `ownAccounts`, `recebedor.conta`
 * (and `agencia`, when both sides give one) must be one of them. The one-charge-per-cycle rule
 * and a txid in use, the service judges. A `status` is not a field of this body (appendix B,
 * item 10): only a value outside the charge statuses is refused, as the catalogue says.
 */
export function checkCobR(body: unknown, ctx: RuleContext, ownAccounts: readonly AccountRef[] | undefined): void {
  if (!isRecord(body)) return ctx.add('cobr', 'the recurring charge must be an object');
  const { infoAdicional, status, calendario, valor, ajusteDiaUtil, recebedor, devedor } = body;
  checkIdRec(body['idRec'], 'cobr.idRec', ctx);
  if (infoAdicional !== undefined && !isText(infoAdicional, 140)) {
    ctx.add('cobr.infoAdicional', 'infoAdicional must be a string of at most 140 characters');
  }
  if (status !== undefined && !COBR_STATUSES.includes(status))
    ctx.add('cobr.status', 'status is not a status of a recurring charge', status);
  const due = isRecord(calendario) ? calendario['dataDeVencimento'] : undefined;
  if (!isCivilDate(due)) {
    ctx.add('cobr.calendario', 'calendario.dataDeVencimento is required, a YYYY-MM-DD calendar date', due);
  } else if (due < earliestServiceDate(ctx.now)) {
    ctx.add(
      'cobr.calendario.dataDeVencimento',
      'dataDeVencimento is before today in Brasília, the creation date of the charge',
      due,
    );
  }
  const original = isRecord(valor) ? valor['original'] : undefined;
  if (!isMoney(original)) {
    ctx.add(
      'cobr.valor',
      typeof original === 'number'
        ? amountRefusal('valor.original', original)
        : 'valor.original is required and must match ^\\d{1,10}\\.\\d{2}$',
      original,
    );
  }
  if (ajusteDiaUtil !== undefined && typeof ajusteDiaUtil !== 'boolean')
    ctx.add('cobr.ajusteDiaUtil', 'ajusteDiaUtil must be true or false', ajusteDiaUtil);
  if (checkRecebedor(recebedor, ctx) && ownAccounts !== undefined && !ownsAccount(ownAccounts, recebedor)) {
    ctx.add(
      'cobr.recebedor.conta',
      'recebedor.conta and agencia are not an account of the receiving user (ownAccounts)',
    );
  }
  if (devedor !== undefined) {
    if (!isRecord(devedor)) ctx.add('cobr.devedor', 'devedor must be an object');
    else checkAddress(devedor, 'cobr.devedor', ctx);
  }
}

/** `recebedor`: `conta` (≤ 20) and `tipoConta` required, `agencia` (≤ 4). True when it is well formed. */
function checkRecebedor(recebedor: unknown, ctx: RuleContext): recebedor is AccountRef {
  if (
    !isRecord(recebedor) ||
    !isText(recebedor['conta'], 20) ||
    !TIPOS_CONTA.includes(recebedor['tipoConta']) ||
    (recebedor['agencia'] !== undefined && !isText(recebedor['agencia'], 4))
  ) {
    ctx.add(
      'cobr.recebedor',
      'recebedor needs conta (at most 20 characters), tipoConta (CORRENTE, POUPANCA or PAGAMENTO) and agencia of at most 4 if given',
    );
    return false;
  }
  return true;
}

/** The same `conta`, and the same `agencia` unless one side leaves it out. */
function ownsAccount(accounts: readonly AccountRef[], { conta, agencia }: AccountRef): boolean {
  return accounts.some(
    (own) => own.conta === conta && (own.agencia === undefined || agencia === undefined || own.agencia === agencia),
  );
}

/** `PATCH /cobr/{txid}`: only `status: CANCELADA` (no other field can be revised). When the cancellation is too late, the service judges. */
export function checkCobRRevisada(body: unknown, ctx: RuleContext): void {
  if (!isRecord(body)) return ctx.add('cobr', 'the revision must be an object');
  const status = body['status'];
  if (status !== undefined && status !== CANCEL_STATUS)
    ctx.add('cobr.status', 'status can only be set to CANCELADA', status);
}

/**
 * The `data` of `POST /cobr/{txid}/retentativa/{data}`: a `YYYY-MM-DD` date after today in
 * Brasília. The attempts in force and the recurrence's retry policy, the service judges.
 */
export function checkRetryDate(data: unknown, ctx: RuleContext): void {
  if (!isCivilDate(data)) ctx.add('data', 'data must be a YYYY-MM-DD calendar date', data);
  else if (data <= earliestServiceDate(ctx.now))
    ctx.add('data', 'data must be a future date (after today in Brasília)', data);
}

/** `GET /cobr`: the list rules, `idRec` of 29 letters or digits, `convenio` at most 60. */
export function checkCobRQuery(query: unknown, ctx: RuleContext): void {
  collectRecurringListQuery(query, ctx);
  checkIdRec((query as Fields | null | undefined)?.['idRec'], 'idRec', ctx, false);
}
