/**
 * Recurring charges (tag CobR): the charges of a recurrence, each with its settlement attempts.
 * Create (with your txid or the service's), cancel, fetch, list, and ask for a new attempt.
 * Requests are judged against the rules of the recurring spec's section 7.3 before anything is
 * sent; the receiving account against the client's `ownAccounts`, when given.
 */
import { CobRConsultaInvalida, CobRNaoEncontrado, CobROperacaoInvalida } from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource, type ClientContext } from '../core/resource.ts';
import type { RuleContext } from '../core/validation.ts';
import { checkTxid } from '../collection/rules/query.ts';
import type { DadosComplementares } from '../collection/cobv.ts';
import type { InstantPayment } from '../collection/instant.ts';
import { CANCEL_STATUS } from './rules/rec.ts';
import { checkCobR, checkCobRQuery, checkCobRRevisada, checkRetryDate, wireCobR } from './rules/cobr.ts';
import type { Atualizacao, PoliticaRetentativa, Solicitante } from './terms.ts';

const WRITE_ERRORS = { 400: CobROperacaoInvalida, 404: CobRNaoEncontrado };
const READ_ERRORS = { 400: CobRConsultaInvalida, 404: CobRNaoEncontrado };
// A 404 on a create names no recurring charge (the txid is new): left to the general class.
const CREATE_ERRORS = { 400: CobROperacaoInvalida };

/** What the recurring charges read of their client: its settings and the receiving user's accounts. */
export interface RecurringClientContext extends ClientContext {
  readonly ownAccounts?: readonly OwnAccount[] | undefined;
}

/** Recurring charges, `api.cobr`: create, revise (cancel), fetch, list and retry. */
export class CobR extends APIResource {
  readonly #client: RecurringClientContext;

  /** @internal */
  constructor(client: RecurringClientContext) {
    super(client);
    this.#client = client;
  }

  /**
   * `create(body, options?)`: `POST /cobr`, the service assigns the txid. Never retried
   * automatically: a retry could create a second charge.
   *
   * `create(txid, body, options?)`: `PUT /cobr/{txid}` creates the charge with your txid
   * (`generateTxid()`). It creates only, so no retry can create a second charge; before sending
   * it again after a lost answer, the SDK reads the charge under the txid: when it is the one
   * sent, the call resolves with it (a create that landed is never answered "txid in use").
   *
   * The body is sent in the schema's form: a `devedor.cep` written `00000-000` goes as its 8
   * digits, and an absent `ajusteDiaUtil` as `true` (the schema's default).
   */
  // One generic signature rather than two overloads: with overloads, the editor offers the call
  // options among the charge fields in `create('txid', { | })`.
  create<First extends string | CobRSolicitada>(
    first: First extends string ? First : CobRSolicitada,
    ...rest: First extends string ? [body: CobRSolicitada, options?: RequestOptions] : [options?: RequestOptions]
  ): APIPromise<CobRGerada>;
  create(
    first: string | CobRSolicitada,
    second?: CobRSolicitada | RequestOptions,
    third?: RequestOptions,
  ): APIPromise<CobRGerada> {
    const txid = typeof first === 'string' ? first : undefined;
    const body = wireCobR(txid === undefined ? first : second);
    return this.send<CobRGerada>({
      method: txid === undefined ? 'POST' : 'PUT',
      path: () => (txid === undefined ? path`/cobr` : path`/cobr/${txid}`),
      retry: txid === undefined ? 'never' : this.lookFirst(() => path`/cobr/${txid}`, READ_ERRORS, body),
      body,
      errors: CREATE_ERRORS,
      options: (txid === undefined ? second : third) as RequestOptions | undefined,
      rule: (ctx) => {
        if (txid !== undefined) checkTxid(txid, ctx);
        checkCobR(body, ctx, this.#client.ownAccounts);
      },
    });
  }

  /** `PATCH /cobr/{txid}`: the only revision is `status: 'CANCELADA'` (see `cancel`). Never retried automatically. */
  update(txid: string, patch: CobRRevisada, options?: RequestOptions): APIPromise<CobRGerada> {
    return this.send<CobRGerada>({
      method: 'PATCH',
      retry: 'never',
      path: () => path`/cobr/${txid}`,
      body: patch,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx) => {
        checkTxid(txid, ctx);
        checkCobRRevisada(patch, ctx);
      },
    });
  }

  /**
   * `PATCH /cobr/{txid}` with `status: 'CANCELADA'`. Only before the expected date of the first
   * settlement attempt: on or after it the service refuses (`CobROperacaoInvalida`).
   */
  cancel(txid: string, options?: RequestOptions): APIPromise<CobRGerada> {
    return this.update(txid, { status: CANCEL_STATUS }, options);
  }

  /** `GET /cobr/{txid}`: the charge with its attempts (`tentativas`) and payments (`instant`). */
  get(txid: string, options?: RequestOptions): APIPromise<CobRCompleta> {
    return this.send<CobRCompleta>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/cobr/${txid}`,
      errors: READ_ERRORS,
      options,
      rule: (ctx) => checkTxid(txid, ctx),
    });
  }

  /**
   * `GET /cobr`: `await` gives the first page (`items`, also under the wire name `cobsr`);
   * `for await` walks every recurring charge across pages.
   */
  list(query: CobRListQuery, options?: RequestOptions): PagePromise<CobRCompleta, ParametrosConsultaCobR> {
    return this.getList(path`/cobr`, 'cobsr', {
      query,
      errors: { 400: CobRConsultaInvalida },
      options,
      rule: (ctx) => checkCobRQuery(query, ctx),
    });
  }

  /**
   * `POST /cobr/{txid}/retentativa/{data}`: asks for a new settlement attempt on `data`
   * (`YYYY-MM-DD`, after today in Brasília). Answers the charge with its attempts. Refused by
   * the service while an attempt is scheduled or in progress, or when the recurrence's policy is
   * `NAO_PERMITE`. Never retried automatically: after a lost answer, read the charge (`get`) and
   * look for an attempt on `data` before asking again.
   */
  retry(txid: string, data: string, options?: RequestOptions): APIPromise<CobRCompleta> {
    return this.send<CobRCompleta>({
      method: 'POST',
      retry: 'never',
      path: () => path`/cobr/${txid}/retentativa/${data}`,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx: RuleContext) => {
        checkTxid(txid, ctx);
        checkRetryDate(data, ctx);
      },
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Types

/** Status of a recurring charge. New values may appear. */
export type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA' | (string & {});

/** Kind of the receiving account. */
export type TipoConta = 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';

/** An account of the receiving user (the `ownAccounts` client option). */
export interface OwnAccount {
  /** At most 20 characters. */
  conta: string;
  /** At most 4 characters; left out, any `agencia` of a charge on `conta` matches. */
  agencia?: string;
  tipoConta: TipoConta;
}

/** The account that receives a recurring charge: one of the receiving user's. */
export interface CobRRecebedor {
  /** At most 20 characters. */
  conta: string;
  tipoConta: TipoConta;
  /** At most 4 characters. */
  agencia?: string;
}

/** Body of `POST /cobr` and `PUT /cobr/{txid}`. */
export interface CobRSolicitada {
  /** The recurrence the charge belongs to. */
  idRec: string;
  /** Shown on the invoice: at most 140 characters. */
  infoAdicional?: string;
  /** `YYYY-MM-DD` (Brasília), not before today (the creation date). */
  calendario: { dataDeVencimento: string };
  /** `original`: money, `"106.07"`. */
  valor: { original: string };
  /**
   * When the due date is not a business day, settle on the next one (local holidays by the
   * payer's municipality). Default `true`, sent as such when left out.
   */
  ajusteDiaUtil?: boolean;
  recebedor: CobRRecebedor;
  /** The debtor's e-mail and address (no document or name here: those are the recurrence's). */
  devedor?: DadosComplementares;
  status?: never;
}

/** Body of `PATCH /cobr/{txid}`: only a cancellation. */
export interface CobRRevisada {
  status?: 'CANCELADA';
}

/** Type of a settlement attempt (meanings not given by the interface). New values may appear. */
export type TentativaTipo = 'AGND' | 'NTAG' | 'RIFL' | (string & {});

/** Status of a settlement attempt. New values may appear. */
export type TentativaStatus =
  | 'SOLICITADA'
  | 'AGENDADA'
  | 'PAGA'
  | 'CANCELADA'
  | 'REJEITADA'
  | 'EXPIRADA'
  | (string & {});

/** A rejection code of the message catalogue (`AC05`, `AM09`...), and its text. */
export interface CobRRejeicao {
  codigo: string;
  /** At most 400 characters. */
  descricao: string;
  [key: string]: unknown;
}

/** One settlement attempt of a recurring charge. */
export interface Tentativa {
  /** `YYYY-MM-DD`. */
  dataLiquidacao: string;
  tipo: TentativaTipo;
  status: TentativaStatus;
  /** 32 letters or digits. */
  endToEndId: string;
  atualizacao?: Atualizacao<TentativaStatus>[];
  /** When REJEITADA. AC05, AM09, DENC, DS27, DTED, MIDI, MSUC, NITX and RC09 reject the charge too. */
  rejeicao?: CobRRejeicao;
  [key: string]: unknown;
}

/** Why a recurring charge ended: cancelled, or rejected with an attempt's code. */
export interface CobREncerramento {
  cancelamento?: {
    solicitante: Solicitante;
    codigo: 'ACCT' | 'BLCK' | 'CCLD' | 'FAIL' | 'OTHR' | 'SLBD' | 'SLCR' | (string & {});
    descricao: string;
    [key: string]: unknown;
  };
  rejeicao?: CobRRejeicao;
  [key: string]: unknown;
}

/** The recurring charge as created or cancelled. */
export interface CobRGerada {
  idRec: string;
  txid: string;
  infoAdicional?: string;
  /** `criacao` is a date (`YYYY-MM-DD`), not a date-time. */
  calendario: { criacao: string; dataDeVencimento: string; [key: string]: unknown };
  valor: { original: string; [key: string]: unknown };
  ajusteDiaUtil?: boolean;
  recebedor: {
    conta?: string;
    tipoConta?: TipoConta | (string & {});
    agencia?: string;
    cnpj?: string;
    nome?: string;
    [key: string]: unknown;
  };
  devedor?: DadosComplementares & { [key: string]: unknown };
  status: CobRStatus;
  [key: string]: unknown;
}

/** The recurring charge as fetched or listed (and answered to a retry), with its history. */
export interface CobRCompleta extends CobRGerada {
  politicaRetentativa?: PoliticaRetentativa | (string & {});
  atualizacao?: Atualizacao<CobRStatus>[];
  encerramento?: CobREncerramento;
  tentativas?: Tentativa[];
  /** The payments received for the charge. */
  instant?: InstantPayment[];
}

/** Query of `GET /cobr`. */
export interface CobRListQuery {
  /** RFC 3339 date-time: created at or after. */
  inicio: string;
  /** RFC 3339 date-time: created at or before; not earlier than `inicio`. */
  fim: string;
  /** Only the charges of this recurrence. */
  idRec?: string;
  /** Debtor's CPF (11 digits); not together with `cnpj`. */
  cpf?: string;
  /** Debtor's CNPJ (14 of `[0-9A-Z]`). */
  cnpj?: string;
  status?: CobRStatus;
  /** At most 60 characters. */
  convenio?: string;
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a recurring charge list page. */
export interface ParametrosConsultaCobR extends PageParametros {
  inicio: string;
  fim: string;
  paginacao: Paginacao;
}
