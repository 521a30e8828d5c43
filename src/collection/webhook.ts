/**
 * Webhooks (tag Webhook): one callback URL per directory key, where the service posts the
 * payments received on that key (see `receivedPaymentsHandler`).
 *
 * `chave` travels percent-encoded as one path segment (`+` and `@` included). Client-side
 * refusals, with `sentRequest: false`: `put` and `delete` refuse a `chave` that is no valid
 * directory key (or not one of `ownKeys`, when the client has them) and a `webhookUrl` that is
 * not an absolute https URL with `WebhookOperacaoInvalida`; `get` and `list` refuse a bad key
 * or query with `WebhookConsultaInvalida`.
 */
import { WebhookConsultaInvalida, WebhookNaoEncontrado, WebhookOperacaoInvalida } from '../errors/catalogue.ts';
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import type { PagePromise, PageParametros, Paginacao, PaginacaoQuery } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource, noData } from '../core/resource.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { checkChave, checkWebhookUrl } from './rules/fields.ts';
import { INSTANT_LIST_KEY } from './instant.ts';
import { collectListQuery } from './rules/query.ts';

const WRITE_ERRORS = { 400: WebhookOperacaoInvalida, 404: WebhookNaoEncontrado };
const READ_ERRORS = { 400: WebhookConsultaInvalida, 404: WebhookNaoEncontrado };

/**
 * Throws a `ConfigurationError` when `webhookUrl` already ends with the segment the service
 * appends (`.../webhook/instant`: notifications would land at `.../webhook/instant/instant`),
 * saying where they would land. Part of the call's rule (off with `validate: false`). A refusal
 * rather than a warning: a warning shown only through an optional logger reached nobody. The
 * URL itself is not repeated (it may carry a secret path).
 */
export function refuseAppendedSegment(webhookUrl: unknown, segments: readonly string[]): void {
  if (typeof webhookUrl !== 'string') return;
  let pathname: string;
  try {
    pathname = new URL(webhookUrl).pathname.replace(/\/+$/, '');
  } catch {
    return;
  }
  const segment = segments.find((name) => pathname.endsWith(`/${name}`));
  if (segment === undefined) return;
  throw new ConfigurationError(
    'webhookUrl',
    `webhookUrl already ends with /${segment}, which the service appends: notifications would land at ` +
      `.../${segment}/${segment}. Register the URL without the final /${segment}, and serve .../${segment}.`,
  );
}

/** What the service appends to a key's `webhookUrl`: its list name (the sandbox names it `instant`). */
const APPENDED = [INSTANT_LIST_KEY, 'instant'];

/** Notification callbacks per directory key, `api.webhook`: register, fetch, remove, list. */
export class Webhook extends APIResource {
  /**
   * `PUT /webhook/{chave}`: registers (or replaces) the callback for the key. The service posts
   * received payments to `webhookUrl` with `/<list name>` appended, so serve the whole subtree.
   */
  put(chave: string, webhookUrl: string, options?: RequestOptions): APIPromise<void> {
    return this.send<void, unknown>({
      method: 'PUT',
      path: () => path`/webhook/${chave}`,
      // Registers or replaces: sent again, it registers the same callback.
      retry: 'replay',
      body: { webhookUrl } satisfies WebhookSolicitado,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx) => {
        refuseAppendedSegment(webhookUrl, APPENDED);
        checkChave(chave, 'chave', ctx, { required: true, owned: true });
        checkWebhookUrl(webhookUrl, ctx);
      },
      normalize: noData,
    });
  }

  /** `GET /webhook/{chave}`: the registration (older services name the key `chave`, newer `cnpj`). */
  get(chave: string, options?: RequestOptions): APIPromise<WebhookCompleto> {
    return this.send<WebhookCompleto>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/webhook/${chave}`,
      errors: READ_ERRORS,
      options,
      rule: (ctx) => checkChave(chave, 'chave', ctx, { required: true, owned: false }),
    });
  }

  /** `DELETE /webhook/{chave}`: no more notifications for the key. */
  delete(chave: string, options?: RequestOptions): APIPromise<void> {
    return this.send<void, unknown>({
      method: 'DELETE',
      retry: 'replay',
      path: () => path`/webhook/${chave}`,
      errors: WRITE_ERRORS,
      options,
      rule: (ctx) => checkChave(chave, 'chave', ctx, { required: true, owned: false }),
      normalize: noData,
    });
  }

  /**
   * `GET /webhook` (`inicio` and `fim` optional here): `await` gives the first page (`items`,
   * also under the wire name `webhooks`); `for await` walks every registration.
   */
  list(
    query: WebhookListQuery = {},
    options?: RequestOptions,
  ): PagePromise<WebhookCompleto, ParametrosConsultaWebhook> {
    return this.getList(path`/webhook`, 'webhooks', {
      query,
      errors: { 400: WebhookConsultaInvalida },
      options,
      rule: (ctx) => collectListQuery(query, ctx, '', false),
    });
  }
}

/** Body of `PUT /webhook/{chave}`. */
export interface WebhookSolicitado {
  /** Absolute https URL; the service appends `/<list name>` when it posts. */
  webhookUrl: string;
}

/** A webhook registration. The key is under `chave` (older services) or `cnpj` (newer): both are read. */
export interface WebhookCompleto {
  webhookUrl: string;
  chave?: string;
  cnpj?: string;
  /** RFC 3339 date-time. */
  criacao: string;
  [key: string]: unknown;
}

/** Query of `GET /webhook`: every field optional. */
export interface WebhookListQuery {
  inicio?: string;
  fim?: string;
  paginacao?: PaginacaoQuery;
}

/** `parametros` of a webhook list page. */
export interface ParametrosConsultaWebhook extends PageParametros {
  paginacao: Paginacao;
}
