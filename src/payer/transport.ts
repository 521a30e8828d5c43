/**
 * The payer side's HTTP: GET only, through the client's `fetch`, with the SDK's retry loop
 * (`internal/retry.ts`: a per-attempt timeout, up to `maxRetries` retries on 408/429/5xx and
 * network errors, Retry-After honoured, capped) and typed errors. It does the backend core's job without ky, which alone would take half of
 * the payer bundle's budget. Redirects are never followed: a payload host that redirects is
 * refused, so a public location cannot bounce the app to an internal address.
 */
import { ConnectionError, InvalidResponseError, TimeoutError } from '../errors/failures.ts';
import { InstantError } from '../errors/base.ts';
import { ApiError } from '../errors/api-error.ts';
import { createApiError, type StatusTable } from '../errors/factory.ts';
import type { FetchLike } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import { innermostCause } from '../core/network.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, isRedirect, readBounded } from '../core/response.ts';
import { parseJson } from '../internal/json.ts';
import { DEFAULT_MAX_RETRIES, RETRY_STATUSES, retrying } from '../internal/retry.ts';
import { systemNow, type Now } from '../internal/clock.ts';
import { InvalidLocationError } from './errors.ts';

/** Per-call options of the payer client, always the last argument. */
export interface PayerRequestOptions {
  signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds. */
  timeout?: number;
  maxRetries?: number;
}

export interface PayerHttpConfig {
  fetch?: FetchLike | undefined;
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  maxResponseBytes?: number | undefined;
  logger?: Logger | undefined;
  /** The clock the transport reads (default: the system's). */
  now?: Now | undefined;
}

export interface PayerResponse {
  response: Response;
  text: string;
}

/** An app waits less than a backend: a Retry-After is cut to 10 s. */
const MAX_RETRY_AFTER_MS = 10_000;

export class PayerHttp {
  readonly #config: PayerHttpConfig;

  constructor(config: PayerHttpConfig) {
    this.#config = config;
  }

  /** GETs `url`; `route` (scheme and host only) names it in errors and logs. */
  async get(
    url: URL,
    route: string,
    accept: string,
    errors: StatusTable | undefined,
    options: PayerRequestOptions = {},
  ): Promise<PayerResponse> {
    const log = this.#config.logger;
    const now = this.#config.now ?? systemNow;
    const timeout = options.timeout ?? this.#config.timeout ?? 30_000;
    const started = now().getTime();
    const attempt = async (signal: AbortSignal | undefined): Promise<PayerResponse> => {
      const sent = now().getTime();
      try {
        // Looked up per call, so a mock installed after the client was built still sees it.
        const fetch = this.#config.fetch ?? globalThis.fetch;
        const response = await fetch(url.href, {
          method: 'GET',
          headers: { accept },
          redirect: 'manual',
          signal: signal ?? null,
        });
        if (isRedirect(response)) {
          void response.body?.cancel().catch(() => undefined);
          log?.warn?.('redirect refused', { route, status: response.status });
          throw new InvalidLocationError(
            'redirect',
            'the payload host answered with a redirect, which is not followed',
          );
        }
        // Read under the attempt's timer: a body that trickles or never ends is cut by it.
        const maxBytes = this.#config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
        const bytes = await readBounded(response, maxBytes);
        if (bytes === undefined && response.ok) {
          throw new InvalidResponseError(
            'too-large',
            response.status,
            `${route} answered more than maxResponseBytes (${maxBytes} bytes)`,
          );
        }
        const text = bytes === undefined ? '' : new TextDecoder().decode(bytes);
        if (log?.debug) log.debug('request', { route, status: response.status, ms: now().getTime() - sent });
        if (response.ok) return { response, text };
        throw createApiError(response, parseJson(text), { status: errors });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (error instanceof InstantError) throw error;
        // Aborted, and not by the caller: the attempt's time limit.
        if (signal?.aborted) throw new TimeoutError(`${route} timed out after ${timeout} ms`);
        throw new ConnectionError(`${route} failed: ${innermostCause(error).reason}${loopbackHint(url)}`, {
          cause: error,
        });
      }
    };
    try {
      return await retrying(attempt, {
        maxRetries: options.maxRetries ?? this.#config.maxRetries ?? DEFAULT_MAX_RETRIES,
        now,
        signal: options.signal,
        timeout,
        maxRetryAfterMs: MAX_RETRY_AFTER_MS,
        retryable,
        between: log?.warn
          ? ({ retry, error, waitMs }) => {
              log.warn?.('retry', { route, retry, reason: describeFailure(error), waitMs: Math.round(waitMs) });
              return undefined;
            }
          : undefined,
      });
    } catch (error) {
      if (error instanceof ConnectionError || error instanceof TimeoutError)
        log?.warn?.('request failed', { route, error: error.name, ms: now().getTime() - started });
      throw error;
    }
  }
}

/** A time-out, a dropped connection or a status the service may answer differently next time. */
function retryable(error: unknown): boolean {
  if (error instanceof ApiError) return RETRY_STATUSES.includes(error.status);
  return error instanceof ConnectionError || error instanceof TimeoutError;
}

function describeFailure(error: unknown): string {
  if (error instanceof ApiError) return `HTTP ${error.status}`;
  return error instanceof TimeoutError ? 'timeout' : 'network error';
}

/**
 * An https location on this machine that cannot be reached is most often a sandbox, which
 * speaks http unless started with `tls`: the error names the setup that reaches it.
 */
function loopbackHint(url: URL): string {
  const host = url.hostname;
  const loopback = host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  return url.protocol === 'https:' && loopback
    ? "; a sandbox on this machine speaks http: build the PayerClient with sandboxPayerOptions(origin) from 'instant-payments/sandbox'"
    : '';
}
