/** Errors of the payer side. Neither carries the location (a capability URL) nor the payload. */
import { InstantError } from '../errors/base.ts';

/** Why a location was refused before anything was sent. */
export type InvalidLocationReason =
  | 'malformed'
  | 'scheme'
  | 'userinfo'
  | 'ip-literal'
  | 'private-host'
  | 'port'
  | 'too-long'
  | 'redirect';

/** The location is not one the payer app should fetch (or the payload host redirected away). */
export class InvalidLocationError extends InstantError {
  override readonly name: string = 'InvalidLocationError';
  readonly reason: InvalidLocationReason;

  constructor(reason: InvalidLocationReason, detail: string) {
    super(`Location refused (${reason}): ${detail}`);
    this.reason = reason;
  }
}

/** Why a signed payload was not trusted. */
export type PayloadVerificationReason =
  | 'jku-missing'
  | 'jku-not-https'
  | 'jku-host-mismatch'
  | 'jwks-unavailable'
  | 'key-not-found'
  | 'algorithm-not-allowed'
  | 'bad-signature'
  | 'malformed'
  | 'unsigned';

/** A payload that failed verification (or could not be read); it is never handed out. */
export class PayloadVerificationError extends InstantError {
  override readonly name: string = 'PayloadVerificationError';
  readonly reason: PayloadVerificationReason;

  constructor(reason: PayloadVerificationReason, detail: string, options?: { cause?: unknown }) {
    super(`Payload not trusted (${reason}): ${detail}`, options);
    this.reason = reason;
  }
}
