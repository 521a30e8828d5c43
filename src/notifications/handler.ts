/**
 * What every inbound notification handler (received payments, recurring, transfer
 * confirmations) shares, so that they look alike to a user: `authenticate` checked before
 * anything else (401/403, see `authenticate.ts`), POST only (405 otherwise), a bounded body (400
 * beyond `maxBodyBytes`), `onError` told of every error answer, a `store` and `claim` for
 * fleet-wide once-only delivery (callbacks get `{ signal, tx }`), a `logger`, and the same
 * handler as a Node listener under `.node`. Each handler then confirms what it was told through
 * `confirmed.ts`, the one confirmation path.
 */
import type { Telemetry, WorkflowSpan } from '../core/telemetry.ts';
import { InvalidNotificationError } from '../errors/failures.ts';
import type { Logger } from '../core/log.ts';
import { readBounded } from '../core/response.ts';
import { DEFAULT_MAX_BODY_BYTES, NODE_FORM, toNodeHandler, type NodeHandler } from '../node/adapter.ts';
import {
  Refusal,
  authenticator,
  nodeArrival,
  webArrival,
  type Arrival,
  type WebhookAuthentication,
} from './authenticate.ts';
import {
  allDone,
  claimSettings,
  runOnce,
  type ClaimContext,
  type ClaimOptions,
  type RunOnceOptions,
} from '../store/claims.ts';
import type { Store, StoreTransaction, TransactionalStore } from '../store/types.ts';
import type { Now } from '../internal/clock.ts';

/**
 * Largest notification body every handler reads by default (1 MiB, the Node adapter's own): a
 * received-payments notification may list many payments. A larger one is answered 400.
 */
export const DEFAULT_NOTIFICATION_MAX_BYTES = DEFAULT_MAX_BODY_BYTES;

/**
 * What a notification callback is given beside the notification: `signal`, aborted when its
 * claim is lost (a renewal failed or went unanswered: another process may run it; never
 * aborted without a store), and with a transactional store (PostgreSQL) `tx`, a client inside
 * the transaction that records the done mark: what the callback writes through it commits
 * with the mark or not at all. Do not end that transaction yourself.
 */
export type NotificationContext<S extends Store = Store> = S extends TransactionalStore
  ? ClaimContext & { readonly tx: StoreTransaction }
  : ClaimContext;

/** Options every notification handler takes. */
export interface NotificationHandlerOptions<S extends Store = Store> {
  /**
   * Told about every request answered with an error status (400, 401, 403, 405, 500), with the
   * reason; for logs and metrics. Its own failures are ignored.
   */
  onError?(error: unknown, status: number): void;
  /**
   * Largest body read, in bytes (default `DEFAULT_NOTIFICATION_MAX_BYTES`, 1 MiB); a larger one is
   * answered 400 (the Node adapter stops reading it).
   */
  maxBodyBytes?: number;
  /**
   * A shared store (`instant-payments/postgres`; default: the client's `store`): the confirmed
   * callback then runs once per notified item across every process sharing it.
   */
  store?: S;
  /**
   * Lease and wait times of the fleet-wide claim, checked when the handler is built (a
   * `ConfigurationError` naming the option).
   */
  claim?: ClaimOptions;
  /**
   * Where the handler logs what it received, its verdicts and its error answers (counts,
   * statuses, reasons, error names; never a notification's contents: ids, amounts, parties).
   * Default: the client's logger.
   */
  logger?: Logger;
  /**
   * Who may deliver (the service's certificate, a secret in the URL, its addresses), checked
   * before the body is read and before any call to the service: 401 without a credential, 403
   * with a wrong one, `onError` told with a `WebhookAuthenticationError` naming the check. Checked
   * when the handler is built (a `ConfigurationError` naming the option).
   */
  authenticate?: WebhookAuthentication;
  /**
   * How many confirming calls to the service run at once (default 8); the rest wait their turn.
   * Deliveries of the same notification in flight share one call whatever this is. A handler
   * confirms at most this many ÷ the call's latency items a second (8 ÷ 80 ms: 100).
   */
  maxConcurrentConfirmations?: number;
  /**
   * How long the service waits for the answer to a delivery before it gives up and delivers
   * again (default 5 000 ms: the interface names no figure; set your service's). When a delivery
   * waits this long for a confirmation slot (`maxConcurrentConfirmations`), the handler says so
   * once: a `warn` log line and an event on the notification's span.
   */
  deliveryTimeoutMs?: number;
}

/** What the web-standard handler may be told about the connection, where the platform knows it. */
export interface ConnectionInfo {
  /**
   * The connecting address (Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request)`,
   * a serverless platform's source IP). Without it no hop is trusted and `allowIps` cannot pass.
   */
  remoteAddress?: string;
}

/** A web-standard notification handler, with its Node form. Never throws. */
export interface NotificationHandler {
  (request: Request, connection?: ConnectionInfo): Promise<Response>;
  /**
   * The same handler as a Node `(req, res)` listener (`http.createServer`, Express, and Fastify's
   * own `(request, reply)`), through `toNodeHandler` with the same body limit; a body the
   * framework parsed is used. `toNodeHandler(handler)` works as well.
   */
  readonly node: NodeHandler;
}

/** Answers an error status after telling `onError`. */
export type Fail = (status: number, error: unknown, headers?: Record<string, string>) => Response;

/** What a notification's handling tells its SERVER span (nothing without telemetry). */
export interface NotificationTrace {
  /** The outcome the span ends with when the answer is 200 (confirmed, duplicate...). */
  outcome(outcome: string): void;
  /** An event on the span: names, counts and durations only. */
  step(name: string, attributes?: Record<string, string | number | boolean>): void;
}

/**
 * Builds a handler's HTTP side (see `pipeline.ts`): the method and body checks, then `handle`
 * with the body's bytes and the request's signal. A throw anywhere is a 500, told to `onError`
 * and logged to `log`.
 */
export function notificationHandler(
  options: NotificationHandlerOptions,
  log: Logger | undefined,
  handle: (bytes: Uint8Array, signal: AbortSignal, fail: Fail, trace: NotificationTrace) => Promise<Response>,
  telemetry: { telemetry: Telemetry | undefined; name: string; now: Now },
): NotificationHandler {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_NOTIFICATION_MAX_BYTES;
  const gate = authenticator(options.authenticate, telemetry.now);
  const fail: Fail = (status, error, headers) => {
    if (status >= 500) log?.error?.('notification failed', { status, error: errorName(error) });
    else log?.warn?.('notification refused', { status, error: errorName(error) });
    try {
      options.onError?.(error instanceof Refusal ? error.error() : error, status);
    } catch {
      // A failing logger does not change the answer.
    }
    return new Response(null, headers ? { status, headers } : { status });
  };
  const traced = telemetry.telemetry;
  const refused = (arrival: Arrival): Response | undefined => {
    const refusal = gate?.(arrival);
    if (refusal === undefined) return undefined;
    // Its span says only that it was refused and the status: never what the sender presented.
    if (traced !== undefined)
      void traced.workflow(telemetry.name, 'server', async (span) => answered(span, refusal.status, undefined));
    return fail(refusal.status, refusal);
  };
  const answer = async (request: Request, trace: NotificationTrace): Promise<Response> => {
    try {
      if (request.method !== 'POST') {
        return fail(405, new InvalidNotificationError(`Method ${request.method} not allowed`), { allow: 'POST' });
      }
      // Something read the body first (a middleware): say so at once. 500: the sender did
      // nothing wrong, and sends again once the receiver is fixed.
      if (request.bodyUsed) return fail(500, new InvalidNotificationError(BODY_ALREADY_READ));
      const bytes = await readBounded(request, maxBytes);
      if (bytes === undefined)
        return fail(400, new InvalidNotificationError(`Notification body exceeds ${maxBytes} bytes`));
      return await handle(bytes, requestSignal(request), fail, trace);
    } catch (error) {
      return fail(500, error);
    }
  };
  // One SERVER span per notification when traced (a sender the gate refuses gets one above).
  const serve =
    traced === undefined
      ? (request: Request) => answer(request, UNTRACED)
      : tracedAnswer(answer, traced, telemetry.name);
  const web = async (request: Request, connection?: ConnectionInfo): Promise<Response> => {
    try {
      return (gate && refused(webArrival(request, connection?.remoteAddress))) ?? (await serve(request));
    } catch (error) {
      return fail(500, error);
    }
  };
  const before = gate && ((req: Parameters<typeof nodeArrival>[0]) => refused(nodeArrival(req)));
  // `toNodeHandler(handler)` then checks the socket as `.node` does.
  if (before) Object.defineProperty(web, NODE_FORM, { value: { serve, before } });
  return Object.assign(web, {
    node: toNodeHandler(serve, { maxBodyBytes: maxBytes, tooLargeStatus: 400, ...(before && { before }) }),
  });
}

const UNTRACED: NotificationTrace = { outcome() {}, step() {} };

/**
 * `answer` inside one SERVER span per notification: the outcome `handle` reported (confirmed,
 * unconfirmed, duplicate), else `refused` for a 4xx and `failed` for a 5xx.
 */
function tracedAnswer(
  answer: (request: Request, trace: NotificationTrace) => Promise<Response>,
  telemetry: Telemetry,
  name: string,
): (request: Request) => Promise<Response> {
  return (request) =>
    telemetry.workflow(name, 'server', async (span) => {
      let outcome: string | undefined;
      const trace: NotificationTrace = { outcome: (reported) => (outcome = reported), step: span.step };
      const response = await answer(request, trace);
      answered(span, response.status, outcome);
      return response;
    });
}

/** Ends a notification's span with its status: `failed` for a 5xx, `refused` for a 4xx, else the outcome. */
function answered(span: WorkflowSpan, status: number, outcome: string | undefined): void {
  span.step('answered', { 'http.response.status_code': status });
  if (status >= 500)
    span.end('failed', Object.assign(new Error('notification failed'), { name: 'NotificationFailed' }));
  else span.end(status >= 400 ? 'refused' : (outcome ?? 'answered'));
}

/**
 * Deno.serve warns on any read of a request's `signal` (there it also aborts after every answer,
 * its legacy behaviour): on Deno the handler does not read it and takes a signal never aborted
 * (the callbacks' own timeouts still bound them). Elsewhere the request's signal.
 */
function requestSignal(request: Request): AbortSignal {
  return typeof (globalThis as { Deno?: unknown }).Deno === 'object' ? UNCLAIMED : request.signal;
}

const BODY_ALREADY_READ =
  'The request body was already read before the handler: pass the Request before anything reads it (a middleware that needs the body can read request.clone())';

/** A signal never aborted: a callback's that holds no claim, and a request's on Deno. */
const UNCLAIMED: AbortSignal = new AbortController().signal;

/** A context for a callback that runs without a claim. */
export const unclaimed: ClaimContext = Object.freeze({ signal: UNCLAIMED });

/** A handler's once-only runs over its store, and its look at their done marks. */
export interface OnceRunner {
  /**
   * Runs a confirmed notification's callback once per `key` across every process sharing the
   * store (at once, without a store), giving it the claim's context. `signal` (the request's)
   * gives up the claim's wait. Resolves as `runOnce` does (`'ran'` without a store).
   */
  run(
    key: string,
    callback: (context: ClaimContext) => unknown,
    signal: AbortSignal,
    options?: RunOnceOptions,
  ): Promise<'ran' | 'done' | 'running'>;
  /** Whether every one of `keys` is marked done in the store (`false` without one). */
  done(keys: readonly string[], signal: AbortSignal): Promise<boolean>;
}

/** A handler's once-only runs over `store`. Built with the handler, so that bad `claim` options throw there. */
export function onceRunner(store: Store | undefined, claim: ClaimOptions | undefined, now: Now): OnceRunner {
  const settings = claimSettings(claim);
  return {
    run: async (key, callback, signal, options) => {
      if (store) return runOnce(store, key, callback, settings, signal, now, options);
      await callback(unclaimed);
      return 'ran';
    },
    done: async (keys, signal) => store !== undefined && allDone(store, keys, settings, signal),
  };
}

/** An error's class name, for logs (its message may quote what it failed on). */
function errorName(error: unknown): string {
  return error instanceof Error || error instanceof Refusal ? error.name : typeof error;
}

/**
 * A notification body as JSON: bytes (UTF-8) or a string are parsed, anything else is taken as
 * already parsed. Throws `InvalidNotificationError` for text that is not UTF-8 or not JSON.
 */
export function readNotificationJson(body: unknown): unknown {
  let value = body;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    try {
      const bytes =
        value instanceof ArrayBuffer
          ? new Uint8Array(value)
          : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      value = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (error) {
      throw new InvalidNotificationError('Notification body is not UTF-8 text', { cause: error });
    }
  }
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new InvalidNotificationError('Notification body is not JSON', { cause: error });
  }
}
