/**
 * Failures that are not an error answer of the service: no token, no connection, no time left,
 * an answer the SDK will not read, a notification the handlers will not read.
 */
import { InstantError } from './base.ts';

/** The token endpoint refused the credentials or answered something unusable. */
export class AuthenticationError extends InstantError {
  override readonly name: string = 'AuthenticationError';
  readonly status: number | undefined;
  /** The endpoint's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown; retryAfterMs?: number | undefined } = {}) {
    super(message, options);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** No HTTP response: DNS, refused or dropped connection, TLS failure. `cause` says which. */
export class ConnectionError extends InstantError {
  override readonly name: string = 'ConnectionError';
}

/**
 * An attempt, or the whole call with its retries, ran out of time. The SDK's own class: the
 * HTTP library's error of the same name never reaches a caller (it is turned into this one).
 * Test with `instanceof TimeoutError` (this class), not by `name`: a caller's own `signal`
 * (`AbortSignal.timeout(ms)`) still rejects with its reason, a `DOMException` also named
 * `"TimeoutError"`, which is not an `InstantError`.
 */
export class TimeoutError extends InstantError {
  override readonly name: string = 'TimeoutError';
}

/**
 * A notification the handlers will not read: not POST, too large, not JSON, or not the shape
 * of its kind (a received-payment list; a transfer confirmation with `data.idempotencyKey` and
 * `data.status`). Both notification handlers answer it with 400 (405 for the method).
 */
export class InvalidNotificationError extends InstantError {
  override readonly name: string = 'InvalidNotificationError';
}

/** Why an answer was not accepted. */
export type InvalidResponseReason = 'redirect' | 'too-large' | 'malformed';

/**
 * An answer the SDK does not accept: a redirect (never followed: requests stay on the configured
 * origin), a body past `maxResponseBytes`, or a success body that is not the JSON its content
 * type announces. `status` is the HTTP status of that answer.
 */
export class InvalidResponseError extends InstantError {
  override readonly name: string = 'InvalidResponseError';
  readonly reason: InvalidResponseReason;
  readonly status: number;

  constructor(reason: InvalidResponseReason, status: number, message: string) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

/**
 * An option or argument the SDK cannot work with (no `baseUrl`, a URL that does not parse, a
 * certificate without its key, a store option out of range): thrown at once, before anything is
 * sent, naming the option.
 */
export class ConfigurationError extends InstantError {
  override readonly name: string = 'ConfigurationError';
  /** The option at fault, as the caller wrote it (`baseUrl`, `tls.key`, `claim.doneTtlMs`). */
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/**
 * The `now` option every client (and the memory store) takes: a clock, `() => Date`. A
 * `ConfigurationError` naming `now` for anything else.
 */
export function checkNowOption(now: unknown): void {
  if (now !== undefined && typeof now !== 'function')
    throw new ConfigurationError('now', 'now must be a function returning the current Date (a clock)');
}

/** The `authenticate` check of a notification handler that refused a delivery. */
export type WebhookCheck = 'clientCertificate' | 'secret' | 'allowIps';

/**
 * A notification refused by the handler's `authenticate` options, before its body was read or
 * the service asked: `status` 401 when no credential came (no certificate, no secret), 403 when
 * a wrong one did. `check` names the check, `reason` says why in words that never quote the
 * secret, the certificate or the address.
 */
export class WebhookAuthenticationError extends InstantError {
  override readonly name: string = 'WebhookAuthenticationError';
  readonly check: WebhookCheck;
  readonly reason: string;
  readonly status: 401 | 403;

  constructor(check: WebhookCheck, status: 401 | 403, reason: string) {
    super(`Notification refused by the ${check} check: ${reason}`);
    this.check = check;
    this.status = status;
    this.reason = reason;
  }
}
