/**
 * OpenTelemetry without importing it. The providers are the caller's (`telemetry` option) or the
 * global ones `@opentelemetry/api` registered, found under the key that package keeps them at
 * (`Symbol.for('opentelemetry.js.api.1')`); the SDK only calls the few methods typed below, so
 * no OpenTelemetry package is ever imported, and a bundle without one needs nothing. Decided once
 * per client: without a provider every hook is `undefined` and a call does no work for it.
 *
 * Attributes are names, routes, statuses and counts only: never an id, a key, a document, an
 * amount, a token, a secret or a body.
 */
import { SDK_VERSION } from './version.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';

/** The part of an OpenTelemetry `Span` the SDK uses. */
export interface TelemetrySpan {
  /** Sets one attribute (names, routes, statuses and counts only). */
  setAttribute(key: string, value: string | number | boolean): unknown;
  /** Adds an event: a retry, the 401 replay, a store step. */
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
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
    /** Starts a span; `kind` 1 SERVER, 2 CLIENT. */
    startSpan(
      name: string,
      options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
    ): TelemetrySpan;
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
      record(value: number, attributes?: Record<string, string | number | boolean>): void;
    };
  };
}

/** The `telemetry` client option: providers to use instead of the global ones. */
export interface TelemetryOptions {
  tracerProvider?: TelemetryTracerProvider;
  meterProvider?: TelemetryMeterProvider;
}

/** OpenTelemetry's `SpanKind` and `SpanStatusCode` values. */
const SPAN_KIND_SERVER = 1;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
const SCOPE = 'instant-payments';
/** The buckets the HTTP semantic conventions advise for `http.client.request.duration` (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

type Attributes = Record<string, string | number | boolean>;

interface GlobalApi {
  trace?: TelemetryTracerProvider;
  metrics?: TelemetryMeterProvider;
}

/** What `@opentelemetry/api` registered globally (its major version 1), if it is loaded at all. */
function globalApi(): GlobalApi | undefined {
  return (globalThis as Record<symbol, GlobalApi | undefined>)[Symbol.for('opentelemetry.js.api.1')];
}

/** One SDK call being traced: the HTTP core tells it what happened. */
export interface CallObserver {
  /** A retry is about to be sent (`retry` counts from 1). */
  retry(retry: number, reason: string): void;
  /** A 401 dropped the token; the call is sent once more. */
  replay(): void;
  /** The call answered: `status`, or the error it failed with. */
  end(status: number | undefined, error?: unknown): void;
}

/** A workflow span (`cashOut.pay`, a notification): steps as events, an outcome at the end. */
export interface WorkflowSpan {
  step(name: string, attributes?: Attributes): void;
  end(outcome?: string, error?: unknown): void;
}

/** A client's tracer and meter, or `undefined` when there is neither (nothing to do then). */
export class Telemetry {
  readonly #tracer: ReturnType<TelemetryTracerProvider['getTracer']> | undefined;
  readonly #duration: ReturnType<ReturnType<TelemetryMeterProvider['getMeter']>['createHistogram']> | undefined;
  readonly #now: Now;

  private constructor(
    tracerProvider: TelemetryTracerProvider | undefined,
    meterProvider: TelemetryMeterProvider | undefined,
    now: Now,
  ) {
    this.#now = now;
    this.#tracer = tracerProvider?.getTracer(SCOPE, SDK_VERSION);
    this.#duration = meterProvider?.getMeter(SCOPE, SDK_VERSION).createHistogram('http.client.request.duration', {
      description: 'Duration of the SDK calls to the service, retries included',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  }

  /** The option's providers, else the global ones; `undefined` when there are none. */
  static resolve(options: TelemetryOptions | undefined, now: Now = systemNow): Telemetry | undefined {
    const global = options?.tracerProvider && options.meterProvider ? undefined : globalApi();
    const tracerProvider = options?.tracerProvider ?? global?.trace;
    const meterProvider = options?.meterProvider ?? global?.metrics;
    if (tracerProvider === undefined && meterProvider === undefined) return undefined;
    return new Telemetry(tracerProvider, meterProvider, now);
  }

  /** A CLIENT span for one SDK call, `name` such as `cob.create`; the metric at its end. */
  call(name: string, method: string, template: string, url: string): CallObserver {
    const started = epochMs(this.#now);
    const base: Attributes = { 'http.request.method': method, 'url.template': template };
    const host = hostOf(url);
    if (host !== undefined) base['server.address'] = host;
    const span = this.#tracer?.startSpan(name, { kind: SPAN_KIND_CLIENT, attributes: base });
    let attempts = 1;
    return {
      retry: (retry, reason) => {
        attempts++;
        span?.addEvent('retry', { 'http.request.resend_count': retry, reason });
      },
      replay: () => {
        attempts++;
        span?.addEvent('token refused (401): dropped, call replayed once');
      },
      end: (status, error) => {
        const attributes: Attributes = { ...base };
        if (status !== undefined) attributes['http.response.status_code'] = status;
        if (error !== undefined) attributes['error.type'] = errorType(error);
        this.#duration?.record((epochMs(this.#now) - started) / 1000, attributes);
        if (span === undefined) return;
        if (status !== undefined) span.setAttribute('http.response.status_code', status);
        span.setAttribute('instant_payments.attempts', attempts);
        if (error !== undefined) {
          span.setAttribute('error.type', attributes['error.type']!);
          span.setStatus({ code: STATUS_ERROR });
        }
        span.end();
      },
    };
  }

  /** A span for a workflow: `kind` CLIENT (`cashOut.pay`, `cashOut.recover`) or SERVER (a notification). */
  workflow(name: string, kind: 'client' | 'server'): WorkflowSpan | undefined {
    const span = this.#tracer?.startSpan(name, { kind: kind === 'server' ? SPAN_KIND_SERVER : SPAN_KIND_CLIENT });
    if (span === undefined) return undefined;
    return {
      step: (step, attributes) => void span.addEvent(step, attributes),
      end: (outcome, error) => {
        if (outcome !== undefined) span.setAttribute('instant_payments.outcome', outcome);
        if (error !== undefined) {
          span.setAttribute('error.type', errorType(error));
          span.setStatus({ code: STATUS_ERROR });
        }
        span.end();
      },
    };
  }
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
