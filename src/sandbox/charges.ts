/**
 * Charges (cob, cobv) and their locations: creation by PUT and POST, revisions (`revisao` + 1
 * per change; a change of location alone does not count), the transitions of section 3.1, the
 * location rules (exists, unused, type matches), unlinking, lists with filters and paging.
 */
import { buildBrCode } from '../lib/brcode.ts';
import type { CatalogueErrorType } from '../errors/catalogue.ts';
import { isValidTxid } from '../lib/ids.ts';
import { roll } from '../lib/calendar.ts';
import { addDays } from '../lib/dates.ts';
import { inRange, json, page, readJson, verdict } from './http.ts';
import { Problem } from './problems.ts';
import {
  Judge,
  REMOVED_BY_USER,
  isObject,
  judgeCob,
  judgeCobV,
  judgeListQuery,
  type Json,
  type Mode,
} from './rules.ts';
import {
  businessDays,
  canonical,
  renderPayment,
  today,
  type Charge,
  type ChargeKind,
  type Context,
  type Loc,
} from './state.ts';

interface KindInfo {
  root: string;
  invalid: CatalogueErrorType;
  badQuery: CatalogueErrorType;
  missing: CatalogueErrorType;
  judge: (j: Judge, body: unknown, root: string, mode: Mode, notBefore: string | undefined) => void;
}

export const KINDS: Readonly<Record<ChargeKind, KindInfo>> = {
  cob: {
    root: 'cob',
    invalid: 'CobOperacaoInvalida',
    badQuery: 'CobConsultaInvalida',
    missing: 'CobNaoEncontrado',
    judge: (j, body, root, mode) => judgeCob(j, body, root, mode),
  },
  cobv: {
    root: 'cobv',
    invalid: 'CobVOperacaoInvalida',
    badQuery: 'CobVConsultaInvalida',
    missing: 'CobVNaoEncontrada',
    judge: (j, body, root, mode, notBefore) => judgeCobV(j, body, root, mode, { notBefore }),
  },
};

const CONTENT_FIELDS = ['calendario', 'devedor', 'valor', 'chave', 'solicitacaoPagador', 'infoAdicionais'] as const;
/** Objects a revision merges into (a field at a time); any other field is replaced whole. */
const MERGED_FIELDS = new Set(['calendario', 'valor']);
const DEFAULT_EXPIRACAO = 86_400;
const DEFAULT_VALIDADE = 30;
export const MERCHANT = { merchantName: 'SANDBOX RECEBEDOR', merchantCity: 'BRASILIA' };

export function currentOf(charge: Charge): { content: Json; status: string } {
  return charge.revisions[charge.revisions.length - 1]!;
}

function contentOf(body: Json): Json {
  const out: Json = {};
  for (const field of CONTENT_FIELDS) if (body[field] !== undefined) out[field] = structuredClone(body[field]);
  return out;
}

function merged(current: Json, patch: Json): Json {
  const out = structuredClone(current);
  for (const field of CONTENT_FIELDS) {
    const value = patch[field];
    if (value === undefined) continue;
    const base = out[field];
    out[field] =
      MERGED_FIELDS.has(field) && isObject(base) && isObject(value)
        ? { ...base, ...structuredClone(value) }
        : structuredClone(value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Locations

export function locationOf(ctx: Context, loc: Loc): string {
  const host = ctx.origin().replace(/^[a-z]+:\/\//, '');
  return `${host}/qr/v2/${loc.tipoCob === 'cobv' ? 'cobv/' : ''}${loc.token}`;
}

function newLocation(ctx: Context, tipoCob: ChargeKind): Loc {
  const loc: Loc = {
    id: ctx.state.nextLocId(),
    tipoCob,
    token: ctx.ids.alphanumeric(32),
    criacao: ctx.now().toISOString(),
    txid: undefined,
  };
  ctx.state.locations.set(loc.id, loc);
  return loc;
}

function renderLoc(ctx: Context, loc: Loc, withTxid: boolean): Json {
  const out: Json = { id: loc.id, location: locationOf(ctx, loc), tipoCob: loc.tipoCob, criacao: loc.criacao };
  if (withTxid && loc.txid !== undefined) out['txid'] = loc.txid;
  return out;
}

/** The location rules for `loc.id` of a charge of `kind` (its own txid may keep its location). */
function judgeLocation(ctx: Context, j: Judge, body: unknown, kind: ChargeKind, txid: string): Loc | undefined {
  if (!isObject(body) || !isObject(body['loc'])) return undefined;
  const id = body['loc']['id'];
  if (!(Number.isSafeInteger(id) && (id as number) > 0)) return undefined; // flagged by the schema rules
  const at = `${KINDS[kind].root}.loc.id`;
  const loc = ctx.state.locations.get(id as number);
  if (loc === undefined) j.flag(at, 'A location não existe.', id);
  else if (loc.txid !== undefined && loc.txid !== txid) j.flag(at, 'A location já está em uso por outra cobrança.', id);
  else if (loc.tipoCob !== kind) j.flag(at, `A location é do tipo ${loc.tipoCob}.`, id);
  else return loc;
  return undefined;
}

function link(ctx: Context, charge: Charge, loc: Loc | undefined): void {
  if (loc === undefined || charge.locId === loc.id) return;
  if (charge.locId !== undefined) {
    const old = ctx.state.locations.get(charge.locId);
    if (old) old.txid = undefined;
  }
  loc.txid = charge.txid;
  charge.locId = loc.id;
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** `CobGerada` / `CobVGerada` at `revisao` (the latest by default); `completa` adds the payments. */
export function renderCharge(
  ctx: Context,
  charge: Charge,
  revisao = charge.revisions.length - 1,
  completa = false,
): Json {
  const { content, status } = charge.revisions[revisao]!;
  const calendario = isObject(content['calendario']) ? content['calendario'] : {};
  const out: Json = {
    calendario:
      charge.kind === 'cob'
        ? { criacao: charge.criacao, expiracao: calendario['expiracao'] ?? DEFAULT_EXPIRACAO }
        : {
            criacao: charge.criacao,
            dataDeVencimento: calendario['dataDeVencimento'],
            validadeAposVencimento: calendario['validadeAposVencimento'] ?? DEFAULT_VALIDADE,
          },
    txid: charge.txid,
    revisao,
    status,
  };
  const loc = charge.locId === undefined ? undefined : ctx.state.locations.get(charge.locId);
  if (loc) {
    out['loc'] = renderLoc(ctx, loc, false);
    out['location'] = locationOf(ctx, loc);
  }
  for (const field of ['devedor', 'valor', 'chave', 'solicitacaoPagador', 'infoAdicionais']) {
    if (content[field] !== undefined) out[field] = structuredClone(content[field]);
  }
  if (charge.kind === 'cobv') out['recebedor'] = ctx.recebedor;
  if (loc) out['instantCopiaECola'] = buildBrCode({ url: locationOf(ctx, loc), ...MERCHANT });
  if (completa)
    out['instant'] = charge.payments.flatMap((e2eid) => ctx.state.payments.get(e2eid) ?? []).map(renderPayment);
  return out;
}

/** True when the charge can no longer be paid: not ATIVA, or past its expiry or validity. */
export function isClosed(ctx: Context, charge: Charge, codMun?: string): boolean {
  const { content, status } = currentOf(charge);
  if (status !== 'ATIVA') return true;
  const calendario = isObject(content['calendario']) ? content['calendario'] : {};
  if (charge.kind === 'cob') {
    const seconds = typeof calendario['expiracao'] === 'number' ? calendario['expiracao'] : DEFAULT_EXPIRACAO;
    return ctx.now().getTime() > Date.parse(charge.criacao) + seconds * 1000;
  }
  return today(ctx) > lastPayableDay(ctx, charge, codMun);
}

/**
 * A due-date charge's last payable day for a payer of `codMun`: the due date moved to a business
 * day when it is not one, plus `validadeAposVencimento` calendar days, moved again (the spec's
 * examples A–G: due Friday 2020-12-25 with 0 days is payable through Monday the 28th).
 */
export function lastPayableDay(ctx: Context, charge: Charge, codMun?: string): string {
  const calendario = currentOf(charge).content['calendario'] as Json;
  const validade =
    typeof calendario['validadeAposVencimento'] === 'number' ? calendario['validadeAposVencimento'] : DEFAULT_VALIDADE;
  const open = businessDays(ctx, codMun);
  return roll(addDays(roll(calendario['dataDeVencimento'] as string, open), validade), open);
}

// ---------------------------------------------------------------------------------------------
// Create and revise

/** Where a creation comes from: a batch item may be created under its own (pending) txid. */
export interface Origin {
  batchId?: string;
}

/**
 * `PUT /cob/{txid}`, `POST /cob` (txid chosen here) and `PUT /cobv/{txid}`: creates the charge,
 * or alters it while ATIVA. The same content again is no change (a retried PUT is harmless).
 */
export function putCharge(
  ctx: Context,
  kind: ChargeKind,
  txid: string,
  body: unknown,
  origin: Origin = {},
): { charge: Charge; created: boolean } {
  const info = KINDS[kind];
  const j = new Judge(ctx.ownKeys);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  if (kind === 'cobv' && origin.batchId === undefined && ctx.state.unrealizedBatchItem(txid)) {
    j.flag('txid', 'O txid pertence a um lote em que a cobrança está EM_PROCESSAMENTO ou NEGADA.', txid);
  }
  const existing = ctx.state.charges(kind).get(txid);
  info.judge(j, body, info.root, 'create', existing?.createdDay ?? today(ctx));
  const loc = judgeLocation(ctx, j, body, kind, txid);
  verdict(j, info.invalid);
  const content = contentOf(body as Json);
  if (existing === undefined) {
    const charge: Charge = {
      kind,
      txid,
      criacao: ctx.now().toISOString(),
      createdDay: today(ctx),
      revisions: [{ content, status: 'ATIVA' }],
      locId: undefined,
      payments: [],
      batchId: origin.batchId,
      seq: ctx.state.seq(),
    };
    link(ctx, charge, loc ?? newLocation(ctx, kind));
    ctx.state.charges(kind).set(txid, charge);
    return { charge, created: true };
  }
  const current = currentOf(existing);
  if (canonical(content) !== canonical(current.content)) {
    refuseUnlessActive(existing, info);
    existing.revisions.push({ content, status: current.status });
  }
  link(ctx, existing, loc);
  return { charge: existing, created: false };
}

function refuseUnlessActive(charge: Charge, info: KindInfo): void {
  const { status } = currentOf(charge);
  if (status !== 'ATIVA') {
    throw new Problem(info.invalid, `A cobrança está ${status} e não pode ser alterada.`, [
      { propriedade: `${info.root}.status`, razao: 'Somente uma cobrança ATIVA pode ser alterada.', valor: status },
    ]);
  }
}

/** `PATCH /cob/{txid}`, `PATCH /cobv/{txid}`: a revision, or the removal alone. */
export function patchCharge(ctx: Context, kind: ChargeKind, txid: string, body: unknown): Charge {
  const info = KINDS[kind];
  const j = new Judge(ctx.ownKeys);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  else if (kind === 'cobv' && ctx.state.unrealizedBatchItem(txid)) {
    j.flag('txid', 'O txid pertence a um lote em que a cobrança está EM_PROCESSAMENTO ou NEGADA.', txid);
  }
  verdict(j, info.invalid);
  const charge = ctx.state.charges(kind).get(txid);
  if (charge === undefined) throw new Problem(info.missing, 'Nenhuma cobrança com esse txid.');
  info.judge(j, body, info.root, 'revise', charge.createdDay);
  const loc = judgeLocation(ctx, j, body, kind, txid);
  verdict(j, info.invalid);
  const patch = body as Json;
  const current = currentOf(charge);
  const next = merged(current.content, patch);
  const removal = patch['status'] === REMOVED_BY_USER;
  // A removal sent again (a retry) finds the charge removed already: nothing to change.
  if (removal && current.status === REMOVED_BY_USER) return charge;
  const changed = removal || canonical(next) !== canonical(current.content);
  if (changed || loc !== undefined) refuseUnlessActive(charge, info);
  if (removal) {
    charge.revisions.push({ content: current.content, status: REMOVED_BY_USER });
    return charge;
  }
  // The whole revised charge must still hold (e.g. a zero amount on a fixed-amount charge).
  const whole = new Judge(ctx.ownKeys);
  info.judge(whole, next, info.root, 'create', charge.createdDay);
  verdict(whole, info.invalid);
  if (changed) charge.revisions.push({ content: next, status: current.status });
  link(ctx, charge, loc);
  return charge;
}

// ---------------------------------------------------------------------------------------------
// Routes

export async function chargeRoutes(
  ctx: Context,
  kind: ChargeKind,
  request: Request,
  txid: string | undefined,
): Promise<Response | undefined> {
  const info = KINDS[kind];
  const method = request.method;
  if (txid === undefined) {
    if (method === 'GET') return listCharges(ctx, kind, new URL(request.url).searchParams);
    if (method === 'POST' && kind === 'cob') {
      const body = await readJson(request, info.invalid);
      const { charge } = putCharge(ctx, kind, ctx.ids.alphanumeric(35), body);
      return json(201, renderCharge(ctx, charge));
    }
    return undefined;
  }
  if (method === 'PUT') {
    const body = await readJson(request, info.invalid);
    return json(201, renderCharge(ctx, putCharge(ctx, kind, txid, body).charge));
  }
  if (method === 'PATCH') {
    const body = await readJson(request, info.invalid);
    return json(200, renderCharge(ctx, patchCharge(ctx, kind, txid, body)));
  }
  if (method === 'GET') return getCharge(ctx, kind, txid, new URL(request.url).searchParams.get('revisao'));
  return undefined;
}

function getCharge(ctx: Context, kind: ChargeKind, txid: string, revisao: string | null): Response {
  const info = KINDS[kind];
  const j = new Judge(ctx.ownKeys);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  if (revisao !== null && !/^\d{1,9}$/.test(revisao))
    j.flag('revisao', 'revisao é um inteiro maior ou igual a zero.', revisao);
  verdict(j, info.badQuery);
  const charge = ctx.state.charges(kind).get(txid);
  if (charge === undefined) throw new Problem(info.missing, 'Nenhuma cobrança com esse txid.');
  const n = revisao === null ? charge.revisions.length - 1 : Number(revisao);
  if (n >= charge.revisions.length) {
    throw new Problem(info.badQuery, 'A revisão pedida não existe para essa cobrança.', [
      {
        propriedade: 'revisao',
        razao: `A cobrança tem as revisões 0 a ${charge.revisions.length - 1}.`,
        valor: String(n),
      },
    ]);
  }
  return json(200, renderCharge(ctx, charge, n, true));
}

function listCharges(ctx: Context, kind: ChargeKind, params: URLSearchParams): Response {
  const info = KINDS[kind];
  const j = new Judge(ctx.ownKeys);
  const query = judgeListQuery(j, params, false, ['locationPresente']);
  const batchId = params.get('loteCobVId');
  if (kind === 'cobv' && batchId !== null && !/^\d{1,10}$/.test(batchId))
    j.flag('loteCobVId', 'loteCobVId é um inteiro.', batchId);
  verdict(j, info.badQuery);
  const cpf = params.get('cpf');
  const cnpj = params.get('cnpj');
  const status = params.get('status');
  const located = params.get('locationPresente');
  const items = inRange(ctx.state.charges(kind).values(), query, (c) => c.criacao).filter((charge) => {
    const { content, status: current } = currentOf(charge);
    const devedor = isObject(content['devedor']) ? content['devedor'] : {};
    if (cpf !== null && devedor['cpf'] !== cpf) return false;
    if (cnpj !== null && devedor['cnpj'] !== cnpj) return false;
    if (status !== null && current !== status) return false;
    if (located !== null && (charge.locId !== undefined) !== (located === 'true')) return false;
    if (batchId !== null && charge.batchId !== batchId) return false;
    return true;
  });
  items.sort((a, b) => a.seq - b.seq);
  const echo = ['cpf', 'cnpj', 'status', 'locationPresente', ...(kind === 'cobv' ? ['loteCobVId'] : [])];
  return json(
    200,
    page(items, query, 'cobs', (c) => renderCharge(ctx, c, undefined, true), echo),
  );
}

// ---------------------------------------------------------------------------------------------
// Location routes

// An int64 in the path: up to 19 digits (the client accepts as many; a larger id names nothing here).
const LOC_ID = /^\d{1,19}$/;

export async function locRoutes(
  ctx: Context,
  request: Request,
  id: string | undefined,
  unlink: boolean,
): Promise<Response | undefined> {
  const method = request.method;
  if (id === undefined) {
    if (method === 'POST') {
      const body = await readJson(request, 'PayloadLocationOperacaoInvalida');
      const tipoCob = isObject(body) ? body['tipoCob'] : undefined;
      if (tipoCob !== 'cob' && tipoCob !== 'cobv') {
        throw new Problem('PayloadLocationOperacaoInvalida', 'tipoCob inválido.', [
          {
            propriedade: 'tipoCob',
            razao: 'tipoCob é cob ou cobv.',
            ...(typeof tipoCob === 'string' && { valor: tipoCob }),
          },
        ]);
      }
      const loc = newLocation(ctx, tipoCob);
      return json(201, renderLoc(ctx, loc, false), { location: locationOf(ctx, loc) });
    }
    if (method === 'GET') return listLocations(ctx, new URL(request.url).searchParams);
    return undefined;
  }
  const writing = method !== 'GET';
  const invalid: CatalogueErrorType = writing ? 'PayloadLocationOperacaoInvalida' : 'PayloadLocationConsultaInvalida';
  if (!LOC_ID.test(id))
    throw new Problem(invalid, 'id de location inválido.', [
      { propriedade: 'id', razao: 'O id é um inteiro.', valor: id },
    ]);
  const loc = ctx.state.locations.get(Number(id));
  const missing = () => new Problem('PayloadLocationNaoEncontrado', 'Nenhuma location com esse id.');
  if (unlink) {
    if (method !== 'DELETE') return undefined;
    if (loc === undefined) throw missing();
    if (loc.txid !== undefined) {
      const charge = ctx.state.charges(loc.tipoCob).get(loc.txid);
      if (charge) charge.locId = undefined;
      loc.txid = undefined;
    }
    return json(200, renderLoc(ctx, loc, false));
  }
  if (method === 'GET') {
    if (loc === undefined) throw missing();
    return json(200, renderLoc(ctx, loc, true));
  }
  if (method === 'PATCH') {
    const body = await readJson(request, invalid);
    if (loc === undefined) throw missing();
    const tipoCob = isObject(body) ? body['tipoCob'] : undefined;
    if (tipoCob !== undefined && tipoCob !== 'cob' && tipoCob !== 'cobv') {
      throw new Problem(invalid, 'tipoCob inválido.', [{ propriedade: 'tipoCob', razao: 'tipoCob é cob ou cobv.' }]);
    }
    if (tipoCob !== undefined && tipoCob !== loc.tipoCob) {
      if (loc.txid !== undefined) {
        throw new Problem(invalid, 'A location está vinculada a uma cobrança.', [
          { propriedade: 'tipoCob', razao: 'Desvincule a cobrança antes.' },
        ]);
      }
      loc.tipoCob = tipoCob;
    }
    return json(200, renderLoc(ctx, loc, true));
  }
  return undefined;
}

function listLocations(ctx: Context, params: URLSearchParams): Response {
  const j = new Judge(ctx.ownKeys);
  const query = judgeListQuery(j, params, false, ['txIdPresente']);
  const tipoCob = params.get('tipoCob');
  if (tipoCob !== null && tipoCob !== 'cob' && tipoCob !== 'cobv') j.flag('tipoCob', 'tipoCob é cob ou cobv.', tipoCob);
  verdict(j, 'PayloadLocationConsultaInvalida');
  const linked = params.get('txIdPresente');
  const items = inRange(ctx.state.locations.values(), query, (l) => l.criacao).filter(
    (loc) =>
      (tipoCob === null || loc.tipoCob === tipoCob) &&
      (linked === null || (loc.txid !== undefined) === (linked === 'true')),
  );
  return json(
    200,
    page(items, query, 'loc', (l) => renderLoc(ctx, l, true), ['txIdPresente', 'tipoCob']),
  );
}

/** The location behind a payload URL token, for the payer side. */
export function locationByToken(ctx: Context, token: string, tipoCob: ChargeKind): Loc | undefined {
  for (const loc of ctx.state.locations.values()) if (loc.token === token && loc.tipoCob === tipoCob) return loc;
  return undefined;
}
