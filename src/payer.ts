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
export * from './errors/public.ts';
export * from './lib/public.ts';
export * as brcode from './lib/brcode/payer-namespace.ts';
