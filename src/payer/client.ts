/**
 * The payer app's client: no credentials, no Node built-ins. It reads charge and recurrence
 * payloads at the locations QR codes carry, and sends everything (payloads and key sets) through its `fetch`.
 */
import type { FetchLike } from '../core/types.ts';
import { resolveLogger, type Logger } from '../core/log.ts';
import { CobPayloadResource } from './cob-payload.ts';
import { RecPayloadResource } from './rec-payload.ts';
import { JwsVerifier } from './jws.ts';
import { PayerHttp } from './transport.ts';
import { systemNow, type Now } from '../internal/clock.ts';
import { checkNowOption } from '../errors/failures.ts';

/** Options of `new PayerClient()`. */
export interface PayerClientOptions {
  /** Used for every request the client sends (payloads and key sets). */
  fetch?: FetchLike;
  /** Per-attempt timeout in milliseconds (default 30 000). */
  timeout?: number;
  /** Retries of a GET after 408/429/5xx or a network error (default 2). */
  maxRetries?: number;
  /**
   * Sandbox and development only: lets loopback, private and link-local hosts through, on any
   * port and over plain http. Public hosts still need https on the default port.
   */
  allowPrivateHosts?: boolean;
  /**
   * Largest answer read, in bytes (default 10 MiB); past it reading stops and the call fails
   * with `InvalidResponseError` (`reason: 'too-large'`).
   */
  maxResponseBytes?: number;
  /**
   * Development only: accept a payload served unsigned (plain JSON or text). By default a
   * payload must be a JWS that verifies against the location host's key set; an unsigned one is
   * refused with `PayloadVerificationError('unsigned')`.
   */
  allowUnsignedPayloads?: boolean;
  /**
   * Where the client logs its requests, retries and refused redirects (host, status and timings
   * only): any object with `debug`/`info`/`warn`/`error`. Default: stderr when the
   * `INSTANT_PAYMENTS_LOG` environment variable names a level (Node), else none.
   */
  logger?: Logger;
  /**
   * The clock (default the system clock): "today" for a payment date (`DPP`) and the key sets'
   * cache read it. The sandbox's `payerOptions()` passes its test clock.
   */
  now?: Now;
}

/** The payer app's client: reads the payload a BR Code's location points to, and verifies its signature. */
export class PayerClient {
  readonly cobPayload: CobPayloadResource;
  /** Recurrence payloads at the recurrence location of a composite QR code. */
  readonly recPayload: RecPayloadResource;

  constructor(options: PayerClientOptions = {}) {
    checkNowOption(options.now);
    const now = options.now ?? systemNow;
    const http = new PayerHttp({
      fetch: options.fetch,
      timeout: options.timeout,
      maxRetries: options.maxRetries,
      maxResponseBytes: options.maxResponseBytes,
      logger: resolveLogger(options.logger),
    });
    const allowPrivateHosts = options.allowPrivateHosts ?? false;
    const context = {
      http,
      verifier: new JwsVerifier(http, allowPrivateHosts, now),
      allowPrivateHosts,
      allowUnsignedPayloads: options.allowUnsignedPayloads ?? false,
      now,
    };
    this.cobPayload = new CobPayloadResource(context);
    this.recPayload = new RecPayloadResource(context);
  }
}
