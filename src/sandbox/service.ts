/**
 * The sandbox's front door: one web-standard handler, `handle(request) => Promise<Response>`,
 * over in-memory state, its addresses and client options, its test controls. msw handlers
 * (`handlers`) and the Node server (`listen()`) both delegate to it; `routes.ts` routes.
 *
 * Addresses, on one origin (virtual for msw, `http(s)://127.0.0.1:PORT` once listening):
 * `/v2/...` the collection API, `/oauth/token` its token endpoint, `/api/v2/...` the cash-out
 * provider (token endpoint included), `/qr/v2/...` the payer-side payloads and their key set,
 * `/sandbox/...` the test controls. Every answer carries CORS headers, and a path the sandbox
 * does not know is 404 before any token is looked at.
 */
import { createRequire } from 'node:module';
import type { HttpHandler } from 'msw';
import type { FetchLike } from '../core/types.ts';
import { isHolidayEntry, type LocalHolidays } from '../lib/calendar.ts';
import { fromCents, parseAmount, toCents } from '../lib/money.ts';
import {
  API_TOKEN_PATH,
  CASH_OUT_TOKEN_PATH,
  renderTransfer,
  settle,
  transferNotification,
  type TransferRecord,
} from './cash-out.ts';
import {
  ANSWER_SOLICREC_BODY,
  APPROVE_REC_BODY,
  BALANCE_BODY,
  DISPUTE_BODY,
  DROP_BODY,
  CLOCK_BODY,
  ControlTable,
  FAULTS_BODY,
  FORGE_BODY,
  NO_BODY,
  PAY_BODY,
  REJECT_REC_BODY,
  SETTLE_BODY,
  SETTLE_COBR_BODY,
  control,
  type SandboxControl,
} from './controls.ts';
import { preflight, withCors } from './cors.ts';
import { ConnectionDrop, FaultInjector, type FaultOptions } from './faults.ts';
import { Notifier, type DropOptions, type RedeliveryOptions, type SentNotification } from './notifications.ts';
import { PayloadSigner } from './payload.ts';
import { sandboxPayerOptions } from './payer-options.ts';
import {
  disputePayment,
  payCharge,
  type DisputeOptions,
  type PayChargeOptions,
  type ReceivedPayment,
} from './payments.ts';
import { Problem } from './problems.ts';
import { Random, secret } from './random.ts';
import { RecurringPart, type ApproveRecOptions, type SettleCobrOptions } from './recurring/part.ts';
import type { OwnAccount } from './recurring/state.ts';
import type { Json } from './rules.ts';
import { SandboxState, type Context, type Credentials, type Transfer } from './state.ts';
import { checkNowOption, ConfigurationError } from '../errors/failures.ts';
import { SandboxRoutes, refusalWithoutCertificate } from './routes.ts';
import { checkOrigin, listenNode, type NodeServer, type SandboxListenOptions } from './server.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';
import { SandboxClock } from './clock.ts';
export type { SandboxListenOptions };

/** The origin msw handlers answer on (no network: nothing resolves it). */
export const VIRTUAL_ORIGIN = 'https://instant-sandbox.example';

/** Options of `createSandbox()`. */
export interface SandboxOptions {
  /** The receiving user's directory keys (default: one generated EVP key). */
  ownKeys?: readonly string[];
  /** The receiving user's accounts, for recurring charges' `recebedor` (default: one generated account). */
  ownAccounts?: readonly OwnAccount[];
  /** Cash-out account balance, a decimal string (default `"1000.00"`). */
  balance?: string;
  /** `auto` (default): orders settle shortly after their 202; `manual`: by `settleTransfer()`. */
  settle?: 'auto' | 'manual';
  /** Where transfer confirmations are POSTed (optional). */
  transferNotificationUrl?: string;
  /**
   * An integer that makes the client secrets, own keys, payload signing key, ids and injected
   * faults the same on every start (default: random, new on every start).
   */
  seed?: number;
  /** Lifetime of issued access tokens, in seconds (default 300). */
  tokenLifetime?: number;
  /** Delay before an `auto` order settles, in milliseconds (default 50). */
  settleDelayMs?: number;
  /** Delay before a batch's items are processed, in milliseconds (default 20). */
  batchDelayMs?: number;
  /** Delay before a refund settles, in milliseconds (default 20). */
  refundDelayMs?: number;
  /** Used to POST notifications (webhooks, transfer confirmations); default the global `fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** How a notification answered other than 2xx, or not at all, is sent again (default 5 attempts, from 1 s, doubling). */
  redelivery?: RedeliveryOptions;
  /**
   * Deliver every notification as a production service does: over HTTPS, presenting a client
   * certificate signed by a CA made for this sandbox (`sandbox.webhookCa`, for the receiver's
   * `authenticate.clientCertificate.ca`). An http:// URL is then an attempt that fails.
   */
  webhookClientCertificate?: boolean;
  /** The CA (PEM) of the receiver's server certificate, trusted when notifying over HTTPS (default: the platform's CAs). */
  webhookServerCa?: string | string[];
  /** Payers' local holidays (`YYYY-MM-DD`, `MM-DD` yearly, or a function of `codMun`) that due dates roll past, as national ones. */
  localHolidays?: LocalHolidays;
  /** The token endpoint takes a JSON body too, as some services do (default: the standard form only). */
  lenientToken?: boolean;
  /**
   * A webhook URL may be plain http on any host (a receiver in another container); default:
   * https, or http on loopback only.
   */
  allowHttpWebhooks?: boolean;
  /**
   * The clock the sandbox's test clock starts from and runs with (default the system clock);
   * `sandbox.clock` moves it (`set`, `advance`).
   */
  now?: Now;
}

/** A token endpoint and the client credentials it accepts. */
export type SandboxCredentials = { tokenUrl: string; clientId: string; clientSecret: string };

type Settled = 'LIQUIDATED' | 'CANCELED';

/** The simulated service (`createSandbox()` makes one): its state, its controls, msw handlers and `listen()`. */
export class Sandbox {
  /** The receiving user's keys: a charge's `chave` must be one of them. */
  readonly ownKeys: readonly string[];
  /**
   * The test clock everything in the sandbox reads: `now()`, `set(isoInstant)`,
   * `advance('P3D' | 'PT2H' | ms)` (what falls due on the way fires, in date order). The client
   * options it hands out carry it as `now`.
   */
  readonly clock: SandboxClock;
  readonly #state = new SandboxState();
  readonly #ids: Random;
  readonly #faults: FaultInjector;
  readonly #signer: PayloadSigner;
  readonly #ctx: Context;
  readonly #options: SandboxOptions;
  readonly #api: Credentials;
  readonly #cashOut: Credentials;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #stop = new AbortController();
  readonly #notifier: Notifier;
  readonly #recurring: RecurringPart;
  readonly #routes: SandboxRoutes;
  #server: NodeServer | undefined;
  /** The `publicOrigin` given to `listen()`: the origin written into URLs and locations. */
  #publicOrigin: string | undefined;
  #handlers: HttpHandler[] | undefined;
  #closed = false;

  constructor(options: SandboxOptions = {}) {
    this.#options = options;
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed))
      throw new ConfigurationError('seed', 'seed must be an integer');
    if (Array.isArray(options.localHolidays) && !options.localHolidays.every(isHolidayEntry))
      throw new ConfigurationError('localHolidays', 'localHolidays must be YYYY-MM-DD or MM-DD dates');
    checkNowOption(options.now);
    this.clock = new SandboxClock(options.now ?? systemNow, () => this.#recurring.sweep());
    const now = () => this.clock.now();
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
    this.#ids = new Random(seed);
    this.#faults = new FaultInjector(seed ^ 0x5eed);
    this.ownKeys = options.ownKeys && options.ownKeys.length > 0 ? [...options.ownKeys] : [this.#ids.uuid()];
    this.#signer = new PayloadSigner(options.seed);
    // Seeded, the secrets come from their own stream: the same on every start, and the ids' stream stays as it was.
    const secrets = options.seed === undefined ? undefined : new Random(seed ^ 0x5ec2e7);
    const newSecret = () => secrets?.alphanumeric(32) ?? secret();
    this.#api = { clientId: 'sandbox-api', clientSecret: newSecret() };
    this.#cashOut = { clientId: 'sandbox-cash-out', clientSecret: newSecret() };
    this.#notifier = new Notifier(
      {
        send: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
        later: (ms, task) => this.#later(ms, task),
        now,
        closed: this.#stop.signal,
        random: (
          (drops) => () =>
            drops.next()
        )(new Random(seed ^ 0xd209)),
        clientCertificate: options.webhookClientCertificate ? { serverCa: options.webhookServerCa } : undefined,
      },
      options.redelivery,
    );
    this.#state.balanceCents = toCents(parseAmount(options.balance ?? '1000.00'));
    this.#ctx = {
      state: this.#state,
      ids: this.#ids,
      ownKeys: this.ownKeys,
      recebedor: {
        cnpj: '11222333000181',
        nome: 'Sandbox Recebedor Ltda',
        nomeFantasia: 'Sandbox',
        logradouro: 'Rua da Simulação, 1',
        cidade: 'Brasília',
        uf: 'DF',
        cep: '70000000',
      },
      origin: () => this.origin,
      now,
      later: (ms, task) => this.#later(ms, task),
      notify: (url, body) => this.#notify(url, body),
      batchDelayMs: options.batchDelayMs ?? 20,
      refundDelayMs: options.refundDelayMs ?? 20,
      localHolidays: options.localHolidays,
      allowHttpWebhooks: options.allowHttpWebhooks === true,
    };
    this.#recurring = new RecurringPart(this.#ctx, this.#signer, seed ^ 0x7ec, options.ownAccounts);
    this.#routes = new SandboxRoutes({
      ctx: this.#ctx,
      signer: this.#signer,
      recurring: this.#recurring,
      faults: this.#faults,
      controls: this.#controls,
      api: this.#api,
      cashOut: this.#cashOut,
      tokenLifetime: options.tokenLifetime ?? 300,
      lenientToken: options.lenientToken === true,
      certificateVerified: () => this.#server?.tls === true,
      placed: (transfer) => {
        if ((options.settle ?? 'auto') === 'auto')
          this.#later(options.settleDelayMs ?? 50, () => this.#settle(transfer, 'LIQUIDATED'));
      },
    });
  }

  /** The receiving user's accounts: a recurring charge's `recebedor.conta`/`agencia` must be one of them. */
  get ownAccounts(): readonly OwnAccount[] {
    return this.#recurring.ownAccounts;
  }

  /** With `webhookClientCertificate`: the CA (PEM) that signs the certificate notifications are sent with. */
  get webhookCa(): string | undefined {
    return this.#notifier.ca;
  }

  /** The origin clients reach: `http(s)://127.0.0.1:PORT` once listening, else the virtual one. */
  get origin(): string {
    return this.#publicOrigin ?? this.#server?.origin ?? VIRTUAL_ORIGIN;
  }

  /** The collection API's base URL (`…/v2`). */
  get baseUrl(): string {
    return `${this.origin}/v2`;
  }

  /** The collection API's client credentials and token endpoint. */
  get credentials(): SandboxCredentials {
    return { tokenUrl: `${this.origin}${API_TOKEN_PATH}`, ...this.#api };
  }

  /** The cash-out provider's client credentials and (JSON) token endpoint. */
  get cashOutCredentials(): SandboxCredentials {
    return { tokenUrl: `${this.origin}${CASH_OUT_TOKEN_PATH}`, ...this.#cashOut };
  }

  /** Options for `new InstantClient(...)`: base URL, credentials, own keys and accounts (add `tls` in HTTPS mode). */
  clientOptions(): {
    baseUrl: string;
    auth: SandboxCredentials;
    ownKeys: readonly string[];
    ownAccounts: readonly OwnAccount[];
    now: Now;
  } {
    return {
      baseUrl: this.baseUrl,
      auth: this.credentials,
      ownKeys: this.ownKeys,
      ownAccounts: this.ownAccounts,
      now: this.#now,
    };
  }

  /** Options for `new CashOutClient(...)`: the host root, the provider's credentials and the test clock. */
  cashOutOptions(): { baseUrl: string; auth: SandboxCredentials; now: Now } {
    return { baseUrl: this.origin, auth: this.cashOutCredentials, now: this.#now };
  }

  /** The test clock as a client's `now` option: the client judges "today" as the sandbox does. */
  readonly #now: Now = () => this.clock.now();

  /**
   * Options for `new PayerClient(...)`: lets the payer reach the loopback host (see
   * `sandboxPayerOptions`, the same for a payer in another process).
   */
  payerOptions(): { allowPrivateHosts: true; fetch?: FetchLike; now: Now } {
    const server = this.#server;
    if (server === undefined) return { allowPrivateHosts: true, now: this.#now };
    if (this.#publicOrigin === undefined)
      return { ...sandboxPayerOptions(server.origin, server.fetch), now: this.#now };
    // Locations name the public origin: this process reaches it on the local one.
    const publicOrigin = this.#publicOrigin;
    const options = sandboxPayerOptions(publicOrigin, (url, init) =>
      server.fetch(url.startsWith(publicOrigin) ? server.origin + url.slice(publicOrigin.length) : url, init),
    );
    return { ...options, now: this.#now };
  }

  /** msw request handlers for the same service on the virtual origin; msw is loaded on first use. */
  get handlers(): HttpHandler[] {
    if (this.#handlers === undefined) {
      // msw is an optional peer dependency: loaded here, synchronously, only when asked for.
      const require = createRequire(import.meta.url);
      const { http, HttpResponse } = require('msw') as typeof import('msw');
      this.#handlers = [
        http.all(`${VIRTUAL_ORIGIN}/*`, async ({ request }) => {
          try {
            return await this.handle(request);
          } catch (error) {
            if (error instanceof ConnectionDrop) return HttpResponse.error();
            throw error;
          }
        }),
      ];
    }
    return this.#handlers;
  }

  /** Serves the sandbox on 127.0.0.1 (HTTPS with `tls`); resolves with its origin. */
  async listen(options: SandboxListenOptions = {}): Promise<{ url: string }> {
    if (this.#server) throw new Error('The sandbox is already listening');
    const publicOrigin = options.publicOrigin === undefined ? undefined : checkOrigin(options.publicOrigin);
    this.#server = await listenNode(
      (request) => this.handle(request),
      options.port ?? 0,
      options.tls,
      refusalWithoutCertificate,
      options.host,
    );
    this.#publicOrigin = publicOrigin;
    return { url: this.origin };
  }

  /**
   * The service itself. Throws `ConnectionDrop` when an injected fault drops the connection
   * (the Node server then destroys the socket; msw answers a network error).
   */
  async handle(request: Request): Promise<Response> {
    if (request.method === 'OPTIONS') return preflight(request);
    return withCors(await this.#routes.serve(request));
  }

  // -------------------------------------------------------------------------------------------
  // Test controls

  /** The test controls as HTTP routes (`/sandbox/...`): one entry per route. */
  readonly #controls = new ControlTable([
    control(
      'POST',
      '/sandbox/charges/{txid}/pay',
      'payCharge: pays as a payer { valor?, infoPagador? }, answers the payment',
      PAY_BODY,
      ({ txid }, input) => this.payCharge(txid, input),
    ),
    control(
      'POST',
      '/sandbox/transfers/{idempotencyKey}/settle',
      'settleTransfer { status: LIQUIDATED | CANCELED, errorCode? }',
      SETTLE_BODY,
      ({ idempotencyKey }, { status, errorCode }) => this.settleTransfer(idempotencyKey, status, errorCode),
    ),
    control(
      'POST',
      '/sandbox/transfers/{idempotencyKey}/forge',
      'forgeTransferNotification { status, errorCode? }, answers the notification',
      FORGE_BODY,
      ({ idempotencyKey }, input) => this.#forge({ idempotencyKey, ...input }),
    ),
    control(
      'PUT',
      '/sandbox/balance',
      'setBalance { balance }',
      BALANCE_BODY,
      (_, { balance }) => (this.setBalance(balance), { balance: this.balance }),
    ),
    control(
      'POST',
      '/sandbox/faults',
      'injectFaults { rate, kinds?, latencyMs?, retryAfter?, seed? }; rate 0 stops',
      FAULTS_BODY,
      (_, input) => (this.injectFaults(input), { faults: this.faultCounts() }),
    ),
    control('POST', '/sandbox/tokens/expire', 'expireTokens: every token issued so far gets 401', NO_BODY, () => ({
      expired: this.expireTokens(),
    })),
    control('GET', '/sandbox/clock', "clock: the test clock's now", NO_BODY, () => ({ now: this.clock.now() })),
    control(
      'POST',
      '/sandbox/clock',
      "moves the test clock { set?: RFC 3339 instant, advance?: 'P3D' | 'PT2H' | ms }; what falls due fires",
      CLOCK_BODY,
      async (_, { set, advance }) => {
        if (set !== undefined) await this.clock.set(set);
        if (advance !== undefined) await this.clock.advance(advance);
        return { now: this.clock.now() };
      },
    ),
    control(
      'GET',
      '/sandbox/notifications',
      'notifications(): every notification sent, each attempt, the last answer',
      NO_BODY,
      () => ({ notifications: this.notifications() }),
    ),
    control(
      'POST',
      '/sandbox/notifications/drop',
      'dropNotifications { count?, rate? }: the next notifications are lost for good (no redelivery)',
      DROP_BODY,
      (_, input) => (this.dropNotifications(input), {}),
    ),
    control(
      'POST',
      '/sandbox/notifications/{id}/redeliver',
      'redeliver(id): sends a logged notification again, now; answers it',
      NO_BODY,
      async ({ id }) => ({ notification: await this.redeliver(Number(id)) }),
    ),
    control(
      'POST',
      '/sandbox/payments/{e2eid}/dispute',
      'disputePayment { natureza: MED_*, valor? }: the service returns money on its own and notifies; answers the refund',
      DISPUTE_BODY,
      ({ e2eid }, input) => this.disputePayment(e2eid, input),
    ),
    control(
      'POST',
      '/sandbox/recs/{idRec}/approve',
      'approveRec: the payer approves the recurrence { jornada? }',
      APPROVE_REC_BODY,
      ({ idRec }, input) => this.approveRec(idRec, input),
    ),
    control(
      'POST',
      '/sandbox/recs/{idRec}/reject',
      'rejectRec: the payer rejects the recurrence { codigo?: AP13 | AP14 }',
      REJECT_REC_BODY,
      ({ idRec }, input) => this.rejectRec(idRec, input),
    ),
    control(
      'POST',
      '/sandbox/solicrecs/{idSolicRec}/answer',
      'answerSolicRec { status: ACEITA | REJEITADA | RECEBIDA }',
      ANSWER_SOLICREC_BODY,
      ({ idSolicRec }, { status }) => this.answerSolicRec(idSolicRec, status),
    ),
    control(
      'POST',
      '/sandbox/cobrs/{txid}/settle',
      'settleCobr: the attempt is paid or rejected { status: PAGA | REJEITADA, codigo? }',
      SETTLE_COBR_BODY,
      ({ txid }, { status, ...options }) => this.settleCobr(txid, status, options),
    ),
  ]);

  /** The `/sandbox/...` routes: method, path template and what each does. */
  get controlRoutes(): readonly SandboxControl[] {
    return this.#controls.routes.map(({ method, path, does }) => ({ method, path, does }));
  }

  /**
   * Pays the charge `txid` as a payer would; resolves with the received payment once the
   * webhook's first attempt has its answer (redeliveries, if any, follow by themselves). Paying
   * the immediate charge of a journey-3 recurrence (its `dadosJornada.txid`), or a due-date
   * charge whose journey-4 composite code was handed out, approves that recurrence.
   */
  async payCharge(txid: string, options: PayChargeOptions = {}): Promise<ReceivedPayment> {
    const payment = await payCharge(this.#ctx, txid, options);
    await this.#recurring.chargePaid(txid);
    return payment;
  }

  /** The paying user approves the recurrence (by `jornada`); resolves with it once notified. */
  approveRec(idRec: string, options: ApproveRecOptions = {}): Promise<Record<string, unknown>> {
    return this.#recurring.approveRec(idRec, options);
  }

  /** The paying user rejects the recurrence (`AP13` unless `codigo` says `AP14`); resolves once notified. */
  rejectRec(idRec: string, options: { codigo?: 'AP13' | 'AP14' } = {}): Promise<Record<string, unknown>> {
    return this.#recurring.rejectRec(idRec, options);
  }

  /**
   * The payer's side answers a confirmation request: `ACEITA` approves its recurrence (journey
   * 1), `REJEITADA` rejects it; `RECEBIDA` only marks it received. Resolves with the request.
   */
  answerSolicRec(idSolicRec: string, status: 'ACEITA' | 'REJEITADA' | 'RECEBIDA'): Promise<Record<string, unknown>> {
    return this.#recurring.answerSolicRec(idSolicRec, status);
  }

  /**
   * Settles the pending attempt of the recurring charge `txid`: `PAGA` concludes the charge;
   * `REJEITADA` rejects the attempt (with `codigo`; the codes of spec 2.4 reject the charge too).
   * Resolves with the charge once notified.
   */
  settleCobr(
    txid: string,
    status: 'PAGA' | 'REJEITADA',
    options: SettleCobrOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.#recurring.settleCobr(txid, status, options);
  }

  /** Sets the cash-out balance (a decimal string, `"10.00"`). */
  setBalance(amount: string): void {
    this.#state.balanceCents = toCents(parseAmount(amount));
  }

  /** The cash-out balance as a decimal string. */
  get balance(): string {
    return fromCents(this.#state.balanceCents);
  }

  /**
   * Settles the order placed with `idempotencyKey` (when `settle: 'manual'`, or before the
   * automatic settlement): `LIQUIDATED` debits the balance, or cancels the order (`AM04`) when
   * the balance does not cover it. Resolves with the transfer once the confirmation's first
   * attempt has its answer.
   */
  async settleTransfer(idempotencyKey: string, status: Settled, errorCode?: string): Promise<TransferRecord> {
    const transfer = this.#state.transfers.get(idempotencyKey);
    if (transfer === undefined) throw new Problem('NaoEncontrado', 'No order with that idempotency key.');
    await this.#settle(transfer, status, errorCode);
    return renderTransfer(transfer);
  }

  /**
   * POSTs a transfer confirmation that the sandbox never decided (a forgery) to
   * `transferNotificationUrl`; resolves with the receiver's status code of the first attempt
   * (`undefined`: no answer). It is redelivered like any notification.
   */
  async forgeTransferNotification(fake: {
    idempotencyKey: string;
    status: string;
    errorCode?: string;
  }): Promise<number | undefined> {
    return (await this.#forge(fake)).lastAnswer?.status;
  }

  async #forge(fake: { idempotencyKey: string; status: string; errorCode?: string }): Promise<SentNotification> {
    const url = this.#options.transferNotificationUrl;
    if (url === undefined)
      throw new Problem(
        'RequisicaoInvalida',
        'transferNotificationUrl is not set (createSandbox option, --transfer-notification-url).',
      );
    const known = this.#state.transfers.get(fake.idempotencyKey);
    const data: Json = {
      ...(known ? renderTransfer(known) : { idempotencyKey: fake.idempotencyKey }),
      status: fake.status,
    };
    if (fake.errorCode !== undefined) data['errorCode'] = fake.errorCode;
    return this.#notifier.send(url, transferNotification(data));
  }

  /** Injects faults into a share of the requests (seeded: the same run meets the same faults); rate 0 stops. */
  injectFaults(options: FaultOptions): void {
    this.#faults.configure(options);
  }

  /** How many faults of each kind were injected so far. */
  faultCounts(): Readonly<Record<string, number>> {
    return { ...this.#faults.counts };
  }

  /** Every token issued so far now gets 401 (tests the refresh path); returns how many were live. */
  expireTokens(): number {
    let live = 0;
    for (const token of this.#state.tokens.values()) {
      if (token.expiresAt > epochMs(this.#ctx.now)) live++;
      token.expiresAt = 0;
    }
    return live;
  }

  /**
   * Every notification sent (webhooks, transfer confirmations), oldest first: url, body, state
   * (`pending`, `delivered`, `failed`), each attempt with its time and answer, the last answer.
   */
  notifications(): SentNotification[] {
    return this.#notifier.list();
  }

  /**
   * The next notifications are lost for good, as when a service gives up: the next `count`, then
   * each with probability `rate` (seeded; `{}` stops). Shown as `dropped` in `notifications()`.
   */
  dropNotifications(options: DropOptions): void {
    this.#notifier.drop(options);
  }

  /**
   * Sends the logged notification `id` again, now (one attempt, marked `redelivery` in the log,
   * whatever its state); resolves with it once answered.
   */
  async redeliver(id: number): Promise<SentNotification> {
    const sent = await this.#notifier.redeliver(id);
    if (sent === undefined) throw new Problem('NaoEncontrado', `No notification ${id} in the log.`);
    return sent;
  }

  /**
   * The service returns money of the received payment `e2eid` on its own (`natureza`:
   * `MED_OPERACIONAL`, `MED_FRAUDE`, `MED_AUTOMATIC`), `valor` (default: all that is left to
   * return), as a refund the receiving user did not ask for; it settles shortly after and is
   * notified like a refund. More than is left to return is refused (`InstantDevolucaoInvalida`).
   */
  disputePayment(e2eid: string, options: DisputeOptions): Json {
    return disputePayment(this.#ctx, e2eid, options);
  }

  /** Stops the server (if listening) and every pending timer. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stop.abort();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const server = this.#server;
    this.#server = undefined;
    this.#publicOrigin = undefined;
    await server?.close();
  }

  // -------------------------------------------------------------------------------------------

  async #settle(transfer: Transfer, wanted: Settled, errorCode?: string): Promise<void> {
    if (!settle(this.#ctx, transfer, wanted, errorCode)) return;
    const url = this.#options.transferNotificationUrl;
    if (url !== undefined) await this.#notify(url, transferNotification(renderTransfer(transfer)));
  }

  /** Runs `task` once `ms` have passed on the test clock or in real time, whichever is first. */
  #later(ms: number, task: () => void | Promise<void>): void {
    if (this.#closed) return;
    const timer = this.clock.schedule(ms, () => {
      this.#timers.delete(timer);
      if (this.#closed) return;
      void Promise.resolve()
        .then(task)
        .catch(() => undefined);
    });
    timer.unref?.();
    this.#timers.add(timer);
  }

  /** The one way out for notifications: logged, and redelivered until a 2xx or the attempts run out. */
  async #notify(url: string, body: unknown): Promise<number | undefined> {
    return (await this.#notifier.send(url, body)).lastAnswer?.status;
  }
}

/** Creates a sandbox (see `Sandbox`). */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options);
}
