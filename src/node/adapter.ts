/**
 * Node only: runs a web-standard handler, `(request: Request) => Promise<Response>`, as a
 * Node `(req, res)` listener (`http.createServer`, `https.createServer`, Express, Fastify...).
 * The body is read up to `maxBodyBytes` (413 beyond it, and nothing more is kept), the handler's
 * Response is streamed back, and a handler that throws gives a bare 500.
 *
 * A framework may have read the body before the handler. What it parsed (`req.body`: an object,
 * a string or bytes) is used then; a framework's own request and reply (Fastify's `request` and
 * `reply`, which hold the Node ones under `raw`) are taken as they are. A body read by something
 * else, with nothing parsed left, is never waited for: the handler's `Request` carries a body
 * that fails at once with an `InvalidNotificationError` saying so.
 *
 * This file is the factory and its types; the listener's code is `listener.ts`, loaded on the
 * first request.
 */
import type { NodeHandler, NodeHandlerOptions, WebHandler } from './handler-types.ts';

export type { WebHandler, FrameworkRequest, FrameworkReply, NodeHandler, NodeHandlerOptions } from './handler-types.ts';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Where a web handler that checks its sender from the connection (a notification handler with
 * `authenticate`) keeps its Node form's parts, so that `toNodeHandler(handler)` checks the socket
 * as `handler.node` does: the check before the body, and the handler past that check.
 */
export const NODE_FORM: unique symbol = Symbol('instant-payments.nodeForm');

/** What a web handler may carry under `NODE_FORM`. */
export interface NodeForm {
  readonly serve: WebHandler;
  readonly before: NonNullable<NodeHandlerOptions['before']>;
}

/** Wraps `handler` as a Node `(req, res)` listener. */
export function toNodeHandler(handler: WebHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const form = (handler as { [NODE_FORM]?: NodeForm })[NODE_FORM];
  const serve = form?.serve ?? handler;
  const before = options.before ?? form?.before;
  const settings = { ...options, maxBodyBytes, ...(before && { before }) };
  let listener: NodeHandler | undefined;
  return async (incoming, outgoing) => {
    try {
      listener ??= (await loadListener()).nodeListener(serve, settings);
    } catch {
      // The package's own file could not load (a broken install): a bare 500, never a rejection.
      const res = 'raw' in outgoing ? outgoing.raw : outgoing;
      if (!res.headersSent) res.writeHead(500).end();
      return;
    }
    return listener(incoming, outgoing);
  };
}

type ListenerModule = typeof import('./listener.ts');
let listenerModule: Promise<ListenerModule> | undefined;

/**
 * The listener's code (and node:stream) load on the first request, not with the package: most
 * processes that import it never serve a Node request, and each module is cold-start time.
 */
const loadListener = (): Promise<ListenerModule> => (listenerModule ??= import('./listener.ts'));
