/**
 * The one notification pipeline: every handler (received payments, recurring, transfer
 * confirmations) is built here, so they cannot drift apart. They share the HTTP side
 * (`handler.ts`: authentication, POST only, one body limit, one SERVER span), the store rule
 * (the handler's `store`, else the client's), confirmed once-only delivery (`confirmed.ts`) and
 * the statuses: 400 for a body that is not the handler's notification, 500 for anything that
 * failed on the receiving side (a confirming query, a callback, the store), so that the sender
 * delivers again. A handler only says how its body reads and how each kind of item is confirmed.
 */
import { resolveLogger, type Logger } from '../core/log.ts';
import type { Telemetry } from '../core/telemetry.ts';
import { epochMs, systemNow, type Now } from '../internal/clock.ts';
import type { Store } from '../store/types.ts';
import {
  confirmedDelivery,
  deliverySettings,
  notificationOutcome,
  type Confirmation,
  type Delivery,
  type DeliveryOutcome,
} from './confirmed.ts';
import { notificationHandler, type NotificationHandler, type NotificationHandlerOptions } from './handler.ts';

/** What every handler needs of its client. */
export interface PipelineApi {
  /** The client's store: the handler's when it is given none. */
  readonly store?: Store | undefined;
  /** The client's logger: the handler's when it is given none. */
  readonly logger?: Logger | undefined;
  /** The client's OpenTelemetry: one SERVER span per notification. */
  readonly telemetry?: Telemetry | undefined;
  /** The client's clock (default the system clock): claims and certificate dates read it. */
  readonly now?: Now | undefined;
}

/** One kind of item a notification body carries, and how it is confirmed and delivered. */
export interface Feed<B> {
  items(body: B): readonly unknown[];
  readonly confirmation: Confirmation<unknown, unknown>;
}

/** A feed of `body`'s items of one kind (typed together: the items are what `confirmation` confirms). */
export function feed<B, N, A>(items: (body: B) => readonly N[], confirmation: Confirmation<N, A>): Feed<B> {
  return { items, confirmation: confirmation as Confirmation<unknown, unknown> };
}

/** How one handler's notifications read. */
export interface PipelineDefinition<B> {
  /** The SERVER span's name. */
  readonly span: string;
  /** The body's items; throws `InvalidNotificationError` for a body that is not this notification (400). */
  parse(bytes: Uint8Array): B;
  /** What the log says of a body: counts only, never contents. */
  counts(body: B): Record<string, number>;
  /** The kinds of items, delivered in this order (a kind without a callback is left out). */
  readonly feeds: ReadonlyArray<Feed<B> | undefined>;
}

/** A built pipeline: the handler, and each feed's delivery (for sweeps, which enter below the HTTP side). */
export interface Pipeline {
  readonly handler: NotificationHandler;
  /** The deliveries of `definition.feeds`, in order (`undefined` where the feed was left out). */
  readonly deliveries: ReadonlyArray<Delivery<unknown, unknown> | undefined>;
  readonly log: Logger | undefined;
}

/**
 * Builds a handler from `definition` (given the resolved logger). Throws `ConfigurationError` for
 * bad `claim`, `maxConcurrentConfirmations`, `deliveryTimeoutMs` or `authenticate` options.
 */
export function notificationPipeline<B>(
  api: PipelineApi,
  options: NotificationHandlerOptions & { maxRemembered?: number },
  define: (log: Logger | undefined) => PipelineDefinition<B>,
): Pipeline {
  const log = options.logger ?? api.logger ?? resolveLogger(undefined);
  const definition = define(log);
  const now = api.now ?? systemNow;
  const settings = deliverySettings(options, options.store ?? api.store, log, now);
  const fed = definition.feeds.map(
    (item) => item && { item, delivery: confirmedDelivery(item.confirmation, settings) },
  );
  const deliveries = fed.map((feed) => feed?.delivery);
  const handler = notificationHandler(
    options,
    log,
    async (bytes, signal, fail, trace) => {
      const started = epochMs(now);
      let body: B;
      try {
        body = definition.parse(bytes);
      } catch (error) {
        return fail(400, error);
      }
      const counts = definition.counts(body);
      log?.info?.('notification received', counts);
      try {
        const outcomes: DeliveryOutcome[] = [];
        for (const feed of fed) {
          if (feed === undefined) continue;
          for (const notified of feed.item.items(body))
            outcomes.push(await feed.delivery.notified(notified, signal, trace));
        }
        trace.outcome(notificationOutcome(outcomes));
        const ms = epochMs(now) - started;
        log?.info?.('notification answered', { status: 200, ...counts, ms });
        return new Response(null, { status: 200 });
      } catch (error) {
        return fail(500, error);
      }
    },
    { telemetry: api.telemetry, name: definition.span, now },
  );
  return { handler, deliveries, log };
}
