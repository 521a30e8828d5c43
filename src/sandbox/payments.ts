/**
 * Received payments, refunds and webhooks. `payCharge` plays the payer: the charge becomes
 * CONCLUIDA, a payment with a well-formed e2eid appears under `/instant`, and the notification
 * `{ "instant": [payment] }` is POSTed to `webhookUrl + "/instant"` of the webhook registered for
 * the charge's key. A refund settles shortly after it is asked for, and is notified too.
 */
import { isHttpsOrLoopback } from '../core/validation.ts';
import { DISPUTE_NATURES } from '../lib/refunds.ts';
import { isValidE2eid, isValidRefundId } from '../lib/ids.ts';
import { isValidKey } from '../lib/keys.ts';
import { MONEY_PATTERN, fromCents, toCents } from '../lib/money.ts';
import { currentOf, isClosed, KINDS } from './charges.ts';
import { dueAmount } from './payload.ts';
import { empty, inRange, json, page, readJson, verdict } from './http.ts';
import { Problem } from './problems.ts';
import { Judge, isObject, judgeListQuery, type Json } from './rules.ts';
import {
  canonical,
  renderPayment,
  today,
  type Charge,
  type Context,
  type Payment,
  type ReceivedPayment,
  type Refund,
} from './state.ts';

export type { ReceivedPayment } from './state.ts';

/** The list name of received payments (in `GET /instant` and in notifications). */
export const PAYMENT_LIST = 'instant';
/** The participant code the sandbox's e2eids and rtrIds carry. */
export const ISPB = '99999999';

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 12); // yyyyMMddHHmm (UTC)
}

/** `E` + ISPB + yyyyMMddHHmm + 11 alphanumerics: 32 characters. */
export function endToEndId(ctx: Context, prefix: 'E' | 'D'): string {
  return `${prefix}${ISPB}${stamp(ctx.now())}${ctx.ids.alphanumeric(11)}`;
}

/** Options of `sandbox.payCharge()`. */
export interface PayChargeOptions {
  /** Amount paid (default: the charge's amount, for a due-date charge the amount due today). */
  valor?: string;
  infoPagador?: string;
}

/** Pays the ATIVA charge `txid` (cob or cobv) and notifies its key's webhook. */
export async function payCharge(ctx: Context, txid: string, options: PayChargeOptions = {}): Promise<ReceivedPayment> {
  const charge = ctx.state.cobs.get(txid) ?? ctx.state.cobvs.get(txid);
  if (charge === undefined) throw new Problem('NaoEncontrado', 'Nenhuma cobrança com esse txid.');
  if (isClosed(ctx, charge)) {
    throw new Problem(
      KINDS[charge.kind].invalid,
      `A cobrança está ${currentOf(charge).status} ou vencida e não pode ser paga.`,
    );
  }
  const valor = options.valor ?? amountDue(ctx, charge);
  if (!MONEY_PATTERN.test(valor) || toCents(valor) === 0)
    throw new RangeError('valor must be a positive amount such as "10.00"');
  const { content, status } = currentOf(charge);
  const payment: Payment = {
    endToEndId: endToEndId(ctx, 'E'),
    txid,
    valor,
    chave: content['chave'] as string,
    horario: ctx.now().toISOString(),
    devolucoes: [],
    seq: ctx.state.seq(),
  };
  if (options.infoPagador !== undefined) payment.infoPagador = options.infoPagador;
  ctx.state.payments.set(payment.endToEndId, payment);
  charge.payments.push(payment.endToEndId);
  charge.revisions[charge.revisions.length - 1] = { content, status: status === 'ATIVA' ? 'CONCLUIDA' : status };
  await notifyPayment(ctx, payment);
  return renderPayment(payment);
}

function amountDue(ctx: Context, charge: Charge): string {
  if (charge.kind === 'cobv') return dueAmount(ctx, charge, today(ctx)).final;
  return (currentOf(charge).content['valor'] as Json)['original'] as string;
}

/** POSTs `{ instant: [payment] }` to the webhook of the payment's key, if one is registered. */
async function notifyPayment(ctx: Context, payment: Payment): Promise<void> {
  const webhook = ctx.state.webhooks.get(payment.chave);
  if (webhook === undefined || payment.txid === undefined) return;
  await ctx.notify(`${webhook.webhookUrl.replace(/\/+$/, '')}/${PAYMENT_LIST}`, {
    [PAYMENT_LIST]: [renderPayment(payment)],
  });
}

// ---------------------------------------------------------------------------------------------
// /instant

const SHORT_TXID = /^[a-zA-Z0-9]{1,35}$/;
const NATUREZAS = ['ORIGINAL', 'RETIRADA'];

export async function instantRoutes(
  ctx: Context,
  request: Request,
  e2eid: string | undefined,
  refundId: string | undefined,
): Promise<Response | undefined> {
  const method = request.method;
  if (e2eid === undefined) return method === 'GET' ? listPayments(ctx, new URL(request.url).searchParams) : undefined;
  const writing = method === 'PUT' && refundId !== undefined;
  const j = new Judge(ctx.ownKeys);
  if (!isValidE2eid(e2eid)) j.flag('e2eid', 'e2eid tem 32 letras ou dígitos.', e2eid);
  if (refundId !== undefined && !isValidRefundId(refundId))
    j.flag('id', 'O id da devolução tem de 1 a 35 letras ou dígitos.', refundId);
  if (writing) {
    const body = await readJson(request, 'InstantDevolucaoInvalida');
    judgeRefund(j, body);
    verdict(j, 'InstantDevolucaoInvalida');
    return json(201, refund(ctx, paymentOr404(ctx, e2eid), refundId, body as Json));
  }
  if (method !== 'GET') return undefined;
  verdict(j, 'InstantConsultaInvalida');
  const payment = paymentOr404(ctx, e2eid);
  if (refundId === undefined) return json(200, renderPayment(payment));
  const found = payment.devolucoes.find((d) => d.id === refundId);
  if (found === undefined)
    throw new Problem('InstantDevolucaoNaoEncontrada', 'Nenhuma devolução com esse id para esse pagamento.');
  return json(200, { ...found });
}

function paymentOr404(ctx: Context, e2eid: string): Payment {
  const payment = ctx.state.payments.get(e2eid);
  if (payment === undefined) throw new Problem('InstantNaoEncontrado', 'Nenhum pagamento recebido com esse e2eid.');
  return payment;
}

function judgeRefund(j: Judge, body: unknown): void {
  if (!isObject(body)) return j.flag('valor', 'O corpo da devolução é um objeto com valor.');
  const { valor, natureza, descricao } = body;
  if (typeof valor !== 'string' || !MONEY_PATTERN.test(valor)) j.flag('valor', 'valor não respeita o schema.', valor);
  else if (toCents(valor) === 0) j.flag('valor', 'valor deve ser maior que zero.', valor);
  if (natureza !== undefined && !NATUREZAS.includes(natureza as string))
    j.flag('natureza', 'natureza é ORIGINAL ou RETIRADA.', natureza);
  if (descricao !== undefined && !(typeof descricao === 'string' && descricao.length <= 140))
    j.flag('descricao', 'descricao tem até 140 caracteres.');
}

/** A refund: the same id with the same request is the same refund (a retry), else refused. */
function refund(ctx: Context, payment: Payment, id: string, body: Json): Json {
  const request = { valor: body['valor'], natureza: body['natureza'] ?? 'ORIGINAL', descricao: body['descricao'] };
  const existing = payment.devolucoes.find((d) => d.id === id);
  if (existing !== undefined) {
    const same =
      canonical({ valor: existing.valor, natureza: existing.natureza, descricao: existing.descricao }) ===
      canonical(request);
    if (!same)
      throw new Problem('InstantDevolucaoInvalida', 'Esse id de devolução já foi usado.', [
        { propriedade: 'id', razao: 'id já usado para esse e2eid.', valor: id },
      ]);
    return { ...existing };
  }
  checkRefundable(payment, request.valor as string);
  const created = returnMoney(ctx, payment, {
    id,
    valor: request.valor as string,
    natureza: request.natureza as string,
    ...(typeof request.descricao === 'string' && { descricao: request.descricao }),
  });
  return { ...created };
}

/** What is left to return of `payment`, in cents: its amount less every refund not refused. */
function refundableCents(payment: Payment): number {
  const refunded = payment.devolucoes
    .filter((d) => d.status !== 'NAO_REALIZADO')
    .reduce((sum, d) => sum + toCents(d.valor), 0);
  return toCents(payment.valor) - refunded;
}

/** Refuses a return of `valor` larger than what is left of `payment`, as the service does. */
function checkRefundable(payment: Payment, valor: string): void {
  const left = refundableCents(payment);
  if (toCents(valor) > left) {
    throw new Problem('InstantDevolucaoInvalida', 'A soma das devoluções excede o valor do pagamento.', [
      { propriedade: 'valor', razao: `Resta devolver ${fromCents(left)}.`, valor },
    ]);
  }
}

/** A return of money on `payment`, in processing; it settles (DEVOLVIDO) shortly after and the payment is notified. */
function returnMoney(
  ctx: Context,
  payment: Payment,
  asked: { id: string; valor: string; natureza: string; descricao?: string },
): Refund {
  const created: Refund = {
    ...asked,
    rtrId: endToEndId(ctx, 'D'),
    horario: { solicitacao: ctx.now().toISOString() },
    status: 'EM_PROCESSAMENTO',
  };
  payment.devolucoes.push(created);
  ctx.later(ctx.refundDelayMs, async () => {
    created.status = 'DEVOLVIDO';
    created.horario.liquidacao = ctx.now().toISOString();
    await notifyPayment(ctx, payment);
  });
  return created;
}

/** Options of `sandbox.disputePayment()`. */
export interface DisputeOptions {
  /** `MED_OPERACIONAL`, `MED_FRAUDE` or the automatic recurring payment's nature (`MED_AUTOMATIC`). */
  natureza: string;
  /** Amount returned (default: all that is left to return). */
  valor?: string;
}

/**
 * The service returns money on its own (a special return for a fraud or an operational failure):
 * a refund the receiving user did not ask for, settled shortly after and notified as a refund is.
 * Refused (`InstantDevolucaoInvalida`) beyond what is left to return.
 */
export function disputePayment(ctx: Context, e2eid: string, { natureza, valor }: DisputeOptions): Json {
  const payment = paymentOr404(ctx, e2eid);
  if (!(DISPUTE_NATURES as readonly string[]).includes(natureza))
    throw new RangeError(`natureza must be one of ${DISPUTE_NATURES.join(', ')}`);
  const amount = valor ?? fromCents(refundableCents(payment));
  if (!MONEY_PATTERN.test(amount) || toCents(amount) === 0)
    throw new RangeError('valor must be a positive amount such as "10.00" (nothing is left to return)');
  checkRefundable(payment, amount);
  return { ...returnMoney(ctx, payment, { id: `MED${ctx.ids.alphanumeric(29)}`, valor: amount, natureza }) };
}

function listPayments(ctx: Context, params: URLSearchParams): Response {
  const j = new Judge(ctx.ownKeys);
  const query = judgeListQuery(j, params, false, ['txIdPresente', 'devolucaoPresente']);
  const txid = params.get('txid');
  if (txid !== null && !SHORT_TXID.test(txid)) j.flag('txid', 'txid tem de 1 a 35 letras ou dígitos.', txid);
  verdict(j, 'InstantConsultaInvalida');
  const withTxid = params.get('txIdPresente');
  const withRefund = params.get('devolucaoPresente');
  // The sandbox's payers are anonymous: a payer cpf/cnpj filter matches nothing.
  const byPayer = params.get('cpf') !== null || params.get('cnpj') !== null;
  const items = inRange(ctx.state.payments.values(), query, (p) => p.horario).filter(
    (p) =>
      !byPayer &&
      (txid === null || p.txid === txid) &&
      (withTxid === null || (p.txid !== undefined) === (withTxid === 'true')) &&
      (withRefund === null || p.devolucoes.length > 0 === (withRefund === 'true')),
  );
  items.sort((a, b) => a.seq - b.seq);
  return json(
    200,
    page(items, query, PAYMENT_LIST, renderPayment, ['txid', 'txIdPresente', 'devolucaoPresente', 'cpf', 'cnpj']),
  );
}

// ---------------------------------------------------------------------------------------------
// /webhook

export async function webhookRoutes(
  ctx: Context,
  request: Request,
  chave: string | undefined,
): Promise<Response | undefined> {
  const method = request.method;
  if (chave === undefined) {
    if (method !== 'GET') return undefined;
    const j = new Judge(ctx.ownKeys);
    const query = judgeListQuery(j, new URL(request.url).searchParams, true);
    verdict(j, 'WebhookConsultaInvalida');
    const items = inRange(ctx.state.webhooks.values(), query, (w) => w.criacao).sort((a, b) => a.seq - b.seq);
    return json(200, page(items, query, 'webhooks', renderWebhook));
  }
  if (method === 'PUT') {
    const body = await readJson(request, 'WebhookOperacaoInvalida');
    const j = new Judge(ctx.ownKeys);
    if (!isValidKey(chave)) j.flag('chave', 'chave não é uma chave válida do diretório.');
    else if (!ctx.ownKeys.includes(chave)) j.flag('chave', 'chave não pertence ao usuário recebedor.');
    const webhookUrl = isObject(body) ? body['webhookUrl'] : undefined;
    if (!isCallbackUrl(webhookUrl, ctx.allowHttpWebhooks)) j.flag('webhookUrl', CALLBACK_URL_RULE);
    verdict(j, 'WebhookOperacaoInvalida');
    const existing = ctx.state.webhooks.get(chave);
    ctx.state.webhooks.set(chave, {
      chave,
      webhookUrl: webhookUrl as string,
      criacao: existing?.criacao ?? ctx.now().toISOString(),
      seq: existing?.seq ?? ctx.state.seq(),
    });
    return empty(200);
  }
  if (method !== 'GET' && method !== 'DELETE') return undefined;
  const j = new Judge(ctx.ownKeys);
  if (!isValidKey(chave)) j.flag('chave', 'chave não é uma chave válida do diretório.');
  verdict(j, method === 'GET' ? 'WebhookConsultaInvalida' : 'WebhookOperacaoInvalida');
  const webhook = ctx.state.webhooks.get(chave);
  if (webhook === undefined) throw new Problem('WebhookNaoEncontrado', 'Nenhum webhook para essa chave.');
  if (method === 'GET') return json(200, renderWebhook(webhook));
  ctx.state.webhooks.delete(chave);
  return empty(204);
}

function renderWebhook(webhook: { chave: string; webhookUrl: string; criacao: string }): Json {
  return { webhookUrl: webhook.webhookUrl, chave: webhook.chave, criacao: webhook.criacao };
}

/** Why a webhook URL was refused; the flag that lets a receiver in another container be called over http. */
export const CALLBACK_URL_RULE =
  'webhookUrl é uma URL https absoluta (http só em loopback, ou em qualquer host com --allow-http-webhooks).';

/** An absolute URL without credentials: https, or http on loopback (on any host when `allowHttp`). */
export function isCallbackUrl(value: unknown, allowHttp: boolean): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  const scheme = allowHttp ? url.protocol === 'https:' || url.protocol === 'http:' : isHttpsOrLoopback(url);
  return scheme && url.username === '' && url.password === '';
}
