/**
 * The receiving user's client: charges, batches, locations, received payments and webhooks.
 * It owns the configuration, the HTTP core and the token provider; resources are fields.
 */
import type { ClientContext } from './core/resource.ts';
import type { HttpCore } from './core/http.ts';
import type { Logger } from './core/log.ts';
import { connect, type ConnectionOptions } from './internal/setup.ts';
import { Cob } from './resources/cob.ts';
import { CobV } from './resources/cobv.ts';
import { LoteCobV } from './resources/lotecobv.ts';
import { PayloadLocation } from './resources/loc.ts';
import { Instant } from './resources/instant.ts';
import { Webhook } from './resources/webhook.ts';
import type { Store } from './store/types.ts';

export interface InstantClientOptions extends ConnectionOptions {
  /** Check the rules of spec section 7.3 before sending (default true). */
  validate?: boolean;
  /** The receiving user's directory keys: when given, a charge's `chave` must be one of them. */
  ownKeys?: readonly string[];
}

export class InstantClient implements ClientContext {
  readonly http: HttpCore;
  readonly validate: boolean;
  readonly ownKeys: readonly string[] | undefined;
  /** The shared store given in the options; `receivedPaymentsHandler` uses it by default. */
  readonly store: Store | undefined;
  /** Where the client logs (the `logger` option, else the `INSTANT_PAYMENTS_LOG` one); the notification handlers use it too. */
  readonly logger: Logger | undefined;
  readonly #close: () => Promise<void>;

  readonly cob: Cob;
  readonly cobv: CobV;
  readonly lotecobv: LoteCobV;
  readonly loc: PayloadLocation;
  readonly instant: Instant;
  readonly webhook: Webhook;

  constructor(options: InstantClientOptions) {
    const connection = connect(options);
    this.http = connection.http;
    this.logger = connection.http.logger;
    this.#close = connection.close;
    this.validate = options.validate ?? true;
    this.ownKeys = options.ownKeys ? [...options.ownKeys] : undefined;
    this.store = options.store;
    this.cob = new Cob(this);
    this.cobv = new CobV(this);
    this.lotecobv = new LoteCobV(this);
    this.loc = new PayloadLocation(this);
    this.instant = new Instant(this);
    this.webhook = new Webhook(this);
  }

  /** Closes the client's keep-alive connections (mTLS). */
  close(): Promise<void> {
    return this.#close();
  }
}
