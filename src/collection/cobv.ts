/**
 * Due-date charges (tag CobV): create with a txid, revise, remove, fetch, list. Requests are
 * judged against the rules of the interface spec's "Violations" before anything is sent.
 */
import { CobVConsultaInvalida, CobVNaoEncontrada, CobVOperacaoInvalida } from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import { path } from '../core/path.ts';
import { checkCobV } from './rules/cobv.ts';
import { isInt } from './rules/fields.ts';
import { ChargeResource, type ChargeKind } from './charge.ts';
import type {
  ChargePayment,
  CobListQuery,
  CobLocation,
  CobStatus,
  InfoAdicional,
  LocSolicitada,
  PessoaFisica,
  PessoaJuridica,
} from './cob.ts';

const COBV: ChargeKind = {
  name: 'cobv',
  list: path`/cobv`,
  at: (txid) => path`/cobv/${txid}`,
  writeErrors: { 400: CobVOperacaoInvalida, 404: CobVNaoEncontrada },
  readErrors: { 400: CobVConsultaInvalida, 404: CobVNaoEncontrada },
  check: checkCobV,
  checkQuery: ({ loteCobVId }, ctx) => {
    if (loteCobVId !== undefined && !isInt(loteCobVId, 0))
      ctx.add('loteCobVId', 'loteCobVId must be an integer, zero or more', loteCobVId);
  },
};

/**
 * Due-date charges, `api.cobv`: create, revise, remove, fetch and list. `update`, `remove`, `get`
 * and `list` are those of every charge (`ChargeResource`).
 */
export class CobV extends ChargeResource<CobVGerada, CobVCompleta, CobVRevisada, CobVListQuery> {
  /** @internal */
  protected readonly kind = COBV;

  /**
   * `PUT /cobv/{txid}`: creates the due-date charge (or alters it while ATIVA). Safe to retry:
   * after a lost answer the charge under the txid is read first, and is the answer when it is the one sent.
   * A charge created this way can never join a batch. `dataDeVencimento` must not be before
   * the charge's creation date: the service judges that one, since this call may alter a
   * charge created on an earlier day.
   */
  create(txid: string, body: CobVSolicitada, options?: RequestOptions): APIPromise<CobVGerada> {
    return this.write('PUT', txid, body, options);
  }
}

// ---------------------------------------------------------------------------------------------
// Types

/** Optional address and e-mail of a due-date charge's debtor. */
export interface DadosComplementares {
  email?: string;
  /** At most 200 characters. */
  logradouro?: string;
  /** At most 200 characters. */
  cidade?: string;
  /** At most 2 characters. */
  uf?: string;
  /** At most 8 characters. */
  cep?: string;
}

/** The debtor of a due-date charge (required): a person or a company, plus optional address. */
export type DevedorCobV = (PessoaFisica | PessoaJuridica) & DadosComplementares;

/** The receiving user as the service fills it in a due-date charge. */
export interface Recebedor {
  cpf?: string;
  cnpj?: string;
  nome: string;
  nomeFantasia?: string;
  logradouro: string;
  cidade: string;
  uf: string;
  cep: string;
  [key: string]: unknown;
}

/** When a due-date charge is due and how long it stays payable after. */
export interface CobVCalendario {
  /** `YYYY-MM-DD`; payable up to and including that day; not before the creation date. */
  dataDeVencimento: string;
  /** Calendar days the charge stays payable after the due date, zero or more (default 30). */
  validadeAposVencimento?: number;
}

/** Fine: 1 fixed amount, 2 percentage. */
export interface Multa {
  modalidade: 1 | 2;
  /** Money or percentage string: `^\d{1,10}\.\d{2}$`. */
  valorPerc: string;
}

/**
 * Interest: 1 amount per calendar day, 2 % per day, 3 % per month, 4 % per year (calendar days);
 * 5 to 8 the same on business days.
 */
export interface Juros {
  modalidade: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  valorPerc: string;
}

/** Rebate: 1 fixed amount (below `original`), 2 percentage (below 100). */
export interface Abatimento {
  modalidade: 1 | 2;
  valorPerc: string;
}

/** A fixed-date discount: `valorPerc` when paid on or before `data` (not after the due date). */
export interface DescontoDataFixa {
  data: string;
  valorPerc: string;
}

/**
 * Discount. 1: fixed amount until each date, 2: percentage until each date (1 to 3
 * `descontoDataFixa`); 3/4: amount per day paid early (calendar/business days), 5/6: percentage
 * per day paid early (`valorPerc`). Amounts stay below `original`, percentages below 100.
 */
export type Desconto =
  | { modalidade: 1 | 2; descontoDataFixa: DescontoDataFixa[]; valorPerc?: never }
  | { modalidade: 3 | 4 | 5 | 6; valorPerc: string; descontoDataFixa?: never };

/** The amount of a due-date charge with its fine, interest, rebate and discount. */
export interface CobVValor {
  /** Money: `^\d{1,10}\.\d{2}$`, not zero. */
  original: string;
  multa?: Multa;
  juros?: Juros;
  abatimento?: Abatimento;
  desconto?: Desconto;
}

/** Body of `PUT /cobv/{txid}`. */
export interface CobVSolicitada {
  calendario: CobVCalendario;
  devedor: DevedorCobV;
  loc?: LocSolicitada;
  valor: CobVValor;
  /** A directory key of the receiving user. */
  chave: string;
  /** At most 140 characters. */
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

/** A revision: any fields of the charge, without `status`. */
export interface CobVAlteracao {
  calendario?: Partial<CobVCalendario>;
  devedor?: DevedorCobV;
  loc?: LocSolicitada;
  valor?: Partial<CobVValor>;
  chave?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  status?: never;
}

/** A removal: the status alone. */
export type CobVRemocao = { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } & {
  [K in Exclude<keyof CobVAlteracao, 'status'>]?: never;
};

/** Body of `PATCH /cobv/{txid}`: either changes, or the removal alone. */
export type CobVRevisada = CobVAlteracao | CobVRemocao;

/** The due-date charge as created or revised. */
export interface CobVGerada {
  txid: string;
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number; [key: string]: unknown };
  revisao: number;
  status: CobStatus;
  devedor: DevedorCobV;
  recebedor: Recebedor;
  valor: CobVValor;
  chave: string;
  loc?: CobLocation;
  location?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  /** The copy-and-paste code of the charge (at most 512 characters). */
  instantCopiaECola?: string;
  [key: string]: unknown;
}

/** The due-date charge as fetched, with the payments it received. */
export interface CobVCompleta extends CobVGerada {
  instant?: ChargePayment[];
}

/** Query of `GET /cobv`. */
export interface CobVListQuery extends CobListQuery {
  /** Only the charges of this batch. */
  loteCobVId?: number;
}
