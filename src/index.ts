/**
 * instant-payments: everything a backend uses, listed one by one. Internals (the HTTP core,
 * the error factory, redaction, rule and paging helpers) are not exported: a call the SDK does
 * not model goes through `client.request()`.
 *
 * @module instant-payments
 */
export { InstantClient, type InstantClientOptions } from './client.ts';
export type { BaseUrls, ConnectionOptions } from './composition/connection.ts';
export type {
  TelemetryOptions,
  TelemetryTracerProvider,
  TelemetryMeterProvider,
  TelemetrySpan,
} from './core/telemetry.ts';
export type { TlsOptions } from './node/tls.ts';
export {
  ClientCredentialsProvider,
  type ClientCredentials,
  type SecretClientCredentials,
  type CertificateClientCredentials,
  type ClientCredentialsOptions,
  type TokenInfo,
} from './core/auth.ts';
export type {
  CustomRequest,
  HttpMethod,
  QueryValue,
  TokenProvider,
  RequestOptions,
  FetchLike,
  WithResponse,
} from './core/types.ts';
export type { APIPromise } from './core/api-promise.ts';
export type { Logger } from './core/log.ts';
export { path, PathParameterError, type RoutePath } from './core/path.ts';
export { PagePromise, type Page, type PageParametros, type Paginacao, type PaginacaoQuery } from './core/pagination.ts';
export * from './errors/public.ts';
// Only a receiving app meets it (the payer's face has none).
export { InvalidNotificationError, WebhookAuthenticationError, type WebhookCheck } from './errors/failures.ts';
export {
  Cob,
  type CobStatus,
  type PessoaFisica,
  type PessoaJuridica,
  type Devedor,
  type InfoAdicional,
  type LocSolicitada,
  type CobLocation,
  type ChargePayment,
  type RetiradaDetalhe,
  type ModalidadeAgente,
  type Retirada,
  type CobValor,
  type CobSolicitada,
  type CobAlteracao,
  type CobRemocao,
  type CobRevisada,
  type CobGerada,
  type CobCompleta,
  type CobListQuery,
} from './collection/cob.ts';
export type { ParametrosConsultaCob } from './collection/charge.ts';
export {
  CobV,
  type DadosComplementares,
  type DevedorCobV,
  type Recebedor,
  type CobVCalendario,
  type Multa,
  type Juros,
  type Abatimento,
  type DescontoDataFixa,
  type Desconto,
  type CobVValor,
  type CobVSolicitada,
  type CobVAlteracao,
  type CobVRemocao,
  type CobVRevisada,
  type CobVGerada,
  type CobVCompleta,
  type CobVListQuery,
} from './collection/cobv.ts';
export {
  LoteCobV,
  type LoteCobVUpdateOptions,
  type LoteCobVCobSolicitada,
  type LoteCobVSolicitado,
  type LoteCobVCobRevisada,
  type LoteCobVRevisado,
  type LoteCobVCobStatus,
  type Problema,
  type LoteCobVCob,
  type LoteCobVConsultado,
  type LoteCobVListQuery,
  type ParametrosConsultaLote,
} from './collection/lotecobv.ts';
export {
  PayloadLocation,
  type LocationId,
  type TipoCob,
  type PayloadLocationSolicitada,
  type PayloadLocationRevisada,
  type PayloadLocationGerada,
  type PayloadLocationCompleta,
  type PayloadLocationListQuery,
  type ParametrosConsultaLoc,
} from './collection/loc.ts';
export {
  Instant,
  isDispute,
  DISPUTE_NATURES,
  MED_AUTOMATIC,
  type DevolucaoStatus,
  type DevolucaoNatureza,
  type DevolucaoSolicitada,
  type Devolucao,
  type ComponenteValor,
  type InstantPayment,
  type InstantListQuery,
  type ParametrosConsultaInstant,
} from './collection/instant.ts';
export {
  Webhook,
  type WebhookSolicitado,
  type WebhookCompleto,
  type WebhookListQuery,
  type ParametrosConsultaWebhook,
} from './collection/webhook.ts';
// Recurring charges: recurrences, confirmation requests, recurring charges, their locations and webhooks.
export type {
  Periodicidade,
  PoliticaRetentativa,
  RecStatus,
  TipoJornada,
  Solicitante,
  RecVinculo,
  RecCalendario,
  RecValor,
  Atualizacao,
  RecRecebedor,
  RecTermos,
  RecPayload,
} from './recurring/terms.ts';
export {
  Rec,
  type RecSolicitada,
  type RecRevisada,
  type RecEncerramento,
  type RecAtivacao,
  type RecGerada,
  type RecPagador,
  type DadosQR,
  type RecCompleta,
  type RecListQuery,
  type ParametrosConsultaRec,
} from './recurring/rec.ts';
export {
  SolicRec,
  type SolicRecStatus,
  type Destinatario,
  type DadosBancarios,
  type SolicRecSolicitada,
  type SolicRecRevisada,
  type SolicRecCompleta,
} from './recurring/solicrec.ts';
export {
  CobR,
  type CobRStatus,
  type TipoConta,
  type OwnAccount,
  type CobRRecebedor,
  type CobRSolicitada,
  type CobRRevisada,
  type TentativaTipo,
  type TentativaStatus,
  type CobRRejeicao,
  type Tentativa,
  type CobREncerramento,
  type CobRGerada,
  type CobRCompleta,
  type CobRListQuery,
  type ParametrosConsultaCobR,
} from './recurring/cobr.ts';
export {
  PayloadLocationRec,
  type PayloadLocationRecGerada,
  type PayloadLocationRecCompleta,
  type PayloadLocationRecListQuery,
  type ParametrosConsultaPayloadLocationRec,
} from './recurring/locrec.ts';
export {
  WebhookRegistration,
  type RegistrationKind,
  type WebhookRecSolicitado,
  type WebhookRecCompleto,
} from './recurring/webhook-registration.ts';
export { WebhookRec } from './recurring/webhookrec.ts';
export { WebhookCobR, type WebhookCobRSolicitado, type WebhookCobRCompleto } from './recurring/webhookcobr.ts';
export {
  recurringHandler,
  parseRecurringNotifications,
  type RecurringNotificationsApi,
  type RecurringHandlerOptions,
  type RecurringHandler,
  type RecurringNotifications,
  type RecNotification,
  type CobRNotification,
  type RecNotificationContext,
  type CobRNotificationContext,
  type UnconfirmedRecurring,
} from './recurring/notifications.ts';
export { CashOutClient, type CashOutClientOptions, type CashOutCredentials } from './cash-out/client.ts';
export { CashOutBalance } from './cash-out/balance.ts';
export { CashOutPayments, type CreatePaymentOptions } from './cash-out/payments.ts';
export {
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  IdempotencyKeyReusedError,
  CashOutResponseError,
  TransferNotFoundError,
  CashOutConflictError,
  CashOutPreconditionFailedError,
  CashOutUnprocessableError,
  CashOutRateLimitedError,
} from './cash-out/errors.ts';
export {
  TRANSFER_STATUSES,
  NOTIFIED_STATUSES,
  TRANSFER_ERROR_CODES,
  type TransferStatus,
  type NotifiedStatus,
  type TransferErrorCode,
  type Money,
  type TransferAccount,
  type TransferRefund,
  type Transfer,
  type CashOutPaymentRequest,
  type BalanceEntry,
  type Balance,
} from './cash-out/types.ts';
export type { PayParams, PayResult } from './cash-out/pay.ts';
export {
  parseTransferNotification,
  verifyTransferNotification,
  createTransferNotificationHandler,
  type SuspicionReason,
  type ConfirmedNotification,
  type SuspiciousNotification,
  type NotificationVerification,
  type TransferNotificationHandlerOptions,
  type TransferNotificationHandler,
  type TransferContext,
} from './cash-out/notifications.ts';
export {
  DEFAULT_NOTIFICATION_MAX_BYTES,
  type NotificationHandler,
  type NotificationHandlerOptions,
  type NotificationContext,
  type ConnectionInfo,
} from './notifications/handler.ts';
export { webhookUrl, type WebhookAuthentication } from './notifications/authenticate.ts';
export { DEFAULT_MAX_CONCURRENT_CONFIRMATIONS } from './notifications/confirmed.ts';
export {
  receivedPaymentsHandler,
  parseReceivedPayments,
  type ReceivedPaymentsApi,
  type ReceivedPaymentsHandlerOptions,
  type PaymentContext,
  type UnconfirmedReason,
  type UnconfirmedPayment,
  type ReceivedPaymentsHandler,
} from './collection/received-payments.ts';
export { DEFAULT_SWEEP_OVERLAP_MS, type SweepOptions, type SweepResult } from './notifications/sweep.ts';
export {
  reconcilePayment,
  type Reconciliation,
  type ReconciledPayment,
  type ReconciledCob,
} from './collection/reconcile.ts';
export {
  toNodeHandler,
  type NodeHandler,
  type NodeHandlerOptions,
  type WebHandler,
  type FrameworkRequest,
  type FrameworkReply,
} from './node/adapter.ts';
export * from './lib/public.ts';
export { brcode, lintBrCode, LINT_RULES } from './lib/brcode.ts';
export type { BrCodeFinding, BrCodeLint, BrCodeLintRule } from './lib/brcode.ts';
export { receipt } from './receipt/receipt.ts';
export type { ReceiptOptions, ReceiptParty } from './receipt/fields.ts';
export {
  StoreError,
  ClaimBusyError,
  type Store,
  type Sealer,
  type TransactionalStore,
  type ClaimTerms,
  type HeldClaim,
  type StoreTransaction,
  type StoreQueryResult,
} from './store/types.ts';
export { createMemoryStore, type MemoryStoreOptions } from './store/memory.ts';
export { createSealer, type EncryptionKey } from './store/crypto.ts';
export type { ClaimOptions, ClaimContext } from './store/claims.ts';
export type { RecoverOptions, RecoveredPayment } from './cash-out/recover.ts';
export type { IntentOptions } from './cash-out/intents.ts';
