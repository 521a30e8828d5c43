/**
 * What the sandbox answers when it refuses: problem documents of the error catalogue for the
 * collection API (`type` = `<error base>/<ErrorType>`, `title`, `status`, `detail`,
 * `violacoes`), and the cash-out provider's own `{ type, title, detail, instance }` shape.
 */
import { ERROR_CATALOGUE, type CatalogueErrorType } from '../errors/catalogue.ts';
import type { Violacao } from '../errors/base.ts';

/** The `{error_base}` of every problem type the sandbox answers. */
export const ERROR_BASE = 'https://instant-sandbox.example/api/v2/error';

/** A refusal of the collection API, thrown by a route and answered as `application/problem+json`. */
export class Problem extends Error {
  readonly status: number;
  readonly errorType: CatalogueErrorType;
  readonly violacoes: readonly Violacao[];
  /** Headers the answer carries besides the content type (`Allow` of a 405). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    errorType: CatalogueErrorType,
    detail: string,
    violacoes: readonly Violacao[] = [],
    status?: number,
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.errorType = errorType;
    this.violacoes = violacoes;
    this.status = status ?? ERROR_CATALOGUE[errorType].status[0];
    this.headers = headers;
  }
}

/** A refusal of the cash-out provider (its own error shape; `type` like `SBX-0404`). */
export class ProviderProblem extends Error {
  readonly status: number;
  readonly title: string;

  constructor(status: number, title: string, detail: string) {
    super(detail);
    this.status = status;
    this.title = title;
  }
}

function titleOf(errorType: CatalogueErrorType): string {
  if (/Nao(Encontrad[oa])$/.test(errorType)) return 'Não encontrado.';
  if (errorType.endsWith('OperacaoInvalida')) return 'Operação inválida.';
  if (errorType.endsWith('ConsultaInvalida')) return 'Consulta inválida.';
  if (errorType.endsWith('DevolucaoInvalida')) return 'Devolução inválida.';
  return ERROR_CATALOGUE[errorType].meaning;
}

/** The problem document of `problem` (also used as a batch item's `problema`). */
export function problemDocument(problem: Problem, correlationId?: string): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    type: `${ERROR_BASE}/${problem.errorType}`,
    title: titleOf(problem.errorType),
    status: problem.status,
    detail: problem.message,
  };
  if (correlationId !== undefined) doc['correlationId'] = correlationId;
  if (problem.violacoes.length > 0) doc['violacoes'] = problem.violacoes;
  return doc;
}

export function problemResponse(
  problem: Problem,
  correlationId: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(problemDocument(problem, correlationId)), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', ...problem.headers, ...headers },
  });
}

export function providerResponse(problem: ProviderProblem, instance: string): Response {
  const body = {
    type: `SBX-${String(problem.status).padStart(4, '0')}`,
    title: problem.title,
    detail: problem.message,
    instance,
  };
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { 'content-type': 'application/json' },
  });
}

/** 401 for a missing, unknown or expired token (the catalogue has no 401 type; the spec shows no body). */
export function unauthorized(correlationId: string): Response {
  const body = {
    type: `${ERROR_BASE}/NaoAutorizado`,
    title: 'Não autorizado.',
    status: 401,
    detail: 'The access token is missing, unknown or expired.',
    correlationId,
  };
  return new Response(JSON.stringify(body), {
    status: 401,
    headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="invalid_token"' },
  });
}

/**
 * 403 for a token without the scope the operation needs: the general `AcessoNegado` problem
 * naming it, and RFC 6750's `insufficient_scope` challenge carrying it for clients that read headers.
 */
export function missingScope(scope: string, granted: ReadonlySet<string>, correlationId: string): Response {
  const problem = new Problem(
    'AcessoNegado',
    `This call needs the scope ${scope}; the token was granted ${[...granted].join(' ')}.`,
  );
  return problemResponse(problem, correlationId, {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });
}
