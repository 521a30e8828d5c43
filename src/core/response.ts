/**
 * Reading a response the SDK did not write: bounded in size, never following a redirect. Shared
 * by the backend core (inside ky's `fetch`, so its timeouts and retries cover the body too), the
 * token requests and the payer transport. Web-standard only: no ky, no Node built-ins.
 */
import { InvalidResponseError } from '../errors/failures.ts';
import type { FetchLike } from './types.ts';

/** Default `maxResponseBytes`: far above any page the service answers, far below trouble. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** True for a 3xx, or the opaque answer a browser gives for a redirect under `redirect: 'manual'`. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * The size of the bytes `message.body` yields, as Content-Length declares it; `NaN` when it does
 * not say, and for an answer with a Content-Encoding: fetch decodes it, and the header counts the
 * encoded bytes (300 KB of gzip can decode to 300 MB).
 */
function declaredLength(message: Request | Response): number {
  const encoding = message instanceof Response ? message.headers.get('content-encoding') : null;
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return Number.NaN;
  return Number(message.headers.get('content-length') ?? Number.NaN);
}

/**
 * The whole body of an answer (or of a request a handler receives), read chunk by chunk; past
 * `maxBytes` (declared in Content-Length or as it streams, counted decoded) the read stops, the
 * stream is cancelled and the answer is `undefined`. A connection cut mid-body rejects as the
 * platform reports it (undici: `TypeError: terminated`), which callers treat as a network error.
 */
export async function readBounded(message: Request | Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const body = message.body;
  if (body === null) return new Uint8Array(0);
  const declared = declaredLength(message);
  if (Number.isFinite(declared) && declared > maxBytes) {
    void body.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The bodies `guardFetch` read, by the response it returned, so they are not read twice. */
const readBodies = new WeakMap<Response, Uint8Array>();
const utf8 = new TextDecoder();

/** The body of a response as text: the bytes `guardFetch` already read, or else its stream. */
export function bodyText(response: Response): Promise<string> | string {
  const bytes = readBodies.get(response);
  if (bytes === undefined) return response.body === null ? '' : response.text();
  // Read once, like a body stream: the bytes are not kept alive with the response.
  readBodies.delete(response);
  return utf8.decode(bytes);
}

export interface GuardOptions {
  maxResponseBytes: number;
  /** Sent as `User-Agent` on requests given as a URL (a `Request` carries its own headers). */
  userAgent?: string;
  /**
   * A success is returned without a body stream (building one costs more than the rest of the
   * guard); its bytes are kept for `bodyText`. For a caller that reads bodies with `bodyText` only.
   */
  detachSuccessBody?: boolean;
}

/**
 * Wraps `fetch` so that it never follows a redirect (a 3xx is an `InvalidResponseError`, naming
 * only the target's origin; a `Request` passed in must say `redirect: 'manual'` itself, as ky's
 * options do), and resolves only once the whole body is in memory, at most
 * `maxResponseBytes`: a success past it is an `InvalidResponseError`, an error status past it
 * keeps its status and loses its body. Whatever bounds the returned promise (a timeout, an
 * abort) therefore bounds the body too.
 */
export function guardFetch(fetch: () => FetchLike, options: GuardOptions): FetchLike {
  return async (input, init) => {
    let response: Response;
    if (input instanceof Request) {
      response = await fetch()(input, init);
    } else {
      const headers = new Headers(init?.headers);
      if (options.userAgent !== undefined) headers.set('user-agent', options.userAgent);
      response = await fetch()(input, { ...init, headers, redirect: 'manual' });
    }
    if (isRedirect(response)) {
      void response.body?.cancel().catch(() => undefined);
      throw new InvalidResponseError('redirect', response.status, redirectMessage(response, input));
    }
    const bytes = await readAnswer(response, options.maxResponseBytes);
    if (bytes === undefined && response.ok) {
      throw new InvalidResponseError(
        'too-large',
        response.status,
        `the ${response.status} answer is larger than maxResponseBytes (${options.maxResponseBytes} bytes); reading stopped there`,
      );
    }
    const { status, statusText } = response;
    const body = bytes === undefined || bytes.byteLength === 0 || status === 204 || status === 205 ? null : bytes;
    const answer = { status, statusText, headers: response.headers };
    if (body === null || !(options.detachSuccessBody && response.ok)) return new Response(body as BodyInit | null, answer);
    const detached = new Response(null, answer);
    readBodies.set(detached, body);
    return detached;
  };
}

/**
 * An answer's body, bounded. A Content-Length the HTTP layer enforces (it fails a body that
 * runs past it) lets the body be read in one go, which is cheaper than chunk by chunk; a
 * compressed body declares no length it can be held to, and is read chunk by chunk.
 */
async function readAnswer(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = declaredLength(response);
  if (response.body === null || !Number.isFinite(declared) || declared > maxBytes) return readBounded(response, maxBytes);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.byteLength <= maxBytes ? bytes : undefined;
}

/** Names where a redirect pointed: its origin only, never its path or query. */
function redirectMessage(response: Response, input: Request | string | URL): string {
  const base = input instanceof Request ? input.url : String(input);
  let target = 'elsewhere';
  try {
    const location = response.headers.get('location');
    if (location !== null) {
      const url = new URL(location, base);
      target = url.origin === new URL(base).origin ? 'the same origin' : url.origin;
    }
  } catch {
    // An unreadable Location names nothing.
  }
  return `the server answered ${response.status || 'a redirect'} to ${target}; redirects are not followed`;
}
