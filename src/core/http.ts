/**
 * The HTTP core: the only user of ky (through `ky.ts`, loaded on the first call). One ky
 * instance per client with a few hooks: the bearer token before every attempt, retries only where
 * they are safe, one token refresh on 401, and every failure turned into a typed error.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { UnauthorizedError } from '../errors/api-error.ts';
import { ConnectionError, TimeoutError } from '../errors/failures.ts';
import { InstantError } from '../errors/base.ts';
import { createApiError, type ErrorTables } from '../errors/factory.ts';
import { serialize } from './request-body.ts';
import { resolveLogger, type Logger } from './log.ts';
import { RETRY_STATUSES, backoffMs, type Backoff } from '../internal/retry.ts';
import type {
  CallSpec,
  CustomRequest,
  FetchLike,
  HttpMethod,
  QueryValue,
  RequestOptions,
  TokenProvider,
  WithResponse,
} from './types.ts';
import { bodyText, DEFAULT_MAX_RESPONSE_BYTES, guardResponse, type GuardOptions } from './response.ts';
import { USER_AGENT } from './version.ts';
import { apiPromise, type APIPromise } from './api-promise.ts';
import { describeConnectionFailure } from './network.ts';
import {
  customRequestProblem,
  logFailure,
  parseBody,
  routeTag,
  toSearchParams,
  trimSlashes,
  withinBudget,
} from './http-helpers.ts';
import { operationName, type CallObserver, type Telemetry } from './telemetry.ts';

export interface HttpCoreConfig {
  /** Base URL the paths are appended to (a trailing slash is optional). */
  baseUrl?: string;
  fetch?: FetchLike;
  /** `fetch` is the user's (perhaps under the mTLS transport): it is handed `Request`s only. */
  usersFetch?: boolean;
  auth?: TokenProvider;
  timeout?: number;
  totalTimeout?: number;
  maxRetries?: number;
  logger?: Logger;
  /** Longest Retry-After honoured, in milliseconds (default 60 000); a longer one is cut to it. */
  maxRetryAfter?: number;
  /** Largest response body read, in bytes (default 10 MiB); a larger success is an `InvalidResponseError`. */
  maxResponseBytes?: number;
  /** Names the TLS failure behind a dropped connection (Node mTLS transport). */
  explainConnectionError?: (error: unknown) => unknown;
  /** Headers sent with every call unless the call sets its own (never with the token request). */
  defaultHeaders?: Readonly<Record<string, string>>;
  /** Query parameters sent with every call, merged under the call's own (the call's value wins). */
  defaultQuery?: Readonly<Record<string, QueryValue>>;
  /** A base URL per route's first segment (`cob`, `rec`...), for services that version resources apart. */
  baseUrls?: Readonly<Record<string, string>>;
  /** Spans and the duration metric; `undefined`: no OpenTelemetry, no work for it. */
  telemetry?: Telemetry | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Longest Retry-After the SDK waits for; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;
const CORE_BACKOFF: Backoff = { baseMs: 500, maxMs: 8_000, floor: 0 };
const SAFE_METHODS = ['get', 'put', 'delete'];
const LEADING_SLASHES = /^\/+/;
const SLASH = 0x2f;

/** What the retry hook logs; given to ky as the call's context only when retries are logged. */
interface CallContext {
  /** Holder shared by ky's copies of the context: when the last attempt failed. */
  sent: CallState;
  method: HttpMethod;
  route: string;
  /** The call's span, told of each retry. */
  observer: CallObserver | undefined;
  [key: string]: unknown;
}

/** The per-call option that carries the JSON text past ky to `#fetchAttempt`. */
const BODY_TEXT = 'instantBodyText';
type BodyCarrier = { [BODY_TEXT]?: string };

interface CallState {
  failedAt?: number;
}

type KyModule = typeof import('./ky.ts');
let kyModule: Promise<KyModule> | undefined;
/** ky, imported once for all clients. */
const loadKy = (): Promise<KyModule> => (kyModule ??= import('./ky.ts'));
let ky: KyModule | undefined;

/** ky counts attempts from 1. */
const retryDelay = (attempt: number): number => backoffMs(attempt - 1, CORE_BACKOFF);

/**
 * The HTTP core every resource sends through: bearer token, safe retries, time limits and typed
 * errors. Internal: users reach it through a resource or `client.request()`.
 */
export class HttpCore {
  #ky: KyInstance | undefined;
  readonly #config: HttpCoreConfig;
  /** `baseUrl` without its trailing slashes. */
  readonly #base: string | undefined;
  /** Where the core logs: the `logger` option, else the `INSTANT_PAYMENTS_LOG` one. */
  readonly logger: Logger | undefined;
  /** The retry settings of the client's defaults with an idempotency key, built once. */
  readonly #idempotentRetry: NonNullable<KyOptions['retry']>;
  /** The token each request was sent with, when the provider can drop a refused one. */
  readonly #sentTokens = new WeakMap<Request, string>();
  /** `baseUrls` without trailing slashes, by route's first segment; `undefined` when not given. */
  readonly #bases: ReadonlyMap<string, string> | undefined;
  /** `defaultQuery`'s entries; `undefined` when not given (no work per call then). */
  readonly #defaultQuery: ReadonlyArray<readonly [string, QueryValue]> | undefined;

  /** The client's OpenTelemetry (`undefined`: none), for the notification handlers' spans. */
  get telemetry(): Telemetry | undefined {
    return this.#config.telemetry;
  }

  constructor(config: HttpCoreConfig) {
    this.#config = config;
    this.#base = config.baseUrl ? trimSlashes(config.baseUrl) : undefined;
    const bases = config.baseUrls && Object.entries(config.baseUrls).filter(([, url]) => url !== undefined);
    this.#bases = bases?.length ? new Map(bases.map(([tag, url]) => [tag, trimSlashes(url)])) : undefined;
    const query = config.defaultQuery && Object.entries(config.defaultQuery).filter(([, value]) => value !== undefined);
    this.#defaultQuery = query?.length ? query : undefined;
    this.logger = resolveLogger(config.logger);
    this.#idempotentRetry = this.#retryOptions(undefined, true);
  }

  #retryOptions(
    maxRetries: number | undefined,
    idempotent: boolean,
    state?: CallState,
  ): NonNullable<KyOptions['retry']> {
    const config = this.#config;
    return {
      limit: maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES,
      methods: idempotent ? [...SAFE_METHODS, 'post'] : SAFE_METHODS,
      statusCodes: [...RETRY_STATUSES],
      afterStatusCodes: [...RETRY_STATUSES],
      maxRetryAfter: config.maxRetryAfter ?? MAX_RETRY_AFTER_MS,
      delay: retryDelay,
      retryOnTimeout: true,
      // Only when retries are logged: notes when the attempt failed, so the retry logs its wait.
      ...(state && {
        shouldRetry: () => {
          state.failedAt = Date.now();
          return undefined;
        },
      }),
    };
  }

  /** ky is loaded on the first call: importing it touches fetch's globals, ~30 ms of a cold start. */
  async #transport(): Promise<KyInstance> {
    ky ??= await loadKy();
    return (this.#ky ??= this.#create(ky.ky));
  }

  /**
   * The client's ky. ky merges each of these defaults into every call's options, one key at a
   * time, and builds a few `Headers` per call from default headers: a key it has by default
   * (`throwHttpErrors: true`) is left out, the base URL is joined by `#url` rather than given as
   * `prefix`, and the default headers are set by `#fetchAttempt`.
   */
  #create(create: KyModule['ky']): KyInstance {
    const config = this.#config;
    const log = this.logger;
    const traced = config.telemetry !== undefined;
    return create.create({
      fetch: this.#fetchAttempt(),
      redirect: 'manual',
      timeout: config.timeout ?? DEFAULT_TIMEOUT_MS,
      totalTimeout: config.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS,
      retry: this.#retryOptions(undefined, false),
      ...((log?.warn || traced) && {
        hooks: {
          beforeRetry: [
            ({ options, error, retryCount }) => {
              const { method, route, sent, observer } = options.context as CallContext;
              observer?.retry(retryCount, describeRetry(error));
              if (!log?.warn) return;
              const waitedMs = sent.failedAt === undefined ? undefined : Date.now() - sent.failedAt;
              log.warn('retry', { method, route, retry: retryCount, reason: describeRetry(error), waitedMs });
            },
          ],
        },
      }),
    });
  }

  /**
   * ky's `fetch`: one attempt. The bearer token (fetched for each attempt, so a retry sends a
   * fresh one) and the JSON content type are set on ky's own `Request` here rather than passed
   * as per-call headers, which ky would merge into its defaults on every call. A built-in
   * provider's token is at hand here (`#attempt` waited for it before the first attempt); a
   * custom `getToken` is waited for inside the attempt. The guard reads the whole body, so ky's
   * timeouts and retries cover it too. Not `async`: with the token at hand, the attempt is the
   * guard's own promise. ky's `Request` carries no body: the JSON text comes in the `init` ky
   * forwards (`BODY_TEXT`) and is sent as text, each attempt. A body in ky's `Request` would be
   * a stream, which ky tees for its retries and `fetch` pipes again when handed a `Request`: a
   * quarter of a PUT's client CPU (measured). So a call with a body reaches `fetch` as its URL
   * and an init, or, for a user's `fetch` (which may read one), as a `Request` made from them;
   * a call without a body reaches it as ky's `Request`.
   */
  #fetchAttempt(): FetchLike {
    const config = this.#config;
    const auth = config.auth;
    const sentTokens = this.#sentTokens;
    const defaultHeaders = config.defaultHeaders && Object.entries(config.defaultHeaders);
    const guard: GuardOptions = {
      maxResponseBytes: config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      detachSuccessBody: true,
    };
    const send = (request: Request, init: RequestInit | undefined, body: string | undefined): Promise<Response> => {
      // Looked up at call time, so a mock installed after the client was built still sees it.
      // `Promise.resolve`: a user's `fetch` may hand back its `Response` without a promise.
      const fetch = config.fetch ?? globalThis.fetch;
      if (body === undefined)
        return Promise.resolve(fetch(request, init)).then((response) => guardResponse(response, request, guard));
      const url = request.url;
      const withBody: RequestInit = {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
        redirect: 'manual',
      };
      const sent = config.usersFetch ? fetch(new Request(url, withBody)) : fetch(url, withBody);
      return Promise.resolve(sent).then((response) => guardResponse(response, url, guard));
    };
    const withToken = (
      request: Request,
      init: RequestInit | undefined,
      body: string | undefined,
      token: string,
    ): Promise<Response> => {
      request.headers.set('authorization', `Bearer ${token}`);
      // The token a 401 would refuse, for the failure handler to drop.
      if (auth?.invalidate) sentTokens.set(request, token);
      return send(request, init, body);
    };
    return (input, init) => {
      try {
        const request = input as Request;
        const body = (init as BodyCarrier | undefined)?.[BODY_TEXT];
        const headers = request.headers;
        // The defaults, unless the call gave its own (a call's `accept`, a caller's header).
        if (!headers.has('accept')) headers.set('accept', 'application/json');
        if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT);
        if (body !== undefined) headers.set('content-type', 'application/json');
        if (defaultHeaders) {
          for (const [name, value] of defaultHeaders) if (!headers.has(name)) headers.set(name, value);
        }
        if (!auth) return send(request, init, body);
        // A built-in provider's token at hand is taken as it is: no promise to wait for.
        const token = auth.tokenNow?.();
        if (token !== undefined) return withToken(request, init, body, token);
        return auth.getToken(request.signal).then((fetched) => withToken(request, init, body, fetched));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }

  /**
   * Sends the call; resolves with the parsed JSON body (`undefined` when empty), and
   * `.withResponse()` with the `Response` too.
   */
  json<T>(spec: CallSpec): APIPromise<T> {
    return apiPromise(this.send<T>(spec));
  }

  /**
   * `client.request()`: a call the SDK does not model. A call plain JavaScript got wrong (no call,
   * no method, a path not built with the `path` template) is refused with a `ConfigurationError`.
   */
  request<T>(call: CustomRequest, options: RequestOptions | undefined, errors?: ErrorTables): APIPromise<T> {
    const misuse = customRequestProblem(call);
    if (misuse) return apiPromise(Promise.reject(misuse));
    return this.json<T>(errors ? { ...call, options, errors } : { ...call, options });
  }

  /**
   * Sends the call; on a 401 the token is invalidated and the call replayed exactly once. With
   * telemetry, inside the call's CLIENT span (named after the SDK method) and its duration metric.
   */
  send<T>(spec: CallSpec): Promise<WithResponse<T>> {
    const telemetry = this.#config.telemetry;
    if (telemetry === undefined) return this.#attempt<T>(spec, true, undefined);
    const { method, path } = spec;
    const route = { method, template: path.route, url: this.#url(path) };
    return telemetry.call(operationName(method, path.route), route, (observer) =>
      this.#attempt<T>(spec, true, observer),
    );
  }

  /**
   * One call through ky (with its retries); never throws, rejects instead. A 401 the first time
   * (`replay`) drops the token and is replayed once, from the failure handler: a call that
   * succeeds takes no step more for it.
   */
  #attempt<T>(spec: CallSpec, replay: boolean, observer: CallObserver | undefined): Promise<WithResponse<T>> {
    const started = Date.now();
    let kyOptions: KyOptions;
    try {
      kyOptions = this.#kyOptions(spec, observer);
    } catch (error) {
      // Refused before sending (a body JSON cannot hold): nothing was sent, nothing is logged.
      return Promise.reject(error);
    }
    const done = (response: Response, text: string): WithResponse<T> => {
      let data: T;
      try {
        data = parseBody(text, response, spec) as T;
      } catch (error) {
        throw this.#failed(error, spec, started);
      }
      const log = this.logger;
      if (log?.debug)
        log.debug('request', {
          method: spec.method,
          route: spec.path.route,
          status: response.status,
          ms: Date.now() - started,
        });
      // Outside the try: a reader's own failure is not the call's.
      if (spec.normalize) data = (spec.normalize as (body: unknown) => T)(data);
      return { data, response };
    };
    // The guard read the body: it is there at once (a body read here would be outside ky's limits).
    const read = (response: Response): WithResponse<T> | Promise<WithResponse<T>> => {
      const text = bodyText(response);
      return typeof text === 'string' ? done(response, text) : text.then((late) => done(response, late));
    };
    const auth = this.#config.auth;
    const fail = (error: unknown): Promise<WithResponse<T>> => {
      const failed = this.#failed(error, spec, started);
      if (!replay || !auth?.invalidate || !(failed instanceof UnauthorizedError)) throw failed;
      // ky's error names the request that was answered 401: the token it carried is dropped.
      auth.invalidate(ky?.isHTTPError(error) ? this.#sentTokens.get(error.request) : undefined);
      this.logger?.warn?.('401: token dropped, replaying once', { method: spec.method, route: spec.path.route });
      observer?.replay();
      return this.#attempt<T>(spec, false, observer);
    };
    if (auth?.tokenNow && auth.tokenNow() === undefined) {
      // A built-in provider must fetch (or wait for another process's fetch), and ky loads meanwhile:
      // the wait has its own limit, counted against `totalTimeout`, not the first attempt's `timeout`.
      const totalTimeout = spec.options?.totalTimeout ?? this.#config.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS;
      if (ky === undefined) loadKy().catch(() => undefined); // a failed load fails the call in #transport
      return withinBudget(auth.getToken(spec.options?.signal), totalTimeout, spec)
        .then(() => {
          kyOptions.totalTimeout = Math.max(1, totalTimeout - (Date.now() - started));
          return this.#transmit(spec, kyOptions, observer);
        })
        .then(read, fail);
    }
    return this.#transmit(spec, kyOptions, observer).then(read, fail);
  }

  #transmit(spec: CallSpec, kyOptions: KyOptions, observer: CallObserver | undefined): Promise<Response> {
    const transport = this.#ky;
    const url = this.#url(spec.path);
    if (transport) return transport(url, kyOptions);
    return this.#transport().then((loaded) => loaded(url, this.#withRetry(kyOptions, spec, observer)));
  }

  /**
   * The base URL and the path, one slash between them (as ky's `prefix` joins them). With
   * `baseUrls`, the base is the one given for the route's first segment, if any.
   */
  #url(target: CallSpec['path']): string {
    const path = target.url;
    const base = this.#bases ? (this.#bases.get(routeTag(target.route)) ?? this.#base) : this.#base;
    if (base === undefined) return path;
    // The usual path starts with one slash: joined as it is, without a regular expression.
    if (path.charCodeAt(0) === SLASH && path.charCodeAt(1) !== SLASH) return base + path;
    return `${base}/${path.replace(LEADING_SLASHES, '')}`;
  }

  /**
   * ky's options for one call: only what differs from the client's defaults (accept, user
   * agent, time limits, retries), as ky merges every per-call option into its defaults.
   */
  #kyOptions(spec: CallSpec, observer: CallObserver | undefined): KyOptions {
    const options = spec.options;
    const kyOptions: KyOptions = { method: spec.method };
    let headers: Record<string, string> | undefined;
    if (spec.accept !== undefined) (headers ??= {})['accept'] = spec.accept;
    if (spec.headers) headers = Object.assign(headers ?? {}, spec.headers);
    if (options?.headers) headers = Object.assign(headers ?? {}, options.headers);
    if (spec.idempotencyKey) (headers ??= {})[spec.idempotencyKey.header] = spec.idempotencyKey.value;
    if (headers) kyOptions.headers = headers;
    const body = serialize(spec);
    // Not ky's `body`: see `#fetchAttempt`. ky hands options it does not know to `fetch`.
    if (body !== undefined) (kyOptions as BodyCarrier)[BODY_TEXT] = body;
    if (options) {
      if (options.timeout !== undefined) kyOptions.timeout = options.timeout;
      if (options.totalTimeout !== undefined) kyOptions.totalTimeout = options.totalTimeout;
      if (options.signal) kyOptions.signal = options.signal;
    }
    const query = toSearchParams(spec.query, this.#defaultQuery);
    if (query) kyOptions.searchParams = query;
    return ky === undefined ? kyOptions : this.#withRetry(kyOptions, spec, observer);
  }

  /** The call's retry settings, when they differ from the defaults (ky must be loaded). */
  #withRetry(kyOptions: KyOptions, spec: CallSpec, observer: CallObserver | undefined): KyOptions {
    const log = this.logger;
    const idempotent = spec.idempotencyKey !== undefined;
    const maxRetries = spec.options?.maxRetries;
    if (log?.warn || observer) {
      const sent: CallState = {};
      kyOptions.context = { sent, method: spec.method, route: spec.path.route, observer } satisfies CallContext;
    }
    if (log?.warn) {
      kyOptions.retry = ky!.replaceOption(
        this.#retryOptions(maxRetries, idempotent, (kyOptions.context as CallContext).sent),
      );
    } else if (idempotent || maxRetries !== undefined) {
      kyOptions.retry = ky!.replaceOption(
        maxRetries === undefined ? this.#idempotentRetry : this.#retryOptions(maxRetries, idempotent),
      );
    }
    return kyOptions;
  }

  /** The typed error of a failed call, logged. */
  #failed(error: unknown, spec: CallSpec, started: number): unknown {
    const mapped = this.#mapError(error, spec, Date.now() - started);
    if (this.logger) logFailure(this.logger, spec, mapped, Date.now() - started);
    return mapped;
  }

  /** What a 404 that names no resource may mean: the route is not under `baseUrl` (a missing `/v2`). */
  #routeHint(spec: CallSpec): string | undefined {
    if (this.#base === undefined) return undefined;
    let shown: string;
    try {
      // Origin and path only: never credentials or a query a baseUrl might carry.
      const base = new URL(this.#base);
      shown = `${base.origin}${base.pathname}`.replace(/\/+$/, '');
    } catch {
      return undefined;
    }
    return `the service may have no route ${spec.method} ${shown}${spec.path.route}: check that baseUrl ends with the API's version segment, such as /v2`;
  }

  #mapError(error: unknown, spec: CallSpec, elapsed: number): unknown {
    if (error instanceof InstantError) return error;
    // ky is loaded: only a call that reached it fails with one of its errors.
    if (ky === undefined) return error;
    if (ky.isHTTPError(error)) {
      return createApiError(
        error.response,
        error.data,
        spec.errors,
        `${spec.method} ${spec.path.route}`,
        this.#routeHint(spec),
      );
    }
    if (ky.isTimeoutError(error)) {
      return new TimeoutError(`${spec.method} ${spec.path.route} timed out after ${elapsed} ms`);
    }
    if (ky.isNetworkError(error)) {
      // Node's fetch wraps the real reason in a generic "fetch failed" TypeError.
      const root =
        error.cause instanceof TypeError && error.cause.cause !== undefined ? error.cause.cause : error.cause;
      const cause = this.#config.explainConnectionError?.(root) ?? root;
      return new ConnectionError(`${spec.method} ${spec.path.route} failed: ${describeConnectionFailure(cause)}`, {
        cause,
      });
    }
    // A caller's abort stays what it is: the reason the caller gave.
    if (spec.options?.signal?.aborted) return spec.options.signal.reason;
    return error;
  }
}

function describeRetry(error: unknown): string {
  if (ky?.isHTTPError(error)) return `HTTP ${error.response.status}`;
  if (ky?.isTimeoutError(error)) return 'timeout';
  if (ky?.isNetworkError(error)) return 'network error';
  return error instanceof Error ? error.name : 'unknown';
}
