/**
 * The HTTP core's helpers that need no client: reading a body, the query with the defaults,
 * the base URL a route goes under, refusing a malformed custom call, logging a failure, a time limit
 * on a wait.
 */
import { ApiError } from '../errors/api-error.ts';
import { ConfigurationError, InvalidResponseError } from '../errors/failures.ts';
import { InstantError } from '../errors/base.ts';
import { isRecord } from '../internal/json.ts';
import type { Logger } from './log.ts';
import type { CallSpec, HttpMethod, QueryValue } from './types.ts';

const SLASH = 0x2f;

const METHODS: readonly unknown[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] satisfies HttpMethod[];

export function customRequestProblem(call: unknown): ConfigurationError | undefined {
  if (!isRecord(call))
    return new ConfigurationError(
      'call',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the message shows the template to write.
      'request(call) needs the call: { method, path }, the path built with the path template (path`/cob/${txid}`)',
    );
  if (!METHODS.includes(call['method']))
    return new ConfigurationError('call.method', `call.method must be one of ${METHODS.join(', ')}`);
  const target = call['path'];
  if (!isRecord(target) || typeof target['url'] !== 'string' || typeof target['route'] !== 'string') {
    return new ConfigurationError(
      'call.path',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the message shows the template to write.
      'call.path must be built with the path template, path`/cob/${txid}`, which encodes each value (a plain string is not taken)',
    );
  }
  const retry = call['retry'];
  if (retry !== undefined && retry !== 'replay' && retry !== 'never')
    return new ConfigurationError('call.retry', "call.retry must be 'replay' or 'never'");
  return undefined;
}

/**
 * A failed call: an answer with an error status is `debug` (the caller handles it); a refused
 * redirect, a time-out or a lost connection is `warn`. Names and statuses only, never a message.
 */
export function logFailure(log: Logger, spec: CallSpec, error: unknown, ms: number): void {
  const { method } = spec;
  const route = spec.path.route;
  if (error instanceof InvalidResponseError) {
    if (error.reason === 'redirect') log.warn?.('redirect refused', { method, route, status: error.status, ms });
    else log.warn?.('request failed', { method, route, status: error.status, reason: error.reason, ms });
  } else if (error instanceof ApiError) {
    log.debug?.('request', { method, route, status: error.status, error: error.name, ms });
  } else if (error instanceof InstantError) {
    log.warn?.('request failed', { method, route, error: error.name, ms });
  } else {
    log.debug?.('request aborted', { method, route, ms });
  }
}

/** A body as read: JSON when it is JSON, text otherwise, `undefined` when empty. */
export function parseBody(text: string, response: Response, spec: CallSpec): unknown {
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type !== 'application/json' && !/\/(?:.*[.+-])?json\b/i.test(type)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the body: it is not kept.
    throw new InvalidResponseError(
      'malformed',
      response.status,
      `${spec.method} ${spec.path.route} answered ${response.status} with a body that is not the JSON its content type says`,
    );
  }
}

export function toSearchParams(
  query: CallSpec['query'],
  defaults: ReadonlyArray<readonly [string, QueryValue]> | undefined,
): URLSearchParams | undefined {
  let params: URLSearchParams | undefined;
  if (query) {
    for (const key of Object.keys(query)) {
      const value = query[key];
      if (value !== undefined) (params ??= new URLSearchParams()).append(key, String(value));
    }
  }
  if (defaults) {
    // Under the call's own: a parameter the call gives a value is the call's.
    for (const [key, value] of defaults) {
      if (query?.[key] === undefined) (params ??= new URLSearchParams()).append(key, String(value));
    }
  }
  return params;
}

export function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A route's first segment: `cob` for `/cob/{}`, the key of `baseUrls`. */
export function routeTag(route: string): string {
  const start = route.charCodeAt(0) === SLASH ? 1 : 0;
  const end = route.indexOf('/', start);
  return end === -1 ? route.slice(start) : route.slice(start, end);
}
