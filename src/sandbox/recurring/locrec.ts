/**
 * Recurrence locations (`/locrec`) and the payload they serve on the payer's side
 * (`GET /qr/v2/rec/<token>`, recurring spec 2.5, 2.6). A location serves at most one recurrence;
 * unlinking frees it. The payload is the recurrence as RecPayload, signed as a compact JWS with
 * the charges' payload key (RS256, `jku` naming the same key set). A location showing no
 * recurrence answers `RecPayloadNaoEncontrado` (404); one whose recurrence is expired, rejected
 * or cancelled answers `RecPayloadOperacaoInvalida` (400), the choice the catalogue leaves open.
 */
import { inRange, json, page, verdict } from '../http.ts';
import { JWKS_PATH, type PayloadSigner } from '../payload.ts';
import { Problem } from '../problems.ts';
import { Judge, judgeListQuery } from '../rules.ts';
import { withConvenio } from './cobr.ts';
import { REC_PAYLOAD_PATH, recLocation, recPayload, renderLocRec } from './render.ts';
import { now, type LocRec, type RecurringContext } from './state.ts';

// An int64 in the path: up to 19 digits (the sandbox's own ids are small; a larger one names nothing).
const LOC_ID = /^\d{1,19}$/;
const HEX = '0123456789abcdef';
const CLOSED = new Set(['EXPIRADA', 'REJEITADA', 'CANCELADA']);

export async function locRecRoutes(
  rc: RecurringContext,
  request: Request,
  id: string | undefined,
  unlink: boolean,
): Promise<Response | undefined> {
  const method = request.method;
  if (id === undefined) {
    if (method === 'GET') return listLocations(rc, new URL(request.url).searchParams);
    if (method !== 'POST') return undefined;
    // POST /locrec takes no body: whatever comes is not read.
    let token = '';
    for (let i = 0; i < 32; i++) token += HEX[rc.ids.below(16)];
    const loc: LocRec = { id: rc.state.nextLocId(), token, criacao: now(rc), idRec: undefined };
    rc.state.locations.set(loc.id, loc);
    return json(201, renderLocRec(rc, loc), { location: recLocation(rc, loc) });
  }
  if (unlink ? method !== 'DELETE' : method !== 'GET') return undefined;
  if (!unlink && !LOC_ID.test(id)) {
    throw new Problem('PayloadLocationRecConsultaInvalida', 'id de location inválido.', [
      { propriedade: 'id', razao: 'O id é um inteiro.', valor: id },
    ]);
  }
  // DELETE declares no 400: an id out of its schema names no location (404), and says why.
  if (!LOC_ID.test(id)) {
    throw new Problem('PayloadLocationRecNaoEncontrado', 'Nenhuma location de recorrência com esse id.', [
      { propriedade: 'id', razao: 'O id é um inteiro.', valor: id },
    ]);
  }
  const loc = rc.state.locations.get(Number(id));
  if (loc === undefined)
    throw new Problem('PayloadLocationRecNaoEncontrado', 'Nenhuma location de recorrência com esse id.');
  if (unlink && loc.idRec !== undefined) {
    const rec = rc.state.recs.get(loc.idRec);
    if (rec !== undefined) rec.locId = undefined;
    loc.idRec = undefined;
  }
  return json(200, renderLocRec(rc, loc));
}

function listLocations(rc: RecurringContext, params: URLSearchParams): Response {
  const j = new Judge([]);
  const query = judgeListQuery(j, params, false, ['idRecPresente']);
  const convenio = params.get('convenio');
  if (convenio !== null && convenio.length > 60) j.flag('convenio', 'convenio tem até 60 caracteres.');
  verdict(j, 'PayloadLocationRecConsultaInvalida');
  const linked = params.get('idRecPresente');
  const items = inRange(rc.state.locations.values(), query, (l) => l.criacao).filter(
    (loc) =>
      (linked === null || (loc.idRec !== undefined) === (linked === 'true')) &&
      (convenio === null || (loc.idRec !== undefined && rc.state.recs.get(loc.idRec)?.convenio === convenio)),
  );
  return json(
    200,
    withConvenio(
      page(items, query, 'loc', (l) => renderLocRec(rc, l), ['idRecPresente']),
      convenio,
    ),
  );
}

/** `GET /qr/v2/rec/<token>`: the signed payload of the recurrence the location shows. */
export async function recPayloadRoute(
  rc: RecurringContext,
  signer: PayloadSigner,
  request: Request,
  path: string,
): Promise<Response | undefined> {
  if (request.method !== 'GET' || !path.startsWith(REC_PAYLOAD_PATH)) return undefined;
  const token = path.slice(REC_PAYLOAD_PATH.length);
  const loc = [...rc.state.locations.values()].find((l) => l.token === token);
  const rec = loc?.idRec === undefined ? undefined : rc.state.recs.get(loc.idRec);
  if (rec === undefined) throw new Problem('RecPayloadNaoEncontrado', 'A location não apresenta recorrência.', [], 404);
  if (CLOSED.has(rec.status)) {
    throw new Problem('RecPayloadOperacaoInvalida', 'A recorrência encontra-se expirada, cancelada ou rejeitada.', [
      { propriedade: 'recUrlAccessToken', razao: `A recorrência desta location está ${rec.status}.` },
    ]);
  }
  const jws = await signer.sign(recPayload(rc, rec), `${rc.base.origin()}${JWKS_PATH}`);
  return new Response(jws, { status: 200, headers: { 'content-type': 'application/jose' } });
}
