/**
 * What immediate (cob) and due-date (cobv) charges share: a charge addressed by its txid, which
 * is written (PUT or PATCH), fetched at a revision, removed and listed the same way. Each kind
 * says where it lives, which classes its endpoints answer with and which body rule it follows.
 */
import { isRecord } from '../internal/json.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao } from '../core/pagination.ts';
import type { RoutePath } from '../core/path.ts';
import { APIResource, type EndpointErrors } from '../core/resource.ts';
import type { RuleContext } from '../core/validation.ts';
import { REMOVAL_STATUS, type ChargeMode } from './rules/fields.ts';
import { checkRevisao, checkTxid, collectListQuery } from './rules/query.ts';
import { chargeRequest, normalizeCharge } from './normalize.ts';

/** One kind of charge, as its resource describes it. */
export interface ChargeKind {
  /** The root of its violation names (`cob.valor.original`). */
  readonly name: 'cob' | 'cobv';
  /** `/cob` or `/cobv`, and the path of one charge under it. */
  readonly list: RoutePath;
  readonly at: (txid: string) => RoutePath;
  readonly writeErrors: EndpointErrors;
  readonly readErrors: EndpointErrors;
  /** The body rule (`checkCob`, `checkCobV`). */
  readonly check: (body: unknown, root: string, ctx: RuleContext, mode: ChargeMode) => void;
  /** Rules of the list query beyond the ones every list shares. */
  readonly checkQuery?: (query: Record<string, unknown>, ctx: RuleContext) => void;
}

export abstract class ChargeResource<Gerada, Completa, Revisada, ListQuery extends object> extends APIResource {
  /** @internal */
  protected abstract readonly kind: ChargeKind;

  /**
   * `PATCH /{cob|cobv}/{txid}`: revises an ATIVA charge (`revisao` + 1, except for a change of
   * `loc` alone). To remove it, use `remove`: `status` cannot be combined with other changes.
   */
  update(txid: string, patch: Revisada, options?: RequestOptions): APIPromise<Gerada> {
    return this.write('PATCH', txid, patch, options);
  }

  /** `PATCH /{cob|cobv}/{txid}` with only `status: REMOVIDA_PELO_USUARIO_RECEBEDOR`. */
  remove(txid: string, options?: RequestOptions): APIPromise<Gerada> {
    return this.write('PATCH', txid, { status: REMOVAL_STATUS }, options);
  }

  /** `GET /{cob|cobv}/{txid}`, optionally at an earlier `revisao`. */
  get(txid: string, query: { revisao?: number } = {}, options?: RequestOptions): APIPromise<Completa> {
    return this.send<Completa>({
      method: 'GET',
      retry: 'replay',
      path: () => this.kind.at(txid),
      query: { revisao: query?.revisao },
      errors: this.kind.readErrors,
      options,
      rule: (ctx) => {
        checkTxid(txid, ctx);
        checkRevisao(query?.revisao, ctx);
      },
      normalize: normalizeCharge,
    });
  }

  /**
   * `GET /{cob|cobv}` (the answer's array is `cobs` for both): `await` gives the first page
   * (`items`, `parametros`); `for await` walks every charge across pages.
   */
  list(query: ListQuery, options?: RequestOptions): PagePromise<Completa, ParametrosConsultaCob> {
    const { checkQuery } = this.kind;
    return this.getList(this.kind.list, 'cobs', {
      query,
      errors: { 400: this.kind.readErrors[400] },
      options,
      rule: (ctx) => {
        collectListQuery(query, ctx);
        if (checkQuery && isRecord(query)) checkQuery(query, ctx);
      },
      normalize: normalizeCharge,
    });
  }

  /** `PUT` (create or alter: the body is judged as a whole charge) or `PATCH` (a revision) of one charge. */
  protected write(
    method: 'PUT' | 'PATCH',
    txid: string,
    given: unknown,
    options: RequestOptions | undefined,
  ): APIPromise<Gerada> {
    const { name, check } = this.kind;
    const body = chargeRequest(given);
    const at = () => this.kind.at(txid);
    return this.send<Gerada>({
      method,
      path: at,
      // A PUT creates: sent again after its first attempt landed, the service would answer "txid in use".
      retry: method === 'PUT' ? this.lookFirst(at, this.kind.readErrors, body) : 'never',
      body,
      errors: this.kind.writeErrors,
      options,
      rule: (ctx) => {
        checkTxid(txid, ctx);
        check(body, name, ctx, method === 'PUT' ? 'create' : 'revise');
      },
      normalize: normalizeCharge,
    });
  }
}

/** `parametros` of a charge list page. */
export interface ParametrosConsultaCob extends PageParametros {
  inicio: string;
  fim: string;
  cpf?: string;
  cnpj?: string;
  locationPresente?: boolean;
  status?: string;
  paginacao: Paginacao;
}
