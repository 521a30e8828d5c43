/**
 * OpenTelemetry through `@opentelemetry/api`, an optional peer dependency imported only when a
 * client turns telemetry on (the `telemetry` option, or `INSTANT_PAYMENTS_TELEMETRY=on`): the
 * providers are the option's, else the global ones read through the API's own functions, and
 * the spans nest through its context (a workflow's calls under the workflow, everything under
 * the caller's active span). Decided once per client: without telemetry the client holds
 * `undefined`, nothing of OpenTelemetry is loaded and a call does no work for it.
 *
 * Attributes are names, routes, statuses and counts only: never an id, a key, a document, an
 * amount, a token, a secret or a body.
 */
import { readEnv } from './log.ts';
import { SDK_VERSION } from './version.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

type Attributes = Record<string, string | number | boolean>;

/** The part of an OpenTelemetry `Span` the SDK uses. */
export interface TelemetrySpan {
  /** Sets one attribute (names, routes, statuses and counts only). */
  setAttribute(key: string, value: string | number | boolean): unknown;
  /** Adds an event: a retry, the 401 replay, a store step. */
  addEvent(name: string, attributes?: Attributes): unknown;
  /** Sets the status: `2` (ERROR) on failure, without a description. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span. */
  end(): void;
}

/** The part of an OpenTelemetry `TracerProvider` the SDK uses (`@opentelemetry/api`'s fits). */
export interface TelemetryTracerProvider {
  /** The SDK's tracer (`instant-payments`, its version). */
  getTracer(
    name: string,
    version?: string,
  ): {
    /** Starts a span (`kind` 1 SERVER, 2 CLIENT) under the parent `context` holds. */
    startSpan(name: string, options?: { kind?: number; attributes?: Attributes }, context?: unknown): TelemetrySpan;
  };
}

/** The part of an OpenTelemetry `MeterProvider` the SDK uses (`@opentelemetry/api`'s fits). */
export interface TelemetryMeterProvider {
  /** The SDK's meter (`instant-payments`, its version). */
  getMeter(
    name: string,
    version?: string,
  ): {
    /** Creates `http.client.request.duration`. */
    createHistogram(
      name: string,
      options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
    ): {
      /** Records one call's duration in seconds. */
      record(value: number, attributes?: Attributes): void;
    };
  };
}

/**
 * The `telemetry` client option: providers to use instead of the global ones (`{}`: the global
 * ones of `@opentelemetry/api`, as `INSTANT_PAYMENTS_TELEMETRY=on` gives a client without the option).
 */
export interface TelemetryOptions {
  tracerProvider?: TelemetryTracerProvider;
  meterProvider?: TelemetryMeterProvider;
}

/** The environment variable that turns telemetry on, with the global providers, for a client without the option. */
const TELEMETRY_ENV = 'INSTANT_PAYMENTS_TELEMETRY';

/** OpenTelemetry's `SpanKind` and `SpanStatusCode` values. */
const SPAN_KIND_SERVER = 1;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
const SCOPE = 'instant-payments';
/** The buckets the HTTP semantic conventions advise for `http.client.request.duration` (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

type Tracer = ReturnType<TelemetryTracerProvider['getTracer']>;
type Histogram = ReturnType<ReturnType<TelemetryMeterProvider['getMeter']>['createHistogram']>;
/** An OpenTelemetry `Context`, only ever handed back to the API. */
type Context = unknown;

/** What the SDK calls of `@opentelemetry/api`: its public functions only. */
interface OpenTelemetryApi {
  context: { active(): Context; with<R>(context: Context, work: () => R): R };
  trace: { getTracerProvider(): TelemetryTracerProvider; setSpan(context: Context, span: TelemetrySpan): Context };
  metrics: { getMeterProvider(): TelemetryMeterProvider };
}

/** Not a literal: a bundle without OpenTelemetry (Workers, a browser) must still build. */
const API_PACKAGE = '@opentelemetry/api';
let loadingApi: Promise<OpenTelemetryApi | undefined> | undefined;
/** Once the import has settled: the API, or `undefined` where it is not installed. */
let loadedApi: { api: OpenTelemetryApi | undefined } | undefined;

/** `@opentelemetry/api`, imported once for all clients; `undefined` where it is not installed. */
function loadApi(): Promise<OpenTelemetryApi | undefined> {
  loadingApi ??= (import(/* webpackIgnore: true */ /* @vite-ignore */ API_PACKAGE) as Promise<OpenTelemetryApi>).then(
    (api) => (loadedApi = { api }).api,
    () => (loadedApi = { api: undefined }).api,
  );
  return loadingApi;
}

function turnedOnByEnv(): boolean {
  const value = readEnv(TELEMETRY_ENV)?.trim().toLowerCase();
  return value === 'on' || value === 'true' || value === '1';
}

/** One SDK call being traced: the HTTP core tells it of each retry and of the 401 replay. */
export interface CallObserver {
  /** A retry is about to be sent (`retry` counts from 1). */
  retry(retry: number, reason: string): void;
  /** A 401 dropped the token; the call is sent once more. */
  replay(): void;
}

/** A workflow span (`cashOut.pay`, a notification): steps as events, an outcome at the end. */
export interface WorkflowSpan {
  step(name: string, attributes?: Attributes): void;
  end(outcome?: string, error?: unknown): void;
}

/** A call's route: its method and template, and the host it goes to. */
export interface CallRoute {
  method: string;
  template: string;
  url?: string;
}

/** What a call resolves with: the answer's status is the span's. */
interface Answered {
  response: { status: number };
}

/**
 * A client's telemetry. `@opentelemetry/api` is imported when the first such client is built; a
 * call made before it has loaded waits for it, so the first call is traced as every other.
 */
export class Telemetry {
  #recorder: Recorder | undefined;
  readonly #ready: Promise<Recorder>;

  private constructor(options: TelemetryOptions, now: Now) {
    if (loadedApi !== undefined) {
      this.#recorder = new Recorder(loadedApi.api, options, now);
      this.#ready = Promise.resolve(this.#recorder);
      return;
    }
    this.#ready = loadApi().then((api) => {
      this.#recorder = new Recorder(api, options, now);
      return this.#recorder;
    });
  }

  /** On with the `telemetry` option, or for a client without it with `INSTANT_PAYMENTS_TELEMETRY=on`; else `undefined`. */
  static resolve(options: TelemetryOptions | undefined, now: Now = systemNow): Telemetry | undefined {
    if (options === undefined && !turnedOnByEnv()) return undefined;
    return new Telemetry(options ?? {}, now);
  }

  /** `send` inside a CLIENT span named after the SDK method (`cob.create`); the duration metric at its end. */
  call<R extends Answered>(name: string, route: CallRoute, send: (observer: CallObserver) => Promise<R>): Promise<R> {
    return this.#use((recorder) => recorder.call(name, route, send));
  }

  /**
   * `work` inside a span: CLIENT (`cashOut.pay`, `cashOut.recover`) or SERVER (a notification).
   * The spans of the calls it makes are its children.
   */
  workflow<R>(name: string, kind: 'client' | 'server', work: (span: WorkflowSpan) => Promise<R>): Promise<R> {
    return this.#use((recorder) => recorder.workflow(name, kind, work));
  }

  /** A call refused before anything was sent: its span (status ERROR); rejects with `error` once it is recorded. */
  refused(error: unknown, name: string, route?: CallRoute): Promise<never> {
    return this.#use(async (recorder) => {
      recorder.refused(error, name, route);
      throw error;
    });
  }

  /** A resource call refused before sending: its span is named as the call's would be (`cob.create`). */
  refusedCall(error: unknown, method: string, template: string): Promise<never> {
    return this.refused(error, operationName(method, template), { method, template });
  }

  #use<R>(use: (recorder: Recorder) => Promise<R>): Promise<R> {
    const recorder = this.#recorder;
    return recorder === undefined ? this.#ready.then(use) : use(recorder);
  }
}

/** The tracer and the duration histogram once the API has loaded (or is known missing). */
class Recorder {
  readonly #api: OpenTelemetryApi | undefined;
  readonly #tracer: Tracer | undefined;
  readonly #duration: Histogram | undefined;
  readonly #now: Now;

  /** Without the API (not installed) only the option's providers are used, and spans do not nest. */
  constructor(api: OpenTelemetryApi | undefined, options: TelemetryOptions, now: Now) {
    this.#api = api;
    this.#now = now;
    const tracerProvider = options.tracerProvider ?? api?.trace.getTracerProvider();
    const meterProvider = options.meterProvider ?? api?.metrics.getMeterProvider();
    this.#tracer = tracerProvider?.getTracer(SCOPE, SDK_VERSION);
    this.#duration = meterProvider?.getMeter(SCOPE, SDK_VERSION).createHistogram('http.client.request.duration', {
      description: 'Duration of the SDK calls to the service, retries included',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  }

  call<R extends Answered>(name: string, route: CallRoute, send: (observer: CallObserver) => Promise<R>): Promise<R> {
    const started = epochMs(this.#now);
    const attributes = routeAttributes(route);
    const span = this.#start(name, SPAN_KIND_CLIENT, attributes);
    let attempts = 1;
    const observer: CallObserver = {
      retry: (retry, reason) => {
        attempts++;
        span?.addEvent('retry', { 'http.request.resend_count': retry, reason });
      },
      replay: () => {
        attempts++;
        span?.addEvent('token refused (401): dropped, call replayed once');
      },
    };
    const end = (status: number | undefined, error?: unknown): void => {
      const recorded: Attributes = { ...attributes };
      if (status !== undefined) recorded['http.response.status_code'] = status;
      if (error !== undefined) recorded['error.type'] = errorType(error);
      this.#duration?.record((epochMs(this.#now) - started) / 1000, recorded);
      if (span === undefined) return;
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      span.setAttribute('instant_payments.attempts', attempts);
      endSpan(span, error);
    };
    return this.#within(span, () => send(observer)).then(
      (result) => {
        end(result.response.status);
        return result;
      },
      (error: unknown) => {
        const status = (error as { status?: unknown } | null)?.status;
        end(typeof status === 'number' ? status : undefined, error);
        throw error;
      },
    );
  }

  workflow<R>(name: string, kind: 'client' | 'server', work: (span: WorkflowSpan) => Promise<R>): Promise<R> {
    const span = this.#start(name, kind === 'server' ? SPAN_KIND_SERVER : SPAN_KIND_CLIENT);
    if (span === undefined) return work(UNTRACED);
    return this.#within(span, () =>
      work({
        step: (step, attributes) => void span.addEvent(step, attributes),
        end: (outcome, error) => {
          if (outcome !== undefined) span.setAttribute('instant_payments.outcome', outcome);
          endSpan(span, error);
        },
      }),
    );
  }

  refused(error: unknown, name: string, route: CallRoute | undefined): void {
    const span = this.#start(name, SPAN_KIND_CLIENT, route && routeAttributes(route));
    if (span !== undefined) endSpan(span, error);
  }

  /** A span under the active one: the caller's, or the workflow's the call is made in. */
  #start(name: string, kind: number, attributes?: Attributes): TelemetrySpan | undefined {
    return this.#tracer?.startSpan(name, attributes ? { kind, attributes } : { kind }, this.#api?.context.active());
  }

  /** `work` with `span` active: what starts inside it is its child (a workflow's calls, an instrumented fetch). */
  #within<R>(span: TelemetrySpan | undefined, work: () => R): R {
    const api = this.#api;
    if (api === undefined || span === undefined) return work();
    return api.context.with(api.trace.setSpan(api.context.active(), span), work);
  }
}

/** A workflow span when only a meter was given. */
const UNTRACED: WorkflowSpan = { step() {}, end() {} };

function routeAttributes(route: CallRoute): Attributes {
  const attributes: Attributes = { 'http.request.method': route.method, 'url.template': route.template };
  const host = route.url === undefined ? undefined : hostOf(route.url);
  if (host !== undefined) attributes['server.address'] = host;
  return attributes;
}

/** Ends `span`; a failure sets status ERROR and `error.type`, never a description (a message may quote the service). */
function endSpan(span: TelemetrySpan, error: unknown): void {
  if (error !== undefined) {
    span.setAttribute('error.type', errorType(error));
    span.setStatus({ code: STATUS_ERROR });
  }
  span.end();
}

/** The error's class name: never its message, which may quote the service. */
function errorType(error: unknown): string {
  if (error instanceof Error) return error.name;
  return typeof error === 'object' && error !== null ? 'object' : typeof error;
}

function hostOf(url: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]+\]|[^/:?#]+)/i.exec(url);
  return match?.[1];
}

/**
 * The operation's name from its method and route template: the tag, then the verb the SDK's
 * method has (`PUT /cob/{}` → `cob.create`, `GET /rec/{}` → `rec.get`, `GET /cobr` → `cobr.list`).
 */
export function operationName(method: string, route: string): string {
  const cashOut = CASH_OUT_OPERATIONS[`${method} ${route}`];
  if (cashOut !== undefined) return cashOut;
  const segments = route.replace(/^\/+/, '').split('/');
  const tag = segments[0] ?? '';
  const rest = segments.slice(1).join('/');
  const verb = VERBS[`${method} ${rest}`] ?? VERBS[`${method} ${rest}@${tag}`];
  return verb === undefined ? `${tag}.${method.toLowerCase()}` : `${tag}.${verb}`;
}

/** Verbs by method and the route after its tag (`@tag` where the tag decides). */
const VERBS: Record<string, string> = {
  'POST ': 'create',
  'PUT {}': 'create',
  'GET {}': 'get',
  'GET ': 'list',
  'PATCH {}': 'update',
  'DELETE {}': 'delete',
  'DELETE {}/txid': 'unlink',
  'DELETE {}/idRec': 'unlink',
  'PUT {}/devolucao/{}': 'refund',
  'GET {}/devolucao/{}': 'getRefund',
  'POST {}/retentativa/{}': 'retry',
  'PUT {}@lotecobv': 'put',
  'PATCH {}@lotecobv': 'update',
  'PUT {}@webhook': 'put',
  'PUT @webhookrec': 'put',
  'GET @webhookrec': 'get',
  'DELETE @webhookrec': 'delete',
  'PUT @webhookcobr': 'put',
  'GET @webhookcobr': 'get',
  'DELETE @webhookcobr': 'delete',
};

const CASH_OUT_OPERATIONS: Record<string, string> = {
  'GET /api/v2/accounts/balances/': 'cashOut.balance.get',
  'POST /api/v2/instant/payments/dict': 'cashOut.payments.create',
  'GET /api/v2/instant/payments/idempotencyKey/{}': 'cashOut.payments.get',
};

/** The store methods a workflow's span shows as steps (`store.lease`, `store.set`...), by name only. */
const STORE_METHODS = ['lease', 'renew', 'unlease', 'get', 'set', 'delete', 'list', 'claim'] as const;

/**
 * `store` with each call shown as a step of `span` (`store.get`, `store.set`...): the method's
 * name and whether it failed, never its key or value.
 */
export function tracedStore<S extends object>(store: S, span: WorkflowSpan): S {
  const traced: Record<string, unknown> = Object.create(store) as Record<string, unknown>;
  const methods = store as Record<string, unknown>;
  for (const method of STORE_METHODS) {
    const call = methods[method];
    if (typeof call !== 'function') continue;
    traced[method] = (...args: unknown[]) => {
      span.step(`store.${method}`);
      return (call as (...a: unknown[]) => Promise<unknown>).apply(store, args).catch((error: unknown) => {
        span.step(`store.${method} failed`, { 'error.type': errorType(error) });
        throw error;
      });
    };
  }
  return traced as S;
}
