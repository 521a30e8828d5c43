/**
 * The collection API's operations as the official interface declares them, with the neutral
 * path names this sandbox serves (`/instant` for the scheme's own resource): method, path
 * template, the OAuth scope its `security` names, and what it answers. The scope check
 * (`scopeFor`) and the served OpenAPI document (`openapi.ts`) both read this one table.
 */

/** One operation: `path` is relative to the API base (`…/v2`), `{name}` a path parameter. */
export interface Operation {
  readonly method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly scope: string;
  readonly summary: string;
  /** The success status and the schema (a name in `openapi.ts`) of its body, if it has one. */
  readonly ok: readonly [status: number, schema?: string];
  /** The request body's schema name, when the operation takes one. */
  readonly body?: string;
  /** Query parameters (all optional strings or integers). */
  readonly query?: readonly string[];
}

/** One row of the table: `route` is `METHOD /path`. */
function op(
  route: string,
  scope: string,
  summary: string,
  ok: Operation['ok'],
  more: Pick<Operation, 'body' | 'query'> = {},
): Operation {
  const [method, path] = route.split(' ') as [Operation['method'], string];
  return { method, path, scope, summary, ok, ...more };
}

const LIST_QUERY = ['inicio', 'fim', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];

/** Every collection API operation (the payloads under `/qr/...` need no token, so no scope). */
export const OPERATIONS: readonly Operation[] = [
  op('PUT /cob/{txid}', 'cob.write', 'Create an immediate charge', [201, 'Cob'], { body: 'CobRequest' }),
  op('PATCH /cob/{txid}', 'cob.write', 'Revise an immediate charge', [200, 'Cob'], { body: 'CobRequest' }),
  op('GET /cob/{txid}', 'cob.read', 'Read an immediate charge', [200, 'Cob'], { query: ['revisao'] }),
  op('POST /cob', 'cob.write', 'Create an immediate charge, txid chosen by the service', [201, 'Cob'], {
    body: 'CobRequest',
  }),
  op('GET /cob', 'cob.read', 'List immediate charges', [200, 'CobList'], {
    query: [...LIST_QUERY, 'cpf', 'cnpj', 'locationPresente', 'status'],
  }),
  op('PUT /cobv/{txid}', 'cobv.write', 'Create a due-date charge', [201, 'Cob'], { body: 'CobRequest' }),
  op('PATCH /cobv/{txid}', 'cobv.write', 'Revise a due-date charge', [200, 'Cob'], { body: 'CobRequest' }),
  op('GET /cobv/{txid}', 'cobv.read', 'Read a due-date charge', [200, 'Cob'], { query: ['revisao'] }),
  op('GET /cobv', 'cobv.read', 'List due-date charges', [200, 'CobList'], {
    query: [...LIST_QUERY, 'cpf', 'cnpj', 'locationPresente', 'status', 'loteCobVId'],
  }),
  op('PUT /lotecobv/{id}', 'lotecobv.write', 'Create a batch of due-date charges', [202], { body: 'Object' }),
  op('PATCH /lotecobv/{id}', 'lotecobv.write', 'Revise charges of a batch', [202], { body: 'Object' }),
  op('GET /lotecobv/{id}', 'lotecobv.read', 'Read a batch', [200, 'Object']),
  op('GET /lotecobv', 'lotecobv.read', 'List batches', [200, 'Page'], { query: LIST_QUERY }),
  op('POST /loc', 'payloadlocation.write', 'Create a location', [201, 'Loc'], { body: 'LocRequest' }),
  op('GET /loc', 'payloadlocation.read', 'List locations', [200, 'Page'], {
    query: [...LIST_QUERY, 'txIdPresente', 'tipoCob'],
  }),
  op('GET /loc/{id}', 'payloadlocation.read', 'Read a location', [200, 'Loc']),
  op('DELETE /loc/{id}/txid', 'payloadlocation.write', 'Unlink a location from its charge', [200, 'Loc']),
  op('GET /instant/{e2eid}', 'instant.read', 'Read a received payment', [200, 'Payment']),
  op('GET /instant', 'instant.read', 'List received payments', [200, 'Page'], {
    query: [...LIST_QUERY, 'txid', 'txIdPresente', 'devolucaoPresente', 'cpf', 'cnpj'],
  }),
  op('PUT /instant/{e2eid}/devolucao/{id}', 'instant.write', 'Ask for a refund', [201, 'Refund'], {
    body: 'RefundRequest',
  }),
  op('GET /instant/{e2eid}/devolucao/{id}', 'instant.read', 'Read a refund', [200, 'Refund']),
  op('PUT /webhook/{chave}', 'webhook.write', 'Register the notification URL of a key', [200], {
    body: 'WebhookRequest',
  }),
  op('GET /webhook/{chave}', 'webhook.read', 'Read the notification URL of a key', [200, 'Webhook']),
  op('DELETE /webhook/{chave}', 'webhook.write', 'Remove the notification URL of a key', [204]),
  op('GET /webhook', 'webhook.read', 'List notification URLs', [200, 'Page'], { query: LIST_QUERY }),
  op('PUT /webhookrec', 'webhookrec.write', 'Register the recurrence notification URL', [200], {
    body: 'WebhookRequest',
  }),
  op('GET /webhookrec', 'webhookrec.read', 'Read the recurrence notification URL', [200, 'Webhook']),
  op('DELETE /webhookrec', 'webhookrec.write', 'Remove the recurrence notification URL', [204]),
  op('PUT /webhookcobr', 'webhookcobr.write', 'Register the recurring-charge notification URL', [200], {
    body: 'WebhookRequest',
  }),
  op('GET /webhookcobr', 'webhookcobr.read', 'Read the recurring-charge notification URL', [200, 'Webhook']),
  op('DELETE /webhookcobr', 'webhookcobr.write', 'Remove the recurring-charge notification URL', [204]),
  op('POST /rec', 'rec.write', 'Create a recurrence', [201, 'Rec'], { body: 'Object' }),
  op('GET /rec', 'rec.read', 'List recurrences', [200, 'Page'], {
    query: [...LIST_QUERY, 'cpf', 'cnpj', 'locationPresente', 'status', 'convenio'],
  }),
  op('GET /rec/{idRec}', 'rec.read', 'Read a recurrence', [200, 'Rec'], { query: ['txid'] }),
  op('PATCH /rec/{idRec}', 'rec.write', 'Revise or cancel a recurrence', [200, 'Rec'], { body: 'Object' }),
  op('POST /solicrec', 'solicrec.write', 'Ask the payer to confirm a recurrence', [201, 'SolicRec'], {
    body: 'Object',
  }),
  op('GET /solicrec/{idSolicRec}', 'solicrec.read', 'Read a confirmation request', [200, 'SolicRec']),
  op('PATCH /solicrec/{idSolicRec}', 'solicrec.write', 'Cancel a confirmation request', [201, 'SolicRec'], {
    body: 'Object',
  }),
  op('PUT /cobr/{txid}', 'cobr.write', 'Create a recurring charge', [201, 'CobR'], { body: 'Object' }),
  op('PATCH /cobr/{txid}', 'cobr.write', 'Revise or cancel a recurring charge', [200, 'CobR'], { body: 'Object' }),
  op('GET /cobr/{txid}', 'cobr.read', 'Read a recurring charge', [200, 'CobR']),
  op('POST /cobr', 'cobr.write', 'Create a recurring charge, txid chosen by the service', [201, 'CobR'], {
    body: 'Object',
  }),
  op('GET /cobr', 'cobr.read', 'List recurring charges', [200, 'Page'], {
    query: [...LIST_QUERY, 'idRec', 'cpf', 'cnpj', 'status', 'convenio'],
  }),
  op('POST /cobr/{txid}/retentativa/{data}', 'cobr.write', 'Ask for a new attempt of a recurring charge', [
    201,
    'CobR',
  ]),
  op('POST /locrec', 'payloadlocationrec.write', 'Create a recurrence location', [201, 'Object']),
  op('GET /locrec', 'payloadlocationrec.read', 'List recurrence locations', [200, 'Page'], {
    query: [...LIST_QUERY, 'idRecPresente', 'convenio'],
  }),
  op('GET /locrec/{id}', 'payloadlocationrec.read', 'Read a recurrence location', [200, 'Object']),
  op('DELETE /locrec/{id}/idRec', 'payloadlocationrec.write', 'Unlink a recurrence location', [200, 'Object']),
];

/** Every scope the sandbox grants, in the table's order. */
export const SCOPES: readonly string[] = [...new Set(OPERATIONS.map((operation) => operation.scope))];

const MATCHERS = OPERATIONS.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

/** The operation `method` on `path` (relative to `…/v2`, still encoded) is, if the table has it. */
export function operationFor(method: string, path: string): Operation | undefined {
  return MATCHERS.find((m) => m.operation.method === method && m.pattern.test(path))?.operation;
}
