/**
 * `ApiError`: an answer of the service with an error status, or a refusal before sending that
 * mirrors one (`sentRequest: false`), and the way named classes are made (`defineApiError`).
 */
import { InstantError, type Violacao } from './base.ts';
import { redactViolacao, scrub } from './redact.ts';

/** Error-type base used for errors the SDK raises itself, before any request. */
export const CLIENT_ERROR_BASE = 'urn:instant-payments:error';

/** Fields an `ApiError` is made from. */
export interface ApiErrorInit {
  status?: number;
  type?: string;
  title?: string;
  detail?: string;
  violacoes?: readonly Violacao[];
  correlationId?: string;
  /** The cash-out provider's `instance` field. */
  instance?: string;
  /** False when the SDK refused the call before sending anything. */
  sentRequest?: boolean;
  /** `errorType` when `type` names none: the class's own name (set by the named classes). */
  errorType?: string;
  /** The call answered, as method and route template (`GET /cob/{}`): the message names it. */
  call?: string;
  /** A likely cause the message ends with, in parentheses (a route the service may not have). */
  hint?: string;
  response?: Response;
  cause?: unknown;
}

/** An HTTP failure, or a client-side refusal that mirrors one (`sentRequest: false`). */
export class ApiError extends InstantError {
  // `declare`: the constructor assigns each field once. Class fields, defined as undefined first,
  // made a refusal 5-17% dearer (bench row "cost of a refusal", A/B of two module copies).
  declare readonly name: string;
  declare readonly status: number;
  /** Full error type URI, e.g. `https://host/api/v2/error/CobOperacaoInvalida`. */
  declare readonly type: string | undefined;
  /** Last path segment of `type` (whatever the error base is), e.g. `CobOperacaoInvalida`. */
  declare readonly errorType: string | undefined;
  declare readonly title: string | undefined;
  declare readonly detail: string | undefined;
  declare readonly violacoes: readonly Violacao[];
  declare readonly correlationId: string | undefined;
  declare readonly instance: string | undefined;
  declare readonly sentRequest: boolean;
  readonly #response: Response | undefined;

  constructor(init: ApiErrorInit = {}) {
    // A named class (`defineApiError`) gives its name, default status and, for a refusal before
    // sending, a type under CLIENT_ERROR_BASE: an answer without a type never gets the service's.
    const named = new.target as Partial<NamedErrorStatics>;
    const status = init.status ?? named.defaultStatus ?? 0;
    const own = named.errorType;
    const type =
      init.type ?? (own !== undefined && init.sentRequest === false ? `${CLIENT_ERROR_BASE}/${own}` : undefined);
    const errorType = (init.type === undefined ? undefined : errorTypeOf(init.type)) ?? init.errorType ?? own;
    // A refusal before sending carries text the SDK wrote: only the caller's values are masked.
    const trusted = init.sentRequest === false;
    const title = init.title === undefined || trusted ? init.title : scrub(init.title);
    const detail = init.detail === undefined || trusted ? init.detail : scrub(init.detail);
    const violacoes = init.violacoes === undefined ? [] : init.violacoes.map((v) => redactViolacao(v, trusted));
    const text = describe(status, errorType, title, detail, violacoes, trusted);
    const message = init.call === undefined ? text : `${init.call} answered ${text}`;
    super(init.hint === undefined ? message : `${message} (${init.hint})`, { cause: init.cause });
    this.name = own ?? 'ApiError';
    this.status = status;
    this.type = type;
    this.errorType = errorType;
    this.title = title;
    this.detail = detail;
    this.violacoes = violacoes;
    this.correlationId = init.correlationId;
    this.instance = init.instance === undefined ? undefined : scrub(init.instance);
    this.sentRequest = init.sentRequest ?? true;
    this.#response = init.response;
  }

  /** The raw response (not an own property: kept out of logs and JSON). */
  get response(): Response | undefined {
    return this.#response;
  }
}

/** What a named class (`defineApiError`) tells the `ApiError` constructor. */
interface NamedErrorStatics {
  readonly errorType: string;
  readonly defaultStatus: number;
}

/** The API answered 401 twice in a row (the token was refreshed once in between). */
export class UnauthorizedError extends ApiError {
  override readonly name: string = 'UnauthorizedError';
}

/**
 * A class of `ApiError` for one error type; `instanceof` works as usual. `N` is what `name`
 * can be: the type's own name, or for a general class also those of the classes extending it.
 */
export interface ApiErrorClass<N extends string = string> {
  new (init?: ApiErrorInit): ApiError & { readonly name: N };
  /** The error type the class stands for (`'CobNaoEncontrado'`). */
  readonly errorType: string;
}

/** A class constructor an error class can extend. */
type ApiErrorParent = new (init?: ApiErrorInit) => ApiError;

/**
 * Makes a named `ApiError` class extending `Parent`: a literal `name`, a default status,
 * `errorType` = the name when the answer named no type, and (only for refusals before sending,
 * `sentRequest: false`) a type under `CLIENT_ERROR_BASE`. The `ApiError` constructor reads them
 * from the class, so a deeper hierarchy costs nothing per error.
 */
export function defineApiError<N extends string>(
  errorType: N,
  defaultStatus: number,
  Parent: ApiErrorParent = ApiError,
): ApiErrorClass<N> {
  const named = {
    [errorType]: class extends Parent {
      static readonly errorType = errorType;
      static readonly defaultStatus = defaultStatus;
    },
  };
  return named[errorType] as unknown as ApiErrorClass<N>;
}

/** The error type named by a `type` URI: its last path segment, whatever the error base is. */
export function errorTypeOf(type: string | undefined): string | undefined {
  if (type === undefined || type === '') return undefined;
  const segment = type
    .replace(/[/#?]+$/, '')
    .split(/[/#:]/)
    .pop();
  return segment === undefined || segment === '' ? undefined : segment;
}

/**
 * `400 CobOperacaoInvalida` and what was wrong, each field once as `field: reason`. The SDK's own
 * reasons read as written (a reason that starts with its field's name drops the repeat); the
 * service's title, detail and reasons are quoted as it sent them.
 */
function describe(
  status: number,
  errorType: string | undefined,
  title: string | undefined,
  detail: string | undefined,
  violacoes: readonly Violacao[],
  trusted: boolean,
): string {
  let head = status > 0 ? String(status) : '';
  if (errorType) head = head ? `${head} ${errorType}` : errorType;
  let out = head || 'API error';
  const text = title && detail ? `${title}${/[.:!?]$/.test(title) ? '' : ':'} ${detail}` : title || detail;
  if (text) out += trusted ? ` ${text}` : `: the service says ${JSON.stringify(text)}`;
  let where = '';
  for (const v of violacoes) {
    const reason = v.razao && (trusted ? withoutField(v.razao, v.propriedade) : JSON.stringify(v.razao));
    const part = v.propriedade && reason ? `${v.propriedade}: ${reason}` : v.propriedade || reason;
    if (part) where = where ? `${where}; ${part}` : part;
  }
  return where ? `${out} (${where})` : out;
}

/** `razao` without a leading repeat of its field (`txid must be...` at `txid` → `must be...`). */
function withoutField(razao: string, propriedade: string | undefined): string {
  if (propriedade === undefined) return razao;
  const named = razao.slice(0, razao.indexOf(' ') + 1 || 0).trimEnd();
  const repeats = named !== '' && (propriedade === named || propriedade.endsWith(`.${named}`));
  return repeats ? razao.slice(named.length + 1) : razao;
}
