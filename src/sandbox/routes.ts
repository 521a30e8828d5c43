/**
 * The sandbox's routing: which part answers a request (by path, before any token is looked at:
 * an unknown path is 404, never 401), the token check, injected faults, and errors as the
 * service's problem answers. `service.ts` is the front door that holds the parts.
 */
import type { CatalogueErrorType } from '../errors/catalogue.ts';
import { sleep } from '../internal/retry.ts';
import { batchRoutes } from './batches.ts';
import {
  API_TOKEN_PATH,
  CASH_OUT_TOKEN_PATH,
  apiToken,
  balance,
  cashOutToken,
  getOrder,
  grantOf,
  oauthError,
  placeOrder,
} from './cash-out.ts';
import { chargeRoutes, locRoutes } from './charges.ts';
import { CONTROL_PREFIX, type ControlTable } from './controls.ts';
import { ConnectionDrop, type FaultInjector, cutMidBody } from './faults.ts';
import { JWKS_PATH, type PayloadSigner, payloadRoutes } from './payload.ts';
import { json } from './http.ts';
import { OPENAPI_JSON_PATH, OPENAPI_YAML_PATH, openapiDocument } from './openapi.ts';
import { operationFor } from './operations.ts';
import { instantRoutes, webhookRoutes } from './payments.ts';
import { Problem, ProviderProblem, missingScope, problemResponse, providerResponse, unauthorized } from './problems.ts';
import { REC_PAYLOAD_PATH, type RecurringPart } from './recurring/part.ts';
import type { Context, Credentials, Transfer } from './state.ts';
import { toYaml } from './yaml.ts';

/** A request's route, found before any token is looked at, run after. */
type Route = () => Promise<Response | undefined>;

/** What the routes reach: the sandbox's parts. */
export interface SandboxParts {
  readonly ctx: Context;
  readonly signer: PayloadSigner;
  readonly recurring: RecurringPart;
  readonly faults: FaultInjector;
  readonly controls: ControlTable;
  /** The collection API's and the cash-out provider's client credentials. */
  readonly api: Credentials;
  readonly cashOut: Credentials;
  /** Lifetime of issued access tokens, in seconds. */
  readonly tokenLifetime: number;
  /** The token endpoint takes a JSON body too. */
  readonly lenientToken: boolean;
  /** True while served over TLS: the server let through only requests with a certificate from its CA. */
  certificateVerified(): boolean;
  /** A cash-out order was placed (the front door settles it, or waits for `settleTransfer`). */
  placed(transfer: Transfer): void;
}

export class SandboxRoutes {
  readonly #parts: SandboxParts;
  #requests = 0;

  constructor(parts: SandboxParts) {
    this.#parts = parts;
  }

  /** A request's answer, faults included (CORS is the caller's). */
  async serve(request: Request): Promise<Response> {
    const correlationId = `sbx-${++this.#requests}`;
    const path = new URL(request.url).pathname;
    // Faults are the service's: never on the token endpoints, the key set, the documents or the test controls.
    const faultable =
      path !== API_TOKEN_PATH &&
      path !== CASH_OUT_TOKEN_PATH &&
      path !== JWKS_PATH &&
      !isDocument(path) &&
      !path.startsWith(CONTROL_PREFIX);
    const drawn = faultable ? this.#parts.faults.draw() : undefined;
    const fault = drawn?.fault;
    if (drawn && drawn.delayMs > 0) await sleep(drawn.delayMs);
    if (fault === '503' || fault === '504') {
      const type: CatalogueErrorType = fault === '503' ? 'ServicoIndisponivel' : 'IndisponibilidadePorTempoEsgotado';
      const detail = fault === '503' ? 'Serviço indisponível (falha injetada).' : 'Tempo esgotado (falha injetada).';
      return problemResponse(new Problem(type, detail), correlationId, {
        'retry-after': String(this.#parts.faults.retryAfter),
      });
    }
    if (fault === 'drop-before') throw new ConnectionDrop('dropped before the change');
    const response = await this.#answer(request, path, correlationId);
    if (fault === 'drop-after') throw new ConnectionDrop('dropped after the change');
    if (fault === 'cut') return cutMidBody(response);
    return response;
  }

  async #answer(request: Request, path: string, correlationId: string): Promise<Response> {
    try {
      return (
        (await this.#route(request, path)) ??
        problemResponse(new Problem('NaoEncontrado', 'Recurso não encontrado.'), correlationId)
      );
    } catch (error) {
      if (error instanceof Problem) return problemResponse(error, correlationId);
      if (error instanceof ProviderProblem) return providerResponse(error, correlationId);
      if (error instanceof Unauthorized) return unauthorized(correlationId);
      if (error instanceof MissingScope) return missingScope(error.scope, error.granted, correlationId);
      return problemResponse(new Problem('ErroInternoDoServidor', 'Erro inesperado no sandbox.'), correlationId);
    }
  }

  async #route(request: Request, path: string): Promise<Response | undefined> {
    const ctx = this.#parts.ctx;
    const lifetime = this.#parts.tokenLifetime;
    const method = request.method;
    if (path === API_TOKEN_PATH)
      return method === 'POST'
        ? apiToken(ctx, request, this.#parts.api, lifetime, this.#parts.certificateVerified(), this.#parts.lenientToken)
        : undefined;
    if (path === CASH_OUT_TOKEN_PATH)
      return method === 'POST' ? cashOutToken(ctx, request, this.#parts.cashOut, lifetime) : undefined;
    if (path.startsWith(CONTROL_PREFIX)) return this.#parts.controls.answer(request, path);
    if (isDocument(path)) return method === 'GET' ? openapiResponse(ctx.origin(), path) : undefined;
    if (path.startsWith(REC_PAYLOAD_PATH)) return this.#parts.recurring.payload(request, path);
    if (path.startsWith('/qr/')) return payloadRoutes(ctx, this.#parts.signer, request, path);
    if (path.startsWith('/api/v2/')) return this.#authorized(request, 'cash-out', this.#cashOutRoute(request, path));
    if (path.startsWith('/v2/')) return this.#authorized(request, 'api', this.#apiRoute(request, path));
    return undefined;
  }

  /**
   * Runs `route` for a request with a live token of `audience` holding the scope the operation
   * names; no route, no token check (404, not 401).
   */
  async #authorized(
    request: Request,
    audience: 'api' | 'cash-out',
    route: Route | undefined,
  ): Promise<Response | undefined> {
    if (route === undefined) return undefined;
    const grant = grantOf(this.#parts.ctx, request, audience);
    if (grant === false) throw new Unauthorized();
    if (grant !== 'all') {
      const path = new URL(request.url).pathname.slice('/v2'.length);
      const scope = operationFor(request.method, path)?.scope;
      if (scope !== undefined && !grant.has(scope)) throw new MissingScope(scope, grant);
    }
    return route();
  }

  /** The cash-out provider's route for `path`, if it has one. */
  #cashOutRoute(request: Request, path: string): Route | undefined {
    const ctx = this.#parts.ctx;
    const method = request.method;
    if (path === '/api/v2/accounts/balances/' && method === 'GET') return async () => balance(ctx);
    if (path === '/api/v2/instant/payments/dict' && method === 'POST') {
      return () =>
        placeOrder(ctx, request, (transfer) => {
          this.#parts.placed(transfer);
        });
    }
    const byKey = /^\/api\/v2\/instant\/payments\/idempotencyKey\/([^/]+)$/.exec(path);
    if (byKey && method === 'GET') return async () => getOrder(ctx, decode(byKey[1]!));
    return undefined;
  }

  /** The collection API's route for `path` (under `/v2/`), if it has one. */
  #apiRoute(request: Request, path: string): Route | undefined {
    const ctx = this.#parts.ctx;
    // A trailing slash names the same resource (`/cobv/` is the list, not an empty txid).
    const trimmed = path.length > '/v2/'.length && path.endsWith('/') ? path.slice(0, -1) : path;
    const [resource, a, b, c, ...rest] = trimmed.slice('/v2/'.length).split('/').map(decode);
    if (rest.length > 0) return undefined;
    switch (resource) {
      case 'cob':
      case 'cobv':
        return b === undefined ? () => chargeRoutes(ctx, resource, request, a) : undefined;
      case 'lotecobv':
        return b === undefined ? () => batchRoutes(ctx, request, a) : undefined;
      case 'loc':
        if (b !== undefined && (b !== 'txid' || c !== undefined)) return undefined;
        return () => locRoutes(ctx, request, a, b === 'txid');
      case 'instant':
        if (b !== undefined && (b !== 'devolucao' || c === undefined)) return undefined;
        return () => instantRoutes(ctx, request, a, c);
      case 'webhook':
        return b === undefined ? () => webhookRoutes(ctx, request, a) : undefined;
      case 'rec':
      case 'solicrec':
      case 'cobr':
      case 'locrec':
      case 'webhookrec':
      case 'webhookcobr':
        return this.#parts.recurring.route(request, resource, a, b, c);
      default:
        return undefined;
    }
  }
}

class Unauthorized extends Error {}

class MissingScope extends Error {
  readonly scope: string;
  readonly granted: ReadonlySet<string>;

  constructor(scope: string, granted: ReadonlySet<string>) {
    super(scope);
    this.scope = scope;
    this.granted = granted;
  }
}

/**
 * Over HTTPS, the API, the provider and the token endpoints want a client certificate; payloads
 * and test controls do not. The refusal of a request without one at `path`, in the shape that
 * endpoint answers in (OAuth's at the token endpoint), or `undefined` where none is needed.
 */
export function refusalWithoutCertificate(path: string, correlationId: string): Response | undefined {
  if (path.startsWith('/qr/') || path.startsWith(CONTROL_PREFIX) || isDocument(path)) return undefined;
  const detail = 'A client certificate issued by the sandbox CA is required.';
  if (path === API_TOKEN_PATH) return oauthError(401, 'invalid_client', detail);
  if (path.startsWith('/api/v2/'))
    return providerResponse(new ProviderProblem(403, 'Forbidden', detail), correlationId);
  return problemResponse(new Problem('AcessoNegado', detail), correlationId);
}

function isDocument(path: string): boolean {
  return path === OPENAPI_JSON_PATH || path === OPENAPI_YAML_PATH;
}

function openapiResponse(origin: string, path: string): Response {
  const document = openapiDocument(origin);
  return path === OPENAPI_JSON_PATH
    ? json(200, document)
    : new Response(toYaml(document), { status: 200, headers: { 'content-type': 'application/yaml' } });
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new Problem('RequisicaoInvalida', 'Caminho com codificação inválida.');
  }
}
