/**
 * The errors' public face: what every entry point that can meet an answer from the service
 * exports (the package's root and `instant-payments/payer`). A part's own errors stay with it and
 * its entry point lists them (see the README's Architecture table).
 */
export { InstantError, type Violacao } from './base.ts';
export {
  ApiError,
  UnauthorizedError,
  CLIENT_ERROR_BASE,
  type ApiErrorInit,
  type ApiErrorClass,
} from './api-error.ts';
export {
  AuthenticationError,
  ConnectionError,
  TimeoutError,
  InvalidResponseError,
  ConfigurationError,
  type InvalidResponseReason,
} from './failures.ts';
export {
  ERROR_CATALOGUE,
  ERROR_CLASSES,
  type CatalogueErrorType,
  RequisicaoInvalida,
  AcessoNegado,
  NaoEncontrado,
  PermanentementeRemovido,
  ErroInternoDoServidor,
  ServicoIndisponivel,
  IndisponibilidadePorTempoEsgotado,
  CobPayloadNaoEncontrado,
  CobPayloadOperacaoInvalida,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  CobConsultaInvalida,
  CobVNaoEncontrada,
  CobVOperacaoInvalida,
  CobVConsultaInvalida,
  LoteCobVNaoEncontrado,
  LoteCobVOperacaoInvalida,
  LoteCobVConsultaInvalida,
  PayloadLocationNaoEncontrado,
  PayloadLocationOperacaoInvalida,
  PayloadLocationConsultaInvalida,
  InstantNaoEncontrado,
  InstantDevolucaoNaoEncontrada,
  InstantConsultaInvalida,
  InstantDevolucaoInvalida,
  WebhookOperacaoInvalida,
  WebhookNaoEncontrado,
  WebhookConsultaInvalida,
} from './catalogue.ts';
export {
  RecPayloadNaoEncontrado,
  RecPayloadOperacaoInvalida,
  RecNaoEncontrada,
  RecOperacaoInvalida,
  RecConsultaInvalida,
  SolicRecNaoEncontrada,
  SolicRecOperacaoInvalida,
  CobRNaoEncontrado,
  CobROperacaoInvalida,
  CobRConsultaInvalida,
  PayloadLocationRecNaoEncontrado,
  PayloadLocationRecConsultaInvalida,
  WebhookRecOperacaoInvalida,
  WebhookRecConsultaInvalida,
  WebhookCobROperacaoInvalida,
  WebhookCobRConsultaInvalida,
} from './catalogue.ts';
