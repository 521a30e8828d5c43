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

const LIST_QUERY = ['inicio', 'fim', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];

/** Every collection API operation (the payloads under `/qr/...` need no token, so no scope). */
export const OPERATIONS: readonly Operation[] = [
  {
    method: 'PUT',
    path: '/cob/{txid}',
    scope: 'cob.write',
    summary: 'Create an immediate charge',
    ok: [201, 'Cob'],
    body: 'CobRequest',
  },
  {
    method: 'PATCH',
    path: '/cob/{txid}',
    scope: 'cob.write',
    summary: 'Revise an immediate charge',
    ok: [200, 'Cob'],
    body: 'CobRequest',
  },
  {
    method: 'GET',
    path: '/cob/{txid}',
    scope: 'cob.read',
    summary: 'Read an immediate charge',
    ok: [200, 'Cob'],
    query: ['revisao'],
  },
  {
    method: 'POST',
    path: '/cob',
    scope: 'cob.write',
    summary: 'Create an immediate charge, txid chosen by the service',
    ok: [201, 'Cob'],
    body: 'CobRequest',
  },
  {
    method: 'GET',
    path: '/cob',
    scope: 'cob.read',
    summary: 'List immediate charges',
    ok: [200, 'CobList'],
    query: [...LIST_QUERY, 'cpf', 'cnpj', 'locationPresente', 'status'],
  },
  {
    method: 'PUT',
    path: '/cobv/{txid}',
    scope: 'cobv.write',
    summary: 'Create a due-date charge',
    ok: [201, 'Cob'],
    body: 'CobRequest',
  },
  {
    method: 'PATCH',
    path: '/cobv/{txid}',
    scope: 'cobv.write',
    summary: 'Revise a due-date charge',
    ok: [200, 'Cob'],
    body: 'CobRequest',
  },
  {
    method: 'GET',
    path: '/cobv/{txid}',
    scope: 'cobv.read',
    summary: 'Read a due-date charge',
    ok: [200, 'Cob'],
    query: ['revisao'],
  },
  {
    method: 'GET',
    path: '/cobv',
    scope: 'cobv.read',
    summary: 'List due-date charges',
    ok: [200, 'CobList'],
    query: [...LIST_QUERY, 'cpf', 'cnpj', 'locationPresente', 'status', 'loteCobVId'],
  },
  {
    method: 'PUT',
    path: '/lotecobv/{id}',
    scope: 'lotecobv.write',
    summary: 'Create a batch of due-date charges',
    ok: [202],
    body: 'Object',
  },
  {
    method: 'PATCH',
    path: '/lotecobv/{id}',
    scope: 'lotecobv.write',
    summary: 'Revise charges of a batch',
    ok: [202],
    body: 'Object',
  },
  { method: 'GET', path: '/lotecobv/{id}', scope: 'lotecobv.read', summary: 'Read a batch', ok: [200, 'Object'] },
  {
    method: 'GET',
    path: '/lotecobv',
    scope: 'lotecobv.read',
    summary: 'List batches',
    ok: [200, 'Page'],
    query: LIST_QUERY,
  },
  {
    method: 'POST',
    path: '/loc',
    scope: 'payloadlocation.write',
    summary: 'Create a location',
    ok: [201, 'Loc'],
    body: 'LocRequest',
  },
  {
    method: 'GET',
    path: '/loc',
    scope: 'payloadlocation.read',
    summary: 'List locations',
    ok: [200, 'Page'],
    query: [...LIST_QUERY, 'txIdPresente', 'tipoCob'],
  },
  { method: 'GET', path: '/loc/{id}', scope: 'payloadlocation.read', summary: 'Read a location', ok: [200, 'Loc'] },
  {
    method: 'DELETE',
    path: '/loc/{id}/txid',
    scope: 'payloadlocation.write',
    summary: 'Unlink a location from its charge',
    ok: [200, 'Loc'],
  },
  {
    method: 'GET',
    path: '/instant/{e2eid}',
    scope: 'instant.read',
    summary: 'Read a received payment',
    ok: [200, 'Payment'],
  },
  {
    method: 'GET',
    path: '/instant',
    scope: 'instant.read',
    summary: 'List received payments',
    ok: [200, 'Page'],
    query: [...LIST_QUERY, 'txid', 'txIdPresente', 'devolucaoPresente', 'cpf', 'cnpj'],
  },
  {
    method: 'PUT',
    path: '/instant/{e2eid}/devolucao/{id}',
    scope: 'instant.write',
    summary: 'Ask for a refund',
    ok: [201, 'Refund'],
    body: 'RefundRequest',
  },
  {
    method: 'GET',
    path: '/instant/{e2eid}/devolucao/{id}',
    scope: 'instant.read',
    summary: 'Read a refund',
    ok: [200, 'Refund'],
  },
  {
    method: 'PUT',
    path: '/webhook/{chave}',
    scope: 'webhook.write',
    summary: 'Register the notification URL of a key',
    ok: [200],
    body: 'WebhookRequest',
  },
  {
    method: 'GET',
    path: '/webhook/{chave}',
    scope: 'webhook.read',
    summary: 'Read the notification URL of a key',
    ok: [200, 'Webhook'],
  },
  {
    method: 'DELETE',
    path: '/webhook/{chave}',
    scope: 'webhook.write',
    summary: 'Remove the notification URL of a key',
    ok: [204],
  },
  {
    method: 'GET',
    path: '/webhook',
    scope: 'webhook.read',
    summary: 'List notification URLs',
    ok: [200, 'Page'],
    query: LIST_QUERY,
  },
  {
    method: 'PUT',
    path: '/webhookrec',
    scope: 'webhookrec.write',
    summary: 'Register the recurrence notification URL',
    ok: [200],
    body: 'WebhookRequest',
  },
  {
    method: 'GET',
    path: '/webhookrec',
    scope: 'webhookrec.read',
    summary: 'Read the recurrence notification URL',
    ok: [200, 'Webhook'],
  },
  {
    method: 'DELETE',
    path: '/webhookrec',
    scope: 'webhookrec.write',
    summary: 'Remove the recurrence notification URL',
    ok: [204],
  },
  {
    method: 'PUT',
    path: '/webhookcobr',
    scope: 'webhookcobr.write',
    summary: 'Register the recurring-charge notification URL',
    ok: [200],
    body: 'WebhookRequest',
  },
  {
    method: 'GET',
    path: '/webhookcobr',
    scope: 'webhookcobr.read',
    summary: 'Read the recurring-charge notification URL',
    ok: [200, 'Webhook'],
  },
  {
    method: 'DELETE',
    path: '/webhookcobr',
    scope: 'webhookcobr.write',
    summary: 'Remove the recurring-charge notification URL',
    ok: [204],
  },
  {
    method: 'POST',
    path: '/rec',
    scope: 'rec.write',
    summary: 'Create a recurrence',
    ok: [201, 'Rec'],
    body: 'Object',
  },
  {
    method: 'GET',
    path: '/rec',
    scope: 'rec.read',
    summary: 'List recurrences',
    ok: [200, 'Page'],
    query: [...LIST_QUERY, 'cpf', 'cnpj', 'locationPresente', 'status', 'convenio'],
  },
  {
    method: 'GET',
    path: '/rec/{idRec}',
    scope: 'rec.read',
    summary: 'Read a recurrence',
    ok: [200, 'Rec'],
    query: ['txid'],
  },
  {
    method: 'PATCH',
    path: '/rec/{idRec}',
    scope: 'rec.write',
    summary: 'Revise or cancel a recurrence',
    ok: [200, 'Rec'],
    body: 'Object',
  },
  {
    method: 'POST',
    path: '/solicrec',
    scope: 'solicrec.write',
    summary: 'Ask the payer to confirm a recurrence',
    ok: [201, 'SolicRec'],
    body: 'Object',
  },
  {
    method: 'GET',
    path: '/solicrec/{idSolicRec}',
    scope: 'solicrec.read',
    summary: 'Read a confirmation request',
    ok: [200, 'SolicRec'],
  },
  {
    method: 'PATCH',
    path: '/solicrec/{idSolicRec}',
    scope: 'solicrec.write',
    summary: 'Cancel a confirmation request',
    ok: [201, 'SolicRec'],
    body: 'Object',
  },
  {
    method: 'PUT',
    path: '/cobr/{txid}',
    scope: 'cobr.write',
    summary: 'Create a recurring charge',
    ok: [201, 'CobR'],
    body: 'Object',
  },
  {
    method: 'PATCH',
    path: '/cobr/{txid}',
    scope: 'cobr.write',
    summary: 'Revise or cancel a recurring charge',
    ok: [200, 'CobR'],
    body: 'Object',
  },
  { method: 'GET', path: '/cobr/{txid}', scope: 'cobr.read', summary: 'Read a recurring charge', ok: [200, 'CobR'] },
  {
    method: 'POST',
    path: '/cobr',
    scope: 'cobr.write',
    summary: 'Create a recurring charge, txid chosen by the service',
    ok: [201, 'CobR'],
    body: 'Object',
  },
  {
    method: 'GET',
    path: '/cobr',
    scope: 'cobr.read',
    summary: 'List recurring charges',
    ok: [200, 'Page'],
    query: [...LIST_QUERY, 'idRec', 'cpf', 'cnpj', 'status', 'convenio'],
  },
  {
    method: 'POST',
    path: '/cobr/{txid}/retentativa/{data}',
    scope: 'cobr.write',
    summary: 'Ask for a new attempt of a recurring charge',
    ok: [201, 'CobR'],
  },
  {
    method: 'POST',
    path: '/locrec',
    scope: 'payloadlocationrec.write',
    summary: 'Create a recurrence location',
    ok: [201, 'Object'],
  },
  {
    method: 'GET',
    path: '/locrec',
    scope: 'payloadlocationrec.read',
    summary: 'List recurrence locations',
    ok: [200, 'Page'],
    query: [...LIST_QUERY, 'idRecPresente', 'convenio'],
  },
  {
    method: 'GET',
    path: '/locrec/{id}',
    scope: 'payloadlocationrec.read',
    summary: 'Read a recurrence location',
    ok: [200, 'Object'],
  },
  {
    method: 'DELETE',
    path: '/locrec/{id}/idRec',
    scope: 'payloadlocationrec.write',
    summary: 'Unlink a recurrence location',
    ok: [200, 'Object'],
  },
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
