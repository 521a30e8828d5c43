/** Payer side: payload retrieval with signature checks, plus the isomorphic helpers. */
export { PayerClient, type PayerClientOptions } from './client.ts';
export {
  CobPayloadResource,
  type CobPayload,
  type CobVPayload,
  type CobVPayloadQuery,
  type CobPayloadStatus,
  type PayloadPessoa,
  type PayloadRecebedor,
  type PayloadInfoAdicional,
} from './cob-payload.ts';
export type { PayerRequestOptions } from './transport.ts';
export type { Logger } from '../core/log.ts';
export {
  InvalidLocationError,
  PayloadVerificationError,
  type InvalidLocationReason,
  type PayloadVerificationReason,
} from './errors.ts';
export { LOCATION_MAX_LENGTH } from './location.ts';
export * from '../lib/index.ts';
