/**
 * The service's error catalogue. One table (`ERROR_CATALOGUE`) drives the per-type classes, their
 * hierarchy, the status layer of the error factory (`errors/factory.ts`), the README error table
 * and the error tests.
 */
import { ApiError, defineApiError, type ApiErrorClass } from './api-error.ts';

/**
 * The service's error types in scope (interface spec, "General errors" and "Specific errors", plus the
 * official types of the endpoints this SDK covers; the recurring spec's section 7.2 from
 * `RecPayloadNaoEncontrado` on). The first status is the one the service
 * answers with; a type with two statuses (CobPayloadNaoEncontrado) lists both. A `general` type
 * is the one a bare status maps to; every other type's class extends the general class of its
 * first status (`CobNaoEncontrado extends NaoEncontrado`). A new type is one line here.
 */
export const ERROR_CATALOGUE = {
  RequisicaoInvalida: { general: true, status: [400], meaning: 'Invalid request' },
  AcessoNegado: { general: true, status: [403], meaning: 'Authenticated participant violates an authorization rule' },
  NaoEncontrado: { general: true, status: [404], meaning: 'Entity not found' },
  PermanentementeRemovido: { general: true, status: [410], meaning: 'Entity existed and was permanently removed' },
  ErroInternoDoServidor: { general: true, status: [500], meaning: 'Unexpected condition on the service' },
  ServicoIndisponivel: {
    general: true,
    status: [503],
    meaning: 'Service unavailable (maintenance or outside operating window)',
  },
  IndisponibilidadePorTempoEsgotado: { general: true, status: [504], meaning: 'Service took longer than expected' },
  CobPayloadNaoEncontrado: { status: [404, 410], meaning: 'No charge for the location (410: permanently gone)' },
  CobPayloadOperacaoInvalida: { status: [400], meaning: 'codMun or DPP invalid for the due-date charge payload' },
  CobNaoEncontrado: { status: [404], meaning: 'No immediate charge for the txid' },
  CobOperacaoInvalida: { status: [400], meaning: 'Immediate charge request breaks a rule of the spec (Violations)' },
  CobConsultaInvalida: { status: [400], meaning: 'Immediate charge query breaks a rule of the spec (Violations)' },
  CobVNaoEncontrada: { status: [404], meaning: 'No due-date charge for the txid' },
  CobVOperacaoInvalida: { status: [400], meaning: 'Due-date charge request breaks a rule of the spec (Violations)' },
  CobVConsultaInvalida: { status: [400], meaning: 'Due-date charge query is invalid' },
  LoteCobVNaoEncontrado: { status: [404], meaning: 'No batch for the id' },
  LoteCobVOperacaoInvalida: { status: [400], meaning: 'Batch request is invalid or changes the set of charges' },
  LoteCobVConsultaInvalida: { status: [400], meaning: 'Batch query is invalid' },
  PayloadLocationNaoEncontrado: { status: [404], meaning: 'No location for the id' },
  PayloadLocationOperacaoInvalida: { status: [400], meaning: 'Location request is invalid (tipoCob)' },
  PayloadLocationConsultaInvalida: { status: [400], meaning: 'Location query is invalid' },
  InstantNaoEncontrado: { status: [404], meaning: 'No received payment for the e2eid' },
  InstantDevolucaoNaoEncontrada: { status: [404], meaning: 'No refund with that id for the e2eid' },
  InstantConsultaInvalida: { status: [400], meaning: 'Received-payment query is invalid' },
  InstantDevolucaoInvalida: { status: [400], meaning: 'Refund request is invalid' },
  WebhookOperacaoInvalida: { status: [400], meaning: 'Webhook request invalid or chave not a valid directory key' },
  WebhookNaoEncontrado: { status: [404], meaning: 'No webhook for the key' },
  WebhookConsultaInvalida: { status: [400], meaning: 'Webhook query is invalid' },
  RecPayloadNaoEncontrado: { status: [404, 410], meaning: 'No recurrence for the location (410: permanently gone)' },
  RecPayloadOperacaoInvalida: {
    status: [400],
    meaning: 'The recurrence at the location is expired, rejected or cancelled',
  },
  RecNaoEncontrada: { status: [404], meaning: 'No recurrence for the idRec' },
  RecOperacaoInvalida: { status: [400], meaning: 'Recurrence request breaks a rule of the spec (Violations)' },
  RecConsultaInvalida: { status: [400], meaning: 'Recurrence query is invalid' },
  SolicRecNaoEncontrada: { status: [404], meaning: 'No confirmation request for the idSolicRec' },
  SolicRecOperacaoInvalida: {
    status: [400],
    meaning: 'Confirmation request is invalid, or cannot be cancelled in its status',
  },
  CobRNaoEncontrado: { status: [404], meaning: 'No recurring charge for the txid' },
  CobROperacaoInvalida: {
    status: [400],
    meaning: 'Recurring charge request (or retry) breaks a rule of the spec (Violations)',
  },
  CobRConsultaInvalida: { status: [400], meaning: 'Recurring charge query is invalid' },
  PayloadLocationRecNaoEncontrado: { status: [404], meaning: 'No recurrence location for the id' },
  PayloadLocationRecConsultaInvalida: { status: [400], meaning: 'Recurrence location query is invalid' },
  WebhookRecOperacaoInvalida: { status: [400], meaning: 'Recurrence webhook request invalid (webhookUrl)' },
  WebhookRecConsultaInvalida: { status: [400], meaning: 'Recurrence webhook query is invalid' },
  WebhookCobROperacaoInvalida: { status: [400], meaning: 'Recurring-charge webhook request invalid (webhookUrl)' },
  WebhookCobRConsultaInvalida: { status: [400], meaning: 'Recurring-charge webhook query is invalid' },
} as const satisfies Record<string, { general?: true; status: readonly number[]; meaning: string }>;

/** The name of an error type of the catalogue: `'CobOperacaoInvalida'`, `'NaoEncontrado'`... */
export type CatalogueErrorType = keyof typeof ERROR_CATALOGUE;

type Catalogue = typeof ERROR_CATALOGUE;
type FirstStatus<K extends CatalogueErrorType> = Catalogue[K]['status'][0];
type GeneralType = {
  [K in CatalogueErrorType]: Catalogue[K] extends { general: true } ? K : never;
}[CatalogueErrorType];
/** A general class's instances may be any type of its status, or a class defined outside the catalogue. */
type NamesOf<K extends CatalogueErrorType> = K extends GeneralType
  ? { [S in CatalogueErrorType]: FirstStatus<S> extends FirstStatus<K> ? S : never }[CatalogueErrorType] | (string & {})
  : K;

/** General type of each status (a bare 404 is `NaoEncontrado`), read from the catalogue. */
export const GENERAL_BY_STATUS: Readonly<Partial<Record<number, CatalogueErrorType>>> = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).flatMap(([name, entry]) => ('general' in entry ? [[entry.status[0], name]] : [])),
) as Partial<Record<number, CatalogueErrorType>>;

function catalogueClasses(): Record<string, ApiErrorClass> {
  const classes: Record<string, ApiErrorClass> = {};
  // General types come first in the catalogue, so a parent is built before its children.
  for (const [name, entry] of Object.entries(ERROR_CATALOGUE)) {
    const parent = 'general' in entry ? undefined : GENERAL_BY_STATUS[entry.status[0]];
    classes[name] = defineApiError(name, entry.status[0], parent === undefined ? ApiError : classes[parent]);
  }
  return classes;
}

/** Catalogue type name to class; the tests check it covers the whole catalogue. */
export const ERROR_CLASSES = catalogueClasses() as { readonly [K in CatalogueErrorType]: ApiErrorClass<NamesOf<K>> };

export const RequisicaoInvalida = ERROR_CLASSES.RequisicaoInvalida;
export type RequisicaoInvalida = InstanceType<typeof RequisicaoInvalida>;
export const AcessoNegado = ERROR_CLASSES.AcessoNegado;
export type AcessoNegado = InstanceType<typeof AcessoNegado>;
export const NaoEncontrado = ERROR_CLASSES.NaoEncontrado;
export type NaoEncontrado = InstanceType<typeof NaoEncontrado>;
export const PermanentementeRemovido = ERROR_CLASSES.PermanentementeRemovido;
export type PermanentementeRemovido = InstanceType<typeof PermanentementeRemovido>;
export const ErroInternoDoServidor = ERROR_CLASSES.ErroInternoDoServidor;
export type ErroInternoDoServidor = InstanceType<typeof ErroInternoDoServidor>;
export const ServicoIndisponivel = ERROR_CLASSES.ServicoIndisponivel;
export type ServicoIndisponivel = InstanceType<typeof ServicoIndisponivel>;
export const IndisponibilidadePorTempoEsgotado = ERROR_CLASSES.IndisponibilidadePorTempoEsgotado;
export type IndisponibilidadePorTempoEsgotado = InstanceType<typeof IndisponibilidadePorTempoEsgotado>;
export const CobPayloadNaoEncontrado = ERROR_CLASSES.CobPayloadNaoEncontrado;
export type CobPayloadNaoEncontrado = InstanceType<typeof CobPayloadNaoEncontrado>;
export const CobPayloadOperacaoInvalida = ERROR_CLASSES.CobPayloadOperacaoInvalida;
export type CobPayloadOperacaoInvalida = InstanceType<typeof CobPayloadOperacaoInvalida>;
export const CobNaoEncontrado = ERROR_CLASSES.CobNaoEncontrado;
export type CobNaoEncontrado = InstanceType<typeof CobNaoEncontrado>;
export const CobOperacaoInvalida = ERROR_CLASSES.CobOperacaoInvalida;
export type CobOperacaoInvalida = InstanceType<typeof CobOperacaoInvalida>;
export const CobConsultaInvalida = ERROR_CLASSES.CobConsultaInvalida;
export type CobConsultaInvalida = InstanceType<typeof CobConsultaInvalida>;
export const CobVNaoEncontrada = ERROR_CLASSES.CobVNaoEncontrada;
export type CobVNaoEncontrada = InstanceType<typeof CobVNaoEncontrada>;
export const CobVOperacaoInvalida = ERROR_CLASSES.CobVOperacaoInvalida;
export type CobVOperacaoInvalida = InstanceType<typeof CobVOperacaoInvalida>;
export const CobVConsultaInvalida = ERROR_CLASSES.CobVConsultaInvalida;
export type CobVConsultaInvalida = InstanceType<typeof CobVConsultaInvalida>;
export const LoteCobVNaoEncontrado = ERROR_CLASSES.LoteCobVNaoEncontrado;
export type LoteCobVNaoEncontrado = InstanceType<typeof LoteCobVNaoEncontrado>;
export const LoteCobVOperacaoInvalida = ERROR_CLASSES.LoteCobVOperacaoInvalida;
export type LoteCobVOperacaoInvalida = InstanceType<typeof LoteCobVOperacaoInvalida>;
export const LoteCobVConsultaInvalida = ERROR_CLASSES.LoteCobVConsultaInvalida;
export type LoteCobVConsultaInvalida = InstanceType<typeof LoteCobVConsultaInvalida>;
export const PayloadLocationNaoEncontrado = ERROR_CLASSES.PayloadLocationNaoEncontrado;
export type PayloadLocationNaoEncontrado = InstanceType<typeof PayloadLocationNaoEncontrado>;
export const PayloadLocationOperacaoInvalida = ERROR_CLASSES.PayloadLocationOperacaoInvalida;
export type PayloadLocationOperacaoInvalida = InstanceType<typeof PayloadLocationOperacaoInvalida>;
export const PayloadLocationConsultaInvalida = ERROR_CLASSES.PayloadLocationConsultaInvalida;
export type PayloadLocationConsultaInvalida = InstanceType<typeof PayloadLocationConsultaInvalida>;
export const InstantNaoEncontrado = ERROR_CLASSES.InstantNaoEncontrado;
export type InstantNaoEncontrado = InstanceType<typeof InstantNaoEncontrado>;
export const InstantDevolucaoNaoEncontrada = ERROR_CLASSES.InstantDevolucaoNaoEncontrada;
export type InstantDevolucaoNaoEncontrada = InstanceType<typeof InstantDevolucaoNaoEncontrada>;
export const InstantConsultaInvalida = ERROR_CLASSES.InstantConsultaInvalida;
export type InstantConsultaInvalida = InstanceType<typeof InstantConsultaInvalida>;
export const InstantDevolucaoInvalida = ERROR_CLASSES.InstantDevolucaoInvalida;
export type InstantDevolucaoInvalida = InstanceType<typeof InstantDevolucaoInvalida>;
export const WebhookOperacaoInvalida = ERROR_CLASSES.WebhookOperacaoInvalida;
export type WebhookOperacaoInvalida = InstanceType<typeof WebhookOperacaoInvalida>;
export const WebhookNaoEncontrado = ERROR_CLASSES.WebhookNaoEncontrado;
export type WebhookNaoEncontrado = InstanceType<typeof WebhookNaoEncontrado>;
export const WebhookConsultaInvalida = ERROR_CLASSES.WebhookConsultaInvalida;
export type WebhookConsultaInvalida = InstanceType<typeof WebhookConsultaInvalida>;
export const RecPayloadNaoEncontrado = ERROR_CLASSES.RecPayloadNaoEncontrado;
export type RecPayloadNaoEncontrado = InstanceType<typeof RecPayloadNaoEncontrado>;
export const RecPayloadOperacaoInvalida = ERROR_CLASSES.RecPayloadOperacaoInvalida;
export type RecPayloadOperacaoInvalida = InstanceType<typeof RecPayloadOperacaoInvalida>;
export const RecNaoEncontrada = ERROR_CLASSES.RecNaoEncontrada;
export type RecNaoEncontrada = InstanceType<typeof RecNaoEncontrada>;
export const RecOperacaoInvalida = ERROR_CLASSES.RecOperacaoInvalida;
export type RecOperacaoInvalida = InstanceType<typeof RecOperacaoInvalida>;
export const RecConsultaInvalida = ERROR_CLASSES.RecConsultaInvalida;
export type RecConsultaInvalida = InstanceType<typeof RecConsultaInvalida>;
export const SolicRecNaoEncontrada = ERROR_CLASSES.SolicRecNaoEncontrada;
export type SolicRecNaoEncontrada = InstanceType<typeof SolicRecNaoEncontrada>;
export const SolicRecOperacaoInvalida = ERROR_CLASSES.SolicRecOperacaoInvalida;
export type SolicRecOperacaoInvalida = InstanceType<typeof SolicRecOperacaoInvalida>;
export const CobRNaoEncontrado = ERROR_CLASSES.CobRNaoEncontrado;
export type CobRNaoEncontrado = InstanceType<typeof CobRNaoEncontrado>;
export const CobROperacaoInvalida = ERROR_CLASSES.CobROperacaoInvalida;
export type CobROperacaoInvalida = InstanceType<typeof CobROperacaoInvalida>;
export const CobRConsultaInvalida = ERROR_CLASSES.CobRConsultaInvalida;
export type CobRConsultaInvalida = InstanceType<typeof CobRConsultaInvalida>;
export const PayloadLocationRecNaoEncontrado = ERROR_CLASSES.PayloadLocationRecNaoEncontrado;
export type PayloadLocationRecNaoEncontrado = InstanceType<typeof PayloadLocationRecNaoEncontrado>;
export const PayloadLocationRecConsultaInvalida = ERROR_CLASSES.PayloadLocationRecConsultaInvalida;
export type PayloadLocationRecConsultaInvalida = InstanceType<typeof PayloadLocationRecConsultaInvalida>;
export const WebhookRecOperacaoInvalida = ERROR_CLASSES.WebhookRecOperacaoInvalida;
export type WebhookRecOperacaoInvalida = InstanceType<typeof WebhookRecOperacaoInvalida>;
export const WebhookRecConsultaInvalida = ERROR_CLASSES.WebhookRecConsultaInvalida;
export type WebhookRecConsultaInvalida = InstanceType<typeof WebhookRecConsultaInvalida>;
export const WebhookCobROperacaoInvalida = ERROR_CLASSES.WebhookCobROperacaoInvalida;
export type WebhookCobROperacaoInvalida = InstanceType<typeof WebhookCobROperacaoInvalida>;
export const WebhookCobRConsultaInvalida = ERROR_CLASSES.WebhookCobRConsultaInvalida;
export type WebhookCobRConsultaInvalida = InstanceType<typeof WebhookCobRConsultaInvalida>;
