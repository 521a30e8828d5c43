/**
 * The one error factory: an HTTP error answer becomes the class its body's `type` names, else
 * the class of its status (the endpoint's own, then the general one), as stripe-node picks by
 * type and then by status. Used by the HTTP core (so by every resource and cash-out) and by the
 * payer transport.
 */
import { ApiError, UnauthorizedError, errorTypeOf, type ApiErrorClass, type ApiErrorInit } from './api-error.ts';
import { ERROR_CLASSES, GENERAL_BY_STATUS } from './catalogue.ts';
import type { Violacao } from './base.ts';
import { isRecord } from '../internal/json.ts';

/** Classes by status, for answers whose type names no class. */
export type StatusTable = Readonly<Partial<Record<number, ApiErrorClass>>>;

/** How one endpoint's error answers map to classes. */
export interface ErrorTables {
  /**
   * Classes by error type (default: the catalogue). A type it does not know is a plain
   * `ApiError` keeping the type's name. `null` when the service's types name no class (the
   * cash-out provider's own codes): the status alone decides.
   */
  types?: Readonly<Record<string, ApiErrorClass>> | null;
  /** The endpoint's classes by status (a bare 404 from `/cob` is `CobNaoEncontrado`). */
  status?: StatusTable | undefined;
}

/** The class an endpoint refuses a request with before sending: its 400 class. */
export function refusalClass(tables: ErrorTables | undefined): ApiErrorClass {
  return tables?.status?.[400] ?? ERROR_CLASSES.RequisicaoInvalida;
}

/**
 * Builds the typed error for an HTTP error response. Understands the service's problem
 * bodies (`type`, `title`, `status`, `detail`, `correlationId`, `violacoes`), the cash-out
 * provider's `{type, title, detail, instance}`, and anything else (HTML, empty, plain text)
 * by status. 401 is always `UnauthorizedError`. `call` (`GET /cob/{}`: the method and the
 * route template, never a value) heads the message; `routeHint` ends the message of a 404 that
 * names no resource of its own (a bare one, or the general `NaoEncontrado`: the route itself
 * may be missing), unless the service's types name no class.
 */
export function createApiError(
  response: Response,
  body: unknown,
  tables: ErrorTables = {},
  call?: string,
  routeHint?: string,
): ApiError {
  const init = initFrom(response, body);
  if (call !== undefined) init.call = call;
  if (response.status === 401) return new UnauthorizedError(init);
  const scope = missingScope(response);
  if (scope !== undefined) init.hint = `the token lacks the scope ${scope}: add it to auth.scope`;
  const types: Readonly<Record<string, ApiErrorClass>> | null =
    tables.types === undefined ? ERROR_CLASSES : tables.types;
  const errorType = errorTypeOf(init.type);
  if (
    routeHint !== undefined &&
    response.status === 404 &&
    types !== null &&
    (errorType === undefined || errorType === 'NaoEncontrado')
  ) {
    init.hint = routeHint;
  }
  if (types !== null && errorType !== undefined) {
    const Named = Object.hasOwn(types, errorType) ? types[errorType] : undefined;
    return Named ? new Named(init) : new ApiError(init);
  }
  const general = GENERAL_BY_STATUS[response.status];
  const ByStatus = tables.status?.[response.status] ?? (general === undefined ? undefined : ERROR_CLASSES[general]);
  return ByStatus ? new ByStatus(init) : new ApiError(init);
}

function initFrom(response: Response, body: unknown): ApiErrorInit {
  const problem = isRecord(body) ? body : {};
  const init: ApiErrorInit = { status: response.status, response, sentRequest: true };
  // RFC 9457: "about:blank" means the problem has no more semantics than its status.
  const type = stringField(problem, 'type');
  if (type !== undefined && type !== 'about:blank') init.type = type;
  const title = stringField(problem, 'title');
  if (title !== undefined) init.title = title;
  const detail = stringField(problem, 'detail');
  if (detail !== undefined) init.detail = detail;
  const correlationId = stringField(problem, 'correlationId') ?? response.headers.get('x-correlation-id') ?? undefined;
  if (correlationId !== undefined) init.correlationId = correlationId;
  const instance = stringField(problem, 'instance');
  if (instance !== undefined) init.instance = instance;
  if (Array.isArray(problem['violacoes'])) init.violacoes = problem['violacoes'].filter(isRecord).map(toViolacao);
  return init;
}

/** The scope RFC 6750's `insufficient_scope` challenge of a 403 names, if any. */
function missingScope(response: Response): string | undefined {
  if (response.status !== 403) return undefined;
  const challenge = response.headers.get('www-authenticate') ?? '';
  if (!/error="insufficient_scope"/.test(challenge)) return undefined;
  return /\bscope="([^"]+)"/.exec(challenge)?.[1];
}

function toViolacao(raw: Record<string, unknown>): Violacao {
  const v: Violacao = {};
  for (const key of ['razao', 'propriedade', 'valor'] as const) {
    const value = raw[key];
    if (typeof value === 'string') v[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') v[key] = String(value);
  }
  return v;
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}
