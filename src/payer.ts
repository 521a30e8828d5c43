/**
 * instant-payments/payer: what a payer app needs, listed one by one. No Node built-ins; runs in
 * any runtime.
 *
 * @module instant-payments/payer
 */
export { PayerClient, type PayerClientOptions } from './payer/client.ts';
export {
  CobPayloadResource,
  type CobPayload,
  type CobVPayload,
  type CobVPayloadQuery,
  type CobPayloadStatus,
  type PayloadPessoa,
  type PayloadRecebedor,
  type PayloadInfoAdicional,
} from './payer/cob-payload.ts';
export { RecPayloadResource } from './payer/rec-payload.ts';
export type {
  RecPayload,
  RecTermos,
  RecVinculo,
  RecCalendario,
  RecValor,
  RecRecebedor,
  RecStatus,
  Periodicidade,
  PoliticaRetentativa,
  Atualizacao,
} from './recurring/terms.ts';
export type { PayerRequestOptions } from './payer/transport.ts';
// What CobPayloadStatus names: listed so its types ship with this entry's, not the backend's (which need Node).
export type { CobStatus } from './collection/cob.ts';
export type { FetchLike } from './core/types.ts';
export type { Logger } from './core/log.ts';
export {
  InvalidLocationError,
  PayloadVerificationError,
  type InvalidLocationReason,
  type PayloadVerificationReason,
} from './payer/errors.ts';
export { LOCATION_MAX_LENGTH } from './payer/location.ts';
export { InstantError, type Violacao } from './errors/base.ts';
export {
  ApiError, UnauthorizedError, CLIENT_ERROR_BASE, type ApiErrorInit, type ApiErrorClass,
} from './errors/api-error.ts';
export {
  AuthenticationError, ConnectionError, TimeoutError, InvalidResponseError, ConfigurationError,
  type InvalidResponseReason,
} from './errors/failures.ts';
export {
  ERROR_CATALOGUE, ERROR_CLASSES, type CatalogueErrorType, RequisicaoInvalida, AcessoNegado,
  NaoEncontrado, PermanentementeRemovido, ErroInternoDoServidor, ServicoIndisponivel,
  IndisponibilidadePorTempoEsgotado, CobPayloadNaoEncontrado, CobPayloadOperacaoInvalida,
  CobNaoEncontrado, CobOperacaoInvalida, CobConsultaInvalida, CobVNaoEncontrada,
  CobVOperacaoInvalida, CobVConsultaInvalida, LoteCobVNaoEncontrado, LoteCobVOperacaoInvalida,
  LoteCobVConsultaInvalida, PayloadLocationNaoEncontrado, PayloadLocationOperacaoInvalida,
  PayloadLocationConsultaInvalida, InstantNaoEncontrado, InstantDevolucaoNaoEncontrada,
  InstantConsultaInvalida, InstantDevolucaoInvalida, WebhookOperacaoInvalida,
  WebhookNaoEncontrado, WebhookConsultaInvalida,
} from './errors/catalogue.ts';
export {
  RecPayloadNaoEncontrado, RecPayloadOperacaoInvalida, RecNaoEncontrada, RecOperacaoInvalida,
  RecConsultaInvalida, SolicRecNaoEncontrada, SolicRecOperacaoInvalida, CobRNaoEncontrado,
  CobROperacaoInvalida, CobRConsultaInvalida, PayloadLocationRecNaoEncontrado,
  PayloadLocationRecConsultaInvalida, WebhookRecOperacaoInvalida, WebhookRecConsultaInvalida,
  WebhookCobROperacaoInvalida, WebhookCobRConsultaInvalida,
} from './errors/catalogue.ts';
export type { Checked } from './lib/checked.ts';
export type { StatusTable } from './errors/factory.ts';
export { isValidCpf, isValidCnpj, cpfOrCnpj } from './lib/documents.ts';
export { KEY_TYPES, KEY_MAX_LENGTH, detectKeyType, isValidKey } from './lib/keys.ts';
export type { KeyType } from './lib/keys.ts';
export {
  TXID_PATTERN,
  E2EID_PATTERN,
  REFUND_ID_PATTERN,
  IDEMPOTENCY_KEY_PATTERN,
  isValidTxid,
  isValidE2eid,
  isValidRefundId,
  isValidIdempotencyKey,
  generateTxid,
  generateIdempotencyKey,
} from './lib/ids.ts';
export { IDREC_PATTERN, IDSOLICREC_PATTERN, isValidIdRec, isValidIdSolicRec } from './lib/ids.ts';
export {
  MONEY_PATTERN,
  MAX_CENTS,
  isValidAmount,
  toCents,
  fromCents,
  parseAmount,
  fromProviderNumber,
} from './lib/money.ts';
export { todayInBrasilia, isCivilDate, isRfc3339, compareCivilDates, addDays, addMonths } from './lib/dates.ts';
export { isBusinessDay, nextBusinessDay, addBusinessDays, type CalendarOptions, type LocalHolidays } from './lib/calendar.ts';
export { amountDue, type AmountDue, type AmountDueCharge, type AmountDueOptions } from './lib/amount-due.ts';
export { isValidMunicipalityCode } from './lib/municipalities.ts';
export { BR_CODE_GUI, BrCodeError, brcode, parseBrCode, buildBrCode, crc16 } from './lib/brcode.ts';
export type {
  BrCode,
  BrCodeField,
  BrCodeBuildInput,
  BrCodeStaticInput,
  BrCodeDynamicInput,
  BrCodeRecurrenceInput,
} from './lib/brcode.ts';
