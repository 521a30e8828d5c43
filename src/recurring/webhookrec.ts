/**
 * The recurrence webhook (tag WebhookRec): where the service posts recurrence notifications
 * (`{webhookUrl}/rec`), one registration per receiving user.
 */
import { WebhookRecConsultaInvalida, WebhookRecOperacaoInvalida } from '../errors/catalogue.ts';
import { path } from '../core/path.ts';
import { WebhookRegistration, type RegistrationKind } from './webhook-registration.ts';

const WEBHOOKREC: RegistrationKind = {
  path: path`/webhookrec`,
  appended: 'rec',
  writeError: WebhookRecOperacaoInvalida,
  readError: WebhookRecConsultaInvalida,
};

/** The recurrence webhook, `api.webhookrec`: `put(webhookUrl)`, `get()`, `delete()`. */
export class WebhookRec extends WebhookRegistration {
  protected readonly kind = WEBHOOKREC;
}
