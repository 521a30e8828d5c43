/**
 * Every error the SDK throws. One table (`ERROR_CATALOGUE`) drives the per-type classes,
 * the status fallback, the README error table and the error tests.
 */

/** One entry of `violacoes`, as the service sends it (spec 7.3, `Violacao`). */
export interface Violacao {
  razao?: string;
  propriedade?: string;
  valor?: string;
}

/**
 * The service's error types in scope (spec sections 7.1 and 7.2 plus the official types for the
 * endpoints this SDK covers). The first status is the one the service answers with; a type with
 * two statuses (CobPayloadNaoEncontrado) lists both.
 */
export const ERROR_CATALOGUE = {
  RequisicaoInvalida: { status: [400], meaning: 'Invalid request' },
  AcessoNegado: { status: [403], meaning: 'Authenticated participant violates an authorization rule' },
  NaoEncontrado: { status: [404], meaning: 'Entity not found' },
  PermanentementeRemovido: { status: [410], meaning: 'Entity existed and was permanently removed' },
  ErroInternoDoServidor: { status: [500], meaning: 'Unexpected condition on the service' },
  ServicoIndisponivel: { status: [503], meaning: 'Service unavailable (maintenance or outside operating window)' },
  IndisponibilidadePorTempoEsgotado: { status: [504], meaning: 'Service took longer than expected' },
  CobPayloadNaoEncontrado: { status: [404, 410], meaning: 'No charge for the location (410: permanently gone)' },
  CobPayloadOperacaoInvalida: { status: [400], meaning: 'codMun or DPP invalid for the due-date charge payload' },
  CobNaoEncontrado: { status: [404], meaning: 'No immediate charge for the txid' },
  CobOperacaoInvalida: { status: [400], meaning: 'Immediate charge request breaks a rule of section 7.3' },
  CobConsultaInvalida: { status: [400], meaning: 'Immediate charge query breaks a rule of section 7.3' },
  CobVNaoEncontrada: { status: [404], meaning: 'No due-date charge for the txid' },
  CobVOperacaoInvalida: { status: [400], meaning: 'Due-date charge request breaks a rule of section 7.3' },
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
} as const satisfies Record<string, { status: readonly number[]; meaning: string }>;

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
  override readonly name: string = 'ApiError';
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
  /** The raw response (non-enumerable: kept out of logs and JSON). */
  declare readonly response: Response | undefined;

  constructor(init: ApiErrorInit) {
    const status = init.status ?? 0;
    const errorType = errorTypeOf(init.type) ?? init.errorType;
    const title = init.title === undefined ? undefined : scrub(init.title);
    const detail = init.detail === undefined ? undefined : scrub(init.detail);
    const violacoes = (init.violacoes ?? []).map(redactViolacao);
    super(describe(status, errorType, title, detail, violacoes), { cause: init.cause });
    this.status = status;
    this.type = init.type;
    this.errorType = errorType;
    this.title = title;
    this.detail = detail;
    this.violacoes = violacoes;
    this.correlationId = init.correlationId;
    this.instance = init.instance === undefined ? undefined : scrub(init.instance);
    this.sentRequest = init.sentRequest ?? true;
    Object.defineProperty(this, 'response', { value: init.response, enumerable: false });
  }
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

/** An attempt, or the whole call with its retries, ran out of time. */
export class TimeoutError extends InstantError {
  override readonly name: string = 'TimeoutError';
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

/** A class of `ApiError` for one catalogue type; `instanceof` works as usual. */
export interface ApiErrorClass<N extends string> {
  new (init?: ApiErrorInit): ApiError & { readonly name: N };
  readonly errorType: N;
}

/**
 * Makes a named `ApiError` class: a literal `name`, a default status, `errorType` = the name
 * when the answer named no type, and (only for refusals before sending, `sentRequest: false`)
 * a type under `CLIENT_ERROR_BASE`: an answer without a type never gets one that reads as the
 * service's.
 */
export function defineApiError<N extends string>(errorType: N, defaultStatus: number): ApiErrorClass<N> {
  const named = {
    [errorType]: class extends ApiError {
      static readonly errorType = errorType;
      override readonly name: N = errorType;
      constructor(init: ApiErrorInit = {}) {
        const own = init.sentRequest === false ? { type: `${CLIENT_ERROR_BASE}/${errorType}` } : {};
        super({ status: defaultStatus, errorType, ...own, ...init });
      }
    },
  };
  return named[errorType] as unknown as ApiErrorClass<N>;
}

function catalogueError<N extends CatalogueErrorType>(errorType: N): ApiErrorClass<N> {
  return defineApiError(errorType, ERROR_CATALOGUE[errorType].status[0]);
}

export const RequisicaoInvalida = catalogueError('RequisicaoInvalida');
export type RequisicaoInvalida = InstanceType<typeof RequisicaoInvalida>;
export const AcessoNegado = catalogueError('AcessoNegado');
export type AcessoNegado = InstanceType<typeof AcessoNegado>;
export const NaoEncontrado = catalogueError('NaoEncontrado');
export type NaoEncontrado = InstanceType<typeof NaoEncontrado>;
export const PermanentementeRemovido = catalogueError('PermanentementeRemovido');
export type PermanentementeRemovido = InstanceType<typeof PermanentementeRemovido>;
export const ErroInternoDoServidor = catalogueError('ErroInternoDoServidor');
export type ErroInternoDoServidor = InstanceType<typeof ErroInternoDoServidor>;
export const ServicoIndisponivel = catalogueError('ServicoIndisponivel');
export type ServicoIndisponivel = InstanceType<typeof ServicoIndisponivel>;
export const IndisponibilidadePorTempoEsgotado = catalogueError('IndisponibilidadePorTempoEsgotado');
export type IndisponibilidadePorTempoEsgotado = InstanceType<typeof IndisponibilidadePorTempoEsgotado>;
export const CobPayloadNaoEncontrado = catalogueError('CobPayloadNaoEncontrado');
export type CobPayloadNaoEncontrado = InstanceType<typeof CobPayloadNaoEncontrado>;
export const CobPayloadOperacaoInvalida = catalogueError('CobPayloadOperacaoInvalida');
export type CobPayloadOperacaoInvalida = InstanceType<typeof CobPayloadOperacaoInvalida>;
export const CobNaoEncontrado = catalogueError('CobNaoEncontrado');
export type CobNaoEncontrado = InstanceType<typeof CobNaoEncontrado>;
export const CobOperacaoInvalida = catalogueError('CobOperacaoInvalida');
export type CobOperacaoInvalida = InstanceType<typeof CobOperacaoInvalida>;
export const CobConsultaInvalida = catalogueError('CobConsultaInvalida');
export type CobConsultaInvalida = InstanceType<typeof CobConsultaInvalida>;
export const CobVNaoEncontrada = catalogueError('CobVNaoEncontrada');
export type CobVNaoEncontrada = InstanceType<typeof CobVNaoEncontrada>;
export const CobVOperacaoInvalida = catalogueError('CobVOperacaoInvalida');
export type CobVOperacaoInvalida = InstanceType<typeof CobVOperacaoInvalida>;
export const CobVConsultaInvalida = catalogueError('CobVConsultaInvalida');
export type CobVConsultaInvalida = InstanceType<typeof CobVConsultaInvalida>;
export const LoteCobVNaoEncontrado = catalogueError('LoteCobVNaoEncontrado');
export type LoteCobVNaoEncontrado = InstanceType<typeof LoteCobVNaoEncontrado>;
export const LoteCobVOperacaoInvalida = catalogueError('LoteCobVOperacaoInvalida');
export type LoteCobVOperacaoInvalida = InstanceType<typeof LoteCobVOperacaoInvalida>;
export const LoteCobVConsultaInvalida = catalogueError('LoteCobVConsultaInvalida');
export type LoteCobVConsultaInvalida = InstanceType<typeof LoteCobVConsultaInvalida>;
export const PayloadLocationNaoEncontrado = catalogueError('PayloadLocationNaoEncontrado');
export type PayloadLocationNaoEncontrado = InstanceType<typeof PayloadLocationNaoEncontrado>;
export const PayloadLocationOperacaoInvalida = catalogueError('PayloadLocationOperacaoInvalida');
export type PayloadLocationOperacaoInvalida = InstanceType<typeof PayloadLocationOperacaoInvalida>;
export const PayloadLocationConsultaInvalida = catalogueError('PayloadLocationConsultaInvalida');
export type PayloadLocationConsultaInvalida = InstanceType<typeof PayloadLocationConsultaInvalida>;
export const InstantNaoEncontrado = catalogueError('InstantNaoEncontrado');
export type InstantNaoEncontrado = InstanceType<typeof InstantNaoEncontrado>;
export const InstantDevolucaoNaoEncontrada = catalogueError('InstantDevolucaoNaoEncontrada');
export type InstantDevolucaoNaoEncontrada = InstanceType<typeof InstantDevolucaoNaoEncontrada>;
export const InstantConsultaInvalida = catalogueError('InstantConsultaInvalida');
export type InstantConsultaInvalida = InstanceType<typeof InstantConsultaInvalida>;
export const InstantDevolucaoInvalida = catalogueError('InstantDevolucaoInvalida');
export type InstantDevolucaoInvalida = InstanceType<typeof InstantDevolucaoInvalida>;
export const WebhookOperacaoInvalida = catalogueError('WebhookOperacaoInvalida');
export type WebhookOperacaoInvalida = InstanceType<typeof WebhookOperacaoInvalida>;
export const WebhookNaoEncontrado = catalogueError('WebhookNaoEncontrado');
export type WebhookNaoEncontrado = InstanceType<typeof WebhookNaoEncontrado>;
export const WebhookConsultaInvalida = catalogueError('WebhookConsultaInvalida');
export type WebhookConsultaInvalida = InstanceType<typeof WebhookConsultaInvalida>;

/** Catalogue type name to class; the tests check it covers the whole catalogue. */
export const ERROR_CLASSES: { readonly [N in CatalogueErrorType]: ApiErrorClass<N> } = {
  RequisicaoInvalida,
  AcessoNegado,
  NaoEncontrado,
  PermanentementeRemovido,
  ErroInternoDoServidor,
  ServicoIndisponivel,
  IndisponibilidadePorTempoEsgotado,
  CobPayloadNaoEncontrado,
  CobPayloadOperacaoInvalida,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  CobConsultaInvalida,
  CobVNaoEncontrada,
  CobVOperacaoInvalida,
  CobVConsultaInvalida,
  LoteCobVNaoEncontrado,
  LoteCobVOperacaoInvalida,
  LoteCobVConsultaInvalida,
  PayloadLocationNaoEncontrado,
  PayloadLocationOperacaoInvalida,
  PayloadLocationConsultaInvalida,
  InstantNaoEncontrado,
  InstantDevolucaoNaoEncontrada,
  InstantConsultaInvalida,
  InstantDevolucaoInvalida,
  WebhookOperacaoInvalida,
  WebhookNaoEncontrado,
  WebhookConsultaInvalida,
};

/** General catalogue type answered for a status when the body names none (7.1). */
const GENERAL_BY_STATUS: Readonly<Record<number, CatalogueErrorType>> = {
  400: 'RequisicaoInvalida',
  403: 'AcessoNegado',
  404: 'NaoEncontrado',
  410: 'PermanentementeRemovido',
  500: 'ErroInternoDoServidor',
  503: 'ServicoIndisponivel',
  504: 'IndisponibilidadePorTempoEsgotado',
};

/** Per-endpoint override of the class chosen by status when the body names no type. */
export type StatusFallback = Readonly<Partial<Record<number, ApiErrorClass<string>>>>;

/**
 * Builds the typed error for an HTTP error response. Understands the service's problem
 * bodies (`type`, `title`, `status`, `detail`, `correlationId`, `violacoes`), the cash-out
 * provider's `{type, title, detail, instance}`, and anything else (HTML, empty, plain text)
 * by status.
 */
export function createApiError(response: Response, body: unknown, fallback?: StatusFallback): ApiError {
  const problem = isRecord(body) ? body : {};
  const init: ApiErrorInit = { status: response.status, response, sentRequest: true };
  // RFC 9457: "about:blank" means the problem has no more semantics than its status.
  const named = stringField(problem, 'type');
  const type = named === 'about:blank' ? undefined : named;
  if (type !== undefined) init.type = type;
  const title = stringField(problem, 'title');
  if (title !== undefined) init.title = title;
  const detail = stringField(problem, 'detail');
  if (detail !== undefined) init.detail = detail;
  const correlationId = stringField(problem, 'correlationId') ?? response.headers.get('x-correlation-id') ?? undefined;
  if (correlationId !== undefined) init.correlationId = correlationId;
  const instance = stringField(problem, 'instance');
  if (instance !== undefined) init.instance = instance;
  if (Array.isArray(problem['violacoes'])) init.violacoes = problem['violacoes'].filter(isRecord).map(toViolacao);

  if (response.status === 401) return new UnauthorizedError(init);
  const errorType = errorTypeOf(type);
  if (errorType !== undefined) {
    const known = (ERROR_CLASSES as Record<string, ApiErrorClass<string>>)[errorType];
    return known ? new known(init) : new ApiError(init);
  }
  const byStatus = fallback?.[response.status] ?? classFor(GENERAL_BY_STATUS[response.status]);
  return byStatus ? new byStatus(init) : new ApiError(init);
}

function classFor(name: CatalogueErrorType | undefined): ApiErrorClass<string> | undefined {
  return name === undefined ? undefined : ERROR_CLASSES[name];
}

function errorTypeOf(type: string | undefined): string | undefined {
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
  const head = [status > 0 ? String(status) : undefined, errorType].filter(Boolean).join(' ');
  const text = [title, detail].filter(Boolean).join(': ');
  const where = violacoes
    .map((v) => [v.propriedade, v.razao].filter(Boolean).join(' '))
    .filter(Boolean)
    .join('; ');
  return [head || 'API error', text, where ? `(${where})` : undefined].filter(Boolean).join(' ');
}

/** Properties whose offending value is personal data: the value is never kept in an error. */
const PERSONAL_FIELDS = new Set([
  'cpf',
  'cnpj',
  'nome',
  'email',
  'chave',
  'logradouro',
  'cep',
  'cidade',
  'key',
  'instantkey',
  'creditordocument',
  'document',
  'devedor',
  'recebedor',
]);

function redactViolacao(v: Violacao): Violacao {
  const leaf = v.propriedade?.split('.').pop()?.replace(/\[\d+\]$/, '').toLowerCase();
  const out: Violacao = {};
  if (v.razao !== undefined) out.razao = scrub(v.razao);
  if (v.propriedade !== undefined) out.propriedade = v.propriedade;
  if (v.valor !== undefined) out.valor = leaf !== undefined && PERSONAL_FIELDS.has(leaf) ? '[redacted]' : scrub(v.valor);
  return out;
}

/** Masks what looks like a document number, e-mail address or bearer token in free text. */
export function scrub(text: string): string {
  return text
    .replace(/Bearer\s+[\w.~+/=-]+/gi, 'Bearer [redacted]')
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[redacted]')
    .replace(/\b[0-9A-Z]{12}\d{2}\b|\b\d{11}\b|\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}/g, '[redacted]');
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

/** True for a plain object (not null, not an array): the shape of a JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
