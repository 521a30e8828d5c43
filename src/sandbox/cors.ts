/**
 * CORS on every answer of the sandbox, so that a page in a browser (a payer page, a test page)
 * reaches the payloads, the key set, the API and the `/sandbox/...` controls from any origin.
 * Nothing is sent with cookies, so `*` is the whole policy; the `Authorization` header is named
 * explicitly because a `*` in `Access-Control-Allow-Headers` does not cover it.
 */

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Sent when a preflight names no headers. */
const ALLOWED_HEADERS = 'authorization, content-type, accept, x-idempotency-key';
/** Headers a script may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'retry-after, www-authenticate, location, content-length';
/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

/** `response` with the CORS headers every answer carries, errors included. */
export function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('access-control-allow-origin', '*');
  headers.set('access-control-expose-headers', EXPOSED_HEADERS);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The answer to a preflight (`OPTIONS`) on any path: the methods and the headers asked for. */
export function preflight(request: Request): Response {
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': asked !== null && asked.trim() !== '' ? asked : ALLOWED_HEADERS,
      'access-control-max-age': PREFLIGHT_MAX_AGE,
      vary: 'access-control-request-headers',
    },
  });
}
