/**
 * Immediate charges (tag Cob): create with or without a txid, revise, remove, fetch, list.
 * Requests are judged against the rules of the interface spec's "Violations" before anything is sent.
 */
import { CobConsultaInvalida, CobNaoEncontrado, CobOperacaoInvalida } from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { checkCob } from './rules/cob.ts';
import { ChargeResource, type ChargeKind } from './charge.ts';
import { chargeRequest, normalizeCharge } from './normalize.ts';

const COB: ChargeKind = {
  name: 'cob',
  list: path`/cob`,
  at: (txid) => path`/cob/${txid}`,
  writeErrors: { 400: CobOperacaoInvalida, 404: CobNaoEncontrado },
  readErrors: { 400: CobConsultaInvalida, 404: CobNaoEncontrado },
  check: checkCob,
};

/**
 * Immediate charges, `api.cob`: create, revise, remove, fetch and list. `update`, `remove`, `get`
 * and `list` are those of every charge (`ChargeResource`).
 */
export class Cob extends ChargeResource<CobGerada, CobCompleta, CobRevisada, CobListQuery> {
  /** @internal */
  protected readonly kind = COB;

  /**
   * `create(body, options?)`: `POST /cob`, the service assigns the txid. Never retried
   * automatically (a retry could create a second charge); use `create(txid, body)` for an
   * idempotent create.
   *
   * `create(txid, body, options?)`: `PUT /cob/{txid}` creates the charge with your txid (or
   * alters it while ATIVA). Safe to retry: after a lost answer the charge under the txid is read
   * first, and is the answer when it is the one sent.
   */
  // One generic signature rather than two overloads: with overloads, the editor offers the call
  // options among the charge fields in `create('txid', { | })`.
  create<First extends string | CobSolicitada>(
    first: First extends string ? First : CobSolicitada,
    ...rest: First extends string ? [body: CobSolicitada, options?: RequestOptions] : [options?: RequestOptions]
  ): APIPromise<CobGerada>;
  create(
    first: string | CobSolicitada,
    second?: CobSolicitada | RequestOptions,
    third?: RequestOptions,
  ): APIPromise<CobGerada> {
    if (typeof first === 'string') return this.write('PUT', first, second, third);
    const body = chargeRequest(first);
    return this.send<CobGerada>({
      method: 'POST',
      retry: 'never',
      path: () => COB.list,
      body,
      errors: COB.writeErrors,
      options: second as RequestOptions | undefined,
      rule: (ctx) => checkCob(body, 'cob', ctx, 'create'),
      normalize: normalizeCharge,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Types shared by immediate and due-date charges

/** Status of a charge record. New values may appear: compare with the known ones. */
export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP' | (string & {});

/** A person: `cpf` is 11 digits with valid check digits. */
export interface PessoaFisica {
  cpf: string;
  nome: string;
  cnpj?: never;
}

/** A company: `cnpj` is 14 characters of `[0-9A-Z]` (numeric or alphanumeric) with valid check digits. */
export interface PessoaJuridica {
  cnpj: string;
  nome: string;
  cpf?: never;
}

/** The debtor of an immediate charge: a person or a company, never both. */
export type Devedor = PessoaFisica | PessoaJuridica;

/** One additional piece of information shown to the payer (at most 50 per charge). */
export interface InfoAdicional {
  /** At most 50 characters. */
  nome: string;
  /** At most 200 characters. */
  valor: string;
}

/** A location to link the charge to (`POST /loc` creates one). */
export interface LocSolicitada {
  id: number;
}

/** The location linked to a charge, as the service returns it. */
export interface CobLocation {
  id: number;
  /** Without scheme, e.g. `instant.example.com/qr/v2/…`. */
  location: string;
  tipoCob: 'cob' | 'cobv' | (string & {});
  criacao?: string;
  [key: string]: unknown;
}

/** A payment received for a charge (`instant[]` of a fetched charge); fields beyond these pass through. */
export interface ChargePayment {
  endToEndId: string;
  txid?: string;
  /** Money: a decimal string. */
  valor: string;
  chave?: string;
  horario: string;
  infoPagador?: string;
  componentesValor?: Record<string, unknown>;
  devolucoes?: Record<string, unknown>[];
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Immediate charge types

/** Kind of agent of a withdrawal or change. New values may appear in answers (read as they come). */
export type ModalidadeAgente = 'AGTEC' | 'AGTOT' | 'AGPSS' | (string & {});

/** Withdrawal (`saque`) or change (`troco`) details of an immediate charge. */
export interface RetiradaDetalhe {
  /** Money: a decimal string. */
  valor: string;
  /** 1: the payer may change the amount. */
  modalidadeAlteracao?: 0 | 1;
  /** saque: AGTEC, AGTOT or AGPSS; troco: AGTEC or AGTOT (a request with another is refused before sending). */
  modalidadeAgente: ModalidadeAgente;
  /** ISPB of the withdrawal service provider: 8 of `[0-9A-Z]`. */
  prestadorDoServicoDeSaque: string;
}

/** A withdrawal or a change, never both. */
export type Retirada = { saque: RetiradaDetalhe; troco?: never } | { troco: RetiradaDetalhe; saque?: never };

/** The amount of an immediate charge. */
export interface CobValor {
  /**
   * Money: `^\d{1,10}\.\d{2}$`, not zero, except with `modalidadeAlteracao: 1` (the payer sets
   * the amount) or a withdrawal (`retirada.saque`, where it must be "0.00").
   */
  original: string;
  /** 1: the payer may change the amount (default 0). */
  modalidadeAlteracao?: 0 | 1;
  retirada?: Retirada;
}

/** Body of `POST /cob` and `PUT /cob/{txid}`. */
export interface CobSolicitada {
  /** `expiracao`: seconds of life after creation, greater than zero (service default 86400). */
  calendario?: { expiracao?: number };
  devedor?: Devedor;
  loc?: LocSolicitada;
  valor: CobValor;
  /** A directory key of the receiving user. */
  chave: string;
  /** At most 140 characters. */
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

/** A revision: any fields of the charge, without `status`. */
export interface CobAlteracao {
  calendario?: { expiracao?: number };
  devedor?: Devedor;
  loc?: LocSolicitada;
  valor?: Partial<CobValor>;
  chave?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  status?: never;
}

/** A removal: the status alone. */
export type CobRemocao = { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } & {
  [K in Exclude<keyof CobAlteracao, 'status'>]?: never;
};

/** Body of `PATCH /cob/{txid}`: either changes, or the removal alone. */
export type CobRevisada = CobAlteracao | CobRemocao;

/** The charge as created or revised. */
export interface CobGerada {
  txid: string;
  calendario: { criacao: string; expiracao: number; [key: string]: unknown };
  /** Starts at 0; + 1 on every change except a change of `loc` alone. */
  revisao: number;
  status: CobStatus;
  valor: CobValor;
  chave: string;
  loc?: CobLocation;
  location?: string;
  devedor?: Devedor;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  /** The copy-and-paste code of the charge (at most 512 characters). */
  instantCopiaECola?: string;
  [key: string]: unknown;
}

/** The charge as fetched, with the payments it received. */
export interface CobCompleta extends CobGerada {
  instant?: ChargePayment[];
}

/** Query of `GET /cob` (and, with `loteCobVId`, of `GET /cobv`). */
export interface CobListQuery {
  /** RFC 3339 date-time: created at or after. */
  inicio: string;
  /** RFC 3339 date-time: created at or before; not earlier than `inicio`. */
  fim: string;
  /** Debtor's CPF (11 digits); not together with `cnpj`. */
  cpf?: string;
  /** Debtor's CNPJ (14 of `[0-9A-Z]`). */
  cnpj?: string;
  status?: CobStatus;
  locationPresente?: boolean;
  paginacao?: PaginacaoQuery;
}
