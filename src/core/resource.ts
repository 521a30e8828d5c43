/**
 * The resource base. A resource method describes its call (method, path, body, the errors the
 * endpoint answers with) and the rule it must pass; the base judges the rule, unless validation
 * is off, and only then sends. Like stripe-node's validator in `_makeRequest` and Stainless's
 * `getAPIList`, so a method reads as one expression plus its rule.
 */
import { ApiError, type ApiErrorClass } from '../errors/api-error.ts';
import type { ErrorTables, StatusTable } from '../errors/factory.ts';
import type { CallSpec, LookFirst, RequestOptions, RetryPolicy, WithResponse } from './types.ts';
import { holds } from './retry-policy.ts';
import type { HttpCore } from './http.ts';
import { apiPromise, refusedApiPromise, rejectedApiPromise, type APIPromise } from './api-promise.ts';
import { listPages, type PagePromise, type PageParametros } from './pagination.ts';
import { routeOf, type RoutePath } from './path.ts';
import type { Now } from '../internal/clock.ts';
import { refusal, refuse, ruleContext, shouldValidate, type Rule } from './validation.ts';

/** What a resource class sees of its client: the HTTP core and the validation settings. */
export interface ClientContext {
  /** @internal Stripped from the published types, as the clients' own `http` field is. */
  readonly http: HttpCore;
  /** Client-side rule checks on by default; `validate: false` turns them off. */
  readonly validate: boolean;
  /** The receiving user's own directory keys, when given: a charge's `chave` must be one. */
  readonly ownKeys?: readonly string[] | undefined;
  /** The client's clock (the `now` option): the rules judge "today" by it. */
  readonly now: Now;
}

/**
 * The classes an endpoint answers a bare status with (no error type in the body). A request its
 * rule refuses gets the 400 one, the class the service would answer with.
 */
export type EndpointErrors = StatusTable & { readonly 400: ApiErrorClass };

/** One call of a resource method; `W` is the answer as it comes off the wire. */
export interface ResourceCall<T, W = T> extends Omit<CallSpec, 'errors' | 'path' | 'retry'> {
  /** Whether and how the call is sent again after an attempt whose outcome is unknown. */
  retry: RetryPolicy;
  /**
   * Built after the rule was judged: a parameter the rule refuses (an empty txid) is refused as
   * the service would refuse it, not as a malformed path.
   */
  path: () => RoutePath;
  errors: EndpointErrors;
  /** Judged before anything is sent, unless `validate` is off for the client or the call. */
  rule?: Rule | undefined;
  /** Reads the parsed answer into what the method resolves with. */
  normalize?: ((body: W) => T) | undefined;
}

/** What names a refused call's span. */
type RefusedCall = Pick<ResourceCall<unknown>, 'method' | 'path'>;

/** One list call: the query as the caller wrote it, the list's errors and rule, per-item reading. */
export interface ResourceListCall<T> {
  query: object | undefined;
  errors: EndpointErrors;
  rule?: Rule | undefined;
  normalize?: ((item: T) => unknown) | undefined;
  options: RequestOptions | undefined;
}

/** The `normalize` of a call that resolves with nothing (a 202 or 204), whatever the body says. */
export function noData(): void {}

export abstract class APIResource {
  /** @internal */
  protected readonly client: ClientContext;

  /** @internal A client makes its resources. */
  constructor(client: ClientContext) {
    this.client = client;
  }

  /**
   * Judges the call's rule, then sends it; resolves with the parsed (and normalised) answer,
   * `.withResponse()` with its `Response` too.
   */
  protected send<T, W = T>(call: ResourceCall<T, W>): APIPromise<T> {
    // No `async`: a refusal is `refusedApiPromise`, a call one promise more than the core's.
    let judging: Promise<void> | ApiError | undefined;
    try {
      judging = this.#judge(call.rule, call.errors, call.options, true);
    } catch (error) {
      return this.#traceRefusal(call, rejectedApiPromise(error));
    }
    if (judging instanceof ApiError) return this.#traceRefusal(call, refusedApiPromise(judging));
    if (judging === undefined) return apiPromise(this.#dispatch<T, W>(call));
    return apiPromise(
      judging.then(
        () => this.#dispatch<T, W>(call),
        (error: unknown) => this.#refused(call, error),
      ),
    );
  }

  /** `refused` as it is without telemetry; with it, rejecting once the refusal's span is recorded. */
  #traceRefusal<T>(call: RefusedCall, refused: APIPromise<T>): APIPromise<T> {
    if (this.client.http.telemetry === undefined) return refused;
    return apiPromise(refused.then(undefined, (error: unknown) => this.#refused(call, error)) as Promise<never>);
  }

  /** Rejects with `error`; with telemetry, after the refused call's span (named as the call's would be) is recorded. */
  #refused(call: RefusedCall, error: unknown): Promise<never> {
    const telemetry = this.client.http.telemetry;
    if (telemetry === undefined) return Promise.reject(error);
    return telemetry.refusedCall(error, call.method, routeOf(call.path) ?? '');
  }

  /** Hands the call to the core, which reads the answer with `normalize` as it parses it. */
  #dispatch<T, W>(resourceCall: ResourceCall<T, W>): Promise<WithResponse<T>> {
    let call: CallSpec;
    try {
      call = this.#callSpec(resourceCall);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.client.http.send<T>(call);
  }

  /** The core's call, field by field (a rest-and-spread copy costs a call more than this). */
  #callSpec<T, W>(c: ResourceCall<T, W>): CallSpec {
    const call: CallSpec = {
      method: c.method,
      path: c.path(),
      errors: this.errorTables(c.errors),
      options: c.options,
      retry: c.retry,
    };
    if (c.query !== undefined) call.query = c.query;
    if (c.body !== undefined) call.body = c.body;
    if (c.headers !== undefined) call.headers = c.headers;
    if (c.idempotencyKey !== undefined) call.idempotencyKey = c.idempotencyKey;
    if (c.accept !== undefined) call.accept = c.accept;
    if (c.normalize !== undefined) call.normalize = c.normalize;
    return call;
  }

  /**
   * `GET path` as a list whose array is `listKey`: `await` gives the first page, `for await`
   * every item. The rule is judged before the first page is asked for.
   */
  protected getList<T, P extends PageParametros>(
    path: RoutePath,
    listKey: string,
    call: ResourceListCall<T>,
  ): PagePromise<T, P> {
    return listPages<T, P>({
      http: this.client.http,
      path,
      listKey,
      query: call.query,
      errors: this.errorTables(call.errors),
      options: call.options,
      check: () => {
        const judged = this.#judge(call.rule, call.errors, call.options);
        if (judged instanceof ApiError) throw judged;
        return judged;
      },
      normalize: call.normalize,
    });
  }

  /**
   * The look before a create under a key of ours is sent again: `GET at` (answered 404 when the
   * service holds nothing there) must hold what the call `sent`; the record found is the answer.
   */
  protected lookFirst(at: () => RoutePath, errors: EndpointErrors, sent: unknown): LookFirst {
    return {
      lookFirst: async (options) => {
        try {
          const found = await this.client.http.send({
            method: 'GET',
            path: at(),
            errors: this.errorTables(errors),
            options,
            retry: 'replay',
          });
          return holds(found.data, sent) ? found.data : undefined;
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return undefined;
          throw error;
        }
      },
    };
  }

  /** @internal How the endpoint's classes by status combine with the error types (default: the catalogue's). */
  protected errorTables(status: StatusTable): ErrorTables {
    return { status };
  }

  /**
   * The refusal when the rule is broken (returned, not thrown: a throw costs a refusal more than
   * the rest of it); a promise only when the rule must read first (saves a turn per call).
   * `stackLater`: the refusal is made without a stack, which `refusedApiPromise` stamps.
   */
  #judge(
    rule: Rule | undefined,
    errors: EndpointErrors,
    options: RequestOptions | undefined,
    stackLater = false,
  ): Promise<void> | ApiError | undefined {
    if (rule === undefined || !shouldValidate(this.client.validate, options?.validate)) return undefined;
    const ctx = ruleContext(this.client.ownKeys, this.client.now);
    const reading = rule(ctx);
    if (reading) return reading.then(() => refuse(errors[400], ctx.out));
    return refusal(errors[400], ctx.out, undefined, stackLater);
  }
}
