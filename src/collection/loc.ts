/**
 * Payload locations (tag PayloadLocation): the URLs QR codes carry. Create one for a future
 * charge, fetch, list, change it, and unlink it from its charge.
 */
import {
  PayloadLocationConsultaInvalida,
  PayloadLocationNaoEncontrado,
  PayloadLocationOperacaoInvalida,
} from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import type { RuleContext } from '../core/validation.ts';
import { checkFlag, checkLocationId, collectListQuery } from './rules/query.ts';

const TIPOS_COB: readonly unknown[] = ['cob', 'cobv'];
const READ_ERRORS = { 400: PayloadLocationConsultaInvalida, 404: PayloadLocationNaoEncontrado };
const WRITE_ERRORS = { 400: PayloadLocationOperacaoInvalida, 404: PayloadLocationNaoEncontrado };

/** Payload locations, `api.loc`: create, fetch, list, revise and unlink from their charge. */
export class PayloadLocation extends APIResource {
  /** `POST /loc`: a new location for a charge of type `tipoCob` (`cob` or `cobv`). Never retried. */
  create(body: PayloadLocationSolicitada, options?: RequestOptions): APIPromise<PayloadLocationGerada> {
    return this.send<PayloadLocationGerada>({
      method: 'POST',
      retry: 'never',
      path: () => path`/loc`,
      body,
      errors: { 400: PayloadLocationOperacaoInvalida },
      options,
      rule: (ctx) => checkTipoCob(body, true, ctx),
    });
  }

  /** `GET /loc/{id}`: the location, with the `txid` of the charge linked to it, if any. */
  get(id: LocationId, options?: RequestOptions): APIPromise<PayloadLocationCompleta> {
    return this.send<PayloadLocationCompleta>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/loc/${id}`,
      errors: READ_ERRORS,
      options,
      rule: (ctx) => void checkLocationId(id, ctx),
    });
  }

  /**
   * `GET /loc`: `await` gives the first page (`items`, also under the wire name `loc`);
   * `for await` walks every location across pages.
   */
  list(
    query: PayloadLocationListQuery,
    options?: RequestOptions,
  ): PagePromise<PayloadLocationCompleta, ParametrosConsultaLoc> {
    return this.getList(path`/loc`, 'loc', {
      query,
      errors: { 400: PayloadLocationConsultaInvalida },
      options,
      rule: (ctx) => {
        collectListQuery(query, ctx);
        checkFlag(query?.txIdPresente, 'txIdPresente', ctx);
        checkTipoCob(query, false, ctx);
      },
    });
  }

  /** `PATCH /loc/{id}`: changes the location (its `tipoCob`, while no charge is linked). */
  update(id: LocationId, body: PayloadLocationRevisada, options?: RequestOptions): APIPromise<PayloadLocationCompleta> {
    return this.send<PayloadLocationCompleta>({
      method: 'PATCH',
      retry: 'never',
      path: () => path`/loc/${id}`,
      body,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx) => {
        // A bad id alone is refused: the body is judged only for a location that can exist.
        if (checkLocationId(id, ctx)) checkTipoCob(body, false, ctx);
      },
    });
  }

  /**
   * `DELETE /loc/{id}/txid`: unlinks the charge from the location and returns the location.
   * The charge keeps its status and loses its location. Safe to retry.
   */
  unlink(id: LocationId, options?: RequestOptions): APIPromise<PayloadLocationGerada> {
    return this.send<PayloadLocationGerada>({
      method: 'DELETE',
      retry: 'replay',
      path: () => path`/loc/${id}/txid`,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx) => void checkLocationId(id, ctx),
    });
  }
}

function checkTipoCob(body: unknown, required: boolean, ctx: RuleContext): void {
  const tipoCob = (body as { tipoCob?: unknown } | null | undefined)?.tipoCob;
  if (tipoCob === undefined && !required) return;
  if (!TIPOS_COB.includes(tipoCob)) ctx.add('tipoCob', 'tipoCob must be cob or cobv', tipoCob);
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
