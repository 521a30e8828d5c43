/**
 * Recurrences (`/rec`, recurring spec 3.1, 3.2, 4.1, 4.3, 4.4).
 *
 * Created `CRIADA` with `ativacao.tipoJornada` `AGUARDANDO_DEFINICAO`; the payer's side approves
 * or rejects it (`approveRec`, `rejectRec`, an accepted or rejected confirmation request, or the
 * payment of the immediate charge of journey 3 or of the due-date charge of a journey-4 code).
 * `APROVADA` records the journey and the payer (`pagador`); `dadosJornada` stays only for
 * journey 3. A recurrence whose `dataFinal` has passed is `EXPIRADA`. PATCH may change `loc` and
 * `dataInicial` while `CRIADA`, `dadosJornada.txid` and the debtor's name while not final, and
 * cancel it (`USUARIO_RECEBEDOR`, `SLCR`): the cancellation also cancels its open confirmation
 * requests and its recurring charges still `CRIADA` or `ATIVA`.
 */
import { buildBrCode } from '../../lib/brcode.ts';
import { isCivilDate } from '../../lib/dates.ts';
import { MERCHANT, locationOf } from '../charges.ts';
import { inRange, json, page, readJson, verdict } from '../http.ts';
import { ISPB } from '../payments.ts';
import { Problem } from '../problems.ts';
import { Judge, isObject, judgeListQuery, type Json } from '../rules.ts';
import { cancelCobR, withConvenio } from './cobr.ts';
import { recLocation, renderRec } from './render.ts';
import { ID29, judgeRec, judgeRecRevision } from './rules.ts';
import {
  move,
  newIdRec,
  now,
  today,
  type CobR,
  type Journey,
  type LocRec,
  type Rec,
  type RecurringContext,
  type RetryPolicy,
} from './state.ts';
import { notifyCobR, notifyRec } from './webhooks.ts';

export const JOURNEYS: readonly Journey[] = ['JORNADA_1', 'JORNADA_2', 'JORNADA_3', 'JORNADA_4'];
export const REC_REJECTION_CODES: readonly string[] = ['AP13', 'AP14'];
const FINAL = new Set(['EXPIRADA', 'REJEITADA', 'CANCELADA']);
const OPEN_REQUEST = new Set(['CRIADA', 'ENVIADA', 'RECEBIDA']);
/** The municipality the sandbox's payers live in (Brasília) when no other is known. */
export const PAYER_MUNICIPALITY = '5300108';

export function recOr404(rc: RecurringContext, idRec: string): Rec {
  const rec = rc.state.recs.get(idRec);
  if (rec === undefined) throw new Problem('RecNaoEncontrada', 'Nenhuma recorrência com esse idRec.');
  return rec;
}

/** The location `id` may serve `idRec`: it exists and serves no other recurrence. */
function judgeLocation(rc: RecurringContext, j: Judge, id: unknown, idRec: string | undefined): LocRec | undefined {
  if (!Number.isSafeInteger(id)) return undefined; // flagged by the schema rules
  const loc = rc.state.locations.get(id as number);
  if (loc === undefined) j.flag('rec.loc', 'A location referenciada por rec.loc não existe.', id);
  else if (loc.idRec !== undefined && loc.idRec !== idRec)
    j.flag('rec.loc', 'A location referenciada por rec.loc já está em uso por outra recorrência.', id);
  else return loc;
  return undefined;
}

function link(rc: RecurringContext, rec: Rec, loc: LocRec): void {
  if (rec.locId !== undefined && rec.locId !== loc.id) {
    const old = rc.state.locations.get(rec.locId);
    if (old !== undefined) old.idRec = undefined;
  }
  loc.idRec = rec.idRec;
  rec.locId = loc.id;
}

export async function recRoutes(
  rc: RecurringContext,
  request: Request,
  idRec: string | undefined,
): Promise<Response | undefined> {
  const method = request.method;
  if (idRec === undefined) {
    if (method === 'GET') return listRecs(rc, new URL(request.url).searchParams);
    if (method === 'POST')
      return json(201, renderRec(rc, createRec(rc, await readJson(request, 'RecOperacaoInvalida'))));
    return undefined;
  }
  if (method === 'PATCH') {
    const body = await readJson(request, 'RecOperacaoInvalida');
    return json(200, renderRec(rc, patchRec(rc, idRec, body)));
  }
  if (method !== 'GET') return undefined;
  const j = new Judge([]);
  if (!ID29.test(idRec)) j.flag('idRec', 'idRec tem 29 letras ou dígitos.', idRec);
  verdict(j, 'RecConsultaInvalida');
  const rec = recOr404(rc, idRec);
  const dadosQR = compositeCode(rc, rec, new URL(request.url).searchParams.get('txid'));
  return json(200, { ...renderRec(rc, rec, true), ...(dadosQR && { dadosQR }) });
}

function createRec(rc: RecurringContext, body: unknown): Rec {
  const j = new Judge([]);
  judgeRec(j, body, today(rc));
  const loc = isObject(body) ? judgeLocation(rc, j, body['loc'], undefined) : undefined;
  verdict(j, 'RecOperacaoInvalida');
  const request = body as Json;
  const calendario = request['calendario'] as Json;
  const policy = request['politicaRetentativa'] as RetryPolicy;
  const recebedor = isObject(request['recebedor']) ? request['recebedor'] : {};
  const ativacao = isObject(request['ativacao']) ? request['ativacao'] : {};
  const rec: Rec = {
    idRec: newIdRec(rc, policy),
    seq: rc.state.seq(),
    criacao: now(rc),
    createdDay: today(rc),
    vinculo: structuredClone(request['vinculo'] as Json),
    calendario: {
      dataInicial: calendario['dataInicial'],
      ...(calendario['dataFinal'] !== undefined && { dataFinal: calendario['dataFinal'] }),
      periodicidade: calendario['periodicidade'],
    },
    valor: isObject(request['valor']) ? structuredClone(request['valor']) : undefined,
    politicaRetentativa: policy,
    convenio: recebedor['convenio'] as string | undefined,
    locId: undefined,
    status: 'CRIADA',
    atualizacao: [],
    tipoJornada: 'AGUARDANDO_DEFINICAO',
    journeyTxid: isObject(ativacao['dadosJornada']) ? (ativacao['dadosJornada']['txid'] as string) : undefined,
    encerramento: undefined,
    pagador: undefined,
    composedWith: new Set(),
  };
  move(rc, rec, 'CRIADA');
  if (loc !== undefined) link(rc, rec, loc);
  rc.state.recs.set(rec.idRec, rec);
  return rec;
}

/** `PATCH /rec/{idRec}` (section 3.2). */
function patchRec(rc: RecurringContext, idRec: string, body: unknown): Rec {
  const j = new Judge([]);
  if (!ID29.test(idRec)) j.flag('idRec', 'idRec tem 29 letras ou dígitos.', idRec);
  verdict(j, 'RecOperacaoInvalida');
  const rec = recOr404(rc, idRec);
  judgeRecRevision(j, body, rec.createdDay);
  const patch = isObject(body) ? body : {};
  const calendario = isObject(patch['calendario']) ? patch['calendario'] : {};
  const dataInicial = calendario['dataInicial'];
  let loc: LocRec | undefined;
  if (FINAL.has(rec.status)) {
    j.flag('rec.status', `A recorrência está ${rec.status}: nada pode ser alterado.`, rec.status);
  } else {
    if (Number.isSafeInteger(patch['loc']) && patch['loc'] !== rec.locId) {
      if (rec.status !== 'CRIADA')
        j.flag('rec.loc', 'rec.loc só pode ser alterado com a recorrência CRIADA.', patch['loc']);
      else loc = judgeLocation(rc, j, patch['loc'], rec.idRec);
    }
    if (isCivilDate(dataInicial) && dataInicial !== rec.calendario['dataInicial']) {
      const dataFinal = rec.calendario['dataFinal'] as string | undefined;
      if (rec.status !== 'CRIADA')
        j.flag('rec.calendario.dataInicial', 'dataInicial só pode ser alterada com a recorrência CRIADA.', dataInicial);
      else if (dataFinal !== undefined && dataInicial > dataFinal)
        j.flag('rec.calendario.dataInicial', 'dataInicial seria posterior a dataFinal.', dataInicial);
    }
  }
  verdict(j, 'RecOperacaoInvalida');
  const devedor = isObject(patch['vinculo']) ? patch['vinculo']['devedor'] : undefined;
  if (isObject(devedor)) (rec.vinculo['devedor'] as Json)['nome'] = devedor['nome'];
  if (loc !== undefined) link(rc, rec, loc);
  if (isCivilDate(dataInicial)) rec.calendario['dataInicial'] = dataInicial;
  const dados = isObject(patch['ativacao']) ? patch['ativacao']['dadosJornada'] : undefined;
  if (isObject(dados)) rec.journeyTxid = dados['txid'] as string;
  if (patch['status'] === 'CANCELADA') {
    const cancelled = cancelRec(rc, rec);
    void notifyRec(rc, rec);
    for (const cobr of cancelled) void notifyCobR(rc, cobr);
  }
  return rec;
}

/** Cancels `rec` at the receiving user's request, with its open requests and live charges; returns those charges. */
function cancelRec(rc: RecurringContext, rec: Rec): CobR[] {
  rec.encerramento = {
    cancelamento: {
      solicitante: 'USUARIO_RECEBEDOR',
      codigo: 'SLCR',
      descricao: 'Cancelamento solicitado pelo usuário recebedor.',
    },
  };
  move(rc, rec, 'CANCELADA');
  for (const solicrec of rc.state.solicrecs.values()) {
    if (solicrec.idRec === rec.idRec && OPEN_REQUEST.has(solicrec.status)) move(rc, solicrec, 'CANCELADA');
  }
  const charges = [...rc.state.cobrs.values()].filter(
    (c) => c.idRec === rec.idRec && (c.status === 'CRIADA' || c.status === 'ATIVA'),
  );
  for (const cobr of charges) cancelCobR(rc, cobr, 'Recorrência cancelada pelo usuário recebedor.');
  return charges;
}

/**
 * `dadosQR` of `GET /rec/{idRec}[?txid]` (section 4.4): journey 2 without txid, 3 with an
 * immediate charge's (which must be `dadosJornada.txid`), 4 with a due-date charge's; only when
 * the locations it needs exist. A txid that names no charge, or one the journey excludes, is
 * `RecConsultaInvalida`.
 */
function compositeCode(rc: RecurringContext, rec: Rec, txid: string | null): Json | undefined {
  const recLoc = rec.locId === undefined ? undefined : rc.state.locations.get(rec.locId);
  const recurrenceUrl = recLoc === undefined ? undefined : recLocation(rc, recLoc);
  if (txid === null) {
    return recurrenceUrl === undefined
      ? undefined
      : { jornada: 'JORNADA_2', instantCopiaECola: buildBrCode({ recurrenceUrl, ...MERCHANT }) };
  }
  const { cobs, cobvs, locations } = rc.base.state;
  const charge = cobs.get(txid) ?? cobvs.get(txid);
  const j = new Judge([]);
  if (charge === undefined)
    j.flag('txid', 'txid não corresponde a uma cobrança imediata nem a uma cobrança com vencimento.', txid);
  else if (charge.kind === 'cob' && !['AGUARDANDO_DEFINICAO', 'JORNADA_3'].includes(rec.tipoJornada)) {
    j.flag('txid', `Uma cobrança imediata não é compatível com ativacao.tipoJornada ${rec.tipoJornada}.`, txid);
  } else if (charge.kind === 'cob' && txid !== rec.journeyTxid) {
    j.flag('txid', 'txid é uma cobrança imediata diferente de ativacao.dadosJornada.txid.', txid);
  } else if (charge.kind === 'cobv' && !['AGUARDANDO_DEFINICAO', 'JORNADA_4'].includes(rec.tipoJornada)) {
    j.flag('txid', `Uma cobrança com vencimento não é compatível com ativacao.tipoJornada ${rec.tipoJornada}.`, txid);
  }
  verdict(j, 'RecConsultaInvalida');
  const chargeLoc = charge?.locId === undefined ? undefined : locations.get(charge.locId);
  if (charge === undefined || chargeLoc === undefined || recurrenceUrl === undefined) return undefined;
  if (charge.kind === 'cobv') rec.composedWith.add(txid);
  return {
    jornada: charge.kind === 'cob' ? 'JORNADA_3' : 'JORNADA_4',
    instantCopiaECola: buildBrCode({ url: locationOf(rc.base, chargeLoc), recurrenceUrl, ...MERCHANT }),
  };
}

function listRecs(rc: RecurringContext, params: URLSearchParams): Response {
  const j = new Judge([]);
  const query = judgeListQuery(j, params, false, ['locationPresente']);
  const convenio = params.get('convenio');
  if (convenio !== null && convenio.length > 60) j.flag('convenio', 'convenio tem até 60 caracteres.');
  verdict(j, 'RecConsultaInvalida');
  const [cpf, cnpj, status, located] = ['cpf', 'cnpj', 'status', 'locationPresente'].map((name) => params.get(name));
  const items = inRange(rc.state.recs.values(), query, (r) => r.criacao).filter((rec) => {
    const devedor = rec.vinculo['devedor'] as Json;
    return (
      (status === null || rec.status === status) &&
      (cpf === null || devedor['cpf'] === cpf) &&
      (cnpj === null || devedor['cnpj'] === cnpj) &&
      (located === null || (rec.locId !== undefined) === (located === 'true')) &&
      (convenio === null || rec.convenio === convenio)
    );
  });
  items.sort((a, b) => a.seq - b.seq);
  return json(
    200,
    withConvenio(
      page(items, query, 'recs', (r) => renderRec(rc, r, true), ['cpf', 'cnpj', 'status', 'locationPresente']),
      convenio,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The payer's side and time

function payerOf(rec: Rec): Json {
  const devedor = rec.vinculo['devedor'] as Json;
  const document = devedor['cpf'] !== undefined ? { cpf: devedor['cpf'] } : { cnpj: devedor['cnpj'] };
  return { ispbParticipante: ISPB, codMun: PAYER_MUNICIPALITY, ...document };
}

function refuseUnlessCreated(rec: Rec): void {
  if (rec.status !== 'CRIADA') {
    throw new Problem(
      'RecOperacaoInvalida',
      `A recorrência está ${rec.status}: só uma recorrência CRIADA é aprovada ou rejeitada.`,
      [{ propriedade: 'rec.status', razao: 'A recorrência não está CRIADA.', valor: rec.status }],
    );
  }
}

/**
 * The paying user approves `rec` by `jornada` (default: journey 2 when it has a location, else
 * journey 1; journey 3 needs `dadosJornada.txid`). `pagador` defaults to the debtor at the
 * sandbox's participant, in Brasília.
 */
export function approveRec(rc: RecurringContext, rec: Rec, jornada?: string, pagador?: Json): void {
  refuseUnlessCreated(rec);
  const journey = jornada ?? (rec.locId !== undefined ? 'JORNADA_2' : 'JORNADA_1');
  if (!JOURNEYS.includes(journey as Journey)) {
    throw new Problem('RequisicaoInvalida', 'jornada é JORNADA_1, JORNADA_2, JORNADA_3 ou JORNADA_4.', [
      { propriedade: 'jornada', razao: 'Jornada desconhecida.', valor: journey },
    ]);
  }
  if (journey === 'JORNADA_3' && rec.journeyTxid === undefined) {
    throw new Problem('RecOperacaoInvalida', 'A jornada 3 exige ativacao.dadosJornada.txid.', [
      { propriedade: 'rec.ativacao.dadosJornada.txid', razao: 'Obrigatório na jornada 3.' },
    ]);
  }
  rec.tipoJornada = journey as Journey;
  if (journey !== 'JORNADA_3') rec.journeyTxid = undefined;
  rec.pagador = pagador ?? payerOf(rec);
  move(rc, rec, 'APROVADA');
}

/** The paying user rejects `rec` (`encerramento.rejeicao`, AP13 by default). */
export function rejectRec(rc: RecurringContext, rec: Rec, codigo = 'AP13'): void {
  refuseUnlessCreated(rec);
  if (!REC_REJECTION_CODES.includes(codigo)) {
    throw new Problem('RequisicaoInvalida', 'codigo é AP13 ou AP14.', [
      { propriedade: 'codigo', razao: 'Código fora da lista.', valor: codigo },
    ]);
  }
  rec.encerramento = { rejeicao: { codigo, descricao: 'Recorrência rejeitada pelo usuário pagador.' } };
  move(rc, rec, 'REJEITADA');
}

/** The recurrences a payment of charge `txid` activates: journey 3 by its txid, journey 4 by a code handed out. */
export function approvedByPayment(rc: RecurringContext, txid: string): Rec[] {
  const approved: Rec[] = [];
  for (const rec of rc.state.recs.values()) {
    if (rec.status !== 'CRIADA') continue;
    if (rec.journeyTxid === txid) approveRec(rc, rec, 'JORNADA_3');
    else if (rec.composedWith.has(txid)) approveRec(rc, rec, 'JORNADA_4');
    else continue;
    approved.push(rec);
  }
  return approved;
}

/** Time-driven changes: a recurrence past its `dataFinal` expires. */
export function sweepRecs(rc: RecurringContext): Rec[] {
  const day = today(rc);
  const changed: Rec[] = [];
  for (const rec of rc.state.recs.values()) {
    const dataFinal = rec.calendario['dataFinal'];
    if ((rec.status === 'CRIADA' || rec.status === 'APROVADA') && typeof dataFinal === 'string' && dataFinal < day) {
      move(rc, rec, 'EXPIRADA');
      changed.push(rec);
    }
  }
  return changed;
}
