/**
 * Every error the SDK throws. One table (`ERROR_CATALOGUE`) drives the per-type classes, their
 * hierarchy, the status layer of the error factory (`core/error-factory.ts`), the README error
 * table and the error tests.
 */
import { redactViolacao, scrub } from '../internal/redact.ts';

/** One entry of `violacoes`, as the service sends it (interface spec, "Violations", `Violacao`). */
export interface Violacao {
  razao?: string;
  propriedade?: string;
  valor?: string;
}

/**
 * The service's error types in scope (interface spec, "General errors" and "Specific errors", plus the
 * official types of the endpoints this SDK covers). The first status is the one the service
 * answers with; a type with two statuses (CobPayloadNaoEncontrado) lists both. A `general` type
 * is the one a bare status maps to; every other type's class extends the general class of its
 * first status (`CobNaoEncontrado extends NaoEncontrado`). A new type is one line here.
 */
export const ERROR_CATALOGUE = {
  RequisicaoInvalida: { general: true, status: [400], meaning: 'Invalid request' },
  AcessoNegado: { general: true, status: [403], meaning: 'Authenticated participant violates an authorization rule' },
  NaoEncontrado: { general: true, status: [404], meaning: 'Entity not found' },
  PermanentementeRemovido: { general: true, status: [410], meaning: 'Entity existed and was permanently removed' },
  ErroInternoDoServidor: { general: true, status: [500], meaning: 'Unexpected condition on the service' },
  ServicoIndisponivel: { general: true, status: [503], meaning: 'Service unavailable (maintenance or outside operating window)' },
  IndisponibilidadePorTempoEsgotado: { general: true, status: [504], meaning: 'Service took longer than expected' },
  CobPayloadNaoEncontrado: { status: [404, 410], meaning: 'No charge for the location (410: permanently gone)' },
  CobPayloadOperacaoInvalida: { status: [400], meaning: 'codMun or DPP invalid for the due-date charge payload' },
  CobNaoEncontrado: { status: [404], meaning: 'No immediate charge for the txid' },
  CobOperacaoInvalida: { status: [400], meaning: 'Immediate charge request breaks a rule of the spec (Violations)' },
  CobConsultaInvalida: { status: [400], meaning: 'Immediate charge query breaks a rule of the spec (Violations)' },
  CobVNaoEncontrada: { status: [404], meaning: 'No due-date charge for the txid' },
  CobVOperacaoInvalida: { status: [400], meaning: 'Due-date charge request breaks a rule of the spec (Violations)' },
  CobVConsultaInvalida: { status: [400], meaning: 'Due-date charge query is invalid' },
  LoteCobVNaoEncontrado: { status: [404], meaning: 'No batch for the id' },
  LoteCobVOperacaoInvalida: { status: [400], meaning: 'Batch request is invalid or changes the set of charges' },
  LoteCobVConsultaInvalida: { status: [400], meaning: 'Batch query is invalid' },
  PayloadLocationNaoEncontrado: { status: [404], meaning: 'No location for the id' },
  PayloadLocationOperacaoInvalida: { status: [400], meaning: 'Location request is invalid (tipoCob)' },
  PayloadLocationConsultaInvalida: { status: [400], meaning: 'Location query is invalid' },
  InstantNaoEncontrado: { status: [404], meaning: 'No received payment for the e2eid' },
  InstantDevolucaoNaoEncontrada: { status: [404], meaning: 'No refund with that id for the e2eid' },
  InstantConsultaInvalida: { status: [400], meaning: 'Received-payment query is invalid' },
  InstantDevolucaoInvalida: { status: [400], meaning: 'Refund request is invalid' },
  WebhookOperacaoInvalida: { status: [400], meaning: 'Webhook request invalid or chave not a valid directory key' },
  WebhookNaoEncontrado: { status: [404], meaning: 'No webhook for the key' },
  WebhookConsultaInvalida: { status: [400], meaning: 'Webhook query is invalid' },
} as const satisfies Record<string, { general?: true; status: readonly number[]; meaning: string }>;

/** The name of an error type of the catalogue: `'CobOperacaoInvalida'`, `'NaoEncontrado'`... */
export type CatalogueErrorType = keyof typeof ERROR_CATALOGUE;

/** Error-type base used for errors the SDK raises itself, before any request. */
export const CLIENT_ERROR_BASE = 'urn:instant-payments:error';

/** Base of every error this SDK throws. */
export class InstantError extends Error {
  override readonly name: string = 'InstantError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** What `JSON.stringify(error)` shows: the public fields, never the cause or the response. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (value !== undefined && key !== 'name' && key !== 'message') out[key] = value;
    }
    return out;
  }
}

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
  response?: Response;
  cause?: unknown;
}

/** An HTTP failure, or a client-side refusal that mirrors one (`sentRequest: false`). */
export class ApiError extends InstantError {
  override readonly name: string;
  readonly status: number;
  /** Full error type URI, e.g. `https://host/api/v2/error/CobOperacaoInvalida`. */
  readonly type: string | undefined;
  /** Last path segment of `type` (whatever the error base is), e.g. `CobOperacaoInvalida`. */
  readonly errorType: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly violacoes: readonly Violacao[];
  readonly correlationId: string | undefined;
  readonly instance: string | undefined;
  readonly sentRequest: boolean;
  readonly #response: Response | undefined;

  constructor(init: ApiErrorInit = {}) {
    // A named class (`defineApiError`) gives its name, default status and, for a refusal before
    // sending, a type under CLIENT_ERROR_BASE: an answer without a type never gets the service's.
    const named = new.target as Partial<NamedErrorStatics>;
    const status = init.status ?? named.defaultStatus ?? 0;
    const own = named.errorType;
    const type = init.type ?? (own !== undefined && init.sentRequest === false ? `${CLIENT_ERROR_BASE}/${own}` : undefined);
    const errorType = (init.type === undefined ? undefined : errorTypeOf(init.type)) ?? init.errorType ?? own;
    // A refusal before sending carries text the SDK wrote: only the caller's values are masked.
    const trusted = init.sentRequest === false;
    const title = init.title === undefined || trusted ? init.title : scrub(init.title);
    const detail = init.detail === undefined || trusted ? init.detail : scrub(init.detail);
    const violacoes = init.violacoes === undefined ? [] : init.violacoes.map((v) => redactViolacao(v, trusted));
    super(describe(status, errorType, title, detail, violacoes), { cause: init.cause });
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

/** The token endpoint refused the credentials or answered something unusable. */
export class AuthenticationError extends InstantError {
  override readonly name: string = 'AuthenticationError';
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options);
    this.status = options.status;
  }
}

/** No HTTP response: DNS, refused or dropped connection, TLS failure. `cause` says which. */
export class ConnectionError extends InstantError {
  override readonly name: string = 'ConnectionError';
}

/**
 * An attempt, or the whole call with its retries, ran out of time. The SDK's own class: the
 * HTTP library's error of the same name never reaches a caller (it is turned into this one).
 * Test with `instanceof TimeoutError` (this class), not by `name`: a caller's own `signal`
 * (`AbortSignal.timeout(ms)`) still rejects with its reason, a `DOMException` also named
 * `"TimeoutError"`, which is not an `InstantError`.
 */
export class TimeoutError extends InstantError {
  override readonly name: string = 'TimeoutError';
}

/**
 * A notification the handlers will not read: not POST, too large, not JSON, or not the shape
 * of its kind (a received-payment list; a transfer confirmation with `data.idempotencyKey` and
 * `data.status`). Both notification handlers answer it with 400 (405 for the method).
 */
export class InvalidNotificationError extends InstantError {
  override readonly name: string = 'InvalidNotificationError';
}

/** Why an answer was not accepted. */
export type InvalidResponseReason = 'redirect' | 'too-large' | 'malformed';

/**
 * An answer the SDK does not accept: a redirect (never followed: requests stay on the configured
 * origin), a body past `maxResponseBytes`, or a success body that is not the JSON its content
 * type announces. `status` is the HTTP status of that answer.
 */
export class InvalidResponseError extends InstantError {
  override readonly name: string = 'InvalidResponseError';
  readonly reason: InvalidResponseReason;
  readonly status: number;

  constructor(reason: InvalidResponseReason, status: number, message: string) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
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

type Catalogue = typeof ERROR_CATALOGUE;
type FirstStatus<K extends CatalogueErrorType> = Catalogue[K]['status'][0];
type GeneralType = { [K in CatalogueErrorType]: Catalogue[K] extends { general: true } ? K : never }[CatalogueErrorType];
/** A general class's instances may be any type of its status, or a class defined outside the catalogue. */
type NamesOf<K extends CatalogueErrorType> = K extends GeneralType
  ? { [S in CatalogueErrorType]: FirstStatus<S> extends FirstStatus<K> ? S : never }[CatalogueErrorType] | (string & {})
  : K;

/** General type of each status (a bare 404 is `NaoEncontrado`), read from the catalogue. */
export const GENERAL_BY_STATUS: Readonly<Partial<Record<number, CatalogueErrorType>>> = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).flatMap(([name, entry]) => ('general' in entry ? [[entry.status[0], name]] : [])),
) as Partial<Record<number, CatalogueErrorType>>;

function catalogueClasses(): Record<string, ApiErrorClass> {
  const classes: Record<string, ApiErrorClass> = {};
  // General types come first in the catalogue, so a parent is built before its children.
  for (const [name, entry] of Object.entries(ERROR_CATALOGUE)) {
    const parent = 'general' in entry ? undefined : GENERAL_BY_STATUS[entry.status[0]];
    classes[name] = defineApiError(name, entry.status[0], parent === undefined ? ApiError : classes[parent]);
  }
  return classes;
}

/** Catalogue type name to class; the tests check it covers the whole catalogue. */
export const ERROR_CLASSES = catalogueClasses() as { readonly [K in CatalogueErrorType]: ApiErrorClass<NamesOf<K>> };

export const RequisicaoInvalida = ERROR_CLASSES.RequisicaoInvalida;
export type RequisicaoInvalida = InstanceType<typeof RequisicaoInvalida>;
export const AcessoNegado = ERROR_CLASSES.AcessoNegado;
export type AcessoNegado = InstanceType<typeof AcessoNegado>;
export const NaoEncontrado = ERROR_CLASSES.NaoEncontrado;
export type NaoEncontrado = InstanceType<typeof NaoEncontrado>;
export const PermanentementeRemovido = ERROR_CLASSES.PermanentementeRemovido;
export type PermanentementeRemovido = InstanceType<typeof PermanentementeRemovido>;
export const ErroInternoDoServidor = ERROR_CLASSES.ErroInternoDoServidor;
export type ErroInternoDoServidor = InstanceType<typeof ErroInternoDoServidor>;
export const ServicoIndisponivel = ERROR_CLASSES.ServicoIndisponivel;
export type ServicoIndisponivel = InstanceType<typeof ServicoIndisponivel>;
export const IndisponibilidadePorTempoEsgotado = ERROR_CLASSES.IndisponibilidadePorTempoEsgotado;
export type IndisponibilidadePorTempoEsgotado = InstanceType<typeof IndisponibilidadePorTempoEsgotado>;
export const CobPayloadNaoEncontrado = ERROR_CLASSES.CobPayloadNaoEncontrado;
export type CobPayloadNaoEncontrado = InstanceType<typeof CobPayloadNaoEncontrado>;
export const CobPayloadOperacaoInvalida = ERROR_CLASSES.CobPayloadOperacaoInvalida;
export type CobPayloadOperacaoInvalida = InstanceType<typeof CobPayloadOperacaoInvalida>;
export const CobNaoEncontrado = ERROR_CLASSES.CobNaoEncontrado;
export type CobNaoEncontrado = InstanceType<typeof CobNaoEncontrado>;
export const CobOperacaoInvalida = ERROR_CLASSES.CobOperacaoInvalida;
export type CobOperacaoInvalida = InstanceType<typeof CobOperacaoInvalida>;
export const CobConsultaInvalida = ERROR_CLASSES.CobConsultaInvalida;
export type CobConsultaInvalida = InstanceType<typeof CobConsultaInvalida>;
export const CobVNaoEncontrada = ERROR_CLASSES.CobVNaoEncontrada;
export type CobVNaoEncontrada = InstanceType<typeof CobVNaoEncontrada>;
export const CobVOperacaoInvalida = ERROR_CLASSES.CobVOperacaoInvalida;
export type CobVOperacaoInvalida = InstanceType<typeof CobVOperacaoInvalida>;
export const CobVConsultaInvalida = ERROR_CLASSES.CobVConsultaInvalida;
export type CobVConsultaInvalida = InstanceType<typeof CobVConsultaInvalida>;
export const LoteCobVNaoEncontrado = ERROR_CLASSES.LoteCobVNaoEncontrado;
export type LoteCobVNaoEncontrado = InstanceType<typeof LoteCobVNaoEncontrado>;
export const LoteCobVOperacaoInvalida = ERROR_CLASSES.LoteCobVOperacaoInvalida;
export type LoteCobVOperacaoInvalida = InstanceType<typeof LoteCobVOperacaoInvalida>;
export const LoteCobVConsultaInvalida = ERROR_CLASSES.LoteCobVConsultaInvalida;
export type LoteCobVConsultaInvalida = InstanceType<typeof LoteCobVConsultaInvalida>;
export const PayloadLocationNaoEncontrado = ERROR_CLASSES.PayloadLocationNaoEncontrado;
export type PayloadLocationNaoEncontrado = InstanceType<typeof PayloadLocationNaoEncontrado>;
export const PayloadLocationOperacaoInvalida = ERROR_CLASSES.PayloadLocationOperacaoInvalida;
export type PayloadLocationOperacaoInvalida = InstanceType<typeof PayloadLocationOperacaoInvalida>;
export const PayloadLocationConsultaInvalida = ERROR_CLASSES.PayloadLocationConsultaInvalida;
export type PayloadLocationConsultaInvalida = InstanceType<typeof PayloadLocationConsultaInvalida>;
export const InstantNaoEncontrado = ERROR_CLASSES.InstantNaoEncontrado;
export type InstantNaoEncontrado = InstanceType<typeof InstantNaoEncontrado>;
export const InstantDevolucaoNaoEncontrada = ERROR_CLASSES.InstantDevolucaoNaoEncontrada;
export type InstantDevolucaoNaoEncontrada = InstanceType<typeof InstantDevolucaoNaoEncontrada>;
export const InstantConsultaInvalida = ERROR_CLASSES.InstantConsultaInvalida;
export type InstantConsultaInvalida = InstanceType<typeof InstantConsultaInvalida>;
export const InstantDevolucaoInvalida = ERROR_CLASSES.InstantDevolucaoInvalida;
export type InstantDevolucaoInvalida = InstanceType<typeof InstantDevolucaoInvalida>;
export const WebhookOperacaoInvalida = ERROR_CLASSES.WebhookOperacaoInvalida;
export type WebhookOperacaoInvalida = InstanceType<typeof WebhookOperacaoInvalida>;
export const WebhookNaoEncontrado = ERROR_CLASSES.WebhookNaoEncontrado;
export type WebhookNaoEncontrado = InstanceType<typeof WebhookNaoEncontrado>;
export const WebhookConsultaInvalida = ERROR_CLASSES.WebhookConsultaInvalida;
export type WebhookConsultaInvalida = InstanceType<typeof WebhookConsultaInvalida>;

/** The error type named by a `type` URI: its last path segment, whatever the error base is. */
export function errorTypeOf(type: string | undefined): string | undefined {
  if (type === undefined || type === '') return undefined;
  const segment = type.replace(/[/#?]+$/, '').split(/[/#:]/).pop();
  return segment === undefined || segment === '' ? undefined : segment;
}

function describe(
  status: number,
  errorType: string | undefined,
  title: string | undefined,
  detail: string | undefined,
  violacoes: readonly Violacao[],
): string {
  let head = status > 0 ? String(status) : '';
  if (errorType) head = head ? `${head} ${errorType}` : errorType;
  let out = head || 'API error';
  const text = title && detail ? `${title}: ${detail}` : title || detail;
  if (text) out += ` ${text}`;
  let where = '';
  for (const v of violacoes) {
    const part = v.propriedade && v.razao ? `${v.propriedade} ${v.razao}` : v.propriedade || v.razao;
    if (part) where = where ? `${where}; ${part}` : part;
  }
  return where ? `${out} (${where})` : out;
}
