/**
 * Client-side refusals. A rule of the interface spec's "Violations" that can be judged from the request throws
 * the same class the service would answer with, with `violacoes` shaped like the service's,
 * and `sentRequest: false`, before any I/O.
 *
 * Every rule reports the same way: it appends to the `RuleContext` it is given; the resource
 * base (`APIResource`) runs the rule of a call on a fresh context and refuses when it is not
 * empty.
 */
import type { ApiError, ApiErrorClass } from '../errors/api-error.ts';
import type { Violacao } from '../errors/base.ts';
import type { Now } from '../internal/clock.ts';

/** Where broken rules are collected, and what the rules compare against. */
export interface RuleContext {
  readonly out: Violacao[];
  /** The receiving user's keys: when given, a charge's `chave` must be one of them. */
  readonly ownKeys: readonly string[] | undefined;
  /** The client's clock: what "today" and "future" are judged against. */
  readonly now: Now;
  /** Records one broken rule (see `violation`). */
  add(propriedade: string, razao: string, valor?: unknown): void;
}

/** The check of one call: appends what it finds broken to `ctx`; async when it must read first. */
export type Rule = (ctx: RuleContext) => void | Promise<void>;

/** A fresh context for one request. */
export function ruleContext(ownKeys: readonly string[] | undefined, now: Now): RuleContext {
  return new Rules(ownKeys, now);
}

/** A class rather than an object literal: `add` is shared, not a closure made per call. */
class Rules implements RuleContext {
  readonly out: Violacao[] = [];
  readonly ownKeys: readonly string[] | undefined;
  readonly now: Now;

  constructor(ownKeys: readonly string[] | undefined, now: Now) {
    this.ownKeys = ownKeys;
    this.now = now;
  }

  add(propriedade: string, razao: string, valor?: unknown): void {
    this.out.push(violation(propriedade, razao, valor));
  }
}

/** One broken rule: the property as the service names it (`cob.valor.original`) and why. */
export function violation(propriedade: string, razao: string, valor?: unknown): Violacao {
  const v: Violacao = { propriedade, razao };
  if (valor !== undefined) v.valor = typeof valor === 'string' ? valor : describeValue(valor);
  return v;
}

/** JSON of an offending value; a value JSON cannot carry (a BigInt, a cycle) is named by its type. */
function describeValue(valor: unknown): string {
  try {
    return JSON.stringify(valor) ?? typeof valor;
  } catch {
    return `[unserializable ${typeof valor}]`;
  }
}

/** Throws `ErrorClass` carrying `violacoes` when there is at least one. */
export function refuse(ErrorClass: ApiErrorClass<string>, violacoes: readonly Violacao[], title?: string): void {
  const error = refusal(ErrorClass, violacoes, title);
  if (error) throw error;
}

/**
 * `ErrorClass` carrying `violacoes` when there is at least one (a caller that rejects need not
 * throw). `stackLater`: made without a stack, for a caller that stamps one where it is cheap
 * (`refusedApiPromise`, worth about half of a refusal: bench row "cost of a refusal"); where the
 * platform cannot stamp one later, it gets its stack now.
 */
export function refusal(
  ErrorClass: ApiErrorClass<string>,
  violacoes: readonly Violacao[],
  title?: string,
  stackLater = false,
): ApiError | undefined {
  if (violacoes.length === 0) return undefined;
  const init = { title: title ?? 'Request refused before sending', violacoes, sentRequest: false };
  if (!stackLater || typeof Error.captureStackTrace !== 'function') return new ErrorClass(init);
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ErrorClass(init);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Per-call or per-client switch: `validate: false` lets the service judge instead. */
export function shouldValidate(clientDefault: boolean, callOption: boolean | undefined): boolean {
  return callOption ?? clientDefault;
}

/** https, or plain http on a loopback host (a local sandbox or test server). */
export function isHttpsOrLoopback(url: URL): boolean {
  return (
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
  );
}
