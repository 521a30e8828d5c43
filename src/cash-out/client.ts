/**
 * The cash-out client: its own host, credentials and client certificate, independent of
 * `InstantClient`. Resources `balance` and `payments`; workflows `pay`, `verifyNotification` and
 * `notificationHandler`.
 */
import type { ClientCredentials } from '../core/auth.ts';
import type { CustomRequest, RequestOptions, TokenProvider } from '../core/types.ts';
import type { HttpCore } from '../core/http.ts';
import type { Logger } from '../core/log.ts';
import { connect, type ConnectionOptions } from '../composition/connection.ts';
import { checkClientOptions, type ClientKind } from '../composition/check-options.ts';
import { tracedStore, type Telemetry, type WorkflowSpan } from '../core/telemetry.ts';
import type { APIPromise } from '../core/api-promise.ts';
import { missingPayParams, payCashOut, type PayParams, type PayResult } from './pay.ts';
import {
  createTransferNotificationHandler,
  verifyTransferNotification,
  type NotificationVerification,
  type TransferNotificationHandler,
  type TransferNotificationHandlerOptions,
} from './notifications.ts';
import { checkIntentOptions, type IntentOptions } from './intents.ts';
import { payWithIntent } from './pay-with-intent.ts';
import { recoverIntents, type RecoverOptions, type RecoveredPayment } from './recover.ts';
import { MemoryStore, sharedStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import type { Now } from '../internal/clock.ts';
import { CashOutBalance } from './balance.ts';
import { cashOutErrors } from './errors.ts';
import { CashOutPayments } from './payments.ts';

/** The provider's client credentials; `tokenUrl` defaults to `{baseUrl}/api/v2/oauth/token`. */
export type CashOutCredentials = ClientCredentials extends infer C
  ? C extends ClientCredentials
    ? Omit<C, 'tokenUrl'> & { tokenUrl?: string }
    : never
  : never;

/** Options of `new CashOutClient(...)`: the provider's host, credentials, certificate and limits. */
export interface CashOutClientOptions extends Omit<ConnectionOptions, 'auth'> {
  /** The host root (`https://accounts.psp.example`); the SDK adds `/api/v2/...`. */
  baseUrl: string;
  /**
   * Client credentials for the provider's JSON token endpoint (token cached and shared by
   * concurrent calls: the provider accepts 10 token requests a minute), or any
   * `{ getToken(signal) }` provider.
   */
  auth: CashOutCredentials | TokenProvider;
  /** Check requests before sending (default true); `pay()` always parses the amount. */
  validate?: boolean;
  /** How `pay()` holds its key in a shared store while it runs. */
  intents?: IntentOptions;
}

const CASH_OUT_CLIENT: ClientKind = {
  name: 'CashOutClient',
  baseUrl: "the provider's host root, such as https://accounts.psp.example (the SDK adds /api/v2/...)",
  tokenUrlRequired: false,
  authRequired: true,
};

/** `work`'s outcome on `span`, then `work` as it settled. */
function settled<T>(work: Promise<T>, span: WorkflowSpan, outcome: (value: T) => string): Promise<T> {
  return work.then(
    (value) => {
      span.end(outcome(value));
      return value;
    },
    (error: unknown) => {
      span.end('failed', error);
      throw error;
    },
  );
}

/** Where the provider's token endpoint is when `auth.tokenUrl` is not given. */
export const CASH_OUT_TOKEN_PATH = '/api/v2/oauth/token';

/** The cash-out client: resources `balance` and `payments`, workflows `pay`, `recover`, notifications, and `request()`. */
export class CashOutClient {
  /** @internal The HTTP core; a call the SDK does not model goes through `request()`. */
  readonly http: HttpCore;
  readonly validate: boolean;
  /** Where payment intents, the shared token and handled notifications live (default: memory). */
  readonly store: Store;
  /** Where the client logs (the `logger` option, else the `INSTANT_PAYMENTS_LOG` one); the notification handlers use it too. */
  readonly logger: Logger | undefined;
  /** `store` when it reaches beyond this process (see `sharedStore`). */
  readonly #shared: Store | undefined;
  readonly #intents: IntentOptions;
  /** The client's `totalTimeout`, the time of a whole `pay()` when the call gives none. */
  readonly #totalTimeout: number | undefined;
  readonly #close: () => Promise<void>;
  /** @internal OpenTelemetry, decided once (`undefined`: none); the notification handler's spans use it. */
  readonly telemetry: Telemetry | undefined;
  /** The client's clock (the `now` option, else the system clock): deadlines, intents and leases read it. */
  readonly now: Now;

  /** `GET /api/v2/accounts/balances/`. */
  readonly balance: CashOutBalance;
  /** `POST /api/v2/instant/payments/dict`, `GET /api/v2/instant/payments/idempotencyKey/{key}`. */
  readonly payments: CashOutPayments;

  /** Throws a `ConfigurationError` naming the option when one cannot work (no `baseUrl`, no `auth`...). */
  constructor(options: CashOutClientOptions) {
    checkClientOptions(options, CASH_OUT_CLIENT);
    checkIntentOptions(options.intents, 'intents.');
    const { auth, validate, intents, ...connection } = options;
    // checkClientOptions refused a `getToken` that is not a function: one that is there is a provider.
    const withTokenUrl =
      'getToken' in auth
        ? (auth as TokenProvider)
        : {
            ...(auth as CashOutCredentials),
            tokenUrl: (auth as CashOutCredentials).tokenUrl ?? defaultTokenUrl(options.baseUrl),
          };
    const { http, close, telemetry, now } = connect({ ...connection, auth: withTokenUrl }, 'json');
    this.telemetry = telemetry;
    this.now = now;
    this.http = http;
    this.logger = http.logger;
    this.#close = close;
    this.validate = validate ?? true;
    this.store = options.store ?? new MemoryStore({ now });
    this.#shared = sharedStore(this.store);
    this.#intents = intents ?? {};
    this.#totalTimeout = connection.totalTimeout;
    this.balance = new CashOutBalance(this);
    this.payments = new CashOutPayments(this, {
      maxRetries: connection.maxRetries,
      totalTimeout: connection.totalTimeout,
    });
  }

  /**
   * Pays to a destination key after checking the balance (`InsufficientBalanceError`, no order
   * placed); never places a second order under its key. Resolves with the order, or throws
   * `PaymentOutcomeUnknownError` with the key when an order may exist (see `payCashOut`); any
   * other failure means no order was placed and none can be placed from this call later.
   * `totalTimeout` (else the client's) bounds the whole call, store calls included.
   */
  pay(params: PayParams, options?: RequestOptions): Promise<PayResult> {
    const telemetry = this.telemetry;
    const missing = missingPayParams(params);
    if (missing) return telemetry ? telemetry.refused(missing, 'cashOut.pay') : Promise.reject(missing);
    // `totalTimeout` bounds the whole pay(): the client's own when the call gives none.
    const timed =
      options?.totalTimeout === undefined && this.#totalTimeout !== undefined
        ? { ...options, totalTimeout: this.#totalTimeout }
        : options;
    // With a shared store the intent is recorded before the order leaves, for `recover()` (see pay-with-intent.ts).
    if (telemetry === undefined) {
      if (this.#shared === undefined) return payCashOut(this, params, timed);
      return payWithIntent(this, this.#shared, params, timed, this.#intents);
    }
    const shared = this.#shared;
    return telemetry.workflow('cashOut.pay', 'client', (span) => {
      const paid =
        shared === undefined
          ? payCashOut(this, params, timed)
          : payWithIntent(this, tracedStore(shared, span), params, timed, this.#intents);
      return settled(paid, span, () => 'placed');
    });
  }

  /**
   * Settles the payments a crashed process left open in the store: each is read again under its
   * key's lease, looked up by its idempotency key and recorded as found, or (after a safe wait)
   * placed or marked not placed; one a live `pay()` holds is left alone, one the store's key does
   * not open is reported `tampered` and never acted on.
   */
  recover(options?: RecoverOptions): Promise<RecoveredPayment[]> {
    const telemetry = this.telemetry;
    if (telemetry === undefined) return recoverIntents(this, this.store, { ...this.#intents, ...options });
    return telemetry.workflow('cashOut.recover', 'client', (span) => {
      const recovered = recoverIntents(this, tracedStore(this.store, span), { ...this.#intents, ...options });
      return settled(recovered, span, (payments) => {
        span.step('recovered', { count: payments.length });
        return 'recovered';
      });
    });
  }

  /** Verifies a transfer-confirmation notification against the provider's status query. */
  verifyNotification(body: unknown, options?: RequestOptions): Promise<NotificationVerification> {
    return verifyTransferNotification(this, body, options);
  }

  /** A web-standard handler for `POST /webhook/transfer-confirmation`. */
  notificationHandler(handlers: TransferNotificationHandlerOptions): TransferNotificationHandler {
    return createTransferNotificationHandler(this, handlers);
  }

  /**
   * Calls a provider endpoint the SDK does not model, through the same auth, retries, time
   * limits and typed errors (by status, as for `payments`). Resolves with the parsed JSON body;
   * `.withResponse()` with the `Response` too.
   */
  request<T = unknown>(call: CustomRequest, options?: RequestOptions): APIPromise<T> {
    return this.http.request<T>(call, options, cashOutErrors());
  }

  /** Closes the client's keep-alive connections (mTLS). */
  close(): Promise<void> {
    return this.#close();
  }
}

function defaultTokenUrl(baseUrl: string): string {
  return `${String(baseUrl).replace(/\/+$/, '')}${CASH_OUT_TOKEN_PATH}`;
}
