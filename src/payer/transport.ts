/**
 * The payer side's HTTP: GET only, through the client's `fetch`, with a per-attempt timeout,
 * up to `maxRetries` retries on 408/429/5xx and network errors (Retry-After honoured, capped)
 * and typed errors. It does the backend core's job without ky, which alone would take half of
 * the payer bundle's budget. Redirects are never followed: a payload host that redirects is
 * refused, so a public location cannot bounce the app to an internal address.
 */
import { ConnectionError, InvalidResponseError, TimeoutError } from '../errors/failures.ts';
import { InstantError } from '../errors/base.ts';
import { createApiError, type StatusTable } from '../errors/factory.ts';
import type { FetchLike } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import { innermostCause } from '../core/network.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, isRedirect, readBounded } from '../core/response.ts';
import { parseJson } from '../internal/json.ts';
import { RETRY_STATUSES, backoffMs, retryAfterMs, sleep, type Backoff } from '../internal/retry.ts';
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

/** The payer's own constants: an app waits less than a backend (Retry-After cut to 10 s). */
const PAYER_BACKOFF: Backoff = { baseMs: 500, maxMs: 8_000, floor: 0 };
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
    const maxRetries = options.maxRetries ?? this.#config.maxRetries ?? 2;
    const timeout = options.timeout ?? this.#config.timeout ?? 30_000;
    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < maxRetries;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeout);
      const onAbort = () => controller.abort();
      options.signal?.addEventListener('abort', onAbort);
      let waitMs: number;
      let reason: string;
      const started = now().getTime();
      try {
        if (options.signal?.aborted) throw options.signal.reason;
        // Looked up per call, so a mock installed after the client was built still sees it.
        const fetch = this.#config.fetch ?? globalThis.fetch;
        const response = await fetch(url.href, {
          method: 'GET',
          headers: { accept },
          redirect: 'manual',
          signal: controller.signal,
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
        if (log?.debug) log.debug('request', { route, status: response.status, ms: now().getTime() - started });
        if (response.ok) return { response, text };
        if (!retriesLeft || !RETRY_STATUSES.includes(response.status)) {
          throw createApiError(response, parseJson(text), { status: errors });
        }
        waitMs =
          retryAfterMs(response.headers.get('retry-after'), MAX_RETRY_AFTER_MS, now) ??
          backoffMs(attempt, PAYER_BACKOFF);
        reason = `HTTP ${response.status}`;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (error instanceof InstantError) throw error;
        const failure = timedOut
          ? new TimeoutError(`${route} timed out after ${timeout} ms`)
          : new ConnectionError(`${route} failed: ${innermostCause(error).reason}${loopbackHint(url)}`, {
              cause: error,
            });
        if (!retriesLeft) {
          log?.warn?.('request failed', { route, error: failure.name, ms: now().getTime() - started });
          throw failure;
        }
        waitMs = backoffMs(attempt, PAYER_BACKOFF);
        reason = timedOut ? 'timeout' : 'network error';
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      }
      if (log?.warn) log.warn('retry', { route, retry: attempt + 1, reason, waitMs: Math.round(waitMs) });
      await sleep(waitMs, options.signal);
    }
  }
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
