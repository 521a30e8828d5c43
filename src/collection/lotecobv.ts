/**
 * Batches of due-date charges (tag LoteCobV). A batch's set of charges is fixed when it is
 * created: `alter` (PUT) must list exactly the original txids and `update` (PATCH) a subset.
 * `alter` and `update(…, { checkBatch: true })` read the batch first and refuse, before
 * sending, a body that adds or drops charges.
 */
import { LoteCobVConsultaInvalida, LoteCobVNaoEncontrado, LoteCobVOperacaoInvalida } from '../errors/catalogue.ts';
import type { Violacao } from '../errors/base.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource, noData } from '../core/resource.ts';
import { systemNow } from '../internal/clock.ts';
import { refuse, ruleContext, shouldValidate, type Rule, type RuleContext } from '../core/validation.ts';
import { checkLoteCobV, judgeAgainstBatch } from './rules/lotecobv.ts';
import { collectListQuery } from './rules/query.ts';
import { batchRequest } from './normalize.ts';
import type { CobVRevisada, CobVSolicitada } from './cobv.ts';

const WRITE_ERRORS = { 400: LoteCobVOperacaoInvalida, 404: LoteCobVNaoEncontrado };
const READ_ERRORS = { 400: LoteCobVConsultaInvalida, 404: LoteCobVNaoEncontrado };

/** Options of `update`: `checkBatch` reads the batch first and refuses txids not in it. */
export interface LoteCobVUpdateOptions extends RequestOptions {
  checkBatch?: boolean;
}

/** Batches of due-date charges, `api.lotecobv`: create or alter, revise, fetch and list. */
export class LoteCobV extends APIResource {
  /**
   * `PUT /lotecobv/{id}`: creates the batch, or alters it with exactly its original charges
   * (answered 202: the charges are processed asynchronously; follow them with `get`). Due
   * dates are left to the service, which knows when each charge was created; `alter` reads the
   * batch first to judge them, and the set of charges, before sending.
   */
  put(id: string | number, given: LoteCobVSolicitado, options?: RequestOptions): APIPromise<void> {
    const body = batchRequest(given);
    return this.#write('PUT', id, body, options, (ctx) => checkLoteCobV(body, ctx, 'create', () => undefined));
  }

  /**
   * Alters an existing batch with `PUT /lotecobv/{id}` after reading it with `GET`: refuses
   * (`LoteCobVOperacaoInvalida`, nothing written) a body that adds or removes charges, or moves
   * a due date before its charge's creation date. The service requires an alteration to list
   * exactly the batch's original charges, and due dates no earlier than each charge's creation;
   * both can only be judged against the batch as it is, so it is read first. With
   * `validate: false` it is a plain `put`.
   */
  async alter(id: string | number, given: LoteCobVSolicitado, options?: RequestOptions): Promise<void> {
    const body = batchRequest(given);
    if (shouldValidate(this.client.validate, options?.validate)) {
      const ctx = ruleContext(undefined, this.client.now ?? systemNow);
      judgeAgainstBatch(await this.get(id, options), body, 'create', ctx);
      refuse(LoteCobVOperacaoInvalida, ctx.out);
    }
    await this.put(id, body, { ...options, validate: false });
  }

  /**
   * `PATCH /lotecobv/{id}`: revises some charges of the batch (202, no body). With
   * `checkBatch: true` the batch is read first and a txid that is not in it is refused.
   */
  update(id: string | number, given: LoteCobVRevisado, options?: LoteCobVUpdateOptions): APIPromise<void> {
    const body = batchRequest(given);
    return this.#write('PATCH', id, body, options, (ctx) =>
      options?.checkBatch
        ? this.get(id, options).then((lote) => judgeAgainstBatch(lote, body, 'revise', ctx))
        : checkLoteCobV(body, ctx, 'revise', () => undefined),
    );
  }

  /** `GET /lotecobv/{id}`: the batch with each charge request's status (`problema` when NEGADA). */
  get(id: string | number, options?: RequestOptions): APIPromise<LoteCobVConsultado> {
    return this.send<LoteCobVConsultado>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/lotecobv/${id}`,
      errors: READ_ERRORS,
      options,
      rule: (ctx) => void checkBatchId(id, ctx),
    });
  }

  /** `GET /lotecobv` (array `lotes`): `await` gives the first page, `for await` every batch. */
  list(query: LoteCobVListQuery, options?: RequestOptions): PagePromise<LoteCobVConsultado, ParametrosConsultaLote> {
    return this.getList(path`/lotecobv`, 'lotes', {
      query,
      errors: { 400: LoteCobVConsultaInvalida },
      options,
      rule: (ctx) => collectListQuery(query, ctx),
    });
  }

  #write(
    method: 'PUT' | 'PATCH',
    id: string | number,
    body: unknown,
    options: RequestOptions | undefined,
    rule: Rule,
  ): APIPromise<void> {
    return this.send<void, unknown>({
      method,
      path: () => path`/lotecobv/${id}`,
      // A PUT creates or alters: sent again after it landed, it alters the batch to what it already is.
      retry: method === 'PUT' ? 'replay' : 'never',
      body,
      errors: WRITE_ERRORS,
      options,
      // A bad id alone is refused: the body is judged (the batch read) only for one that can exist.
      rule: (ctx) => (checkBatchId(id, ctx) ? rule(ctx) : undefined),
      normalize: noData,
    });
  }
}

/** A batch id travels as text in the path (the service's own ids are integers): a missing one is refused. True when valid. */
function checkBatchId(id: unknown, ctx: RuleContext): boolean {
  const valid = (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isSafeInteger(id));
  if (!valid) ctx.add('id', 'a batch id is a non-empty string or an integer', id);
  return valid;
}

// ---------------------------------------------------------------------------------------------
// Types

/** One charge of a batch: a due-date charge and its txid. */
export type LoteCobVCobSolicitada = CobVSolicitada & { txid: string };

/** Body of `PUT /lotecobv/{id}`. */
export interface LoteCobVSolicitado {
  descricao: string;
  /** At least one charge; no txid twice. */
  cobsv: LoteCobVCobSolicitada[];
}

/** One charge revision in a batch PATCH. */
export type LoteCobVCobRevisada = CobVRevisada & { txid: string };

/** Body of `PATCH /lotecobv/{id}`: any subset of the batch's charges. */
export interface LoteCobVRevisado {
  descricao?: string;
  cobsv?: LoteCobVCobRevisada[];
}

/** Status of a charge request inside a batch. EM_PROCESSAMENTO and NEGADA are not (yet) charges. */
export type LoteCobVCobStatus = 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA' | (string & {});

/** An error body as the service sends it (RFC 7807), e.g. why a batch charge was NEGADA. */
export interface Problema {
  type: string;
  title: string;
  status: number;
  detail?: string;
  correlationId?: string;
  violacoes?: Violacao[];
  [key: string]: unknown;
}

/** One charge request of a fetched batch. */
export interface LoteCobVCob {
  txid: string;
  status: LoteCobVCobStatus;
  /** Filled when NEGADA, with the same rules as PUT/PATCH /cobv errors. */
  problema?: Problema;
  criacao?: string;
  [key: string]: unknown;
}

/** A batch as fetched. */
export interface LoteCobVConsultado {
  id: number;
  descricao: string;
  criacao: string;
  cobsv: LoteCobVCob[];
  [key: string]: unknown;
}

/** Query of `GET /lotecobv`. */
export interface LoteCobVListQuery {
  /** RFC 3339 date-time. */
  inicio: string;
  /** RFC 3339 date-time, not earlier than `inicio`. */
  fim: string;
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a batch list page. */
export interface ParametrosConsultaLote extends PageParametros {
  inicio: string;
  fim: string;
  paginacao: Paginacao;
}
