/**
 * The cash-out provider and both token endpoints. Orders are answered 202 `PROCESSING` and
 * settled later (`LIQUIDATED`, the balance debited; or `CANCELED` with an `errorCode` when the
 * balance no longer covers the amount); one idempotency key never makes a second order. Each
 * settlement is POSTed to `transferNotificationUrl` as `{ data, type: "TRANSFER" }`.
 */
import { isValidCnpj, isValidCpf } from '../lib/documents.ts';
import { isValidIdempotencyKey } from '../lib/ids.ts';
import { isValidKey } from '../lib/keys.ts';
import { MONEY_PATTERN, toCents } from '../lib/money.ts';
import { json } from './http.ts';
import { SCOPES } from './operations.ts';
import { ProviderProblem } from './problems.ts';
import { isObject, type Json } from './rules.ts';
import { generateIdempotencyKey } from '../lib/ids.ts';
import { canonical, type Audience, type Context, type Credentials, type Transfer } from './state.ts';

export const CASH_OUT_TOKEN_PATH = '/api/v2/oauth/token';
export const API_TOKEN_PATH = '/oauth/token';
/** ISO 20022 "insufficient funds": the cancellation code when the balance no longer covers an order. */
export const INSUFFICIENT_FUNDS = 'AM04';
const ISPB = /^[0-9A-Z]{8}$/;

/** Issues a token for `audience` lasting `lifetimeS` seconds. */
function issue(ctx: Context, audience: Audience, lifetimeS: number, scopes?: ReadonlySet<string>): string {
  const token = generateIdempotencyKey() + generateIdempotencyKey();
  ctx.state.tokens.set(token, {
    audience,
    expiresAt: ctx.now().getTime() + lifetimeS * 1000,
    ...(scopes && { scopes }),
  });
  return token;
}

/**
 * What the request's token allows: `false` when it carries no live token of `audience`, else
 * its scopes (`'all'` for a token asked without `scope`).
 */
export function grantOf(ctx: Context, request: Request, audience: Audience): false | 'all' | ReadonlySet<string> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  const token = match ? ctx.state.tokens.get(match[1]!) : undefined;
  if (token === undefined || token.audience !== audience || token.expiresAt <= ctx.now().getTime()) return false;
  return token.scopes ?? 'all';
}

/**
 * `POST /oauth/token`: the standard form client-credentials grant (secret in the body or Basic);
 * over TLS (`certificateVerified`: the server took the client certificate from its CA), also the
 * client id alone (RFC 8705 `tls_client_auth`). A JSON body is refused with the OAuth error that
 * says the body is a form (RFC 6749 §4.4.2), as a standard service answers, unless `lenient`
 * (some services take it). `scope` asks for some of `SCOPES` (none asked: all of them).
 */
export async function apiToken(
  ctx: Context,
  request: Request,
  credentials: Credentials,
  lifetimeS: number,
  certificateVerified = false,
  lenient = false,
): Promise<Response> {
  const form = await tokenForm(request, lenient);
  if (form === undefined) {
    return oauthError(
      400,
      'invalid_request',
      'The token request body must be application/x-www-form-urlencoded (grant_type=client_credentials&client_id=...), not JSON.',
    );
  }
  let clientId = form.get('client_id');
  let clientSecret = form.get('client_secret');
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (basic) {
    const [id = '', secret = ''] = atob(basic[1]!)
      .split(':')
      .map((part) => decodeURIComponent(part));
    clientId = id;
    clientSecret = secret;
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  }
  // Certificate-only login: no secret anywhere, the verified certificate authenticates the client.
  const byCertificate = certificateVerified && clientSecret === null && clientId === credentials.clientId;
  if (!byCertificate && (clientId !== credentials.clientId || clientSecret !== credentials.clientSecret)) {
    const description =
      clientSecret === null && clientId === credentials.clientId
        ? 'A login without a secret (tls_client_auth) is taken over TLS only, with a client certificate from the sandbox CA.'
        : 'Unknown client or wrong secret.';
    return oauthError(401, 'invalid_client', description);
  }
  const asked = form
    .get('scope')
    ?.split(' ')
    .filter((scope) => scope !== '');
  const unknown = asked?.filter((scope) => !SCOPES.includes(scope)) ?? [];
  if (unknown.length > 0) {
    return oauthError(
      400,
      'invalid_scope',
      `Unknown scope ${unknown.map((scope) => JSON.stringify(scope)).join(', ')}; this service grants: ${SCOPES.join(' ')}.`,
    );
  }
  const scopes = asked === undefined || asked.length === 0 ? undefined : new Set(asked);
  const body: Json = {
    access_token: issue(ctx, 'api', lifetimeS, scopes),
    token_type: 'Bearer',
    expires_in: lifetimeS,
  };
  if (scopes) body['scope'] = [...scopes].join(' ');
  return json(200, body, { 'cache-control': 'no-store' });
}

/** An OAuth error answer (RFC 6749 §5.2). */
export function oauthError(status: number, error: string, description: string): Response {
  return json(status, { error, error_description: description }, { 'cache-control': 'no-store' });
}

/** The token request's parameters: the form, or with `lenient` a JSON object; `undefined` for a JSON body refused. */
async function tokenForm(request: Request, lenient: boolean): Promise<URLSearchParams | undefined> {
  const text = await request.text();
  if (!/json/i.test(request.headers.get('content-type') ?? '')) return new URLSearchParams(text);
  if (!lenient) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new URLSearchParams();
  }
  const form = new URLSearchParams();
  if (isObject(body))
    for (const [key, value] of Object.entries(body)) if (typeof value === 'string') form.set(key, value);
  return form;
}

/** `POST /api/v2/oauth/token`: the provider's JSON style, answered 201 in camelCase. */
export async function cashOutToken(
  ctx: Context,
  request: Request,
  credentials: Credentials,
  lifetimeS: number,
): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new ProviderProblem(400, 'Bad Request', 'The token request is a JSON body.');
  }
  if (!isObject(body) || body['grant_type'] !== 'client_credentials') {
    throw new ProviderProblem(400, 'Bad Request', 'grant_type must be client_credentials.');
  }
  if (body['client_id'] !== credentials.clientId || body['client_secret'] !== credentials.clientSecret) {
    throw new ProviderProblem(401, 'Unauthorized', 'Unknown client or wrong secret.');
  }
  const accessToken = issue(ctx, 'cash-out', lifetimeS);
  return json(201, {
    accessToken,
    tokenType: 'Bearer',
    expiresAt: ctx.now().getTime() + lifetimeS * 1000,
    refreshExpiresIn: 0,
    notBeforePolicy: 0,
    scope: 'instant.write instant.read account.read',
  });
}

// ---------------------------------------------------------------------------------------------
// Balance and orders

/** The provider's money: a number of reais (its wire format; the SDK converts it exactly). */
function reais(cents: number): number {
  return cents / 100;
}

export function balance(ctx: Context): Response {
  return json(200, {
    data: [
      {
        eventDate: ctx.now().toISOString(),
        balanceAmount: { name: 'available', available: reais(ctx.state.balanceCents), blocked: 0, overdraft: 0 },
      },
    ],
  });
}

/** A transfer in the provider's wire shape (money a number of reais). */
export interface TransferRecord {
  id: number;
  idempotencyKey: string;
  endToEndId: string;
  status: string;
  errorCode?: string;
  payment: { currency: string; amount: number };
  [field: string]: unknown;
}

export function renderTransfer(transfer: Transfer): TransferRecord {
  const request = transfer.request;
  const out: TransferRecord = {
    id: transfer.id,
    idempotencyKey: transfer.idempotencyKey,
    endToEndId: transfer.endToEndId,
    instantKey: request['instantKey'],
    payment: { currency: 'BRL', amount: reais(transfer.amountCents) },
    status: transfer.status,
    transactionType: 'INSTANT',
    localInstrument: 'DICT',
    creditDebitType: 'DEBIT',
    createdAt: transfer.createdAt,
    creditorAccount: {
      ispb: '99999998',
      issuer: '0001',
      number: '100200',
      accountType: 'CACC',
      document: request['creditorDocument'],
      name: 'Recebedor',
    },
    debtorAccount: { ispb: '99999999', issuer: '0001', number: '000001', accountType: 'CACC', name: 'Sandbox' },
    remittanceInformation: request['description'] ?? '',
    refunds: [],
  };
  if (transfer.errorCode !== undefined) out.errorCode = transfer.errorCode;
  return out;
}

/** Why a payment order is refused (400), as one sentence; `undefined` when it is fine. */
function orderProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'The body must be a JSON object.';
  const problems: string[] = [];
  if (typeof body['instantKey'] !== 'string' || !isValidKey(body['instantKey']))
    problems.push('instantKey is not a valid key');
  const document = body['creditorDocument'];
  if (typeof document !== 'string' || !(isValidCpf(document) || isValidCnpj(document)))
    problems.push('creditorDocument is not a valid CPF or CNPJ');
  const payment = body['payment'];
  if (
    !isObject(payment) ||
    payment['currency'] !== 'BRL' ||
    typeof payment['amount'] !== 'string' ||
    !MONEY_PATTERN.test(payment['amount']) ||
    toCents(payment['amount']) < 1
  ) {
    problems.push('payment must be { currency: "BRL", amount: "0.01" or more }');
  }
  if (body['priority'] !== undefined && body['priority'] !== 'HIGH' && body['priority'] !== 'NORM')
    problems.push('priority is HIGH or NORM');
  const expiration = body['expiration'];
  if (
    expiration !== undefined &&
    !(Number.isInteger(expiration) && (expiration as number) >= 1 && (expiration as number) <= 10_800)
  ) {
    problems.push('expiration is 1 to 10800 seconds');
  }
  const deny = body['ispbDeny'];
  if (deny !== undefined && !(Array.isArray(deny) && deny.every((v) => typeof v === 'string' && ISPB.test(v))))
    problems.push('ispbDeny lists 8-character ISPBs');
  return problems.length === 0 ? undefined : `${problems.join('; ')}.`;
}

/** `POST /api/v2/instant/payments/dict`. `onCreated` schedules the settlement of a new order. */
export async function placeOrder(
  ctx: Context,
  request: Request,
  onCreated: (transfer: Transfer) => void,
): Promise<Response> {
  const key = request.headers.get('x-idempotency-key');
  if (key === null || !isValidIdempotencyKey(key)) {
    throw new ProviderProblem(
      400,
      'Bad Request',
      'The x-idempotency-key header is required: 1 to 50 letters or digits.',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new ProviderProblem(400, 'Bad Request', 'The body is not JSON.');
  }
  const problem = orderProblem(body);
  if (problem !== undefined) throw new ProviderProblem(400, 'Bad Request', problem);
  const fingerprint = canonical(body);
  const existing = ctx.state.transfers.get(key);
  if (existing !== undefined) {
    if (existing.fingerprint !== fingerprint) {
      throw new ProviderProblem(409, 'Conflict', 'This idempotency key already names a different order.');
    }
    return json(202, { data: renderTransfer(existing) });
  }
  const order = body as Json;
  const transfer: Transfer = {
    id: ctx.state.nextTransferId(),
    idempotencyKey: key,
    fingerprint,
    request: order,
    amountCents: toCents((order['payment'] as Json)['amount'] as string),
    status: 'PROCESSING',
    errorCode: undefined,
    endToEndId: `E99999999${ctx.now().toISOString().replace(/[-:T]/g, '').slice(0, 12)}${ctx.ids.alphanumeric(11)}`,
    createdAt: ctx.now().toISOString(),
  };
  ctx.state.transfers.set(key, transfer);
  onCreated(transfer);
  return json(202, { data: renderTransfer(transfer) });
}

export function getOrder(ctx: Context, key: string): Response {
  const transfer = ctx.state.transfers.get(key);
  if (transfer === undefined) throw new ProviderProblem(404, 'Not Found', 'No transfer with that idempotency key.');
  return json(200, { data: renderTransfer(transfer) });
}

/**
 * Settles a `PROCESSING` order: `LIQUIDATED` debits the balance, or becomes `CANCELED`
 * (`AM04`) when the balance no longer covers it; `CANCELED` keeps the balance. A settled order
 * is left as it is. Returns whether anything changed.
 */
export function settle(
  ctx: Context,
  transfer: Transfer,
  wanted: 'LIQUIDATED' | 'CANCELED',
  errorCode = 'AB03',
): boolean {
  if (transfer.status !== 'PROCESSING') return false;
  if (wanted === 'LIQUIDATED' && ctx.state.balanceCents >= transfer.amountCents) {
    ctx.state.balanceCents -= transfer.amountCents;
    transfer.status = 'LIQUIDATED';
  } else {
    transfer.status = 'CANCELED';
    transfer.errorCode = wanted === 'LIQUIDATED' ? INSUFFICIENT_FUNDS : errorCode;
  }
  return true;
}

/** The transfer-confirmation notification body. */
export function transferNotification(data: Json): Json {
  return { data, type: 'TRANSFER' };
}
