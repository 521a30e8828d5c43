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
import {
  WebhookConsultaInvalida,
  WebhookNaoEncontrado,
  WebhookOperacaoInvalida,
  type Violacao,
} from '../core/errors.ts';
import type { RequestOptions } from '../core/http.ts';
import type { PagePromise, PageParametros, Paginacao } from '../core/pagination.ts';
import { path } from '../core/path.ts';
import { APIResource } from '../core/resource.ts';
import { refuse, shouldValidate, violation } from '../core/validation.ts';
import { isValidKey } from '../lib/keys.ts';
import { checkListQuery, listPages } from './charge-rules.ts';
import type { PaginacaoQuery } from './cob.ts';

const WRITE_FALLBACK = { 400: WebhookOperacaoInvalida, 404: WebhookNaoEncontrado };
const READ_FALLBACK = { 400: WebhookConsultaInvalida, 404: WebhookNaoEncontrado };

/** Notification callbacks per directory key, `api.webhook`: register, fetch, remove, list. */
export class Webhook extends APIResource {
  /**
   * `PUT /webhook/{chave}`: registers (or replaces) the callback for the key. The service posts
   * received payments to `webhookUrl` with `/<list name>` appended, so serve the whole subtree.
   */
  async put(chave: string, webhookUrl: string, options?: RequestOptions): Promise<void> {
    if (this.#validate(options)) {
      refuse(WebhookOperacaoInvalida, [...this.#checkChave(chave, true), ...checkWebhookUrl(webhookUrl)]);
    }
    await this.client.http.json<undefined>({
      method: 'PUT',
      path: path`/webhook/${chave}`,
      body: { webhookUrl } satisfies WebhookSolicitado,
      fallback: WRITE_FALLBACK,
      options,
    });
  }

  /** `GET /webhook/{chave}`: the registration (older services name the key `chave`, newer `cnpj`). */
  async get(chave: string, options?: RequestOptions): Promise<WebhookCompleto> {
    if (this.#validate(options)) refuse(WebhookConsultaInvalida, this.#checkChave(chave, false));
    return this.client.http.json<WebhookCompleto>({ method: 'GET', path: path`/webhook/${chave}`, fallback: READ_FALLBACK, options });
  }

  /** `DELETE /webhook/{chave}`: no more notifications for the key. */
  async delete(chave: string, options?: RequestOptions): Promise<void> {
    if (this.#validate(options)) refuse(WebhookOperacaoInvalida, this.#checkChave(chave, false));
    await this.client.http.json<undefined>({ method: 'DELETE', path: path`/webhook/${chave}`, fallback: WRITE_FALLBACK, options });
  }

  /**
   * `GET /webhook` (`inicio` and `fim` optional here): `await` gives the first page (`items`,
   * also under the wire name `webhooks`); `for await` walks every registration.
   */
  list(query: WebhookListQuery = {}, options?: RequestOptions): PagePromise<WebhookCompleto, ParametrosConsultaWebhook> {
    const validate = this.#validate(options);
    return listPages({
      http: this.client.http,
      path: path`/webhook`,
      query,
      listKey: 'webhooks',
      fallback: { 400: WebhookConsultaInvalida },
      options,
      check: validate ? () => checkListQuery(query, WebhookConsultaInvalida, '', { requireRange: false }) : undefined,
    });
  }

  #validate(options: RequestOptions | undefined): boolean {
    return shouldValidate(this.client.validate, options?.validate);
  }

  /** A valid directory key; with `owned`, also one of the client's `ownKeys` when it has them. */
  #checkChave(chave: unknown, owned: boolean): Violacao[] {
    if (!isValidKey(chave as string)) return [violation('chave', 'chave is not a valid directory key')];
    const ownKeys = this.client.ownKeys;
    if (owned && ownKeys && !ownKeys.includes(chave as string)) {
      return [violation('chave', 'chave is not one of the keys of this receiving user (ownKeys)')];
    }
    return [];
  }
}

function checkWebhookUrl(webhookUrl: unknown): Violacao[] {
  const refused = [violation('webhookUrl', 'webhookUrl must be an absolute https URL without user name or password')];
  if (typeof webhookUrl !== 'string' || !/^https:\/\//i.test(webhookUrl)) return refused;
  try {
    const url = new URL(webhookUrl);
    return url.username === '' && url.password === '' && url.hostname !== '' ? [] : refused;
  } catch {
    return refused;
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
