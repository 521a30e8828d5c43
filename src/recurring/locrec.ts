/**
 * Recurrence locations (tag PayloadLocationRec): the URLs a recurrence's QR code carries. Create
 * one (no body: a recurrence location has no type), fetch, list, and unlink its recurrence.
 */
import {
  PayloadLocationRecConsultaInvalida,
  PayloadLocationRecNaoEncontrado,
  RequisicaoInvalida,
} from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import { checkFlag, checkLocationId } from '../collection/rules/query.ts';
import type { LocationId } from '../collection/loc.ts';
import { collectRecurringListQuery, refusedAsNotFound } from './rules/fields.ts';

const READ_ERRORS = { 400: PayloadLocationRecConsultaInvalida, 404: PayloadLocationRecNaoEncontrado };
// POST /locrec and DELETE /locrec/{id}/idRec declare no 400 and the catalogue has no type for them.
const WRITE_ERRORS = { 400: RequisicaoInvalida, 404: PayloadLocationRecNaoEncontrado };

/** Recurrence locations, `api.locrec`: create, fetch, list and unlink from their recurrence. */
export class PayloadLocationRec extends APIResource {
  /**
   * `POST /locrec`: a new location for a recurrence (give its `id` as `loc` to `api.rec.create`).
   * Never retried: a retry could create a second location.
   */
  create(options?: RequestOptions): APIPromise<PayloadLocationRecGerada> {
    return this.send<PayloadLocationRecGerada>({
      method: 'POST',
      retry: 'never',
      path: () => path`/locrec`,
      errors: { 400: RequisicaoInvalida },
      options,
    });
  }

  /** `GET /locrec/{id}`: the location, with the `idRec` of the recurrence linked to it, if any. */
  get(id: LocationId, options?: RequestOptions): APIPromise<PayloadLocationRecCompleta> {
    return this.send<PayloadLocationRecCompleta>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/locrec/${id}`,
      errors: READ_ERRORS,
      options,
      rule: (ctx) => void checkLocationId(id, ctx),
    });
  }

  /**
   * `GET /locrec`: `await` gives the first page (`items`, also under the wire name `loc`);
   * `for await` walks every location across pages.
   */
  list(
    query: PayloadLocationRecListQuery,
    options?: RequestOptions,
  ): PagePromise<PayloadLocationRecCompleta, ParametrosConsultaPayloadLocationRec> {
    return this.getList(path`/locrec`, 'loc', {
      query,
      errors: { 400: PayloadLocationRecConsultaInvalida },
      options,
      rule: (ctx) => {
        collectRecurringListQuery(query, ctx);
        checkFlag(query?.idRecPresente, 'idRecPresente', ctx);
      },
    });
  }

  /**
   * `DELETE /locrec/{id}/idRec`: unlinks the recurrence from the location and returns the
   * location. The recurrence keeps its status and no longer shows a location. Safe to retry. An
   * id that is not an integer names no location: refused before sending with
   * `PayloadLocationRecNaoEncontrado` (404), as the service answers it (no 400 is declared).
   */
  unlink(id: LocationId, options?: RequestOptions): APIPromise<PayloadLocationRecCompleta> {
    return this.send<PayloadLocationRecCompleta>({
      method: 'DELETE',
      retry: 'replay',
      path: () => path`/locrec/${id}/idRec`,
      errors: WRITE_ERRORS,
      options,
      rule: refusedAsNotFound(PayloadLocationRecNaoEncontrado, (ctx) => void checkLocationId(id, ctx)),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Types

/** A recurrence location as created (`POST /locrec`). */
export interface PayloadLocationRecGerada {
  /** An int64; the `loc` of `RecSolicitada`. */
  id: number;
  /** Without scheme (`instant.example.com/qr/v2/rec/…`); at most 77 characters. */
  location: string;
  /** RFC 3339 date-time. */
  criacao: string;
  [key: string]: unknown;
}

/** A recurrence location as fetched, listed or unlinked: with the recurrence linked to it, if any. */
export interface PayloadLocationRecCompleta extends PayloadLocationRecGerada {
  idRec?: string;
}

/** Query of `GET /locrec`. */
export interface PayloadLocationRecListQuery {
  /** RFC 3339 date-time: created at or after. */
  inicio: string;
  /** RFC 3339 date-time: created at or before; not earlier than `inicio`. */
  fim: string;
  /** Only locations with (true) or without (false) a linked recurrence. */
  idRecPresente?: boolean;
  /** At most 60 characters. */
  convenio?: string;
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a recurrence location list page. */
export interface ParametrosConsultaPayloadLocationRec extends PageParametros {
  inicio: string;
  fim: string;
  idRecPresente?: boolean;
  paginacao: Paginacao;
}
