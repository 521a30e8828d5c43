/**
 * The recurring-charge webhook (tag WebhookCobR): where the service posts recurring-charge
 * notifications (`{webhookUrl}/cobr`), one registration per receiving user.
 */
import { WebhookCobRConsultaInvalida, WebhookCobROperacaoInvalida } from '../errors/catalogue.ts';
import { path } from '../core/path.ts';
import {
  WebhookRegistration,
  type RegistrationKind,
  type WebhookRecCompleto,
  type WebhookRecSolicitado,
} from './webhook-registration.ts';

const WEBHOOKCOBR: RegistrationKind = {
  path: path`/webhookcobr`,
  appended: 'cobr',
  writeError: WebhookCobROperacaoInvalida,
  readError: WebhookCobRConsultaInvalida,
};

/** The recurring-charge webhook, `api.webhookcobr`: `put(webhookUrl)`, `get()`, `delete()`. */
export class WebhookCobR extends WebhookRegistration {
  protected readonly kind = WEBHOOKCOBR;
}

/** Body of `PUT /webhookcobr` (the same as the recurrence webhook's). */
export type WebhookCobRSolicitado = WebhookRecSolicitado;

/** The recurring-charge webhook registration (the same shape as the recurrence webhook's). */
export type WebhookCobRCompleto = WebhookRecCompleto;
