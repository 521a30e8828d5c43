/**
 * Received payments (tag Instant): fetch one by its end-to-end id, list them, refund them.
 *
 * The list array of `GET /instant` is named after the payment scheme (`INSTANT_LIST_KEY`); the
 * items are given as `items`, and stay under the wire name too.
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
} from '../errors/catalogue.ts';
import { isRecord } from '../internal/json.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import type { RuleContext } from '../core/validation.ts';
import { SCHEME_NAME, type DisputeNature } from '../lib/refunds.ts';
import { isValidE2eid, isValidRefundId } from '../lib/ids.ts';
import { amountRefusal, isValidAmount } from '../lib/money.ts';
import { checkFlag, collectListQuery } from './rules/query.ts';
import { normalizePayment } from './normalize.ts';
import type { ModalidadeAgente } from './cob.ts';

// The received-payment workflow reads these from here.
export { listKeyOf } from '../core/pagination.ts';
export { normalizePayment } from './normalize.ts';

/**
 * The list array of `GET /instant` and of a received-payment notification. The service names
 * it with the payment scheme's brand word, which the source spells once only, as the last label
 * of the BR Code GUI; the key is taken from there.
 */
export const INSTANT_LIST_KEY = SCHEME_NAME;

const NATUREZAS_SOLICITADAS: readonly unknown[] = ['ORIGINAL', 'RETIRADA'];
const SHORT_TXID = /^[a-zA-Z0-9]{1,35}$/;
const READ_ERRORS = { 400: InstantConsultaInvalida, 404: InstantNaoEncontrado };

/** Received payments and their refunds, `api.instant`. */
export class Instant extends APIResource {
  /** `GET /instant/{e2eid}`: a received payment, with its refunds. */
  get(e2eid: string, options?: RequestOptions): APIPromise<InstantPayment> {
    return this.send<InstantPayment>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/instant/${e2eid}`,
      errors: READ_ERRORS,
      options,
      rule: (ctx) => checkE2eid(e2eid, ctx),
      normalize: normalizePayment,
    });
  }

  /**
   * `GET /instant`: `await` gives the first page (`items`; the wire array stays there too
   * under its own name); `for await` walks every payment across pages.
   */
  list(query: InstantListQuery, options?: RequestOptions): PagePromise<InstantPayment, ParametrosConsultaInstant> {
    return this.getList(path`/instant`, INSTANT_LIST_KEY, {
      query,
      errors: { 400: InstantConsultaInvalida },
      options,
      rule: (ctx) => {
        collectListQuery(query, ctx);
        const { txid, txIdPresente, devolucaoPresente } = (query ?? {}) as Partial<InstantListQuery>;
        if (txid !== undefined && !(typeof txid === 'string' && SHORT_TXID.test(txid)))
          ctx.add('txid', 'txid must be 1 to 35 letters or digits', txid);
        checkFlag(txIdPresente, 'txIdPresente', ctx);
        checkFlag(devolucaoPresente, 'devolucaoPresente', ctx);
      },
      normalize: normalizePayment,
    });
  }

  /**
   * `PUT /instant/{e2eid}/devolucao/{id}`: asks for a refund of `valor` (at most what is left
   * of the payment). `id` is yours (1 to 35 letters or digits) and makes the call idempotent:
   * after a lost answer the refund under the id is read first, and is the answer when it is this
   * one; reusing an id for another refund is refused by the service.
   */
  refund(e2eid: string, id: string, body: DevolucaoSolicitada, options?: RequestOptions): APIPromise<Devolucao> {
    const at = () => path`/instant/${e2eid}/devolucao/${id}`;
    return this.send<Devolucao>({
      method: 'PUT',
      path: at,
      // The refund the service holds under the id, when it is this one, is the answer.
      retry: this.lookFirst(at, { 400: InstantConsultaInvalida, 404: InstantDevolucaoNaoEncontrada }, body),
      body,
      errors: { 400: InstantDevolucaoInvalida, 404: InstantNaoEncontrado },
      options,
      rule: (ctx) => {
        checkE2eid(e2eid, ctx);
        checkRefundId(id, ctx);
        checkRefundBody(body, ctx);
      },
    });
  }

  /** `GET /instant/{e2eid}/devolucao/{id}`: a refund and its status. */
  getRefund(e2eid: string, id: string, options?: RequestOptions): APIPromise<Devolucao> {
    return this.send<Devolucao>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/instant/${e2eid}/devolucao/${id}`,
      errors: { 400: InstantConsultaInvalida, 404: InstantDevolucaoNaoEncontrada },
      options,
      rule: (ctx) => {
        checkE2eid(e2eid, ctx);
        checkRefundId(id, ctx);
      },
    });
  }
}

function checkE2eid(e2eid: unknown, ctx: RuleContext): void {
  if (!isValidE2eid(e2eid)) ctx.add('e2eid', 'e2eid must be 32 letters or digits', e2eid);
}

function checkRefundId(id: unknown, ctx: RuleContext): void {
  if (!isValidRefundId(id)) ctx.add('id', 'a refund id is 1 to 35 letters or digits', id);
}

function checkRefundBody(body: unknown, ctx: RuleContext): void {
  if (!isRecord(body)) return ctx.add('valor', 'the refund body must be an object with valor');
  const { valor, natureza, descricao } = body;
  if (!isValidAmount(valor)) ctx.add('valor', amountRefusal('valor', valor), valor);
  else if (/^0+\.00$/.test(valor)) ctx.add('valor', 'valor must be greater than zero', valor);
  if (natureza !== undefined && !NATUREZAS_SOLICITADAS.includes(natureza)) {
    ctx.add('natureza', 'natureza must be ORIGINAL or RETIRADA', natureza);
  }
  if (descricao !== undefined && !(typeof descricao === 'string' && descricao.length <= 140)) {
    ctx.add('descricao', 'descricao must be a string of at most 140 characters');
  }
}

// ---------------------------------------------------------------------------------------------
// Types

/** Status of a refund. New values may appear. */
export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO' | (string & {});

/**
 * Nature of a refund (absent means ORIGINAL): `ORIGINAL` and `RETIRADA` are asked by the
 * receiving user; the `MED_*` natures (`DISPUTE_NATURES`) are returns the service makes on its
 * own (an operational failure, a fraud, an automatic recurring payment's dispute). New values may appear.
 */
export type DevolucaoNatureza = 'ORIGINAL' | 'RETIRADA' | DisputeNature | (string & {});

export { DISPUTE_NATURES, MED_AUTOMATIC, isDispute } from '../lib/refunds.ts';

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
  modalidadeAgente?: ModalidadeAgente;
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
