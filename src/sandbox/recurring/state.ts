/**
 * What the sandbox keeps of the recurring part (recurring spec sections 2 and 3): recurrences,
 * confirmation requests, recurring charges with their settlement attempts, recurrence locations
 * and the two webhook registrations, plus the identifiers of appendix A.2. The part has its own
 * seeded stream of ids, so that a seed gives the charges' ids it gave before this part existed.
 */
import { todayInBrasilia } from '../../lib/dates.ts';
import { ISPB } from '../payments.ts';
import type { Random } from '../random.ts';
import type { Json } from '../rules.ts';
import type { Context } from '../state.ts';

export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type SolicRecStatus = 'CRIADA' | 'ENVIADA' | 'RECEBIDA' | 'REJEITADA' | 'ACEITA' | 'EXPIRADA' | 'CANCELADA';
export type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
export type AttemptStatus = 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';
export type Journey = 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4';
export type RetryPolicy = 'NAO_PERMITE' | 'PERMITE_3R_7D';

/** One entry of an `atualizacao` history. */
export interface StatusChange<S extends string> {
  status: S;
  data: string;
}

/** An account of the receiving user: a recurring charge's `recebedor` must name one. */
export interface OwnAccount {
  conta: string;
  agencia?: string;
  tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
}

export interface Rec {
  idRec: string;
  seq: number;
  criacao: string;
  /** Creation day in Brasília (`YYYY-MM-DD`). */
  createdDay: string;
  vinculo: Json;
  calendario: Json;
  valor: Json | undefined;
  politicaRetentativa: RetryPolicy;
  convenio: string | undefined;
  locId: number | undefined;
  status: RecStatus;
  atualizacao: StatusChange<RecStatus>[];
  tipoJornada: Journey | 'AGUARDANDO_DEFINICAO';
  /** `ativacao.dadosJornada.txid`: the immediate charge of journey 3. */
  journeyTxid: string | undefined;
  encerramento: Json | undefined;
  pagador: Json | undefined;
  /** Due-date charges whose composite code (journey 4) was handed out with this recurrence. */
  composedWith: Set<string>;
}

export interface SolicRec {
  idSolicRec: string;
  idRec: string;
  seq: number;
  criacao: string;
  dataExpiracaoSolicitacao: string;
  destinatario: Json;
  status: SolicRecStatus;
  atualizacao: StatusChange<SolicRecStatus>[];
}

export interface Attempt {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG' | 'RIFL';
  status: AttemptStatus;
  endToEndId: string;
  atualizacao: StatusChange<AttemptStatus>[];
  rejeicao?: { codigo: string; descricao: string };
}

export interface CobR {
  txid: string;
  idRec: string;
  seq: number;
  criacao: string;
  createdDay: string;
  /** Request-shaped content: infoAdicional, calendario, valor, ajusteDiaUtil, recebedor, devedor. */
  content: Json;
  status: CobRStatus;
  atualizacao: StatusChange<CobRStatus>[];
  tentativas: Attempt[];
  encerramento: Json | undefined;
  /** The payments received for it (`instant[]`). */
  instant: Json[];
}

export interface LocRec {
  id: number;
  token: string;
  criacao: string;
  idRec: string | undefined;
}

export interface RecWebhook {
  webhookUrl: string;
  criacao: string;
}

export class RecurringState {
  readonly recs = new Map<string, Rec>();
  readonly solicrecs = new Map<string, SolicRec>();
  readonly cobrs = new Map<string, CobR>();
  readonly locations = new Map<number, LocRec>();
  readonly webhooks: { rec?: RecWebhook | undefined; cobr?: RecWebhook | undefined } = {};
  /** The `yyyyMMdd` + sequence parts already used, per kind of identifier (A.2: unique per date). */
  readonly #used = new Set<string>();
  #seq = 0;
  #locId = 0;

  seq(): number {
    return ++this.#seq;
  }

  nextLocId(): number {
    return ++this.#locId;
  }

  /** Claims `key` (a kind, a date and a sequence); false when it was taken. */
  claim(key: string): boolean {
    if (this.#used.has(key)) return false;
    this.#used.add(key);
    return true;
  }
}

/** What the recurring part's routes get: the sandbox's context, its own state and ids, the accounts. */
export interface RecurringContext {
  readonly base: Context;
  readonly state: RecurringState;
  readonly ids: Random;
  readonly ownAccounts: readonly OwnAccount[];
}

export function now(rc: RecurringContext): string {
  return rc.base.now().toISOString();
}

export function today(rc: RecurringContext): string {
  return todayInBrasilia(rc.base.now());
}

/** `prefix` + the sandbox's ISPB + today (`yyyyMMdd`) + 11 alphanumerics, unique within the day. */
function formed(rc: RecurringContext, kind: string, prefix: string): string {
  const day = today(rc).replaceAll('-', '');
  for (;;) {
    const sequence = rc.ids.alphanumeric(11);
    if (rc.state.claim(`${kind}${day}${sequence}`)) return `${prefix}${ISPB}${day}${sequence}`;
  }
}

/** idRec (A.2): `R`, then `R` when the policy allows retries or `N`, ISPB, creation date, 11 characters. */
export function newIdRec(rc: RecurringContext, policy: RetryPolicy): string {
  return formed(rc, 'rec', policy === 'PERMITE_3R_7D' ? 'RR' : 'RN');
}

/** idSolicRec (A.2): `SC`, ISPB of the sender, creation date, 11 characters. */
export function newIdSolicRec(rc: RecurringContext): string {
  return formed(rc, 'solicrec', 'SC');
}

/** Appends a status change to `item` (its status and history), unless it is already there. */
export function move<S extends string>(
  rc: RecurringContext,
  item: { status: S; atualizacao: StatusChange<S>[] },
  status: S,
): void {
  if (item.status === status && item.atualizacao.length > 0) return;
  item.status = status;
  item.atualizacao.push({ status, data: now(rc) });
}
