/**
 * The payer side's HTTP: GET only, through the client's `fetch`, with a per-attempt timeout,
 * up to `maxRetries` retries on 408/429/5xx and network errors (Retry-After honoured, capped)
 * and typed errors. It does the backend core's job without ky, which alone would take half of
 * the payer bundle's budget. Redirects are never followed: a payload host that redirects is
 * refused, so a public location cannot bounce the app to an internal address.
 */
import {
  ConnectionError,
  InstantError,
  InvalidResponseError,
  TimeoutError,
  createApiError,
  type StatusFallback,
} from '../core/errors.ts';
import type { FetchLike } from '../core/http.ts';
import type { Logger } from '../core/log.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, isRedirect, readBounded } from '../core/response.ts';
import { InvalidLocationError } from './errors.ts';
import { sleep } from '../internal/sleep.ts';

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
}

export interface PayerResponse {
  response: Response;
  text: string;
}

const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
const MAX_RETRY_AFTER_MS = 10_000;

export class PayerHttp {
  readonly #config: PayerHttpConfig;

  constructor(config: PayerHttpConfig) {
    this.#config = config;
  }

  /** GETs `url`; `route` (scheme and host only) names it in errors and logs. */
  async get(url: URL, route: string, accept: string, fallback: StatusFallback | undefined, options: PayerRequestOptions = {}): Promise<PayerResponse> {
    const log = this.#config.logger;
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
      const started = Date.now();
      try {
        if (options.signal?.aborted) throw options.signal.reason;
        // Looked up per call, so a mock installed after the client was built still sees it.
        const fetch = this.#config.fetch ?? globalThis.fetch;
        const response = await fetch(url.href, { method: 'GET', headers: { accept }, redirect: 'manual', signal: controller.signal });
        if (isRedirect(response)) {
          void response.body?.cancel().catch(() => undefined);
          log?.warn?.('redirect refused', { route, status: response.status });
          throw new InvalidLocationError('redirect', 'the payload host answered with a redirect, which is not followed');
        }
        // Read under the attempt's timer: a body that trickles or never ends is cut by it.
        const maxBytes = this.#config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
        const bytes = await readBounded(response, maxBytes);
        if (bytes === undefined && response.ok) {
          throw new InvalidResponseError('too-large', response.status, `${route} answered more than maxResponseBytes (${maxBytes} bytes)`);
        }
        const text = bytes === undefined ? '' : new TextDecoder().decode(bytes);
        if (log?.debug) log.debug('request', { route, status: response.status, ms: Date.now() - started });
        if (response.ok) return { response, text };
        if (!retriesLeft || !RETRY_STATUSES.includes(response.status)) {
          throw createApiError(response, parseJson(text), fallback);
        }
        waitMs = retryAfter(response) ?? backoff(attempt);
        reason = `HTTP ${response.status}`;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (error instanceof InstantError) throw error;
        const failure = timedOut
          ? new TimeoutError(`${route} timed out after ${timeout} ms`)
          : new ConnectionError(`${route} failed: ${error instanceof Error ? error.message : 'network error'}`, { cause: error });
        if (!retriesLeft) {
          log?.warn?.('request failed', { route, error: failure.name, ms: Date.now() - started });
          throw failure;
        }
        waitMs = backoff(attempt);
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

/** The body as JSON, or `undefined` when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function backoff(attempt: number): number {
  return Math.random() * Math.min(500 * 2 ** attempt, 8_000);
}

function retryAfter(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}
