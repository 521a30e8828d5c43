/**
 * What the recurring part's two webhook registrations share (`/webhookrec`, `/webhookcobr`): one
 * callback URL per receiving user, with no key in the path. Each tag's file names its path and
 * its error classes.
 */
import type { ApiErrorClass } from '../errors/api-error.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { RoutePath } from '../core/path.ts';
import { APIResource, noData } from '../core/resource.ts';
import { checkWebhookUrl } from '../collection/rules/fields.ts';
import { refuseAppendedSegment } from '../collection/webhook.ts';

/** Where one registration lives and which classes its endpoints answer with. */
export interface RegistrationKind {
  readonly path: RoutePath;
  /** The segment the service appends to `webhookUrl` when it posts (`rec`, `cobr`). */
  readonly appended: string;
  /** `PUT` (and `DELETE`): a bad `webhookUrl` is refused with it. */
  readonly writeError: ApiErrorClass;
  /** `GET`. */
  readonly readError: ApiErrorClass;
}

/** A recurring webhook registration: `put(webhookUrl)`, `get()`, `delete()` on its one path. */
export abstract class WebhookRegistration extends APIResource {
  protected abstract readonly kind: RegistrationKind;

  /**
   * `PUT`: registers (or replaces) the callback URL, an absolute https URL. The service posts
   * to `webhookUrl` with `/rec` or `/cobr` appended, so serve that path. Answered 200 with no
   * body; safe to retry.
   */
  put(webhookUrl: string, options?: RequestOptions): APIPromise<void> {
    return this.send<void, unknown>({
      method: 'PUT',
      // Registers or replaces: sent again, it registers the same callback.
      retry: 'replay',
      path: () => this.kind.path,
      body: { webhookUrl } satisfies WebhookRecSolicitado,
      errors: { 400: this.kind.writeError },
      options,
      rule: (ctx) => {
        refuseAppendedSegment(webhookUrl, [this.kind.appended]);
        checkWebhookUrl(webhookUrl, ctx);
      },
      normalize: noData,
    });
  }

  /** `GET`: the registration (`webhookUrl`, `criacao`). */
  get(options?: RequestOptions): APIPromise<WebhookRecCompleto> {
    return this.send<WebhookRecCompleto>({
      method: 'GET',
      retry: 'replay',
      path: () => this.kind.path,
      errors: { 400: this.kind.readError },
      options,
    });
  }

  /** `DELETE`: no more notifications (answered 204; not the only way a registration ends). */
  delete(options?: RequestOptions): APIPromise<void> {
    return this.send<void, unknown>({
      method: 'DELETE',
      retry: 'replay',
      path: () => this.kind.path,
      errors: { 400: this.kind.writeError },
      options,
      normalize: noData,
    });
  }
}

/** Body of `PUT /webhookrec` and `PUT /webhookcobr`. */
export interface WebhookRecSolicitado {
  /** Absolute https URL; the service appends `/rec` or `/cobr` when it posts. */
  webhookUrl: string;
}

/** A recurring webhook registration. */
export interface WebhookRecCompleto {
  webhookUrl: string;
  /** RFC 3339 date-time. */
  criacao?: string;
  [key: string]: unknown;
}
