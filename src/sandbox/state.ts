/**
 * The sandbox's in-memory state and what every route needs: options, seeded ids, the public
 * origin (virtual for msw, loopback once listening), the clock, outgoing notifications and
 * timers that `close()` cancels. Routes change the state synchronously after reading the
 * request, so concurrent requests never interleave inside one change.
 */
import { isRecord } from '../internal/json.ts';
import { businessDayTest, type LocalHolidays } from '../lib/calendar.ts';
import { todayInBrasilia } from '../lib/dates.ts';
import type { Json } from './rules.ts';
import type { Random } from './random.ts';

export type ChargeKind = 'cob' | 'cobv';

export interface Revision {
  /** Request-shaped content: calendario, devedor, valor, chave, solicitacaoPagador, infoAdicionais. */
  content: Json;
  status: string;
}

export interface Charge {
  kind: ChargeKind;
  txid: string;
  criacao: string;
  /** Creation day in Brasília (`YYYY-MM-DD`). */
  createdDay: string;
  revisions: Revision[];
  locId: number | undefined;
  /** e2eids of the payments received for it. */
  payments: string[];
  /** The batch that created it, when one did. */
  batchId: string | undefined;
  /** Order of creation, for lists. */
  seq: number;
}

export interface Loc {
  id: number;
  tipoCob: ChargeKind;
  token: string;
  criacao: string;
  txid: string | undefined;
}

export type BatchItemStatus = 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA';

export interface BatchItem {
  txid: string;
  status: BatchItemStatus;
  problema: Json | undefined;
  criacao: string | undefined;
  /** The item as last requested (creation body, merged with later revisions while not created). */
  body: Json;
  /** Changes waiting for the asynchronous processing, in the order they were asked for. */
  pending: Array<{ body: Json; mode: 'create' | 'revise' }>;
}

export interface Batch {
  id: string;
  descricao: string;
  criacao: string;
  items: Map<string, BatchItem>;
  seq: number;
}

export interface Refund {
  id: string;
  rtrId: string;
  valor: string;
  natureza: string;
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
}

export interface Payment {
  endToEndId: string;
  txid: string | undefined;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  devolucoes: Refund[];
  seq: number;
}

/** A received payment as `/instant` and the notifications show it. */
export interface ReceivedPayment {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  devolucoes?: Refund[];
}

/** Only the spec's fields leave the sandbox (not the internal `seq`). */
export function renderPayment(payment: Payment): ReceivedPayment {
  const out: ReceivedPayment = {
    endToEndId: payment.endToEndId,
    valor: payment.valor,
    chave: payment.chave,
    horario: payment.horario,
  };
  if (payment.txid !== undefined) out.txid = payment.txid;
  if (payment.infoPagador !== undefined) out.infoPagador = payment.infoPagador;
  if (payment.devolucoes.length > 0) out.devolucoes = payment.devolucoes.map((d) => structuredClone(d));
  return out;
}

export interface WebhookRegistration {
  chave: string;
  webhookUrl: string;
  criacao: string;
  seq: number;
}

export interface Transfer {
  id: number;
  idempotencyKey: string;
  /** The order as sent, canonical JSON: a second order under the same key must match it. */
  fingerprint: string;
  request: Json;
  amountCents: number;
  status: 'PROCESSING' | 'LIQUIDATED' | 'CANCELED';
  errorCode: string | undefined;
  endToEndId: string;
  createdAt: string;
}

export type Audience = 'api' | 'cash-out';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export class SandboxState {
  readonly cobs = new Map<string, Charge>();
  readonly cobvs = new Map<string, Charge>();
  readonly locations = new Map<number, Loc>();
  readonly batches = new Map<string, Batch>();
  readonly payments = new Map<string, Payment>();
  readonly webhooks = new Map<string, WebhookRegistration>();
  readonly transfers = new Map<string, Transfer>();
  /** Issued tokens; `scopes` undefined: every scope (a token asked without `scope`). */
  readonly tokens = new Map<string, { audience: Audience; expiresAt: number; scopes?: ReadonlySet<string> }>();
  balanceCents = 0;
  #seq = 0;
  #locId = 0;
  #transferId = 0;

  seq(): number {
    return ++this.#seq;
  }

  nextLocId(): number {
    return ++this.#locId;
  }

  nextTransferId(): number {
    return ++this.#transferId;
  }

  charges(kind: ChargeKind): Map<string, Charge> {
    return kind === 'cob' ? this.cobs : this.cobvs;
  }

  /** The batch item for `txid` that stands for no charge yet (EM_PROCESSAMENTO or NEGADA). */
  unrealizedBatchItem(txid: string): BatchItem | undefined {
    for (const batch of this.batches.values()) {
      const item = batch.items.get(txid);
      if (item && item.status !== 'CRIADA') return item;
    }
    return undefined;
  }
}

/** What routes get besides the state. */
export interface Context {
  readonly state: SandboxState;
  readonly ids: Random;
  readonly ownKeys: readonly string[];
  readonly recebedor: Json;
  /** The origin clients reach the sandbox at (`http://127.0.0.1:PORT` or the virtual one). */
  origin(): string;
  now(): Date;
  /** Runs `task` after `ms` unless the sandbox is closed first. */
  later(ms: number, task: () => void | Promise<void>): void;
  /**
   * POSTs a JSON notification (webhook, transfer confirmation, any other); never throws. Resolves
   * with the first attempt's status (`undefined`: no answer); redelivery and the log follow.
   */
  notify(url: string, body: unknown): Promise<number | undefined>;
  readonly batchDelayMs: number;
  readonly refundDelayMs: number;
  /** The payers' local holidays (`createSandbox({ localHolidays })`), on top of the national calendar. */
  readonly localHolidays?: LocalHolidays | undefined;
  /** A webhook URL may be plain http on any host (`allowHttpWebhooks`). */
  readonly allowHttpWebhooks: boolean;
}

export function today(ctx: Context): string {
  return todayInBrasilia(ctx.now());
}

/** The business days of a payer (of municipality `codMun`, when known): the shared calendar plus the sandbox's local holidays. */
export function businessDays(ctx: Context, codMun?: string): (date: string) => boolean {
  return businessDayTest({ localHolidays: ctx.localHolidays, codMun });
}

/** Canonical JSON (object keys sorted): equal content, equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
