/**
 * Batches of due-date charges (lotecobv). A PUT or PATCH is judged at once (the rules a request
 * alone can break, the fixed set of charges, txids already taken) and answered 202; its items
 * are then processed asynchronously: `EM_PROCESSAMENTO`, then `CRIADA`, or `NEGADA` with the
 * `problema` a `PUT /cobv` would have answered. An item not `CRIADA` is no charge: `GET /cobv`
 * does not show it and `PUT`/`PATCH /cobv/{txid}` on it is refused.
 */
import { empty, inRange, json, page, readJson, verdict } from './http.ts';
import { patchCharge, putCharge } from './charges.ts';
import { Problem, problemDocument } from './problems.ts';
import { Judge, isObject, judgeBatch, judgeListQuery, judgeMembership, type Json } from './rules.ts';
import type { Batch, BatchItem, Context } from './state.ts';

function renderBatch(batch: Batch): Json {
  return {
    id: /^\d{1,15}$/.test(batch.id) ? Number(batch.id) : batch.id,
    descricao: batch.descricao,
    criacao: batch.criacao,
    cobsv: [...batch.items.values()].map((item) => {
      const out: Json = { txid: item.txid, status: item.status };
      if (item.criacao !== undefined) out['criacao'] = item.criacao;
      if (item.problema !== undefined) out['problema'] = item.problema;
      return out;
    }),
  };
}

function itemsOf(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body['cobsv']) ? (body['cobsv'] as Json[]) : [];
}

export async function batchRoutes(
  ctx: Context,
  request: Request,
  id: string | undefined,
): Promise<Response | undefined> {
  const method = request.method;
  if (id === undefined) return method === 'GET' ? listBatches(ctx, new URL(request.url).searchParams) : undefined;
  if (method === 'GET') {
    const batch = ctx.state.batches.get(id);
    if (batch === undefined) throw new Problem('LoteCobVNaoEncontrado', 'Nenhum lote com esse id.');
    return json(200, renderBatch(batch));
  }
  if (method !== 'PUT' && method !== 'PATCH') return undefined;
  const body = await readJson(request, 'LoteCobVOperacaoInvalida');
  const batch = ctx.state.batches.get(id);
  if (method === 'PATCH' && batch === undefined) throw new Problem('LoteCobVNaoEncontrado', 'Nenhum lote com esse id.');
  const j = new Judge(ctx.ownKeys);
  const mode = method === 'PUT' ? 'create' : 'revise';
  judgeBatch(j, body, mode);
  if (batch !== undefined) judgeMembership(j, body, new Set(batch.items.keys()), method === 'PUT');
  verdict(j, 'LoteCobVOperacaoInvalida');
  const fields = body as Json;
  const target =
    batch ??
    ({
      id,
      descricao: fields['descricao'] as string,
      criacao: ctx.now().toISOString(),
      items: new Map(),
      seq: ctx.state.seq(),
    } satisfies Batch);
  if (typeof fields['descricao'] === 'string') target.descricao = fields['descricao'];
  for (const raw of itemsOf(body)) {
    const txid = raw['txid'] as string;
    const { txid: _omit, ...itemBody } = raw;
    let item = target.items.get(txid);
    if (item === undefined) {
      item = { txid, status: 'EM_PROCESSAMENTO', problema: undefined, criacao: undefined, body: itemBody, pending: [] };
      target.items.set(txid, item);
    }
    if (item.status === 'NEGADA') item.status = 'EM_PROCESSAMENTO';
    item.pending.push({ body: itemBody, mode });
  }
  ctx.state.batches.set(id, target);
  ctx.later(ctx.batchDelayMs, () => processBatch(ctx, target));
  return empty(202);
}

/** Applies each pending item: a creation for one not yet created, a change for one that is. */
function processBatch(ctx: Context, batch: Batch): void {
  for (const item of batch.items.values()) {
    for (const pending of item.pending.splice(0)) applyItem(ctx, batch, item, pending);
  }
}

/** One change of an item: a creation for an item not yet created, else a change of its charge. */
function applyItem(ctx: Context, batch: Batch, item: BatchItem, pending: BatchItem['pending'][number]): void {
  try {
    if (item.status === 'CRIADA') {
      if (pending.mode === 'create') putCharge(ctx, 'cobv', item.txid, pending.body, { batchId: batch.id });
      else patchCharge(ctx, 'cobv', item.txid, pending.body);
    } else {
      refuseOutsider(ctx, batch, item.txid);
      item.body = pending.mode === 'create' ? pending.body : { ...item.body, ...pending.body };
      const { charge } = putCharge(ctx, 'cobv', item.txid, item.body, { batchId: batch.id });
      item.status = 'CRIADA';
      item.criacao = charge.criacao;
    }
    item.problema = undefined;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    item.problema = problemDocument(error);
    if (item.status !== 'CRIADA') item.status = 'NEGADA';
  }
}

/** A charge made outside this batch (by PUT /cobv or by another batch) never joins it. */
function refuseOutsider(ctx: Context, batch: Batch, txid: string): void {
  const charge = ctx.state.cobvs.get(txid);
  const otherBatch = [...ctx.state.batches.values()].some((b) => b !== batch && b.items.has(txid));
  if ((charge !== undefined && charge.batchId !== batch.id) || otherBatch) {
    throw new Problem('CobVOperacaoInvalida', 'Essa cobrança já existe fora deste lote e não pode entrar nele.', [
      {
        propriedade: 'txid',
        razao: 'Uma cobrança criada por PUT /cobv ou por outro lote não entra em um lote.',
        valor: txid,
      },
    ]);
  }
}

function listBatches(ctx: Context, params: URLSearchParams): Response {
  const j = new Judge(ctx.ownKeys);
  const query = judgeListQuery(j, params);
  verdict(j, 'LoteCobVConsultaInvalida');
  const items = inRange(ctx.state.batches.values(), query, (b) => b.criacao).sort((a, b) => a.seq - b.seq);
  return json(200, page(items, query, 'lotes', renderBatch));
}
