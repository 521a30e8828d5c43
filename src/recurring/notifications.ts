/**
 * Recurring notifications: what the service POSTs to the registered recurring webhooks,
 * `{ "recs": [...] }` to `{webhookUrl}/rec` (registered with `api.webhookrec.put`) and
 * `{ "cobsr": [...] }` to `{webhookUrl}/cobr` (`api.webhookcobr.put`). One handler serves both
 * paths: the body's list says which kind it carries.
 *
 * The notifications are not signed, so the handler trusts none of them: each item is confirmed
 * with the service's own record (`api.rec.get(idRec)`, `api.cobr.get(txid)`) before its callback,
 * which gets that record. An item is confirmed when the service knows it (for a charge, under the
 * same recurrence) and has been in the notified status (its status or its history), and, for a
 * charge, each notified attempt too. The callback runs once per id and state (for a charge, its
 * status and its attempts' statuses) as the service answers them, within the process and across
 * every process sharing a `store` (with `signal`, and `tx` with PostgreSQL), as the other handlers
 * do (`notifications/confirmed.ts`).
 */
import { ApiError } from '../errors/api-error.ts';
import { ConfigurationError, InvalidNotificationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import type { RequestOptions } from '../core/types.ts';
import type { Logger } from '../core/log.ts';
import type { Telemetry } from '../core/telemetry.ts';
import { PathParameterError } from '../core/path.ts';
import type { UnconfirmedReason } from '../collection/received-payments.ts';
import type { Store } from '../store/types.ts';
import {
  readNotificationJson,
  type NotificationContext,
  type NotificationHandler,
  type NotificationHandlerOptions,
} from '../notifications/handler.ts';
import { feed, notificationPipeline } from '../notifications/pipeline.ts';
import {
  handlerSweep,
  listSource,
  type ListMethod,
  type SweepingHandlerOptions,
  type SweepOptions,
  type SweepResult,
} from '../notifications/sweep.ts';
import type { InstantPayment } from '../collection/instant.ts';
import type { CobRCompleta, CobREncerramento, CobRStatus, Tentativa } from './cobr.ts';
import type { RecAtivacao, RecCompleta, RecEncerramento } from './rec.ts';
import type { Atualizacao, RecStatus } from './terms.ts';
import type { Now } from '../internal/clock.ts';

/** An item of `{ recs: [...] }`, as notified. Not trustworthy: the callback gets the service's record. */
export interface RecNotification {
  idRec: string;
  status: RecStatus;
  atualizacao?: Atualizacao<RecStatus>[];
  ativacao?: RecAtivacao;
  encerramento?: RecEncerramento;
  [key: string]: unknown;
}

/** An item of `{ cobsr: [...] }`, as notified. Not trustworthy: the callback gets the service's record. */
export interface CobRNotification {
  idRec: string;
  txid: string;
  status: CobRStatus;
  atualizacao?: Atualizacao<CobRStatus>[];
  tentativas?: Tentativa[];
  encerramento?: CobREncerramento;
  instant?: InstantPayment[];
  [key: string]: unknown;
}

/** The items of a recurring notification body: recurrences, recurring charges, or both. */
export interface RecurringNotifications {
  recs: RecNotification[];
  cobsr: CobRNotification[];
}

/**
 * The items of a recurring notification body (bytes, a JSON string or the parsed value). Throws
 * `InvalidNotificationError` unless it is an object with a `recs` or a `cobsr` array (or both)
 * whose items carry, as strings, `idRec` and `status` (and a charge's `txid`). Items are read
 * leniently: other fields pass through as notified.
 */
export function parseRecurringNotifications(body: unknown): RecurringNotifications {
  const value = readNotificationJson(body);
  const recs = isRecord(value) ? value['recs'] : undefined;
  const cobsr = isRecord(value) ? value['cobsr'] : undefined;
  const list = (items: unknown, name: string): unknown[] => {
    if (items === undefined) return [];
    if (!Array.isArray(items)) throw new InvalidNotificationError(`The notification's ${name} is not a list`);
    return items;
  };
  if (recs === undefined && cobsr === undefined) {
    throw new InvalidNotificationError('The notification body is not an object with a recs or cobsr list');
  }
  const text = (item: Record<string, unknown>, field: string) => typeof item[field] === 'string' && item[field] !== '';
  return {
    recs: list(recs, 'recs').map((item, index) => {
      if (!isRecord(item) || !text(item, 'idRec') || !text(item, 'status')) {
        throw new InvalidNotificationError(`Recurrence ${index} of the notification has no idRec or status`);
      }
      return item as RecNotification;
    }),
    cobsr: list(cobsr, 'cobsr').map((item, index) => {
      if (!isRecord(item) || !text(item, 'idRec') || !text(item, 'txid') || !text(item, 'status')) {
        throw new InvalidNotificationError(
          `Recurring charge ${index} of the notification has no idRec, txid or status`,
        );
      }
      return item as CobRNotification;
    }),
  };
}

/** What the handler needs of the client: the recurrence and recurring-charge queries. */
export interface RecurringNotificationsApi {
  readonly rec: {
    /** The service's record of a recurrence (`api.rec.get`). */
    get(idRec: string, query?: { txid?: string }, options?: RequestOptions): PromiseLike<RecCompleta>;
    /** A page of the recurrences created in a period (`api.rec.list`): what `sweep()` reads. */
    list?: ListMethod<RecCompleta>;
  };
  readonly cobr: {
    /** The service's record of a recurring charge (`api.cobr.get`). */
    get(txid: string, options?: RequestOptions): PromiseLike<CobRCompleta>;
    /** A page of the recurring charges created in a period (`api.cobr.list`): what `sweep()` reads. */
    list?: ListMethod<CobRCompleta>;
  };
  /** The client's shared store, used when the handler is given none. */
  readonly store?: Store | undefined;
  /** The client's logger, used when the handler is given none. */
  readonly logger?: Logger | undefined;
  /** @internal The client's OpenTelemetry: one SERVER span per notification handled. */
  readonly telemetry?: Telemetry | undefined;
  /** The client's clock (default the system clock): claims, certificate dates and the end of a sweep's period read it. */
  readonly now?: Now | undefined;
}

/** A notified item the service's own record did not confirm, and why. */
export type UnconfirmedRecurring =
  | {
      kind: 'rec';
      /** `not-found`: the service knows no such recurrence; `mismatch`: it never was in the notified status. */
      reason: UnconfirmedReason;
      /** What the notification claimed. Not trustworthy. */
      notified: RecNotification;
      /** What the service answered, for a mismatch. */
      actual?: RecCompleta;
    }
  | {
      kind: 'cobr';
      /**
       * `not-found`: the service knows no such charge; `mismatch`: it belongs to another recurrence,
       * never was in the notified status, or has no such attempt in the notified status.
       */
      reason: UnconfirmedReason;
      notified: CobRNotification;
      actual?: CobRCompleta;
    };

/** What `onRec` gets beside the recurrence: the notified item, the claim's `signal` and, with PostgreSQL, `tx`. */
export type RecNotificationContext<S extends Store = Store> = NotificationContext<S> & {
  /** The recurrence as notified. Not trustworthy: use the service's record. */
  readonly notified: RecNotification;
};

/** What `onCobr` gets beside the recurring charge: the notified item, the claim's `signal` and, with PostgreSQL, `tx`. */
export type CobRNotificationContext<S extends Store = Store> = NotificationContext<S> & {
  /** The recurring charge as notified. Not trustworthy: use the service's record. */
  readonly notified: CobRNotification;
};

/**
 * Callbacks and limits of the recurring notification handler (give `onRec`, `onCobr` or both).
 * Its sweep cursor's default `name` is `recurring`; `maxRemembered` counts each kind apart;
 * `requestOptions` go to the confirming `api.rec.get` and `api.cobr.get` calls and the sweep's lists.
 */
export interface RecurringHandlerOptions<S extends Store = Store>
  extends NotificationHandlerOptions<S>,
    SweepingHandlerOptions {
  /**
   * A confirmed recurrence: the service's record (`GET /rec/{idRec}`) and, in `context`, the
   * notified item. Called once per idRec and status (fleet-wide with a shared `store`). A throw
   * (or rejection) answers 500, so the service sends the notification again. With the PostgreSQL
   * store, write through `context.tx` to record it exactly once: it commits with the done mark.
   * Without it, recurrence notifications are answered 200 unread.
   */
  onRec?(rec: RecCompleta, context: RecNotificationContext<S>): void | Promise<void>;
  /**
   * A confirmed recurring charge: the service's record (`GET /cobr/{txid}`, with its attempts and
   * payments) and, in `context`, the notified item. Called once per txid, status and attempts'
   * statuses, as `onRec` is. Without it, recurring-charge notifications are answered 200 unread.
   */
  onCobr?(cobr: CobRCompleta, context: CobRNotificationContext<S>): void | Promise<void>;
  /** A notified item the service does not confirm (forged or mistaken). A throw answers 500. */
  onUnconfirmed?(event: UnconfirmedRecurring): void | Promise<void>;
}

/** The recurring handler: a web-standard notification handler that can also sweep. */
export interface RecurringHandler extends NotificationHandler {
  /**
   * Reads the recurrences and recurring charges the service created in a period (`GET /rec`,
   * `GET /cobr`, page by page; only the lists with a callback) and hands each record to `onRec`
   * or `onCobr` through the same once-only claims as a notification. The lists are by creation
   * time: a sweep finds a record's current state when the record was created in the period.
   * The cursor and its overlap work as `receivedPaymentsHandler`'s (`SweepOptions`).
   */
  sweep(options?: SweepOptions): Promise<SweepResult>;
}

/**
 * A web-standard handler for the recurring notifications (`{webhookUrl}/rec` and
 * `{webhookUrl}/cobr`: any path, the body says which), with `.node` for a Node `(req, res)`
 * server. Answers 200 once every item was handled (a confirmed one only once its callback returned
 * for its record's state, in this request or an earlier one; duplicates and unconfirmed ones set
 * aside), 400 for a body that is too large or not a recurring notification, 405 for a method other
 * than POST, and 500 when a callback threw or a confirming query failed (network, 5xx), so that the
 * service sends again; `onError` is told of each. Never throws once built.
 *
 * The callback gets the record as the service answers it when the item is checked: when a
 * recurrence or charge changes again before its notification is handled, the newer state is
 * delivered, and the later notification of that state is a duplicate. Deliveries of different
 * states of one id may run at the same time: order them by their `atualizacao` when it matters.
 *
 * Throws `ConfigurationError` at once when neither `onRec` nor `onCobr` is a function, or when the
 * `claim` options are out of range.
 */
export function recurringHandler<S extends Store = Store>(
  api: RecurringNotificationsApi,
  options: RecurringHandlerOptions<S>,
): RecurringHandler {
  const { onRec, onCobr } = options ?? {};
  for (const [name, callback] of [
    ['onRec', onRec],
    ['onCobr', onCobr],
  ] as const) {
    if (callback !== undefined && typeof callback !== 'function')
      throw new ConfigurationError(name, `${name} must be a function`);
  }
  if (onRec === undefined && onCobr === undefined) {
    throw new ConfigurationError('onRec', 'recurringHandler needs onRec, onCobr or both');
  }
  const pipeline = notificationPipeline<RecurringNotifications>(api, options, (log) => {
    const request = (signal: AbortSignal): RequestOptions => ({ ...options.requestOptions, signal });
    const unconfirmed = async (event: UnconfirmedRecurring): Promise<undefined> => {
      log?.warn?.(`${event.kind === 'rec' ? 'recurrence' : 'recurring charge'} unconfirmed`, { reason: event.reason });
      await options.onUnconfirmed?.(event);
      return undefined;
    };
    return {
      span: 'recurring.notification',
      parse: parseRecurringNotifications,
      counts: (notified) => ({ recs: notified.recs.length, cobsr: notified.cobsr.length }),
      feeds: [
        onRec &&
          feed((notified) => notified.recs, {
            what: 'recurrence',
            callback: 'onRec',
            confirm: async (notified: RecNotification, signal: AbortSignal) => {
              const actual = await found(api.rec.get(notified.idRec, {}, request(signal)));
              if (actual === undefined) return unconfirmed({ kind: 'rec', reason: 'not-found', notified });
              if (actual.idRec !== notified.idRec || !wasIn(actual, notified.status))
                return unconfirmed({ kind: 'rec', reason: 'mismatch', notified, actual });
              return actual;
            },
            deliveryKey: (rec: RecCompleta) => recKey(rec),
            notifiedKeys: (notified) => [recKey(notified)],
            // The context has `tx` exactly when the store is transactional, as `RecNotificationContext<S>` says.
            deliver: (actual, context) => onRec(actual, context as RecNotificationContext<S>),
          }),
        onCobr &&
          feed((notified) => notified.cobsr, {
            what: 'recurring charge',
            callback: 'onCobr',
            confirm: async (notified: CobRNotification, signal: AbortSignal) => {
              const actual = await found(api.cobr.get(notified.txid, request(signal)));
              if (actual === undefined) return unconfirmed({ kind: 'cobr', reason: 'not-found', notified });
              if (!confirmsCharge(actual, notified))
                return unconfirmed({ kind: 'cobr', reason: 'mismatch', notified, actual });
              return actual;
            },
            deliveryKey: (cobr: CobRCompleta) => cobrKey(cobr),
            notifiedKeys: (notified) => [cobrKey(notified)],
            deliver: (actual, context) => onCobr(actual, context as CobRNotificationContext<S>),
          }),
      ],
    };
  });
  const [recs, cobsr] = pipeline.deliveries;
  const sources = [
    recs && listSource(api.rec.list?.bind(api.rec), 'api.rec.list', options.requestOptions, recs),
    cobsr && listSource(api.cobr.list?.bind(api.cobr), 'api.cobr.list', options.requestOptions, cobsr),
  ];
  const sweep = handlerSweep(api, options, 'recurring', sources);
  return Object.assign(pipeline.handler, { sweep });
}

/** The claim of a recurrence's delivery: its idRec and status (the record's, or as notified). */
function recKey(rec: { idRec: string; status: unknown }): string {
  return `rec:${rec.idRec}:${String(rec.status)}`;
}

/** The claim of a recurring charge's delivery: its txid, status and attempts' statuses (the record's, or as notified). */
function cobrKey(cobr: { txid: string; status: unknown; tentativas?: unknown }): string {
  return `cobr:${cobr.txid}:${String(cobr.status)}:${attemptsOf(cobr)
    .map((t) => t?.status)
    .join('+')}`;
}

/** The service's record, or `undefined` when it has none (404) or the id cannot name one (refused before asking). */
async function found<T>(query: PromiseLike<T>): Promise<T | undefined> {
  try {
    return await query;
  } catch (error) {
    if (
      (error instanceof ApiError && (error.status === 404 || !error.sentRequest)) ||
      error instanceof PathParameterError
    )
      return undefined;
    throw error;
  }
}

/** The record is, or has been, in `status` (its status, or an entry of its `atualizacao`). */
function wasIn(
  record: { status?: unknown; atualizacao?: ReadonlyArray<{ status?: unknown } | undefined> | undefined },
  status: unknown,
): boolean {
  return (
    record.status === status ||
    (Array.isArray(record.atualizacao) && record.atualizacao.some((entry) => entry?.status === status))
  );
}

/**
 * The service's charge confirms the notified one: the same txid and recurrence, it has been in
 * the notified status, and so has each notified attempt (matched by its `endToEndId`).
 */
function confirmsCharge(actual: CobRCompleta, notified: CobRNotification): boolean {
  if (actual.txid !== notified.txid || actual.idRec !== notified.idRec || !wasIn(actual, notified.status)) return false;
  const known = attemptsOf(actual);
  return attemptsOf(notified).every((attempt) => {
    if (!isRecord(attempt) || typeof attempt.endToEndId !== 'string') return false;
    const same = known.find((t) => t?.endToEndId === attempt.endToEndId);
    return same !== undefined && wasIn(same, attempt.status);
  });
}

/** A charge's attempts, read leniently (a list, or none). */
function attemptsOf(charge: { tentativas?: unknown }): ReadonlyArray<Tentativa | undefined> {
  return Array.isArray(charge.tentativas) ? (charge.tentativas as Array<Tentativa | undefined>) : [];
}
