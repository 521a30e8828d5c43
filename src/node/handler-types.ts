/**
 * The types of the Node adapter (`adapter.ts`) and its listener (`listener.ts`), apart so that
 * neither file imports the other's types (the listener is loaded on the first request).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web-standard request handler. */
export type WebHandler = (request: Request) => Promise<Response>;

/**
 * A framework's request around Node's (Fastify's `request`): the Node request under `raw`, and
 * the body the framework parsed.
 */
export interface FrameworkRequest {
  readonly raw: IncomingMessage;
  readonly body?: unknown;
}

/** A framework's reply around Node's (Fastify's `reply`): the Node response under `raw`. */
export interface FrameworkReply {
  readonly raw: ServerResponse;
  /** Tells the framework the handler writes the answer itself (Fastify's `reply.hijack()`). */
  hijack?(): unknown;
}

/**
 * A Node request listener; it never rejects. It also takes a framework's request and reply
 * (`fastify.post(path, handler.node)`).
 */
export type NodeHandler = (
  req: IncomingMessage | FrameworkRequest,
  res: ServerResponse | FrameworkReply,
) => Promise<void>;

/** Limits of `toNodeHandler`. */
export interface NodeHandlerOptions {
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Status answered to a larger body (default 413; a handler whose contract says 400 sets it). */
  tooLargeStatus?: 400 | 413;
  /**
   * Runs before the body is read (a notification handler's `authenticate`): a Response it gives
   * is the answer, the body is never read and the connection closes after it.
   */
  before?: (req: IncomingMessage) => Response | undefined | Promise<Response | undefined>;
}
