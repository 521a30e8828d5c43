/**
 * The HTTP core: the only user of ky (through `ky.ts`, loaded on the first call). One ky
 * instance per client, used through its options and hooks: time limits, each call's retry policy
 * (a limit, and a look before a create is sent again, in a `beforeRetry` hook); one token refresh
 * on 401 and every failure turned into a typed error. Its `fetch` sets the default headers and the
 * bearer token, sends a body as text (`BODY_TEXT`) and guards the answer (bounded, no redirect
 * followed); each says there why ky's own option is not used.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { UnauthorizedError } from '../errors/api-error.ts';
import { ConnectionError, TimeoutError } from '../errors/failures.ts';
import { InstantError } from '../errors/base.ts';
import { createApiError, type ErrorTables } from '../errors/factory.ts';
import { serialize } from './request-body.ts';
import { resolveLogger, type Logger } from './log.ts';
import { DEFAULT_MAX_RETRIES, MAX_RETRY_AFTER_MS, RETRY_STATUSES, backoffMs } from '../internal/retry.ts';
import { bounded } from '../internal/bounded.ts';
import { systemNow, type Now } from '../internal/clock.ts';
import type {
  CallSpec,
  CustomRequest,
  FetchLike,
  HttpMethod,
  LookFirst,
  QueryValue,
  RequestOptions,
  TokenProvider,
  WithResponse,
} from './types.ts';
import { retryPolicyOf } from './retry-policy.ts';
import { bodyText, DEFAULT_MAX_RESPONSE_BYTES, guardResponse, type GuardOptions } from './response.ts';
import { USER_AGENT } from './version.ts';
import { apiPromise, type APIPromise } from './api-promise.ts';
import { describeConnectionFailure } from './network.ts';
import { customRequestProblem, logFailure, parseBody, routeTag, toSearchParams, trimSlashes } from './http-helpers.ts';
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
  /** The clock every time the core reads comes from (default: the system's). */
  now?: Now;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 120_000;
export { DEFAULT_MAX_RETRIES, MAX_RETRY_AFTER_MS };
/** ky may retry any method: the call's policy (`retryPolicyOf`) sets its limit, 0 for `'never'`. */
const ANY_METHOD = ['get', 'put', 'delete', 'post', 'patch'];
const LEADING_SLASHES = /^\/+/;
const SLASH = 0x2f;

/** What the retry hook needs of a call; given to ky as its context only when a retry needs it. */
interface CallContext {
  /** Holder shared by ky's copies of the context: when the last attempt failed. */
  sent: CallState;
  method: HttpMethod;
  route: string;
  /** The call's span, told of each retry. */
  observer: CallObserver | undefined;
  /** The call's look before a resend (its policy), with the caller's options. */
  look: LookFirst | undefined;
  options: RequestOptions | undefined;
  [key: string]: unknown;
}

interface CallState {
  failedAt?: number;
  /** Epoch ms by which the call must end (its `totalTimeout`). */
  deadline: number;
}

type KyModule = typeof import('./ky.ts');
let kyModule: Promise<KyModule> | undefined;
/** ky, imported once for all clients. */
const loadKy = (): Promise<KyModule> => (kyModule ??= import('./ky.ts'));
let ky: KyModule | undefined;

/** The SDK's backoff (`internal/retry.ts`); ky counts attempts from 1. */
const retryDelay = (attempt: number): number => backoffMs(attempt - 1);

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
  readonly #now: Now;
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
    this.#now = config.now ?? systemNow;
  }

  /** The clock's time in epoch ms. */
  #ms(): number {
    return this.#now().getTime();
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
   * `prefix`, the default headers are set by `#fetchAttempt`, and the retry hook is given only to
   * the calls that need it (`#retryPolicy`): ky merges default hooks into five arrays per call
   * (bench row "GET charge, c=32: SDK client CPU per call": 1.07x bare ky's with the hook among
   * the defaults in two runs, 1.01-1.03x without; in process, A/B of two builds, 7-11% of a GET).
   */
  #create(create: KyModule['ky']): KyInstance {
    const config = this.#config;
    return create.create({
      fetch: this.#fetchAttempt(),
      redirect: 'manual',
      timeout: config.timeout ?? DEFAULT_TIMEOUT_MS,
      totalTimeout: config.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS,
      // The backend calls retry through ky's own loop (ky is the transport: its attempts, timeouts
      // and hooks), with the rules of the SDK's one (`internal/retry.ts`): statuses, backoff, cap.
      // ky reads Retry-After itself (its options take a cap, not a parser).
      retry: {
        limit: config.maxRetries ?? DEFAULT_MAX_RETRIES,
        methods: ANY_METHOD,
        statusCodes: [...RETRY_STATUSES],
        afterStatusCodes: [...RETRY_STATUSES],
        maxRetryAfter: config.maxRetryAfter ?? MAX_RETRY_AFTER_MS,
        delay: retryDelay,
        retryOnTimeout: true,
      },
    });
  }

  /**
   * ky's `beforeRetry` hook of a call with a context (`#retryPolicy`): the retry told to the
   * call's span and logged, and the look before a create is sent again.
   */
  readonly #retryHooks: NonNullable<KyOptions['hooks']> = {
    beforeRetry: [
      ({ options, error, retryCount }) => {
        const context = options.context as CallContext;
        const { method, route, sent, observer, look } = context;
        observer?.retry(retryCount, describeRetry(error));
        const log = this.logger;
        if (log?.warn) {
          const waitedMs = sent.failedAt === undefined ? undefined : this.#ms() - sent.failedAt;
          log.warn('retry', { method, route, retry: retryCount, reason: describeRetry(error), waitedMs });
        }
        return look && !refusedUntouched(error) ? this.#lookFirst(look, context, error) : undefined;
      },
    ],
  };

  /**
   * Before a create under a key of ours is sent again after an answer that may hide a landed
   * attempt (none at all, a time-out, 500, 502, 504): what the service holds. The record found
   * is the call's answer, handed to ky as this retry's response (a `beforeRetry` hook may answer
   * in the retry's stead); nothing found, the call is sent again. A look that fails leaves the
   * attempt's own failure standing: nothing is sent again on a guess.
   */
  async #lookFirst(look: LookFirst, context: CallContext, error: unknown): Promise<Response | undefined> {
    const given = context.options;
    const options: RequestOptions = { totalTimeout: Math.max(1, context.sent.deadline - this.#ms()) };
    if (given?.signal) options.signal = given.signal;
    if (given?.timeout !== undefined) options.timeout = given.timeout;
    let found: unknown;
    try {
      found = await look.lookFirst(options);
    } catch {
      throw error;
    }
    if (found === undefined) return undefined;
    return new Response(JSON.stringify(found), { status: 200, headers: { 'content-type': 'application/json' } });
  }

  /**
   * ky's `fetch`: one attempt, for what ky does not do. The JSON text is sent as text (`BODY_TEXT`).
   * The bearer token is set here, each
   * attempt (a retry sends a fresh one), not in a `beforeRequest` hook: ky runs its hooks outside
   * the attempt's `timeout`, and a custom `getToken` has no time limit of its own. A built-in
   * provider's token is at hand (`#attempt` waited for a fetch before the first attempt). `fetch`
   * is looked up at call time, so a mock installed after the client was built still sees it; the
   * answer is guarded (a redirect refused, the body read whole but bounded, inside ky's time
   * limits and retries).
   */
  #fetchAttempt(): FetchLike {
    const config = this.#config;
    const auth = config.auth;
    const guard: GuardOptions = {
      maxResponseBytes: config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      detachSuccessBody: true,
    };
    const send = (request: Request, init: RequestInit | undefined): Promise<Response> => {
      const fetch = config.fetch ?? globalThis.fetch;
      const body = (init as BodyCarrier | undefined)?.[BODY_TEXT];
      // `Promise.resolve`: a user's `fetch` may hand back its `Response` without a promise.
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
    const withToken = (request: Request, init: RequestInit | undefined, token: string): Promise<Response> => {
      request.headers.set('authorization', `Bearer ${token}`);
      return send(request, init);
    };
    // The default headers under each call's own (a call's `accept`, a caller's header wins), set here
    // rather than as ky's `headers` option: ky merges a default `headers` into new `Headers` on every
    // call, ~12% of a GET's client work (bench "GET charge through an in-process fetch": 1.21x bare
    // ky with the option, 1.09x without, same run conditions).
    const defaults = Object.entries({
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...lowerCased(config.defaultHeaders),
    });
    return (input, init) => {
      const request = input as Request;
      for (const [name, value] of defaults) if (!request.headers.has(name)) request.headers.set(name, value);
      if (!auth) return send(request, init);
      const token = auth.tokenNow?.();
      if (token !== undefined) return withToken(request, init, token);
      return auth.getToken(request.signal).then((fetched) => withToken(request, init, fetched));
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
    const started = this.#ms();
    let kyOptions: KyOptions;
    try {
      kyOptions = this.#kyOptions(spec, observer, started);
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
          ms: this.#ms() - started,
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
      auth.invalidate(ky?.isHTTPError(error) ? sentToken(error.request) : undefined);
      this.logger?.warn?.('401: token dropped, replaying once', { method: spec.method, route: spec.path.route });
      observer?.replay();
      return this.#attempt<T>(spec, false, observer);
    };
    if (auth?.tokenNow && auth.tokenNow() === undefined) {
      // A built-in provider must fetch (or wait for another process's fetch), and ky loads meanwhile:
      // the wait has its own limit, counted against `totalTimeout`, not the first attempt's `timeout`.
      const totalTimeout = spec.options?.totalTimeout ?? this.#config.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS;
      if (ky === undefined) loadKy().catch(() => undefined); // a failed load fails the call in #transport
      const timedOut = () => new TimeoutError(`${spec.method} ${spec.path.route} timed out after ${totalTimeout} ms`);
      return bounded(auth.getToken(spec.options?.signal), totalTimeout, undefined, timedOut)
        .then(() => {
          kyOptions.totalTimeout = Math.max(1, totalTimeout - (this.#ms() - started));
          return this.#transmit(spec, kyOptions);
        })
        .then(read, fail);
    }
    return this.#transmit(spec, kyOptions).then(read, fail);
  }

  #transmit(spec: CallSpec, kyOptions: KyOptions): Promise<Response> {
    const transport = this.#ky;
    const url = this.#url(spec.path);
    if (transport) return transport(url, kyOptions);
    return this.#transport().then((loaded) => loaded(url, kyOptions));
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
  #kyOptions(spec: CallSpec, observer: CallObserver | undefined, started: number): KyOptions {
    const options = spec.options;
    const kyOptions: KyOptions = { method: spec.method };
    let headers: Record<string, string> | undefined;
    if (spec.accept !== undefined) (headers ??= {})['accept'] = spec.accept;
    if (spec.headers) headers = Object.assign(headers ?? {}, lowerCased(spec.headers));
    if (options?.headers) headers = Object.assign(headers ?? {}, lowerCased(options.headers));
    if (spec.idempotencyKey) (headers ??= {})[spec.idempotencyKey.header.toLowerCase()] = spec.idempotencyKey.value;
    // Not ky's `json` (a body JSON cannot hold is refused before sending) nor `body`: see `BODY_TEXT`.
    const body = serialize(spec);
    if (body !== undefined) {
      (kyOptions as BodyCarrier)[BODY_TEXT] = body;
      (headers ??= {})['content-type'] = 'application/json';
    }
    if (headers) kyOptions.headers = headers;
    if (options) {
      if (options.timeout !== undefined) kyOptions.timeout = options.timeout;
      if (options.totalTimeout !== undefined) kyOptions.totalTimeout = options.totalTimeout;
      if (options.signal) kyOptions.signal = options.signal;
    }
    const query = toSearchParams(spec.query, this.#defaultQuery);
    if (query) kyOptions.searchParams = query;
    this.#retryPolicy(kyOptions, spec, observer, started);
    return kyOptions;
  }

  /**
   * The call's retry policy in ky's per-call options: `'never'` is a limit of 0, a look first
   * rides in the call's context to the `beforeRetry` hook. Nothing per call for a plain replay.
   */
  #retryPolicy(kyOptions: KyOptions, spec: CallSpec, observer: CallObserver | undefined, started: number): void {
    const policy = retryPolicyOf(spec);
    const look = typeof policy === 'object' ? policy : undefined;
    const log = this.logger?.warn;
    const limit = policy === 'never' ? 0 : spec.options?.maxRetries;
    let sent: CallState | undefined;
    if (limit !== 0 && (log || observer || look)) {
      const totalTimeout = spec.options?.totalTimeout ?? this.#config.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS;
      sent = { deadline: started + totalTimeout };
      const context: CallContext = {
        sent,
        method: spec.method,
        route: spec.path.route,
        observer,
        look,
        options: spec.options,
      };
      kyOptions.context = context;
      kyOptions.hooks = this.#retryHooks;
    }
    if (limit === undefined && !(log && sent)) return;
    const retry: NonNullable<KyOptions['retry']> = {};
    if (limit !== undefined) retry.limit = limit;
    if (log && sent) {
      const state = sent;
      // Notes when the attempt failed, so the retry logs its wait (ky's `delay` is told no more than the count).
      retry.shouldRetry = () => {
        state.failedAt = this.#ms();
        return undefined;
      };
    }
    kyOptions.retry = retry;
  }

  /** The typed error of a failed call, logged. */
  #failed(error: unknown, spec: CallSpec, started: number): unknown {
    const mapped = this.#mapError(error, spec, this.#ms() - started);
    if (this.logger) logFailure(this.logger, spec, mapped, this.#ms() - started);
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

/**
 * The fetch option that carries a call's JSON text to `#fetchAttempt`, which sends it as text on
 * each attempt. ky passes options it does not own to `fetch` (as its readme's `dispatcher`), and a
 * body given to ky as its `body` becomes a stream ky tees for the retries and fetch pipes: the
 * bench row "PUT charge, c=32: SDK calls/s (duel with bare ky)" read 0.84x of bare ky that way
 * (client CPU 1.15x), 1.09x as text (CPU 0.86x), in this session's short runs on the shared machine.
 */
const BODY_TEXT = 'instantBodyText';
type BodyCarrier = { [BODY_TEXT]?: string };

/** Statuses by which the service says it did not take the request (nothing to look for before resending). */
const UNTOUCHED_STATUSES = [408, 429, 503];

function refusedUntouched(error: unknown): boolean {
  return ky?.isHTTPError(error) === true && UNTOUCHED_STATUSES.includes(error.response.status);
}

/** Header names in lower case: ky merges a call's headers into the defaults by name as written. */
function lowerCased(headers: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  return headers && Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** The token a request carried (the one a 401 refused). */
function sentToken(request: Request): string | undefined {
  return request.headers.get('authorization')?.replace(/^Bearer /, '');
}

function describeRetry(error: unknown): string {
  if (ky?.isHTTPError(error)) return `HTTP ${error.response.status}`;
  if (ky?.isTimeoutError(error)) return 'timeout';
  if (ky?.isNetworkError(error)) return 'network error';
  return error instanceof Error ? error.name : 'unknown';
}
