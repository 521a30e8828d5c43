/**
 * Confirmation requests (tag SolicRec): a request, sent towards the paying user's account, to
 * confirm a recurrence. Create, fetch and cancel them.
 */
import { RequisicaoInvalida, SolicRecNaoEncontrada, SolicRecOperacaoInvalida } from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import { CANCEL_STATUS } from './rules/rec.ts';
import { refusedAsNotFound } from './rules/fields.ts';
import { checkIdSolicRec, checkSolicRec } from './rules/solicrec.ts';
import type { Atualizacao, RecPayload } from './terms.ts';

/** Confirmation requests, `api.solicrec`: create, fetch and cancel. */
export class SolicRec extends APIResource {
  /**
   * `POST /solicrec`: asks the paying user, through their account, to confirm the recurrence.
   * Never retried automatically; the service keeps at most one active request per recurrence, so
   * after a lost answer read the recurrence (`api.rec.get(idRec)`, its `solicitacao`) before
   * sending again.
   */
  create(body: SolicRecSolicitada, options?: RequestOptions): APIPromise<SolicRecCompleta> {
    return this.send<SolicRecCompleta>({
      method: 'POST',
      retry: 'never',
      path: () => path`/solicrec`,
      body,
      errors: { 400: SolicRecOperacaoInvalida },
      options,
      rule: (ctx) => checkSolicRec(body, ctx),
    });
  }

  /**
   * `GET /solicrec/{idSolicRec}`: the request, its status history and the recurrence payload.
   * An id that is not 29 letters or digits names no request: refused before sending with
   * `SolicRecNaoEncontrada` (404), as the service answers it (the endpoint declares no 400).
   */
  get(idSolicRec: string, options?: RequestOptions): APIPromise<SolicRecCompleta> {
    return this.send<SolicRecCompleta>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/solicrec/${idSolicRec}`,
      errors: { 400: RequisicaoInvalida, 404: SolicRecNaoEncontrada },
      options,
      rule: refusedAsNotFound(SolicRecNaoEncontrada, (ctx) => checkIdSolicRec(idSolicRec, ctx)),
    });
  }

  /**
   * `PATCH /solicrec/{idSolicRec}` with `status: 'CANCELADA'` (the only revision; answered 201
   * with the whole request). Allowed while CRIADA, ENVIADA or RECEBIDA; the service judges.
   */
  cancel(idSolicRec: string, options?: RequestOptions): APIPromise<SolicRecCompleta> {
    return this.send<SolicRecCompleta>({
      method: 'PATCH',
      retry: 'never',
      path: () => path`/solicrec/${idSolicRec}`,
      body: { status: CANCEL_STATUS } satisfies SolicRecRevisada,
      errors: { 400: SolicRecOperacaoInvalida, 404: SolicRecNaoEncontrada },
      options,
      rule: (ctx) => checkIdSolicRec(idSolicRec, ctx),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Types

/** Status of a confirmation request. New values may appear. */
export type SolicRecStatus =
  | 'CRIADA'
  | 'ENVIADA'
  | 'RECEBIDA'
  | 'REJEITADA'
  | 'ACEITA'
  | 'EXPIRADA'
  | 'CANCELADA'
  | (string & {});

/** The paying user's account the request goes to: a person's or a company's. */
export type Destinatario = DadosBancarios & ({ cpf: string; cnpj?: never } | { cnpj: string; cpf?: never });

/** An account at a participant. */
export interface DadosBancarios {
  /** At most 20 characters. */
  conta: string;
  /** The participant's ISPB: 8 of `[0-9A-Z]`. */
  ispbParticipante: string;
  /** At most 4 characters. */
  agencia?: string;
}

/** Body of `POST /solicrec`. */
export interface SolicRecSolicitada {
  /** The recurrence to confirm. */
  idRec: string;
  /** `dataExpiracaoSolicitacao`: RFC 3339 date-time the request expires; not on a day before today. */
  calendario: { dataExpiracaoSolicitacao: string };
  /** CPF: 11 digits; CNPJ: 14 of `[0-9A-Z]`. */
  destinatario: Destinatario;
}

/** Body of `PATCH /solicrec/{idSolicRec}` (see `api.solicrec.cancel`). */
export interface SolicRecRevisada {
  status: 'CANCELADA';
}

/** A confirmation request as the service answers it. */
export interface SolicRecCompleta {
  /** 29 characters: `SC`, the sending participant, the date and a sequence. */
  idSolicRec: string;
  idRec: string;
  calendario: { dataExpiracaoSolicitacao: string; [key: string]: unknown };
  destinatario: DadosBancarios & { cpf?: string; cnpj?: string; [key: string]: unknown };
  status: SolicRecStatus;
  atualizacao: Atualizacao<SolicRecStatus>[];
  /** The recurrence as the paying user will see it. */
  recPayload?: RecPayload;
  [key: string]: unknown;
}
