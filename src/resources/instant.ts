/**
 * Received payments (tag Instant): fetch one by its end-to-end id, list them, refund them.
 *
 * The service names the list array of `GET /instant` (and of the webhook notification) after
 * the payment scheme. The SDK does not spell that name: it takes the one array-valued property
 * of the answer other than `parametros` (`listKeyOf`), and gives the items as `items`.
 *
 * Client-side refusals: a malformed e2eid or refund id in a read (`get`, `getRefund`, `list`)
 * is `InstantConsultaInvalida`; anything wrong in a refund request (`refund`), the path ids
 * included, is `InstantDevolucaoInvalida`. Both with `sentRequest: false`.
 */
import {
  InstantConsultaInvalida,
  InstantDevolucaoInvalida,
  InstantDevolucaoNaoEncontrada,
  InstantNaoEncontrado,
  isRecord,
  type Violacao,
} from '../core/errors.ts';
import type { RequestOptions } from '../core/http.ts';
import { PagePromise, toPage, type PageLoader, type PageParametros, type Paginacao } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import { isValidE2eid, isValidRefundId } from '../lib/ids.ts';
import { isValidAmount } from '../lib/money.ts';
import { collectListQuery, listQueryParams, ruleContext } from './charge-rules.ts';
import type { PaginacaoQuery } from './cob.ts';

const NATUREZAS_SOLICITADAS: readonly unknown[] = ['ORIGINAL', 'RETIRADA'];
const SHORT_TXID = /^[a-zA-Z0-9]{1,35}$/;
const READ_FALLBACK = { 400: InstantConsultaInvalida, 404: InstantNaoEncontrado };

/** Received payments and their refunds, `api.instant`. */
export class Instant extends APIResource {
  /** `GET /instant/{e2eid}`: a received payment, with its refunds. */
  async get(e2eid: string, options?: RequestOptions): Promise<InstantPayment> {
    if (this.#validate(options)) refuse(InstantConsultaInvalida, checkE2eid(e2eid));
    return normalizePayment(
      await this.client.http.json<InstantPayment>({ method: 'GET', path: path`/instant/${e2eid}`, fallback: READ_FALLBACK, options }),
    );
  }

  /**
   * `GET /instant`: `await` gives the first page (`items`; the wire array stays there too
   * under its own name); `for await` walks every payment across pages.
   */
  list(query: InstantListQuery, options?: RequestOptions): PagePromise<InstantPayment, ParametrosConsultaInstant> {
    const validate = this.#validate(options);
    const load: PageLoader<InstantPayment, ParametrosConsultaInstant> = async (page) => {
      if (page === undefined && validate) refuse(InstantConsultaInvalida, checkInstantListQuery(query));
      const body = await this.client.http.json<unknown>({
        method: 'GET',
        path: path`/instant`,
        query: listQueryParams(query, page),
        fallback: { 400: InstantConsultaInvalida },
        options,
      });
      const listKey = listKeyOf(body);
      if (listKey !== undefined && isRecord(body)) (body[listKey] as unknown[]).forEach(normalizePayment);
      return toPage<InstantPayment, ParametrosConsultaInstant>(body, listKey ?? 'items', load);
    };
    return new PagePromise(load);
  }

  /**
   * `PUT /instant/{e2eid}/devolucao/{id}`: asks for a refund of `valor` (at most what is left
   * of the payment). `id` is yours (1 to 35 letters or digits) and makes the call idempotent:
   * it is retried safely, and reusing an id for another refund is refused by the service.
   */
  async refund(e2eid: string, id: string, body: DevolucaoSolicitada, options?: RequestOptions): Promise<Devolucao> {
    if (this.#validate(options)) {
      refuse(InstantDevolucaoInvalida, [...checkE2eid(e2eid), ...checkRefundId(id), ...checkRefundBody(body)]);
    }
    return this.client.http.json<Devolucao>({
      method: 'PUT',
      path: path`/instant/${e2eid}/devolucao/${id}`,
      body,
      fallback: { 400: InstantDevolucaoInvalida, 404: InstantNaoEncontrado },
      options,
    });
  }

  /** `GET /instant/{e2eid}/devolucao/{id}`: a refund and its status. */
  async getRefund(e2eid: string, id: string, options?: RequestOptions): Promise<Devolucao> {
    if (this.#validate(options)) refuse(InstantConsultaInvalida, [...checkE2eid(e2eid), ...checkRefundId(id)]);
    return this.client.http.json<Devolucao>({
      method: 'GET',
      path: path`/instant/${e2eid}/devolucao/${id}`,
      fallback: { 400: InstantConsultaInvalida, 404: InstantDevolucaoNaoEncontrada },
      options,
    });
  }

  #validate(options: RequestOptions | undefined): boolean {
    return shouldValidate(this.client.validate, options?.validate);
  }
}

/**
 * The name of a list answer's array: its one array-valued property other than `parametros`
 * (`undefined` when there is none, or more than one). Used for `GET /instant` and for the
 * received-payment notification, whose array is named after the payment scheme.
 */
export function listKeyOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const keys = Object.keys(body).filter((key) => key !== 'parametros' && Array.isArray(body[key]));
  return keys.length === 1 ? keys[0] : undefined;
}

/** Lenient reading of a payment: `devolucoes` given as one object becomes a one-item array. */
export function normalizePayment<T>(payment: T): T {
  const fields: unknown = payment;
  if (isRecord(fields) && isRecord(fields['devolucoes'])) fields['devolucoes'] = [fields['devolucoes']];
  return payment;
}

function checkE2eid(e2eid: unknown): Violacao[] {
  return isValidE2eid(e2eid as string) ? [] : [violation('e2eid', 'e2eid must be 32 letters or digits', e2eid)];
}

function checkRefundId(id: unknown): Violacao[] {
  return isValidRefundId(id as string) ? [] : [violation('id', 'a refund id is 1 to 35 letters or digits', id)];
}

function checkRefundBody(body: unknown): Violacao[] {
  if (!isRecord(body)) return [violation('valor', 'the refund body must be an object with valor')];
  const out: Violacao[] = [];
  const { valor, natureza, descricao } = body;
  if (!isValidAmount(valor as string)) out.push(violation('valor', 'valor must match ^\\d{1,10}\\.\\d{2}$', valor));
  else if (/^0+\.00$/.test(valor as string)) out.push(violation('valor', 'valor must be greater than zero', valor));
  if (natureza !== undefined && !NATUREZAS_SOLICITADAS.includes(natureza)) {
    out.push(violation('natureza', 'natureza must be ORIGINAL or RETIRADA', natureza));
  }
  if (descricao !== undefined && !(typeof descricao === 'string' && descricao.length <= 140)) {
    out.push(violation('descricao', 'descricao must be a string of at most 140 characters'));
  }
  return out;
}

function checkInstantListQuery(query: InstantListQuery): Violacao[] {
  const ctx = ruleContext(undefined);
  collectListQuery(query, ctx);
  const { txid, txIdPresente, devolucaoPresente } = (query ?? {}) as Partial<InstantListQuery>;
  if (txid !== undefined && !(typeof txid === 'string' && SHORT_TXID.test(txid))) ctx.out.push(violation('txid', 'txid must be 1 to 35 letters or digits', txid));
  for (const [name, value] of [['txIdPresente', txIdPresente], ['devolucaoPresente', devolucaoPresente]] as const) {
    if (value !== undefined && typeof value !== 'boolean') ctx.out.push(violation(name, 'must be a boolean', value));
  }
  return ctx.out;
}

// ---------------------------------------------------------------------------------------------
// Types

/** Status of a refund. New values may appear. */
export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO' | (string & {});

/** Nature of a refund (absent means ORIGINAL). New values may appear. */
export type DevolucaoNatureza =
  | 'ORIGINAL'
  | 'RETIRADA'
  | 'MED_OPERACIONAL'
  | 'MED_FRAUDE'
  | (string & {});

/** Body of `PUT /instant/{e2eid}/devolucao/{id}`. */
export interface DevolucaoSolicitada {
  /** Money, greater than zero: `"10.00"`. */
  valor: string;
  /** ORIGINAL (default): a refund of the purchase; RETIRADA: of a withdrawal or change amount. */
  natureza?: 'ORIGINAL' | 'RETIRADA';
  /** At most 140 characters, shown to the payer. */
  descricao?: string;
}

/** A refund. */
export interface Devolucao {
  /** The refund id you chose (1 to 35 letters or digits). */
  id: string;
  /** Return id given by the settlement system: 32 letters or digits. */
  rtrId: string;
  /** Money: a decimal string. */
  valor: string;
  natureza?: DevolucaoNatureza;
  descricao?: string;
  horario: { solicitacao?: string; liquidacao?: string; [key: string]: unknown };
  status: DevolucaoStatus;
  /** Why the status is what it is (at most 140 characters). */
  motivo?: string;
  [key: string]: unknown;
}

/** One part of a payment's amount (`componentesValor.original`, `.juros`...). */
export interface ComponenteValor {
  /** Money: a decimal string. */
  valor: string;
  modalidadeAgente?: string;
  /** ISPB (some answers spell it `prestadorDeServicoDeSaque`: both pass through). */
  prestadorDoServicoDeSaque?: string;
  [key: string]: unknown;
}

/** A received payment. Fields beyond these pass through. */
export interface InstantPayment {
  /** End-to-end id: 32 letters or digits. */
  endToEndId: string;
  /** The charge's txid (1 to 35; absent for payments of static codes without one). */
  txid?: string;
  /** Money: a decimal string, e.g. `"10.00"`. */
  valor: string;
  componentesValor?: {
    original?: ComponenteValor;
    saque?: ComponenteValor;
    troco?: ComponenteValor;
    juros?: ComponenteValor;
    multa?: ComponenteValor;
    desconto?: ComponenteValor;
    abatimento?: ComponenteValor;
    [key: string]: ComponenteValor | undefined;
  };
  /** The receiving key. */
  chave?: string;
  /** RFC 3339 date-time the service processed the payment. */
  horario: string;
  /** Payer's message (at most 140 characters). */
  infoPagador?: string;
  devolucoes?: Devolucao[];
  [key: string]: unknown;
}

/** Query of `GET /instant`. */
export interface InstantListQuery {
  /** RFC 3339 date-time. */
  inicio: string;
  /** RFC 3339 date-time, not earlier than `inicio`. */
  fim: string;
  /** 1 to 35 letters or digits. */
  txid?: string;
  txIdPresente?: boolean;
  devolucaoPresente?: boolean;
  /** Payer's CPF (11 digits); not together with `cnpj`. */
  cpf?: string;
  /** Payer's CNPJ (14 of `[0-9A-Z]`). */
  cnpj?: string;
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a received-payment list page. */
export interface ParametrosConsultaInstant extends PageParametros {
  inicio: string;
  fim: string;
  txid?: string;
  txIdPresente?: boolean;
  devolucaoPresente?: boolean;
  cpf?: string;
  cnpj?: string;
  paginacao: Paginacao;
}
