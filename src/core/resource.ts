/** What a resource class sees of its client: the HTTP core and the validation settings. */
import type { HttpCore } from './http.ts';

export interface ClientContext {
  readonly http: HttpCore;
  /** Client-side rule checks on by default; `validate: false` turns them off. */
  readonly validate: boolean;
  /** The receiving user's own directory keys, when given: a charge's `chave` must be one. */
  readonly ownKeys: readonly string[] | undefined;
}

export abstract class APIResource {
  protected readonly client: ClientContext;

  constructor(client: ClientContext) {
    this.client = client;
  }
}
