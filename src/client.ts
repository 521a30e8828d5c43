/**
 * The receiving user's client: charges, batches, locations, received payments, webhooks and
 * recurring charges.
 * It owns the configuration, the HTTP core and the token provider; resources are fields.
 */
import type { CustomRequest, RequestOptions } from './core/types.ts';
import type { HttpCore } from './core/http.ts';
import type { Logger } from './core/log.ts';
import { connect, RESOURCE_TAGS, type BaseUrls, type ConnectionOptions } from './composition/connection.ts';
import { checkClientOptions, type ClientKind } from './composition/check-options.ts';
import type { APIPromise } from './core/api-promise.ts';
import { Cob } from './collection/cob.ts';
import { CobV } from './collection/cobv.ts';
import { LoteCobV } from './collection/lotecobv.ts';
import { PayloadLocation } from './collection/loc.ts';
import { Instant } from './collection/instant.ts';
import { Webhook } from './collection/webhook.ts';
import { Rec } from './recurring/rec.ts';
import { SolicRec } from './recurring/solicrec.ts';
import { CobR, type OwnAccount } from './recurring/cobr.ts';
import { PayloadLocationRec } from './recurring/locrec.ts';
import { WebhookRec } from './recurring/webhookrec.ts';
import { WebhookCobR } from './recurring/webhookcobr.ts';
import { ConfigurationError } from './errors/failures.ts';
import type { Store } from './store/types.ts';
import type { Telemetry } from './core/telemetry.ts';
import type { Now } from './internal/clock.ts';

export interface InstantClientOptions extends ConnectionOptions {
  /** Check the rules of the interface spec's "Violations" before sending (default true). */
  validate?: boolean;
  /** The receiving user's directory keys: when given, a charge's `chave` must be one of them. */
  ownKeys?: readonly string[];
  /**
   * The receiving user's accounts: when given, a recurring charge's `recebedor.conta` (with
   * `agencia`, when both give one) must be one of them.
   */
  ownAccounts?: readonly OwnAccount[];
  /**
   * A base URL per tag, for services that version resources apart (`{ rec: 'https://api.psp.example/v3' }`):
   * that tag's calls (pages, `.withResponse()` and the 401 replay included) go under it; the
   * others under `baseUrl`.
   */
  baseUrls?: BaseUrls;
}

const INSTANT_CLIENT: ClientKind = {
  name: 'InstantClient',
  baseUrl: "the API's root with its /v2, such as https://api.psp.example/v2",
  tokenUrlRequired: true,
  authRequired: false,
  baseUrls: RESOURCE_TAGS,
};

/** The receiving user's client: resources as fields (`api.cob`, `api.instant`...), and `request()`. */
export class InstantClient {
  /** @internal The HTTP core; a call the SDK does not model goes through `request()`. */
  readonly http: HttpCore;
  readonly validate: boolean;
  readonly ownKeys: readonly string[] | undefined;
  readonly ownAccounts: readonly OwnAccount[] | undefined;
  /** The shared store given in the options; `receivedPaymentsHandler` uses it by default. */
  readonly store: Store | undefined;
  /** Where the client logs (the `logger` option, else the `INSTANT_PAYMENTS_LOG` one); the notification handlers use it too. */
  readonly logger: Logger | undefined;
  /** @internal OpenTelemetry, decided once (`undefined`: none); the notification handlers' spans use it. */
  readonly telemetry: Telemetry | undefined;
  /** The client's clock (the `now` option, else the system clock): "today", expiries and deadlines read it. */
  readonly now: Now;
  readonly #close: () => Promise<void>;

  readonly cob: Cob;
  readonly cobv: CobV;
  readonly lotecobv: LoteCobV;
  readonly loc: PayloadLocation;
  readonly instant: Instant;
  readonly webhook: Webhook;
  readonly rec: Rec;
  readonly solicrec: SolicRec;
  readonly cobr: CobR;
  readonly locrec: PayloadLocationRec;
  readonly webhookrec: WebhookRec;
  readonly webhookcobr: WebhookCobR;

  /** Throws a `ConfigurationError` naming the option when one cannot work (no `baseUrl`, a certificate without its key...). */
  constructor(options: InstantClientOptions) {
    checkClientOptions(options, INSTANT_CLIENT);
    const connection = connect(options);
    this.http = connection.http;
    this.telemetry = connection.telemetry;
    this.now = connection.now;
    this.logger = connection.http.logger;
    this.#close = connection.close;
    this.validate = options.validate ?? true;
    this.ownKeys = options.ownKeys ? [...options.ownKeys] : undefined;
    this.ownAccounts = options.ownAccounts === undefined ? undefined : copyAccounts(options.ownAccounts);
    this.store = options.store;
    this.cob = new Cob(this);
    this.cobv = new CobV(this);
    this.lotecobv = new LoteCobV(this);
    this.loc = new PayloadLocation(this);
    this.instant = new Instant(this);
    this.webhook = new Webhook(this);
    this.rec = new Rec(this);
    this.solicrec = new SolicRec(this);
    this.cobr = new CobR(this);
    this.locrec = new PayloadLocationRec(this);
    this.webhookrec = new WebhookRec(this);
    this.webhookcobr = new WebhookCobR(this);
  }

  /**
   * Calls an endpoint the SDK does not model, through the same auth, retries, time limits and
   * typed errors (an answer naming a catalogue type gets its class). Resolves with the parsed
   * JSON body (`undefined` when empty); `.withResponse()` with the `Response` too.
   *
   * ```ts
   * const cob = await api.request<CobCompleta>({ method: 'GET', path: path`/cob/${txid}`, query: { revisao: 2 } });
   * ```
   */
  request<T = unknown>(call: CustomRequest, options?: RequestOptions): APIPromise<T> {
    return this.http.request<T>(call, options);
  }

  /** Closes the client's keep-alive connections (mTLS). */
  close(): Promise<void> {
    return this.#close();
  }
}

/** A frozen copy of the `ownAccounts` option; `ConfigurationError` for an entry without a `conta`. */
function copyAccounts(accounts: readonly OwnAccount[]): readonly OwnAccount[] {
  if (!Array.isArray(accounts))
    throw new ConfigurationError('ownAccounts', 'ownAccounts must be an array of { conta, agencia?, tipoConta }');
  return Object.freeze(
    accounts.map((account: unknown, i) => {
      const { conta, agencia, tipoConta } = (account ?? {}) as Partial<OwnAccount>;
      if (typeof conta !== 'string' || conta === '' || (agencia !== undefined && typeof agencia !== 'string')) {
        throw new ConfigurationError(
          `ownAccounts[${i}]`,
          `ownAccounts[${i}] needs conta (a string) and, if given, agencia (a string)`,
        );
      }
      return Object.freeze({ conta, ...(agencia !== undefined && { agencia }), tipoConta } as OwnAccount);
    }),
  );
}
