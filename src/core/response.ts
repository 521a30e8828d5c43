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
  const { status } = response;
  // An opaque redirect's status is 0: `type` is read only then.
  return (status >= 300 && status < 400) || (status === 0 && response.type === 'opaqueredirect');
}

/**
 * The size of the bytes `message.body` yields, as Content-Length declares it; `NaN` when it does
 * not say, and for an answer with a Content-Encoding: fetch decodes it, and the header counts the
 * encoded bytes (300 KB of gzip can decode to 300 MB).
 */
function declaredLength(message: Request | Response): number {
  const length = message.headers.get('content-length');
  if (length === null) return Number.NaN;
  const encoding = message instanceof Response ? message.headers.get('content-encoding') : null;
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return Number.NaN;
  return Number(length);
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

/** The bodies `guardFetch` read (as text, or bytes when read chunk by chunk), so they are not read twice. */
const readBodies = new WeakMap<Response, Uint8Array | string>();
const utf8 = new TextDecoder();

/** The body of a response as text: what `guardFetch` already read, or else its stream. */
export function bodyText(response: Response): Promise<string> | string {
  const body = readBodies.get(response);
  if (body === undefined) return response.body === null || response.bodyUsed ? '' : response.text();
  // Read once, like a body stream: the body is not kept alive with the response.
  readBodies.delete(response);
  return typeof body === 'string' ? body : utf8.decode(body);
}

export interface GuardOptions {
  maxResponseBytes: number;
  /** Sent as `User-Agent` by `guardFetch`. */
  userAgent?: string;
  /**
   * A success is returned as `fetch` gave it, its body read (`bodyUsed`) and kept for
   * `bodyText`: a second `Response` built around them costs more than the rest of the guard. For
   * a caller that reads bodies with `bodyText` only.
   */
  detachSuccessBody?: boolean;
}

/**
 * Wraps `fetch` for requests given as a URL (the token requests) so that it never follows a
 * redirect (a 3xx is an `InvalidResponseError`, naming only the target's origin), and resolves
 * only once the whole body is in memory, at most `maxResponseBytes`: a success past it is an
 * `InvalidResponseError`, an error status past it keeps its status and loses its body. Whatever
 * bounds the returned promise (a timeout, an abort) therefore bounds the body too.
 */
export function guardFetch(
  fetch: () => FetchLike,
  options: GuardOptions,
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (options.userAgent !== undefined) headers.set('user-agent', options.userAgent);
    const response = await fetch()(input, { ...init, headers, redirect: 'manual' });
    return guardResponse(response, input, options);
  };
}

/**
 * `guardFetch`'s check of an answer, for a caller that sends by itself (with `redirect:
 * 'manual'`): a redirect is an `InvalidResponseError`, and the promise resolves once the whole
 * body, at most `maxResponseBytes`, is in memory.
 */
export async function guardResponse(
  response: Response,
  input: Request | string | URL,
  options: GuardOptions,
): Promise<Response> {
  if (isRedirect(response)) {
    void response.body?.cancel().catch(() => undefined);
    throw new InvalidResponseError('redirect', response.status, redirectMessage(response, input));
  }
  const { status, statusText } = response;
  const max = options.maxResponseBytes;
  const detach = options.detachSuccessBody === true && response.ok;
  // A 204 or 205 has no body, whatever a custom fetch put in it.
  const noContent = status === 204 || status === 205;
  let bytes: Uint8Array | undefined;
  // A Content-Length the HTTP layer enforces (it fails a body that runs past it) lets the body
  // be read in one go, cheaper than chunk by chunk; a compressed one declares no such length.
  if (response.body !== null && declaredLength(response) <= max) {
    if (detach) {
      // As text: fetch decodes it without the copy `arrayBuffer()` makes. A custom fetch may
      // not hold to its Content-Length: a text longer than the limit has more bytes than it.
      const text = await response.text();
      if (text.length > max) throw tooLarge(status, max);
      readBodies.set(response, noContent ? '' : text);
      return response;
    }
    bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > max) bytes = undefined;
  } else {
    bytes = await readBounded(response, max);
  }
  if (bytes === undefined && response.ok) throw tooLarge(status, max);
  const body = bytes === undefined || bytes.byteLength === 0 || noContent ? null : bytes;
  if (detach) {
    readBodies.set(response, body ?? '');
    return response;
  }
  return new Response(body as BodyInit | null, { status, statusText, headers: response.headers });
}

function tooLarge(status: number, max: number): InvalidResponseError {
  return new InvalidResponseError(
    'too-large',
    status,
    `the ${status} answer is larger than maxResponseBytes (${max} bytes); reading stopped there`,
  );
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
