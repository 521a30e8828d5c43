/**
 * Node only: the `(req, res)` listener behind `toNodeHandler` (adapter.ts), loaded on its first
 * request. The body is read up to `maxBodyBytes` (413 beyond it, and nothing more is kept), the
 * handler's Response is streamed back, and a handler that throws gives a bare 500. The sandbox's
 * server reads and writes through `toRequest` and `writeResponse` too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Stream } from 'node:stream';
import { InvalidNotificationError } from '../errors/failures.ts';
import type { NodeHandler, NodeHandlerOptions, WebHandler } from './handler-types.ts';

/**
 * The listener `toNodeHandler` gives, built on its first request: the socket check (`before`),
 * the body read up to `maxBodyBytes`, `serve`, and its Response written back.
 */
export function nodeListener(serve: WebHandler, options: NodeHandlerOptions & { maxBodyBytes: number }): NodeHandler {
  const { maxBodyBytes, before } = options;
  return async (incoming, outgoing) => {
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
export function toRequest(
  req: IncomingMessage,
  body: Uint8Array<ArrayBuffer> | Error | undefined,
  signal?: AbortSignal,
): Request {
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
