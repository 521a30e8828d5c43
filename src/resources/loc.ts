/**
 * Payload locations (tag PayloadLocation): the URLs QR codes carry. Create one for a future
 * charge, fetch, list, change it, and unlink it from its charge.
 */
import {
  PayloadLocationConsultaInvalida,
  PayloadLocationNaoEncontrado,
  PayloadLocationOperacaoInvalida,
  type ApiErrorClass,
  type Violacao,
} from '../core/errors.ts';
import type { RequestOptions } from '../core/http.ts';
import type { PagePromise, PageParametros, Paginacao } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import { collectListQuery, listPages, ruleContext } from './charge-rules.ts';
import type { PaginacaoQuery } from './cob.ts';

const TIPOS_COB: readonly unknown[] = ['cob', 'cobv'];
// The id is an int64 on the wire and a string in the path: 1 to 19 digits.
const LOCATION_ID = /^\d{1,19}$/;
const READ_FALLBACK = { 400: PayloadLocationConsultaInvalida, 404: PayloadLocationNaoEncontrado };
const WRITE_FALLBACK = { 400: PayloadLocationOperacaoInvalida, 404: PayloadLocationNaoEncontrado };

/** Payload locations, `api.loc`: create, fetch, list, revise and unlink from their charge. */
export class PayloadLocation extends APIResource {
  /** `POST /loc`: a new location for a charge of type `tipoCob` (`cob` or `cobv`). Never retried. */
  async create(body: PayloadLocationSolicitada, options?: RequestOptions): Promise<PayloadLocationGerada> {
    if (this.#validate(options)) refuse(PayloadLocationOperacaoInvalida, checkTipoCob(body, true));
    return this.client.http.json<PayloadLocationGerada>({
      method: 'POST',
      path: path`/loc`,
      body,
      fallback: { 400: PayloadLocationOperacaoInvalida },
      options,
    });
  }

  /** `GET /loc/{id}`: the location, with the `txid` of the charge linked to it, if any. */
  async get(id: LocationId, options?: RequestOptions): Promise<PayloadLocationCompleta> {
    if (this.#validate(options)) refuseId(id, PayloadLocationConsultaInvalida);
    return this.client.http.json<PayloadLocationCompleta>({ method: 'GET', path: path`/loc/${id}`, fallback: READ_FALLBACK, options });
  }

  /**
   * `GET /loc`: `await` gives the first page (`items`, also under the wire name `loc`);
   * `for await` walks every location across pages.
   */
  list(query: PayloadLocationListQuery, options?: RequestOptions): PagePromise<PayloadLocationCompleta, ParametrosConsultaLoc> {
    const validate = this.#validate(options);
    return listPages({
      http: this.client.http,
      path: path`/loc`,
      query,
      listKey: 'loc',
      fallback: { 400: PayloadLocationConsultaInvalida },
      options,
      check: validate ? () => refuse(PayloadLocationConsultaInvalida, checkLocListQuery(query)) : undefined,
    });
  }

  /** `PATCH /loc/{id}`: changes the location (its `tipoCob`, while no charge is linked). */
  async update(id: LocationId, body: PayloadLocationRevisada, options?: RequestOptions): Promise<PayloadLocationCompleta> {
    if (this.#validate(options)) {
      refuseId(id, PayloadLocationOperacaoInvalida);
      refuse(PayloadLocationOperacaoInvalida, checkTipoCob(body, false));
    }
    return this.client.http.json<PayloadLocationCompleta>({
      method: 'PATCH',
      path: path`/loc/${id}`,
      body,
      fallback: WRITE_FALLBACK,
      options,
    });
  }

  /**
   * `DELETE /loc/{id}/txid`: unlinks the charge from the location and returns the location.
   * The charge keeps its status and loses its location. Safe to retry.
   */
  async unlink(id: LocationId, options?: RequestOptions): Promise<PayloadLocationGerada> {
    if (this.#validate(options)) refuseId(id, PayloadLocationOperacaoInvalida);
    return this.client.http.json<PayloadLocationGerada>({ method: 'DELETE', path: path`/loc/${id}/txid`, fallback: WRITE_FALLBACK, options });
  }

  #validate(options: RequestOptions | undefined): boolean {
    return shouldValidate(this.client.validate, options?.validate);
  }
}

function refuseId(id: unknown, ErrorClass: ApiErrorClass<string>): void {
  const valid = typeof id === 'number' ? Number.isSafeInteger(id) && id >= 0 : typeof id === 'string' && LOCATION_ID.test(id);
  if (!valid) refuse(ErrorClass, [violation('id', 'a location id is a non-negative integer', id)]);
}

function checkTipoCob(body: unknown, required: boolean): Violacao[] {
  const tipoCob = (body as { tipoCob?: unknown } | null | undefined)?.tipoCob;
  if (tipoCob === undefined && !required) return [];
  return TIPOS_COB.includes(tipoCob) ? [] : [violation('tipoCob', 'tipoCob must be cob or cobv', tipoCob)];
}

function checkLocListQuery(query: PayloadLocationListQuery): Violacao[] {
  const ctx = ruleContext(undefined);
  collectListQuery(query, ctx);
  const { txIdPresente, tipoCob } = (query ?? {}) as Partial<PayloadLocationListQuery>;
  if (txIdPresente !== undefined && typeof txIdPresente !== 'boolean') ctx.out.push(violation('txIdPresente', 'must be a boolean', txIdPresente));
  if (tipoCob !== undefined && !TIPOS_COB.includes(tipoCob)) ctx.out.push(violation('tipoCob', 'tipoCob must be cob or cobv', tipoCob));
  return ctx.out;
}

/** A location id: an integer (int64 on the wire; a decimal string is accepted as well). */
export type LocationId = number | string;

/** Type of charge a location serves. New values may appear. */
export type TipoCob = 'cob' | 'cobv' | (string & {});

/** Body of `POST /loc`. */
export interface PayloadLocationSolicitada {
  tipoCob: 'cob' | 'cobv';
}

/** Body of `PATCH /loc/{id}`. */
export interface PayloadLocationRevisada {
  tipoCob?: 'cob' | 'cobv';
}

/** A location as created (`POST /loc`) or unlinked (`DELETE /loc/{id}/txid`). */
export interface PayloadLocationGerada {
  id: number;
  /** Without scheme (`instant.example.com/qr/v2/…`); at most 77 characters. */
  location: string;
  tipoCob: TipoCob;
  /** RFC 3339 date-time. */
  criacao: string;
  [key: string]: unknown;
}

/** A location as fetched or listed: with the txid of the charge linked to it, if any. */
export interface PayloadLocationCompleta extends PayloadLocationGerada {
  txid?: string;
}

/** Query of `GET /loc`. */
export interface PayloadLocationListQuery {
  /** RFC 3339 date-time: created at or after. */
  inicio: string;
  /** RFC 3339 date-time: created at or before; not earlier than `inicio`. */
  fim: string;
  /** Only locations with (true) or without (false) a linked charge. */
  txIdPresente?: boolean;
  tipoCob?: 'cob' | 'cobv';
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a location list page. */
export interface ParametrosConsultaLoc extends PageParametros {
  inicio: string;
  fim: string;
  txIdPresente?: boolean;
  tipoCob?: TipoCob;
  paginacao: Paginacao;
}
