/** The rules of a batch of due-date charges (`LoteCobVSolicitado`, `LoteCobVRevisado`). */
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { isRfc3339, todayInBrasilia } from '../../lib/dates.ts';
import { isValidTxid } from '../../lib/ids.ts';
import { checkCobV } from './cobv.ts';
import type { ChargeMode } from './fields.ts';

/**
 * A batch body: `descricao` (required when creating), `cobsv` (non-empty when creating), each
 * item a due-date charge with a valid `txid`, no txid twice. Item rules are named under
 * `loteCobV.cobsV[i]`. `notBefore(txid)` gives an item's earliest accepted due date, when known
 * (see `checkCobV`).
 */
export function checkLoteCobV(
  body: unknown,
  ctx: RuleContext,
  mode: ChargeMode,
  notBefore: (txid: string) => string | undefined,
): void {
  if (!isRecord(body)) return ctx.add('loteCobV', 'the batch must be an object');
  const { descricao, cobsv } = body;
  if (descricao === undefined ? mode === 'create' : typeof descricao !== 'string') {
    ctx.add('loteCobV.descricao', 'descricao is required, a string');
  }
  if (cobsv === undefined) {
    if (mode === 'create') ctx.add('loteCobV.cobsV', 'cobsv is required, with at least one charge');
    return;
  }
  if (!Array.isArray(cobsv) || (mode === 'create' && cobsv.length === 0)) {
    return ctx.add('loteCobV.cobsV', 'cobsv must be an array with at least one charge');
  }
  const seen = new Set<string>();
  for (let i = 0; i < cobsv.length; i++) {
    const item: unknown = cobsv[i];
    const root = `loteCobV.cobsV[${i}]`;
    const txid = isRecord(item) ? item['txid'] : undefined;
    if (!isValidTxid(txid)) ctx.add(`${root}.txid`, 'txid must be 26 to 35 letters or digits', txid);
    else if (seen.has(txid)) ctx.add(`${root}.txid`, 'txid appears twice in the batch', txid);
    else seen.add(txid);
    checkCobV(item, root, ctx, mode, typeof txid === 'string' ? notBefore(txid) : undefined);
  }
}

/**
 * An alteration of an existing batch against its original charges: `exact` (PUT) must list
 * exactly the original txids; otherwise (PATCH) any subset of them.
 */
export function checkBatchMembership(
  body: unknown,
  original: ReadonlySet<string>,
  exact: boolean,
  ctx: RuleContext,
): void {
  const cobsv: unknown[] = isRecord(body) && Array.isArray(body['cobsv']) ? body['cobsv'] : [];
  const listed = new Set<string>();
  for (let i = 0; i < cobsv.length; i++) {
    const item = cobsv[i];
    const txid = isRecord(item) ? item['txid'] : undefined;
    if (typeof txid !== 'string') continue;
    listed.add(txid);
    if (!original.has(txid))
      ctx.add(`loteCobV.cobsV[${i}].txid`, 'txid is not a charge of this batch; a batch cannot gain charges', txid);
  }
  if (!exact) return;
  let missing = 0;
  for (const txid of original) if (!listed.has(txid)) missing++;
  if (missing > 0) {
    ctx.add(
      'loteCobV.cobsV',
      `an alteration must list every charge of the batch; ${missing} of ${original.size} missing`,
    );
  }
}

/** The Brasília date of an RFC 3339 instant, or `undefined` when it is not one. */
export function brasiliaDateOf(instant: unknown): string | undefined {
  return isRfc3339(instant) ? todayInBrasilia(new Date(instant)) : undefined;
}

/** What the batch judgement reads of a batch as the service holds it. */
export interface BatchAsHeld {
  criacao?: string | undefined;
  cobsv?: ReadonlyArray<{ txid: string; criacao?: string | undefined }> | undefined;
}

/** Judges `body` against the batch as it is: the set of charges, and their creation dates. */
export function judgeAgainstBatch(lote: BatchAsHeld, body: unknown, mode: ChargeMode, ctx: RuleContext): void {
  const batchDate = brasiliaDateOf(lote.criacao);
  const created = new Map<string, string | undefined>();
  for (const item of Array.isArray(lote.cobsv) ? lote.cobsv : [])
    created.set(item.txid, brasiliaDateOf(item.criacao) ?? batchDate);
  checkLoteCobV(body, ctx, mode, (txid) => created.get(txid));
  checkBatchMembership(body, new Set(created.keys()), mode === 'create', ctx);
}
