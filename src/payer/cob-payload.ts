/**
 * Charge payload retrieval (tag CobPayload): what a payer app reads at a QR code's location.
 * `getCob` for an immediate charge, `getCobv` for a due-date charge (with the payer's
 * municipality and intended payment date). A signed answer (`application/jose`) is verified
 * before it is read; an unsigned answer is refused unless `allowUnsignedPayloads` (development
 * only) is set. Numbers and amounts are read leniently, as real payloads vary.
 */
import { CobPayloadNaoEncontrado, CobPayloadOperacaoInvalida } from '../errors/catalogue.ts';
import type { Violacao } from '../errors/base.ts';
import type { StatusTable } from '../errors/factory.ts';
import { refuse, violation } from '../core/validation.ts';
import { isCivilDate, todayInBrasilia } from '../lib/dates.ts';
import { isValidMunicipalityCode } from '../lib/municipalities.ts';
import { fetchPayload, money, numbers, record, type PayerContext } from './payload.ts';
import type { PayerRequestOptions } from './transport.ts';
import type { CobStatus } from '../collection/cob.ts';

const ERRORS: StatusTable = {
  400: CobPayloadOperacaoInvalida,
  404: CobPayloadNaoEncontrado,
  410: CobPayloadNaoEncontrado,
};

/** Charge payloads fetched from their location, signature checked, `payer.cobPayload`. */
export class CobPayloadResource {
  readonly #context: PayerContext;

  constructor(context: PayerContext) {
    this.#context = context;
  }

  /** The payload of an immediate charge at `location` (no scheme: `psp.example/qr/v2/…`). */
  async getCob(location: string, options?: PayerRequestOptions): Promise<CobPayload> {
    return normalizeCobPayload(await fetchPayload(this.#context, location, ERRORS, undefined, options));
  }

  /**
   * The payload of a due-date charge; `codMun` (IBGE municipality code) and `DPP` (intended
   * payment date, `YYYY-MM-DD`, not before today in Brasília) make the service compute
   * `valor.final` for that place and day.
   */
  async getCobv(location: string, query: CobVPayloadQuery = {}, options?: PayerRequestOptions): Promise<CobVPayload> {
    const violacoes: Violacao[] = [];
    const { codMun, DPP } = query;
    if (codMun !== undefined && !isValidMunicipalityCode(codMun)) {
      violacoes.push(violation('codMun', 'not a code of the national municipalities table', codMun));
    }
    if (DPP !== undefined && !isCivilDate(DPP)) violacoes.push(violation('DPP', 'must be a YYYY-MM-DD date', DPP));
    else if (DPP !== undefined && DPP < todayInBrasilia(this.#context.now()))
      violacoes.push(violation('DPP', 'is before today (Brasília)', DPP));
    refuse(CobPayloadOperacaoInvalida, violacoes);
    return normalizeCobVPayload(await fetchPayload(this.#context, location, ERRORS, { codMun, DPP }, options));
  }
}

/** Query of a due-date charge payload. */
export interface CobVPayloadQuery {
  /** IBGE code (7 digits) of the payer's municipality, for local holidays. */
  codMun?: string;
  /** Intended payment date, `YYYY-MM-DD`, today (Brasília) or later. */
  DPP?: string;
}

/** Charge status, known values plus any the service adds later. */
export type CobPayloadStatus = CobStatus;

/** A person or company in a payload: the debtor or the receiver. */
export interface PayloadPessoa {
  cpf?: string;
  cnpj?: string;
  nome?: string;
  [key: string]: unknown;
}

/** The receiver of a due-date charge payload, with its trade name and address. */
export interface PayloadRecebedor extends PayloadPessoa {
  nomeFantasia?: string;
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

/** One additional piece of information shown to the payer. */
export interface PayloadInfoAdicional {
  nome: string;
  valor: string;
}

/** Immediate charge payload (`CobPayload`). Money stays a decimal string. */
export interface CobPayload {
  txid: string;
  revisao: number;
  status: CobPayloadStatus;
  calendario: { criacao: string; apresentacao: string; expiracao: number; [key: string]: unknown };
  devedor?: PayloadPessoa;
  valor: {
    original: string;
    modalidadeAlteracao?: number;
    retirada?: Record<string, unknown>;
    [key: string]: unknown;
  };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: PayloadInfoAdicional[];
  [key: string]: unknown;
}

/** Due-date charge payload (`CobVPayload`): `valor.final` is the amount for today or for DPP. */
export interface CobVPayload {
  txid: string;
  revisao: number;
  status: CobPayloadStatus;
  calendario: {
    criacao: string;
    apresentacao: string;
    dataDeVencimento: string;
    validadeAposVencimento: number;
    [key: string]: unknown;
  };
  devedor: PayloadPessoa;
  recebedor: PayloadRecebedor;
  valor: {
    original: string;
    multa?: string;
    juros?: string;
    abatimento?: string;
    desconto?: string;
    final: string;
    [key: string]: unknown;
  };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: PayloadInfoAdicional[];
  [key: string]: unknown;
}

/** Reads the immediate-charge payload leniently (`"3600"` → 3600, `"10,50"` → `"10.50"`). */
export function normalizeCobPayload(raw: unknown): CobPayload {
  const payload = record(raw);
  numbers(payload, ['revisao']);
  numbers(record(payload['calendario']), ['expiracao']);
  const valor = record(payload['valor']);
  money(valor, ['original']);
  numbers(valor, ['modalidadeAlteracao']);
  return payload as CobPayload;
}

/** Reads the due-date payload leniently (`"30"` → 30, `"140,45"` → `"140.45"`). */
export function normalizeCobVPayload(raw: unknown): CobVPayload {
  const payload = record(raw);
  numbers(payload, ['revisao']);
  numbers(record(payload['calendario']), ['validadeAposVencimento']);
  money(record(payload['valor']), ['original', 'multa', 'juros', 'abatimento', 'desconto', 'final']);
  return payload as CobVPayload;
}
