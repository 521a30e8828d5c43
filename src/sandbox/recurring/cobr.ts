/**
 * Recurring charges (`/cobr`) and their settlement attempts (recurring spec 3.4, 3.5, 3.6).
 *
 * A charge is answered `CRIADA` (201) and is then at once scheduled with the payer's provider:
 * it becomes `ATIVA` with an `AGND` attempt `AGENDADA` (after `SOLICITADA`) for its expected
 * settlement date, the due date moved to the payer's next business day when `ajusteDiaUtil`
 * (the shared calendar, with the sandbox's `localHolidays` for the payer's `codMun`).
 * The payer's side settles the pending attempt on request (`settleCobr`): `PAGA` concludes the
 * charge with a received payment; `REJEITADA` rejects the attempt, and the charge too when the
 * code is one of those that reject it. An attempt still pending after its date is `EXPIRADA`.
 *
 * Retries (`POST /cobr/{txid}/retentativa/{data}`, an `NTAG` attempt): only for an `ATIVA`
 * charge of a `PERMITE_3R_7D` recurrence with no attempt pending; under that policy the sandbox
 * allows at most 3 retries, each on a future date no later than 7 calendar days after the
 * expected settlement date (moved to a business day like it). A charge that can no longer be paid (its attempt failed and no retry is possible, or
 * the window has passed) becomes `EXPIRADA`.
 *
 * Uniqueness: one txid per charge; at most one charge not `REJEITADA` or `CANCELADA` per
 * recurrence and cycle (see `calendar.ts`). A charge needs an `APROVADA` recurrence.
 */
import { roll } from '../../lib/calendar.ts';
import { addDays, isCivilDate } from '../../lib/dates.ts';
import { isValidTxid } from '../../lib/ids.ts';
import { inRange, json, page, readJson, verdict } from '../http.ts';
import { endToEndId } from '../payments.ts';
import { Problem } from '../problems.ts';
import { Judge, isObject, judgeListQuery, type Json } from '../rules.ts';
import { cycleOf } from './calendar.ts';
import { renderCobR } from './render.ts';
import { CANCELLED, ID29, cobrContent, judgeCobR } from './rules.ts';
import { businessDays } from '../state.ts';
import { move, now, today, type Attempt, type CobR, type Rec, type RecurringContext } from './state.ts';
import { notifyCobR } from './webhooks.ts';

/** Attempt rejection codes (A.3), and those that reject the charge itself (2.4). */
export const REJECTION_CODES: readonly string[] = [
  'AB10',
  'AC05',
  'AC06',
  'AM02',
  'AM09',
  'DENC',
  'DS27',
  'DTED',
  'DTNT',
  'FBRD',
  'IRNT',
  'MIDI',
  'MSUC',
  'NIEC',
  'NIPA',
  'NITX',
  'QUNT',
  'RC09',
  'UDEI',
];
export const CHARGE_REJECTING_CODES: readonly string[] = [
  'AC05',
  'AM09',
  'DENC',
  'DS27',
  'DTED',
  'MIDI',
  'MSUC',
  'NITX',
  'RC09',
];
/** The code of a rejection asked for without one: not among those that reject the charge. */
export const DEFAULT_REJECTION = 'AM02';
/** PERMITE_3R_7D as the sandbox reads it: 3 retries, up to 7 days after the due date. */
export const MAX_RETRIES = 3;
export const RETRY_WINDOW_DAYS = 7;

const PENDING = new Set(['SOLICITADA', 'AGENDADA']);
const LIVE = new Set(['CRIADA', 'ATIVA']);

const dueOf = (cobr: CobR): string => (cobr.content['calendario'] as Json)['dataDeVencimento'] as string;
const pendingOf = (cobr: CobR): Attempt | undefined => cobr.tentativas.find((t) => PENDING.has(t.status));
const retriesOf = (cobr: CobR): number => cobr.tentativas.filter((t) => t.tipo === 'NTAG').length;

function newAttempt(rc: RecurringContext, tipo: Attempt['tipo'], dataLiquidacao: string): Attempt {
  const attempt: Attempt = {
    dataLiquidacao,
    tipo,
    status: 'SOLICITADA',
    endToEndId: endToEndId({ ...rc.base, ids: rc.ids }, 'E'),
    atualizacao: [],
  };
  move(rc, attempt, 'SOLICITADA');
  move(rc, attempt, 'AGENDADA');
  return attempt;
}

/** The payer's business days: the shared calendar, with the local holidays of the recurrence's payer (`pagador.codMun`). */
function payerDays(rc: RecurringContext, cobr: CobR): (date: string) => boolean {
  const codMun = rc.state.recs.get(cobr.idRec)?.pagador?.['codMun'];
  return businessDays(rc.base, typeof codMun === 'string' ? codMun : undefined);
}

/** The expected settlement date: the due date, moved to the payer's next business day under `ajusteDiaUtil`. */
function settlementOf(rc: RecurringContext, cobr: CobR): string {
  return cobr.content['ajusteDiaUtil'] === false ? dueOf(cobr) : roll(dueOf(cobr), payerDays(rc, cobr));
}

/** The last day a retry may ask for: 7 days after the expected settlement date, moved to a business day like it. */
function retryWindowEnd(rc: RecurringContext, cobr: CobR): string {
  const end = addDays(settlementOf(rc, cobr), RETRY_WINDOW_DAYS);
  return cobr.content['ajusteDiaUtil'] === false ? end : roll(end, payerDays(rc, cobr));
}

/** The payer's provider schedules the first attempt: CRIADA becomes ATIVA. */
function activate(rc: RecurringContext, cobr: CobR): void {
  if (cobr.status !== 'CRIADA') return;
  cobr.tentativas.push(newAttempt(rc, 'AGND', settlementOf(rc, cobr)));
  move(rc, cobr, 'ATIVA');
}

/** True while a new attempt could still be asked for (the policy, the count and the window allow it). */
function canRetry(rc: RecurringContext, cobr: CobR): boolean {
  const rec = rc.state.recs.get(cobr.idRec);
  return (
    rec?.politicaRetentativa === 'PERMITE_3R_7D' &&
    retriesOf(cobr) < MAX_RETRIES &&
    today(rc) < retryWindowEnd(rc, cobr)
  );
}

/** An ATIVA charge with no attempt pending and no retry possible can no longer be paid. */
function expireIfLost(rc: RecurringContext, cobr: CobR): boolean {
  if (cobr.status !== 'ATIVA' || pendingOf(cobr) !== undefined || canRetry(rc, cobr)) return false;
  move(rc, cobr, 'EXPIRADA');
  return true;
}

/** Time-driven changes: attempts past their date expire, then charges that can no longer be paid. */
export function sweepCobRs(rc: RecurringContext): CobR[] {
  const changed: CobR[] = [];
  const day = today(rc);
  for (const cobr of rc.state.cobrs.values()) {
    if (cobr.status !== 'ATIVA') continue;
    let moved = false;
    for (const attempt of cobr.tentativas) {
      if (PENDING.has(attempt.status) && attempt.dataLiquidacao < day) {
        move(rc, attempt, 'EXPIRADA');
        moved = true;
      }
    }
    if (expireIfLost(rc, cobr) || moved) changed.push(cobr);
  }
  return changed;
}

/** Cancels a live charge: its pending attempts are cancelled too. */
export function cancelCobR(rc: RecurringContext, cobr: CobR, descricao: string): void {
  for (const attempt of cobr.tentativas) if (PENDING.has(attempt.status)) move(rc, attempt, 'CANCELADA');
  cobr.encerramento = { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao } };
  move(rc, cobr, 'CANCELADA');
}

// ---------------------------------------------------------------------------------------------
// Routes

export async function cobrRoutes(
  rc: RecurringContext,
  request: Request,
  txid: string | undefined,
  sub: string | undefined,
  data: string | undefined,
): Promise<Response | undefined> {
  const method = request.method;
  if (txid === undefined) {
    if (method === 'GET') return listCobRs(rc, new URL(request.url).searchParams);
    if (method !== 'POST') return undefined;
    const body = await readJson(request, 'CobROperacaoInvalida');
    return json(201, createCobR(rc, rc.ids.alphanumeric(35), body, 'POST'));
  }
  if (sub !== undefined) {
    if (sub !== 'retentativa' || data === undefined || method !== 'POST') return undefined;
    return json(201, renderCobR(rc, retry(rc, txid, data), true));
  }
  if (method === 'PUT') return json(201, createCobR(rc, txid, await readJson(request, 'CobROperacaoInvalida'), 'PUT'));
  if (method === 'PATCH')
    return json(200, renderCobR(rc, patchCobR(rc, txid, await readJson(request, 'CobROperacaoInvalida'))));
  if (method !== 'GET') return undefined;
  const j = new Judge([]);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  verdict(j, 'CobRConsultaInvalida');
  return json(200, renderCobR(rc, cobrOr404(rc, txid), true));
}

function cobrOr404(rc: RecurringContext, txid: string): CobR {
  const cobr = rc.state.cobrs.get(txid);
  if (cobr === undefined) throw new Problem('CobRNaoEncontrado', 'Nenhuma cobrança recorrente com esse txid.');
  return cobr;
}

/** `PUT /cobr/{txid}` and `POST /cobr` (txid chosen here): answers the charge as created (CRIADA). */
function createCobR(rc: RecurringContext, txid: string, body: unknown, via: 'PUT' | 'POST'): Json {
  const j = new Judge([]);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  judgeCobR(j, body, today(rc), rc.ownAccounts);
  if (rc.state.cobrs.has(txid)) j.flag('cobr.txid', 'O txid já está em uso por outra cobrança recorrente.', txid);
  verdict(j, 'CobROperacaoInvalida');
  const request = body as Json;
  const idRec = request['idRec'] as string;
  const content = cobrContent(request);
  const rec = rc.state.recs.get(idRec);
  // PUT declares a 404 (no type in the catalogue); POST /cobr declares none, so it answers 400.
  if (rec === undefined && via === 'PUT') throw new Problem('NaoEncontrado', 'Nenhuma recorrência com esse idRec.');
  if (rec === undefined) j.flag('cobr.idRec', 'Nenhuma recorrência com esse idRec.', idRec);
  else if (rec.status !== 'APROVADA')
    j.flag('cobr.idRec', `A recorrência está ${rec.status}: cobranças só para uma recorrência APROVADA.`, idRec);
  else if (sameCycle(rc, rec, (content['calendario'] as Json)['dataDeVencimento'] as string)) {
    j.flag(
      'cobr.calendario.dataDeVencimento',
      'Já existe cobrança recorrente (não REJEITADA nem CANCELADA) dessa recorrência no mesmo ciclo.',
    );
  }
  verdict(j, 'CobROperacaoInvalida');
  const cobr: CobR = {
    txid,
    idRec,
    seq: rc.state.seq(),
    criacao: now(rc),
    createdDay: today(rc),
    content,
    status: 'CRIADA',
    atualizacao: [],
    tentativas: [],
    encerramento: undefined,
    instant: [],
  };
  move(rc, cobr, 'CRIADA');
  rc.state.cobrs.set(txid, cobr);
  const answer = renderCobR(rc, cobr);
  activate(rc, cobr);
  void notifyCobR(rc, cobr);
  return answer;
}

function sameCycle(rc: RecurringContext, rec: Rec, due: string): boolean {
  const { dataInicial, periodicidade } = rec.calendario as { dataInicial: string; periodicidade: string };
  const cycle = cycleOf(dataInicial, periodicidade, due);
  for (const other of rc.state.cobrs.values()) {
    if (other.idRec !== rec.idRec || other.status === 'REJEITADA' || other.status === 'CANCELADA') continue;
    if (cycleOf(dataInicial, periodicidade, dueOf(other)) === cycle) return true;
  }
  return false;
}

/** `PATCH /cobr/{txid}`: only the cancellation, before the expected date of the first attempt. */
function patchCobR(rc: RecurringContext, txid: string, body: unknown): CobR {
  const j = new Judge([]);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  verdict(j, 'CobROperacaoInvalida');
  const cobr = cobrOr404(rc, txid);
  const status = isObject(body) ? body['status'] : undefined;
  if (status !== CANCELLED) j.flag('cobr.status', 'O único status aceito é CANCELADA.', status);
  else if (!LIVE.has(cobr.status))
    j.flag('cobr.status', `A cobrança está ${cobr.status} e não pode ser cancelada.`, cobr.status);
  else {
    const first = cobr.tentativas[0]?.dataLiquidacao ?? dueOf(cobr);
    if (today(rc) >= first) {
      j.flag(
        'cobr.status',
        `Não é possível cancelar na data prevista da primeira tentativa de liquidação (${first}) ou depois.`,
      );
    }
  }
  verdict(j, 'CobROperacaoInvalida');
  cancelCobR(rc, cobr, 'Cancelamento solicitado pelo usuário recebedor.');
  void notifyCobR(rc, cobr);
  return cobr;
}

/** `POST /cobr/{txid}/retentativa/{data}`: a new attempt (NTAG) on `data`. */
function retry(rc: RecurringContext, txid: string, data: string): CobR {
  const j = new Judge([]);
  if (!isValidTxid(txid)) j.flag('txid', 'txid tem de 26 a 35 letras ou dígitos.', txid);
  if (!isCivilDate(data)) j.flag('data', 'data não é uma data AAAA-MM-DD.', data);
  else if (data <= today(rc)) j.flag('data', 'data não é uma data futura.', data);
  verdict(j, 'CobROperacaoInvalida');
  const cobr = cobrOr404(rc, txid);
  const rec = rc.state.recs.get(cobr.idRec);
  if (rec?.politicaRetentativa !== 'PERMITE_3R_7D')
    j.flag('cobr.politicaRetentativa', 'A política configurada na recorrência não permite retentativa.');
  if (cobr.status !== 'ATIVA')
    j.flag('cobr.status', `A cobrança está ${cobr.status}: só uma cobrança ATIVA aceita retentativa.`, cobr.status);
  if (pendingOf(cobr) !== undefined) j.flag('cobr.tentativas', 'Existe uma tentativa SOLICITADA ou AGENDADA.');
  else if (
    cobr.tentativas.some(
      (t) =>
        t.dataLiquidacao === data && t.status !== 'REJEITADA' && t.status !== 'EXPIRADA' && t.status !== 'CANCELADA',
    )
  ) {
    j.flag('data', 'Existe uma tentativa vigente para essa data.', data);
  }
  if (retriesOf(cobr) >= MAX_RETRIES)
    j.flag('cobr.tentativas', `PERMITE_3R_7D admite no máximo ${MAX_RETRIES} retentativas.`);
  const last = retryWindowEnd(rc, cobr);
  if (isCivilDate(data) && data > last)
    j.flag(
      'data',
      `PERMITE_3R_7D admite retentativas até ${RETRY_WINDOW_DAYS} dias após o vencimento (${last}).`,
      data,
    );
  verdict(j, 'CobROperacaoInvalida', 'A retentativa não é permitida.');
  cobr.tentativas.push(newAttempt(rc, 'NTAG', data));
  void notifyCobR(rc, cobr);
  return cobr;
}

function listCobRs(rc: RecurringContext, params: URLSearchParams): Response {
  const j = new Judge([]);
  const query = judgeListQuery(j, params);
  const idRec = params.get('idRec');
  if (idRec !== null && !ID29.test(idRec)) j.flag('idRec', 'idRec tem 29 letras ou dígitos.', idRec);
  const convenio = params.get('convenio');
  if (convenio !== null && convenio.length > 60) j.flag('convenio', 'convenio tem até 60 caracteres.');
  verdict(j, 'CobRConsultaInvalida');
  const [cpf, cnpj, status] = ['cpf', 'cnpj', 'status'].map((name) => params.get(name));
  const items = inRange(rc.state.cobrs.values(), query, (c) => c.criacao).filter((cobr) => {
    const rec = rc.state.recs.get(cobr.idRec);
    const devedor = (rec?.vinculo['devedor'] ?? {}) as Json;
    return (
      (idRec === null || cobr.idRec === idRec) &&
      (status === null || cobr.status === status) &&
      (cpf === null || devedor['cpf'] === cpf) &&
      (cnpj === null || devedor['cnpj'] === cnpj) &&
      (convenio === null || rec?.convenio === convenio)
    );
  });
  items.sort((a, b) => a.seq - b.seq);
  return json(
    200,
    withConvenio(
      page(items, query, 'cobsr', (c) => renderCobR(rc, c, true), ['idRec', 'cpf', 'cnpj', 'status']),
      convenio,
    ),
  );
}

/** `convenio` is echoed as `parametros.recebedor.convenio` (recurring spec 2.8). */
export function withConvenio(answer: Json, convenio: string | null): Json {
  if (convenio !== null) (answer['parametros'] as Json)['recebedor'] = { convenio };
  return answer;
}

// ---------------------------------------------------------------------------------------------
// The payer's side

/** Settles the pending attempt of `txid` as the payer's provider would; see the module header. */
export function settleCobR(rc: RecurringContext, txid: string, outcome: 'PAGA' | 'REJEITADA', codigo?: string): CobR {
  const cobr = cobrOr404(rc, txid);
  const code = codigo ?? DEFAULT_REJECTION;
  if (outcome === 'REJEITADA' && !REJECTION_CODES.includes(code)) {
    throw new Problem('RequisicaoInvalida', `codigo ${code} não está na lista de rejeições (A.3).`, [
      { propriedade: 'codigo', razao: 'Código fora da lista.', valor: code },
    ]);
  }
  activate(rc, cobr);
  const attempt = pendingOf(cobr);
  if (cobr.status !== 'ATIVA' || attempt === undefined) {
    throw new Problem(
      'CobROperacaoInvalida',
      `A cobrança está ${cobr.status} sem tentativa pendente: nada a liquidar.`,
      [{ propriedade: 'cobr.tentativas', razao: 'Nenhuma tentativa SOLICITADA ou AGENDADA.' }],
    );
  }
  if (outcome === 'PAGA') {
    move(rc, attempt, 'PAGA');
    cobr.instant.push({
      endToEndId: attempt.endToEndId,
      txid,
      valor: (cobr.content['valor'] as Json)['original'],
      horario: now(rc),
    });
    move(rc, cobr, 'CONCLUIDA');
    return cobr;
  }
  const descricao = `Tentativa rejeitada (${code}).`;
  attempt.rejeicao = { codigo: code, descricao };
  move(rc, attempt, 'REJEITADA');
  if (CHARGE_REJECTING_CODES.includes(code)) {
    cobr.encerramento = { rejeicao: { codigo: code, descricao } };
    move(rc, cobr, 'REJEITADA');
  } else {
    expireIfLost(rc, cobr);
  }
  return cobr;
}
