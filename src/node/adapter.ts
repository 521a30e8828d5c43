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
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidNotificationError } from '../errors/failures.ts';

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
export type NodeHandler = (req: IncomingMessage | FrameworkRequest, res: ServerResponse | FrameworkReply) => Promise<void>;

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
  return async (incoming, outgoing) => {
    // Reached on the first request, not at import: node:stream costs a cold start ~3 ms.
    const { Stream } = process.getBuiltinModule('node:stream');
    // A framework's wrapper is no stream itself: the Node request and response are under `raw`.
    const req = incoming instanceof Stream ? incoming : incoming.raw;
    const res = outgoing instanceof Stream ? outgoing : outgoing.raw;
    // The framework is told the handler answers (Fastify: its `onResponse` hooks still run).
    if (!(outgoing instanceof Stream)) outgoing.hijack?.();
    try {
      const refusal = await before?.(req);
      if (refusal) {
        res.setHeader('connection', 'close');
        return await writeResponse(res, refusal);
      }
      const body = await readBody(req, (incoming as { body?: unknown }).body, maxBodyBytes);
      if (body === 'too-large') {
        const status = options.tooLargeStatus ?? 413;
        return plain(res, status, status === 413 ? 'Payload Too Large' : 'Bad Request', true);
      }
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const response = await serve(toRequest(req, body, controller.signal));
      await writeResponse(res, response);
    } catch {
      if (!res.headersSent) plain(res, 500, 'Internal Server Error');
      else res.destroy();
    }
  };
}

/**
 * The Node request as a web `Request` (`body` already read). A `body` that is an error gives a
 * Request whose body fails with it as soon as it is read.
 */
export function toRequest(req: IncomingMessage, body: Uint8Array<ArrayBuffer> | Error | undefined, signal?: AbortSignal): Request {
  const secure = (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
  const host = req.headers.host ?? 'localhost';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `${secure ? 'https' : 'http'}://${host}`);
  } catch {
    url = new URL(req.url ?? '/', `${secure ? 'https' : 'http'}://localhost`);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (signal) init.signal = signal;
  if (body === undefined || method === 'GET' || method === 'HEAD') return new Request(url, init);
  if (body instanceof Error) {
    init.body = new ReadableStream({ start: (controller) => controller.error(body) });
    init.duplex = 'half';
  } else {
    init.body = body;
  }
  return new Request(url, init);
}

/** What `readBody` gives: the bytes, none, too many, or why they cannot be had. */
type BodyRead = Uint8Array<ArrayBuffer> | undefined | 'too-large' | InvalidNotificationError;

/**
 * Reads the body up to `max` bytes: `'too-large'` as soon as it is known to be larger (by
 * content-length or as it streams; what follows is read and dropped), `undefined` for none.
 * A body a framework already read is taken from what it parsed (`parsed`, the `req.body` of
 * Express or Fastify: bytes, text, or an object re-serialised as JSON); with nothing parsed, the
 * answer is the error saying so, at once (the stream will never say more).
 */
function readBody(req: IncomingMessage, parsed: unknown, max: number): Promise<BodyRead> {
  const read = req.readableEnded || req.readableDidRead;
  if (read && parsed !== undefined) return Promise.resolve(fromParsed(parsed, max));
  if (read) return Promise.resolve(alreadyRead());
  // Closed before anything read it (the sender went away): no 'end' will come.
  if (req.destroyed) return Promise.reject(new Error('The request was closed before its body was read'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: BodyRead) => {
      if (done) return;
      done = true;
      resolve(value);
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) finish('too-large');
    req.on('data', (chunk: Buffer | string) => {
      if (done) return; // dropped: the answer is 413 already
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.byteLength;
      if (size > max) {
        chunks.length = 0;
        finish('too-large');
      } else {
        chunks.push(buf);
      }
    });
    req.once('end', () => finish(size === 0 ? undefined : Buffer.concat(chunks)));
    req.once('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}

function alreadyRead(): InvalidNotificationError {
  return new InvalidNotificationError(
    'The request body was already read before the handler, and no parsed body (req.body) came with it. ' +
      "Give the handler the framework's own request: with Fastify, handler.node(request, reply) rather than " +
      'handler.node(request.raw, reply.raw); in a web framework, pass the Request before anything reads its body.',
  );
}

function fromParsed(parsed: unknown, max: number): Uint8Array<ArrayBuffer> | 'too-large' {
  let bytes: Uint8Array<ArrayBuffer>;
  if (parsed instanceof Uint8Array) bytes = new Uint8Array(parsed);
  else if (typeof parsed === 'string') bytes = Buffer.from(parsed);
  else bytes = Buffer.from(JSON.stringify(parsed));
  return bytes.byteLength > max ? 'too-large' : bytes;
}

/** Writes `response` to `res`, streaming its body; rejects when the body stream fails. */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) return;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
  }
  res.end();
}

function plain(res: ServerResponse, status: number, text: string, close = false): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...(close && { connection: 'close' }),
  });
  res.end(text);
}
