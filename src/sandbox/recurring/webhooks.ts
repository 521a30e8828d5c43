/**
 * `/webhookrec` and `/webhookcobr` (one registration each per receiving user: PUT answers 200
 * with no body, GET the registration, DELETE 204; 404 `NaoEncontrado` when none is registered,
 * the catalogue having no specific type for it; a GET's query, if any, is judged as the catalogue
 * lists it), and the notifications they lead to: every
 * status change after creation (of a recurrence, of a recurring charge or of one of its attempts)
 * is POSTed, through the sandbox's one notification path, to `{webhookUrl}/rec` as
 * `{ recs: [item] }` or to `{webhookUrl}/cobr` as `{ cobsr: [item] }`.
 */
import { empty, json, readJson, verdict } from '../http.ts';
import { CALLBACK_URL_RULE, isCallbackUrl } from '../payments.ts';
import { Problem } from '../problems.ts';
import { Judge, isObject, judgeListQuery } from '../rules.ts';
import { cobrNotification, recNotification } from './render.ts';
import { now, type CobR, type Rec, type RecurringContext } from './state.ts';

type Kind = 'rec' | 'cobr';

const TYPES = {
  rec: { invalid: 'WebhookRecOperacaoInvalida', badQuery: 'WebhookRecConsultaInvalida' },
  cobr: { invalid: 'WebhookCobROperacaoInvalida', badQuery: 'WebhookCobRConsultaInvalida' },
} as const;

export async function webhookRoutes(rc: RecurringContext, kind: Kind, request: Request): Promise<Response | undefined> {
  const method = request.method;
  const current = rc.state.webhooks[kind];
  if (method === 'PUT') {
    const body = await readJson(request, TYPES[kind].invalid);
    const webhookUrl = isObject(body) ? body['webhookUrl'] : undefined;
    if (!isCallbackUrl(webhookUrl, rc.base.allowHttpWebhooks)) {
      throw new Problem(TYPES[kind].invalid, 'webhookUrl não respeita o schema.', [
        { propriedade: 'webhookUrl', razao: CALLBACK_URL_RULE },
      ]);
    }
    rc.state.webhooks[kind] = { webhookUrl, criacao: current?.criacao ?? now(rc) };
    return empty(200);
  }
  if (method !== 'GET' && method !== 'DELETE') return undefined;
  if (method === 'GET') {
    // The GET takes no parameters, yet the catalogue lists the list-query violations for it.
    const j = new Judge([]);
    judgeListQuery(j, new URL(request.url).searchParams, true);
    verdict(j, TYPES[kind].badQuery);
  }
  if (current === undefined) throw new Problem('NaoEncontrado', `Nenhum webhook${kind} cadastrado.`);
  if (method === 'GET') return json(200, { webhookUrl: current.webhookUrl, criacao: current.criacao });
  rc.state.webhooks[kind] = undefined;
  return empty(204);
}

function callback(rc: RecurringContext, kind: Kind): string | undefined {
  const webhook = rc.state.webhooks[kind];
  return webhook === undefined ? undefined : `${webhook.webhookUrl.replace(/\/+$/, '')}/${kind}`;
}

/** POSTs `{ recs: [rec] }` to the recurrence webhook, if one is registered. */
export async function notifyRec(rc: RecurringContext, rec: Rec): Promise<void> {
  const url = callback(rc, 'rec');
  if (url !== undefined) await rc.base.notify(url, { recs: [recNotification(rec)] });
}

/** POSTs `{ cobsr: [cobr] }` to the recurring-charge webhook, if one is registered. */
export async function notifyCobR(rc: RecurringContext, cobr: CobR): Promise<void> {
  const url = callback(rc, 'cobr');
  if (url !== undefined) await rc.base.notify(url, { cobsr: [cobrNotification(cobr)] });
}
