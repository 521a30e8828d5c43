/**
 * Confirmation requests (`/solicrec`, recurring spec 3.3). A request is made for a `CRIADA`
 * recurrence and answered `CRIADA` (201); it is "active", for the one-per-recurrence rule,
 * while `CRIADA`, `ENVIADA` or `RECEBIDA` and not past `dataExpiracaoSolicitacao` (then it is
 * `EXPIRADA`). The payer's side moves it (`answerSolicRec`): through `ENVIADA` (and `RECEBIDA`)
 * to `ACEITA`, which approves its recurrence by journey 1 with the addressee as `pagador`, or to
 * `REJEITADA`, which rejects the recurrence (AP13). PATCH cancels it while active (201).
 */
import { json, readJson, verdict } from '../http.ts';
import { Problem } from '../problems.ts';
import { Judge, isObject, type Json } from '../rules.ts';
import { PAYER_MUNICIPALITY, approveRec, rejectRec } from './rec.ts';
import { renderSolicRec } from './render.ts';
import { CANCELLED, ID29, judgeSolicRec } from './rules.ts';
import { move, newIdSolicRec, now, type Rec, type RecurringContext, type SolicRec } from './state.ts';

const ACTIVE = new Set(['CRIADA', 'ENVIADA', 'RECEBIDA']);
/** The answers of the payer's side: `RECEBIDA` only moves the request along. */
export type SolicRecAnswer = 'ACEITA' | 'REJEITADA' | 'RECEBIDA';

function solicRecOr404(rc: RecurringContext, idSolicRec: string): SolicRec {
  const solicrec = rc.state.solicrecs.get(idSolicRec);
  if (solicrec === undefined)
    throw new Problem('SolicRecNaoEncontrada', 'Nenhuma solicitação de confirmação com esse idSolicRec.');
  return solicrec;
}

export async function solicRecRoutes(
  rc: RecurringContext,
  request: Request,
  idSolicRec: string | undefined,
): Promise<Response | undefined> {
  const method = request.method;
  if (idSolicRec === undefined) {
    if (method !== 'POST') return undefined;
    return json(201, renderSolicRec(rc, createSolicRec(rc, await readJson(request, 'SolicRecOperacaoInvalida'))));
  }
  if (method === 'GET') {
    // The endpoint declares no 400: an id out of its schema names no request (404), and says why.
    if (!ID29.test(idSolicRec)) {
      throw new Problem('SolicRecNaoEncontrada', 'Nenhuma solicitação de confirmação com esse idSolicRec.', [
        { propriedade: 'idSolicRec', razao: 'idSolicRec tem 29 letras ou dígitos.', valor: idSolicRec },
      ]);
    }
    return json(200, renderSolicRec(rc, solicRecOr404(rc, idSolicRec)));
  }
  if (method !== 'PATCH') return undefined;
  const body = await readJson(request, 'SolicRecOperacaoInvalida');
  const j = new Judge([]);
  if (!ID29.test(idSolicRec)) j.flag('idSolicRec', 'idSolicRec tem 29 letras ou dígitos.', idSolicRec);
  verdict(j, 'SolicRecOperacaoInvalida');
  const solicrec = solicRecOr404(rc, idSolicRec);
  const status = isObject(body) ? body['status'] : undefined;
  if (status !== CANCELLED) j.flag('solicrec.status', 'O único status aceito é CANCELADA.', status);
  else if (!ACTIVE.has(solicrec.status)) {
    j.flag(
      'solicrec.status',
      'Não é possível cancelar uma solicitação com status diferente de CRIADA, ENVIADA ou RECEBIDA.',
      solicrec.status,
    );
  }
  verdict(j, 'SolicRecOperacaoInvalida');
  move(rc, solicrec, 'CANCELADA');
  return json(201, renderSolicRec(rc, solicrec));
}

function createSolicRec(rc: RecurringContext, body: unknown): SolicRec {
  const j = new Judge([]);
  judgeSolicRec(j, body, rc.base.now().getTime());
  verdict(j, 'SolicRecOperacaoInvalida');
  const request = body as Json;
  const idRec = request['idRec'] as string;
  const rec = rc.state.recs.get(idRec);
  // The endpoint declares a 404 with no type of its own.
  if (rec === undefined) throw new Problem('NaoEncontrado', 'Nenhuma recorrência com esse idRec.');
  if (rec.status !== 'CRIADA')
    j.flag('solicrec.idRec', `A recorrência está ${rec.status}: só uma recorrência CRIADA é confirmada.`, idRec);
  else if ([...rc.state.solicrecs.values()].some((s) => s.idRec === idRec && ACTIVE.has(s.status))) {
    j.flag('solicrec.idRec', 'Existe uma solicitação ativa para essa recorrência.', idRec);
  }
  verdict(j, 'SolicRecOperacaoInvalida');
  const solicrec: SolicRec = {
    idSolicRec: newIdSolicRec(rc),
    idRec,
    seq: rc.state.seq(),
    criacao: now(rc),
    dataExpiracaoSolicitacao: (request['calendario'] as Json)['dataExpiracaoSolicitacao'] as string,
    destinatario: structuredClone(request['destinatario'] as Json),
    status: 'CRIADA',
    atualizacao: [],
  };
  move(rc, solicrec, 'CRIADA');
  rc.state.solicrecs.set(solicrec.idSolicRec, solicrec);
  return solicrec;
}

/** The payer's side answers an active request; returns the recurrence it approved or rejected, if any. */
export function answerSolicRec(
  rc: RecurringContext,
  idSolicRec: string,
  answer: SolicRecAnswer,
): { solicrec: SolicRec; rec: Rec | undefined } {
  const solicrec = solicRecOr404(rc, idSolicRec);
  if (answer !== 'ACEITA' && answer !== 'REJEITADA' && answer !== 'RECEBIDA') {
    throw new Problem('RequisicaoInvalida', 'status é ACEITA, REJEITADA ou RECEBIDA.', [
      { propriedade: 'status', razao: 'Resposta desconhecida.', valor: String(answer) },
    ]);
  }
  if (!ACTIVE.has(solicrec.status)) {
    throw new Problem(
      'SolicRecOperacaoInvalida',
      `A solicitação está ${solicrec.status} e não pode mais ser respondida.`,
      [{ propriedade: 'solicrec.status', razao: 'A solicitação não está ativa.', valor: solicrec.status }],
    );
  }
  const rec = rc.state.recs.get(solicrec.idRec);
  const decides = rec?.status === 'CRIADA' && answer !== 'RECEBIDA';
  move(rc, solicrec, solicrec.status === 'CRIADA' ? 'ENVIADA' : solicrec.status);
  if (answer === 'RECEBIDA') {
    move(rc, solicrec, 'RECEBIDA');
    return { solicrec, rec: undefined };
  }
  if (decides && answer === 'ACEITA') {
    const { ispbParticipante, cpf, cnpj } = solicrec.destinatario;
    approveRec(rc, rec, 'JORNADA_1', {
      ispbParticipante,
      codMun: PAYER_MUNICIPALITY,
      ...(cpf !== undefined ? { cpf } : { cnpj }),
    });
  } else if (decides) {
    rejectRec(rc, rec, 'AP13');
  }
  move(rc, solicrec, answer);
  return { solicrec, rec: decides ? rec : undefined };
}

/** Time-driven changes: an active request past its expiry is EXPIRADA. */
export function sweepSolicRecs(rc: RecurringContext): void {
  const at = rc.base.now().getTime();
  for (const solicrec of rc.state.solicrecs.values()) {
    if (ACTIVE.has(solicrec.status) && Date.parse(solicrec.dataExpiracaoSolicitacao) < at)
      move(rc, solicrec, 'EXPIRADA');
  }
}
