/**
 * Node only: runs a web-standard handler, `(request: Request) => Promise<Response>`, as a
 * Node `(req, res)` listener (`http.createServer`, `https.createServer`, Express, Fastify's raw
 * request...). The body is read up to `maxBodyBytes` (413 beyond it, and nothing more is kept),
 * the handler's Response is streamed back, and a handler that throws gives a bare 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web-standard request handler. */
export type WebHandler = (request: Request) => Promise<Response>;

/** A Node request listener; it never rejects. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Limits of `toNodeHandler`. */
export interface NodeHandlerOptions {
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Status answered to a larger body (default 413; a handler whose contract says 400 sets it). */
  tooLargeStatus?: 400 | 413;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Wraps `handler` as a Node `(req, res)` listener. */
export function toNodeHandler(handler: WebHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (req, res) => {
    try {
      const body = await readBody(req, maxBodyBytes);
      if (body === 'too-large') {
        const status = options.tooLargeStatus ?? 413;
        return plain(res, status, status === 413 ? 'Payload Too Large' : 'Bad Request', true);
      }
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const response = await handler(toRequest(req, body, controller.signal));
      await writeResponse(res, response);
    } catch {
      if (!res.headersSent) plain(res, 500, 'Internal Server Error');
      else res.destroy();
    }
  };
}

/** The Node request as a web `Request` (`body` already read). */
export function toRequest(req: IncomingMessage, body: Uint8Array<ArrayBuffer> | undefined, signal?: AbortSignal): Request {
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
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
  const init: RequestInit = { method, headers };
  if (signal) init.signal = signal;
  if (body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = body;
  return new Request(url, init);
}

/**
 * Reads the body up to `max` bytes: `'too-large'` as soon as it is known to be larger (by
 * content-length or as it streams; what follows is read and dropped), `undefined` for none.
 * A body a framework already parsed (`req.body`: bytes, text, or an object re-serialised as
 * JSON) is used as it is.
 */
function readBody(req: IncomingMessage, max: number): Promise<Uint8Array<ArrayBuffer> | undefined | 'too-large'> {
  const parsed = (req as { body?: unknown }).body;
  if (parsed !== undefined && req.readableEnded) return Promise.resolve(fromParsed(parsed, max));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: Uint8Array<ArrayBuffer> | undefined | 'too-large') => {
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

function fromParsed(parsed: unknown, max: number): Uint8Array<ArrayBuffer> | undefined | 'too-large' {
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
