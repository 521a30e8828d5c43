/**
 * Recurrences (tag Rec): authorizations for periodic charges of one debtor. Create, fetch (with
 * the composite QR of a journey), revise, cancel and list them. Requests are judged against the
 * rules of the recurring spec's section 7.3 before anything is sent.
 */
import { RecConsultaInvalida, RecNaoEncontrada, RecOperacaoInvalida } from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import { CANCEL_STATUS, checkIdRecParam, checkRec, checkRecQuery, checkRecRevisada } from './rules/rec.ts';
import type { PayloadLocationRecCompleta } from './locrec.ts';
import type { SolicRecCompleta } from './solicrec.ts';
import type {
  Atualizacao,
  PoliticaRetentativa,
  RecCalendario,
  RecRecebedor,
  RecStatus,
  RecTermos,
  RecValor,
  RecVinculo,
  Solicitante,
  TipoJornada,
} from './terms.ts';

const WRITE_ERRORS = { 400: RecOperacaoInvalida, 404: RecNaoEncontrada };
const READ_ERRORS = { 400: RecConsultaInvalida, 404: RecNaoEncontrada };

/** Recurrences, `api.rec`: create, fetch, revise, cancel and list. */
export class Rec extends APIResource {
  /**
   * `POST /rec`: creates the recurrence; the service assigns its `idRec` (the answer has it).
   * Never retried automatically: a retry could create a second recurrence. After a lost answer
   * (`ConnectionError`, `TimeoutError`), look for it with `list` (by debtor and creation time)
   * before sending again.
   */
  create(body: RecSolicitada, options?: RequestOptions): APIPromise<RecGerada> {
    return this.send<RecGerada>({
      method: 'POST',
      retry: 'never',
      path: () => path`/rec`,
      body,
      errors: { 400: RecOperacaoInvalida },
      options,
      rule: (ctx) => checkRec(body, ctx),
    });
  }

  /**
   * `GET /rec/{idRec}`, with the composite QR code in `dadosQR`: of the recurrence alone
   * (journey 2), or with `txid`, of an immediate charge (journey 3) or a due-date charge
   * (journey 4) plus the recurrence, when the locations it needs are set.
   */
  get(idRec: string, query: { txid?: string } = {}, options?: RequestOptions): APIPromise<RecCompleta> {
    const txid = query?.txid;
    return this.send<RecCompleta>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/rec/${idRec}`,
      query: { txid },
      errors: READ_ERRORS,
      options,
      rule: (ctx) => {
        checkIdRecParam(idRec, ctx);
        if (txid !== undefined && typeof txid !== 'string') ctx.add('txid', 'txid must be a string', txid);
      },
    });
  }

  /**
   * `PATCH /rec/{idRec}`: revises the recurrence (while CRIADA: `loc`, `calendario.dataInicial`;
   * also later: `ativacao.dadosJornada.txid`, `vinculo.devedor.nome`), or cancels it with
   * `status: 'CANCELADA'` (see `cancel`). Never retried automatically.
   */
  update(idRec: string, patch: RecRevisada, options?: RequestOptions): APIPromise<RecGerada> {
    return this.send<RecGerada>({
      method: 'PATCH',
      retry: 'never',
      path: () => path`/rec/${idRec}`,
      body: patch,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx) => {
        checkIdRecParam(idRec, ctx);
        checkRecRevisada(idRec, patch, ctx);
      },
    });
  }

  /** `PATCH /rec/{idRec}` with only `status: 'CANCELADA'`: no more charges under it. */
  cancel(idRec: string, options?: RequestOptions): APIPromise<RecGerada> {
    return this.update(idRec, { status: CANCEL_STATUS }, options);
  }

  /**
   * `GET /rec`: `await` gives the first page (`items`, also under the wire name `recs`);
   * `for await` walks every recurrence across pages.
   */
  list(query: RecListQuery, options?: RequestOptions): PagePromise<RecCompleta, ParametrosConsultaRec> {
    return this.getList(path`/rec`, 'recs', {
      query,
      errors: { 400: RecConsultaInvalida },
      options,
      rule: (ctx) => checkRecQuery(query, ctx),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Types (the shared terms are in `terms.ts`). Request types are exact; answers are read leniently.

/** Body of `POST /rec`. */
export interface RecSolicitada {
  /**
   * Leave it out: the service generates the `idRec` (the schema lists it as required, its own
   * examples omit it: recurring spec, appendix B item 1). Given, it must be 29 letters or digits (the schema).
   */
  idRec?: string;
  vinculo: RecVinculo;
  calendario: RecCalendario;
  valor?: RecValor;
  politicaRetentativa: PoliticaRetentativa;
  /** `convenio`: the agreement with the service (at most 60 characters); the service may refuse it. */
  recebedor?: { convenio?: string };
  /** Id of a recurrence location (`api.locrec.create()`), needed for the composite QR codes. */
  loc?: number;
  /** Journey 3: the txid of the immediate charge paid together with the recurrence's activation. */
  ativacao?: { dadosJornada?: { txid: string } };
}

/** Body of `PATCH /rec/{idRec}`: every field optional. */
export interface RecRevisada {
  /** Only `CANCELADA` (see `api.rec.cancel`). */
  status?: 'CANCELADA';
  vinculo?: { devedor?: { nome: string } };
  /** While CRIADA only. */
  loc?: number;
  /** While CRIADA only; not before the creation date. */
  calendario?: { dataInicial?: string };
  ativacao?: { dadosJornada?: { txid: string } };
}

/** Why a recurrence ended: rejected by the payer (`AP13`, `AP14`) or cancelled. */
export interface RecEncerramento {
  rejeicao?: { codigo: 'AP13' | 'AP14' | (string & {}); descricao: string; [key: string]: unknown };
  cancelamento?: {
    solicitante: Solicitante;
    codigo: 'ACCL' | 'CPCL' | 'DCSD' | 'ERSL' | 'FRUD' | 'PCFD' | 'SLCR' | 'SLDB' | (string & {});
    descricao: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** The activation journey and, for journey 3, the immediate charge's txid. */
export interface RecAtivacao {
  tipoJornada?: TipoJornada;
  dadosJornada?: { txid?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The recurrence as created or revised (`POST /rec`, `PATCH /rec/{idRec}`). */
export interface RecGerada extends RecTermos {
  recebedor: RecRecebedor;
  status: RecStatus;
  loc?: PayloadLocationRecCompleta;
  atualizacao: Atualizacao<RecStatus>[];
  encerramento?: RecEncerramento;
  ativacao?: RecAtivacao;
}

/** The paying user once known: participant, municipality (7 digits) and document. */
export interface RecPagador {
  ispbParticipante?: string;
  codMun?: string;
  cpf?: string;
  cnpj?: string;
  [key: string]: unknown;
}

/** The composite QR code of a journey (`GET /rec/{idRec}`, with `txid` for journeys 3 and 4). */
export interface DadosQR {
  jornada: 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4' | (string & {});
  /** The BR Code text (at most 512 characters). */
  instantCopiaECola: string;
  [key: string]: unknown;
}

/** The recurrence as fetched (`GET /rec/{idRec}`) or listed (without `dadosQR`). */
export interface RecCompleta extends RecGerada {
  pagador?: RecPagador;
  solicitacao?: SolicRecCompleta[];
  dadosQR?: DadosQR;
}

/** Query of `GET /rec`. */
export interface RecListQuery {
  /** RFC 3339 date-time: created at or after. */
  inicio: string;
  /** RFC 3339 date-time: created at or before; not earlier than `inicio`. */
  fim: string;
  /** Debtor's CPF (11 digits); not together with `cnpj`. */
  cpf?: string;
  /** Debtor's CNPJ (14 of `[0-9A-Z]`). */
  cnpj?: string;
  locationPresente?: boolean;
  status?: RecStatus;
  /** At most 60 characters. */
  convenio?: string;
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a recurrence list page. */
export interface ParametrosConsultaRec extends PageParametros {
  inicio: string;
  fim: string;
  paginacao: Paginacao;
}
