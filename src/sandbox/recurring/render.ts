/**
 * How the recurring part's records look on the wire: RecGerada / RecCompleta, the recurrence
 * payload (RecPayload), SolicRecCompleta, CobRGerada / CobRCompleta, the recurrence locations and
 * the notification items of `{webhookUrl}/rec` and `{webhookUrl}/cobr`.
 */
import { ISPB } from '../payments.ts';
import type { Json } from '../rules.ts';
import type { CobR, LocRec, Rec, RecurringContext, SolicRec } from './state.ts';

/** Path of the payload a recurrence location serves (`/qr/v2/rec/<token>`). */
export const REC_PAYLOAD_PATH = '/qr/v2/rec/';

/** The location of a recurrence location: the sandbox's host, no scheme (as the spec's examples). */
export function recLocation(rc: RecurringContext, loc: LocRec): string {
  return `${rc.base.origin().replace(/^[a-z]+:\/\//, '')}${REC_PAYLOAD_PATH}${loc.token}`;
}

export function renderLocRec(rc: RecurringContext, loc: LocRec): Json {
  const out: Json = { id: loc.id, location: recLocation(rc, loc), criacao: loc.criacao };
  if (loc.idRec !== undefined) out['idRec'] = loc.idRec;
  return out;
}

const copy = <T>(value: T): T => structuredClone(value);

function recebedor(rc: RecurringContext): Json {
  return { cnpj: rc.base.recebedor['cnpj'], nome: rc.base.recebedor['nome'] };
}

function activation(rec: Rec): Json {
  const out: Json = { tipoJornada: rec.tipoJornada };
  if (rec.journeyTxid !== undefined) out['dadosJornada'] = { txid: rec.journeyTxid };
  return out;
}

/** RecGerada (POST and PATCH answers); `completa` adds pagador and the linked requests (RecCompleta). */
export function renderRec(rc: RecurringContext, rec: Rec, completa = false): Json {
  const out: Json = {
    idRec: rec.idRec,
    vinculo: copy(rec.vinculo),
    calendario: copy(rec.calendario),
    politicaRetentativa: rec.politicaRetentativa,
    recebedor: { ...recebedor(rc), ...(rec.convenio !== undefined && { convenio: rec.convenio }) },
    status: rec.status,
    atualizacao: copy(rec.atualizacao),
    ativacao: activation(rec),
  };
  if (rec.valor !== undefined) out['valor'] = copy(rec.valor);
  const loc = rec.locId === undefined ? undefined : rc.state.locations.get(rec.locId);
  if (loc !== undefined) out['loc'] = renderLocRec(rc, loc);
  if (rec.encerramento !== undefined) out['encerramento'] = copy(rec.encerramento);
  if (!completa) return out;
  if (rec.pagador !== undefined) out['pagador'] = copy(rec.pagador);
  out['solicitacao'] = [...rc.state.solicrecs.values()]
    .filter((s) => s.idRec === rec.idRec)
    .map((s) => renderSolicRec(rc, s));
  return out;
}

/** RecPayload: what the payer's side reads from the recurrence location (and `recPayload` of a request). */
export function recPayload(rc: RecurringContext, rec: Rec): Json {
  const out: Json = {
    idRec: rec.idRec,
    vinculo: copy(rec.vinculo),
    calendario: copy(rec.calendario),
    politicaRetentativa: rec.politicaRetentativa,
    recebedor: { ...recebedor(rc), ispbParticipante: ISPB },
    atualizacao: copy(rec.atualizacao),
  };
  if (rec.valor !== undefined) out['valor'] = copy(rec.valor);
  return out;
}

export function renderSolicRec(rc: RecurringContext, solicrec: SolicRec): Json {
  const out: Json = {
    idSolicRec: solicrec.idSolicRec,
    idRec: solicrec.idRec,
    calendario: { dataExpiracaoSolicitacao: solicrec.dataExpiracaoSolicitacao },
    destinatario: copy(solicrec.destinatario),
    status: solicrec.status,
    atualizacao: copy(solicrec.atualizacao),
  };
  const rec = rc.state.recs.get(solicrec.idRec);
  if (rec !== undefined) out['recPayload'] = recPayload(rc, rec);
  return out;
}

/** CobRGerada; `completa` adds the attempts and the received payments (CobRCompleta). */
export function renderCobR(rc: RecurringContext, cobr: CobR, completa = false): Json {
  const { calendario, recebedor: account, ...content } = copy(cobr.content);
  const out: Json = {
    idRec: cobr.idRec,
    txid: cobr.txid,
    ...content,
    calendario: { criacao: cobr.createdDay, ...(calendario as Json) },
    recebedor: { ...(account as Json), ...recebedor(rc) },
    status: cobr.status,
    politicaRetentativa: rc.state.recs.get(cobr.idRec)?.politicaRetentativa,
    atualizacao: copy(cobr.atualizacao),
  };
  if (cobr.encerramento !== undefined) out['encerramento'] = copy(cobr.encerramento);
  if (!completa) return out;
  out['tentativas'] = copy(cobr.tentativas);
  out['instant'] = copy(cobr.instant);
  return out;
}

/** An item of `{ recs: [...] }` (RecNotification). */
export function recNotification(rec: Rec): Json {
  const out: Json = {
    idRec: rec.idRec,
    status: rec.status,
    atualizacao: copy(rec.atualizacao),
    ativacao: activation(rec),
  };
  if (rec.encerramento !== undefined) out['encerramento'] = copy(rec.encerramento);
  return out;
}

/** An item of `{ cobsr: [...] }` (CobRNotification). */
export function cobrNotification(cobr: CobR): Json {
  const out: Json = {
    idRec: cobr.idRec,
    txid: cobr.txid,
    status: cobr.status,
    atualizacao: copy(cobr.atualizacao),
    tentativas: copy(cobr.tentativas),
  };
  if (cobr.encerramento !== undefined) out['encerramento'] = copy(cobr.encerramento);
  if (cobr.instant.length > 0) out['instant'] = copy(cobr.instant);
  return out;
}
