/**
 * The recurrence's terms: the vocabulary recurrences, confirmation requests, recurring charges
 * and the payer's signed payload (tag RecPayload) share. Request types are exact; answers are
 * read leniently: unknown fields and enum values pass.
 */
import type { Devedor } from '../collection/cob.ts';

/** How often the recurrence charges. */
export type Periodicidade = 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';

/**
 * Retries after the due date: not allowed, or allowed as `PERMITE_3R_7D` says. The second
 * character of the `idRec` tells the same (`R` allowed, `N` not).
 */
export type PoliticaRetentativa = 'NAO_PERMITE' | 'PERMITE_3R_7D';

/** Status of a recurrence. New values may appear. */
export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA' | (string & {});

/** How the paying user activated the recurrence (`AGUARDANDO_DEFINICAO` until then). New values may appear. */
export type TipoJornada =
  | 'JORNADA_1'
  | 'JORNADA_2'
  | 'JORNADA_3'
  | 'JORNADA_4'
  | 'AGUARDANDO_DEFINICAO'
  | (string & {});

/** Who cancelled a recurrence or a recurring charge. New values may appear. */
export type Solicitante = 'PSP_PAGADOR' | 'USUARIO_PAGADOR' | 'PSP_RECEBEDOR' | 'USUARIO_RECEBEDOR' | (string & {});

/** What the recurrence is for, and whom it charges. */
export interface RecVinculo {
  /** Number or code of the contract, order...: at most 35 characters. */
  contrato: string;
  /** Free text that lets the payer recognise what the payments are for: at most 35 characters. */
  objeto?: string;
  /** A person (`cpf` 11 digits) or a company (`cnpj` 14 of `[0-9A-Z]`), with `nome` (at most 140). */
  devedor: Devedor;
}

/** When the recurrence starts and ends, and how often it charges. */
export interface RecCalendario {
  /** `YYYY-MM-DD` (Brasília): estimated first payment; not before the creation date (today). */
  dataInicial: string;
  /** `YYYY-MM-DD`: end of a fixed-term authorization (absent for an open-ended one); not before `dataInicial`. */
  dataFinal?: string;
  periodicidade: Periodicidade;
}

/**
 * The amount: `valorRec` for a fixed amount, or `valorMinimoRecebedor` (the floor below which the
 * payer cannot set a maximum), never both; or neither. Money: `"35.00"`.
 */
export type RecValor =
  | { valorRec?: string; valorMinimoRecebedor?: never }
  | { valorMinimoRecebedor?: string; valorRec?: never };

/** One change of status, with its RFC 3339 date-time. */
export interface Atualizacao<S extends string> {
  status: S;
  data: string;
  [key: string]: unknown;
}

/** The receiving user of a recurrence: a company. */
export interface RecRecebedor {
  cnpj: string;
  nome: string;
  convenio?: string;
  [key: string]: unknown;
}

/** The recurrence's terms as the service answers them (the request's, plus whatever it adds). */
export interface RecTermos {
  idRec: string;
  vinculo: RecVinculo & { [key: string]: unknown };
  calendario: {
    dataInicial: string;
    dataFinal?: string;
    periodicidade: Periodicidade | (string & {});
    [key: string]: unknown;
  };
  valor?: { valorRec?: string; valorMinimoRecebedor?: string; [key: string]: unknown };
  politicaRetentativa?: PoliticaRetentativa | (string & {});
  [key: string]: unknown;
}

/** The recurrence as the payer's side reads it at its location (`payer.recPayload.get`), signed. */
export interface RecPayload extends RecTermos {
  recebedor: RecRecebedor & { ispbParticipante: string };
  atualizacao: Atualizacao<RecStatus>[];
}
