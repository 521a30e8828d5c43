/**
 * `GET /openapi.json` and `/openapi.yaml`: the interface this sandbox implements, as an OpenAPI
 * 3.1 document made from the operations table (`operations.ts`), with the neutral names it
 * serves and its own origin in `servers`, for code generators and contract testers. The
 * schemas describe what the sandbox answers: the fields a client relies on are required, and
 * objects stay open (a service may add fields).
 */
import { API_TOKEN_PATH } from './cash-out.ts';
import { JWKS_PATH } from './payload.ts';
import { ERROR_BASE } from './problems.ts';
import { OPERATIONS, SCOPES, type Operation } from './operations.ts';
import { REC_PAYLOAD_PATH } from './recurring/render.ts';

export const OPENAPI_JSON_PATH = '/openapi.json';
export const OPENAPI_YAML_PATH = '/openapi.yaml';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const string: Schema = { type: 'string' };
const instant: Schema = { type: 'string', format: 'date-time' };
const money: Schema = { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$', examples: ['10.00'] };
const object = (required: string[], properties: Record<string, Schema>): Schema => ({
  type: 'object',
  required,
  properties,
});

const SCHEMAS: Record<string, Schema> = {
  Object: { type: 'object' },
  Problem: object(['type', 'title', 'status'], {
    type: { type: 'string', examples: [`${ERROR_BASE}/CobOperacaoInvalida`] },
    title: string,
    status: { type: 'integer' },
    detail: string,
    correlationId: string,
    violacoes: {
      type: 'array',
      items: object([], { razao: string, propriedade: string, valor: string }),
    },
  }),
  Page: object(['parametros'], {
    parametros: object(['inicio', 'fim', 'paginacao'], {
      inicio: instant,
      fim: instant,
      paginacao: object(['paginaAtual', 'itensPorPagina', 'quantidadeDePaginas', 'quantidadeTotalDeItens'], {
        paginaAtual: { type: 'integer' },
        itensPorPagina: { type: 'integer' },
        quantidadeDePaginas: { type: 'integer' },
        quantidadeTotalDeItens: { type: 'integer' },
      }),
    }),
  }),
  CobRequest: object([], {
    calendario: object([], {
      expiracao: { type: 'integer' },
      dataDeVencimento: { type: 'string', format: 'date' },
      validadeAposVencimento: { type: 'integer' },
    }),
    devedor: { type: 'object' },
    loc: object(['id'], { id: { type: 'integer' } }),
    valor: object([], { original: money, modalidadeAlteracao: { type: 'integer', enum: [0, 1] } }),
    chave: string,
    solicitacaoPagador: string,
    infoAdicionais: { type: 'array', items: object(['nome', 'valor'], { nome: string, valor: string }) },
    status: { type: 'string', enum: ['REMOVIDA_PELO_USUARIO_RECEBEDOR'] },
  }),
  Cob: object(['calendario', 'txid', 'revisao', 'status', 'valor', 'chave'], {
    calendario: object(['criacao'], { criacao: instant }),
    txid: { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$' },
    revisao: { type: 'integer' },
    status: {
      type: 'string',
      enum: ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
    },
    loc: ref('Loc'),
    location: string,
    valor: object(['original'], { original: money }),
    chave: string,
    instantCopiaECola: string,
    instant: { type: 'array', items: ref('Payment') },
  }),
  CobList: object(['parametros', 'cobs'], {
    parametros: { type: 'object' },
    cobs: { type: 'array', items: ref('Cob') },
  }),
  LocRequest: object(['tipoCob'], { tipoCob: { type: 'string', enum: ['cob', 'cobv'] } }),
  Loc: object(['id', 'location', 'tipoCob', 'criacao'], {
    id: { type: 'integer' },
    location: string,
    tipoCob: { type: 'string', enum: ['cob', 'cobv'] },
    criacao: instant,
    txid: string,
  }),
  Payment: object(['endToEndId', 'valor', 'chave', 'horario'], {
    endToEndId: { type: 'string', pattern: '^[a-zA-Z0-9]{32}$' },
    txid: string,
    valor: money,
    chave: string,
    horario: instant,
    infoPagador: string,
    devolucoes: { type: 'array', items: ref('Refund') },
  }),
  RefundRequest: object(['valor'], {
    valor: money,
    natureza: { type: 'string', enum: ['ORIGINAL', 'RETIRADA'] },
    descricao: string,
  }),
  Refund: object(['id', 'rtrId', 'valor', 'horario', 'status'], {
    id: string,
    rtrId: string,
    valor: money,
    natureza: string,
    descricao: string,
    horario: object(['solicitacao'], { solicitacao: instant, liquidacao: instant }),
    status: { type: 'string', enum: ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] },
    motivo: string,
  }),
  WebhookRequest: object(['webhookUrl'], { webhookUrl: { type: 'string', format: 'uri' } }),
  Webhook: object(['webhookUrl', 'criacao'], { webhookUrl: string, chave: string, criacao: instant }),
  Rec: object(['idRec', 'status'], { idRec: string, status: string }),
  SolicRec: object(['idSolicRec', 'idRec', 'status'], { idSolicRec: string, idRec: string, status: string }),
  CobR: object(['idRec', 'txid', 'status'], { idRec: string, txid: string, status: string }),
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Refused: the problem document names each violation',
  '403': 'The token lacks the scope this operation needs (WWW-Authenticate names it)',
  '404': 'Not found',
  '503': 'Service unavailable (Retry-After)',
};

/** `PUT /cob/{txid}` → `putCobById`, `DELETE /loc/{id}/txid` → `deleteLocTxid`. */
function operationId(op: Operation): string {
  const words = op.path.split('/').filter((part) => part !== '' && !part.startsWith('{'));
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return `${op.method.toLowerCase()}${name}${op.path.endsWith('}') ? 'ById' : ''}`;
}

function operationObject(op: Operation): Schema {
  const [status, schema] = op.ok;
  const pathParameters = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: string,
  }));
  const queryParameters = (op.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: string }));
  const errors = Object.fromEntries(
    Object.entries(ERROR_STATUSES)
      .filter(([code]) => code !== '400' || op.body !== undefined || op.query !== undefined)
      .map(([code, description]) => [
        code,
        { description, content: { 'application/problem+json': { schema: ref('Problem') } } },
      ]),
  );
  return {
    operationId: operationId(op),
    summary: op.summary,
    tags: [op.path.split('/')[1]],
    security: [{ OAuth2: [op.scope] }],
    ...(pathParameters.length + queryParameters.length > 0 && { parameters: [...pathParameters, ...queryParameters] }),
    ...(op.body !== undefined && {
      requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } },
    }),
    responses: {
      [String(status)]: {
        description: 'Success',
        ...(schema !== undefined && { content: { 'application/json': { schema: ref(schema) } } }),
      },
      ...errors,
      '401': { description: 'The access token is missing, unknown or expired' },
    },
  };
}

/** A route at the origin itself (outside the API base): the payer's side, no token. */
function payerRoute(operationId: string, summary: string, parameters: boolean, type: string): Record<string, Schema> {
  return {
    get: {
      operationId,
      summary,
      tags: ['payload'],
      security: [],
      ...(parameters && { parameters: [{ name: 'accessToken', in: 'path', required: true, schema: string }] }),
      responses: {
        '200': {
          description: 'Success',
          content: { [type]: { schema: type === 'application/jose' ? string : ref('Object') } },
        },
        '404': {
          description: 'Unknown, concluded or past its validity',
          content: { 'application/problem+json': { schema: ref('Problem') } },
        },
      },
    },
  };
}

/** The OpenAPI document for a sandbox reached at `origin`. */
export function openapiDocument(origin: string): Schema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  const atOrigin = (route: Record<string, Schema>) => ({ servers: [{ url: origin }], ...route });
  paths['/qr/v2/{accessToken}'] = atOrigin(
    payerRoute('getCobPayload', 'The signed payload of an immediate charge', true, 'application/jose'),
  );
  paths['/qr/v2/cobv/{accessToken}'] = atOrigin(
    payerRoute(
      'getCobvPayload',
      'The signed payload of a due-date charge (query codMun, DPP)',
      true,
      'application/jose',
    ),
  );
  paths[`${REC_PAYLOAD_PATH}{accessToken}`] = atOrigin(
    payerRoute('getRecPayload', 'The signed payload of a recurrence', true, 'application/jose'),
  );
  paths[JWKS_PATH] = atOrigin(
    payerRoute('getPayloadKeys', 'The key set payloads are signed with', false, 'application/jwk-set+json'),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'instant-payments sandbox',
      version: '2.9.0',
      description:
        'The collection API this sandbox implements: charges, due-date charges and batches, locations, received ' +
        'payments and refunds, webhooks, and the recurring part, as the official interface defines them, with the ' +
        'neutral names it serves (/instant for received payments, scopes instant.read and instant.write).',
    },
    servers: [{ url: `${origin}/v2` }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        OAuth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}${API_TOKEN_PATH}`,
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, scopeDescription(scope)])),
            },
          },
        },
      },
    },
  };
}

function scopeDescription(scope: string): string {
  const [resource, access] = scope.split('.');
  return `${access === 'write' ? 'Change' : 'Read'} ${resource}`;
}
