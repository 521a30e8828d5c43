/**
 * The only way a path with parameters is built. Every interpolated value is percent-encoded
 * as one segment (`+`, `@`, `/` included); empty, `.` and `..` segments are refused before
 * anything is sent, so a parameter can never climb out of its resource.
 */
import { InstantError } from '../errors/base.ts';

/** A request target: the encoded URL, and its route template for logs (no parameter values). */
export interface RoutePath {
  readonly url: string;
  readonly route: string;
}

/** A path parameter that would change the path's shape (empty, `.` or `..`). */
export class PathParameterError extends InstantError {
  override readonly name: string = 'PathParameterError';
}

/** Set while `routeOf` builds a path: the parameters are neither encoded nor judged. */
let routeOnly = false;

/**
 * Tagged template for request paths: path`/cob/${txid}` percent-encodes each parameter as one
 * segment and refuses empty, `.` and `..` ones with a `PathParameterError`.
 */
export function path(strings: TemplateStringsArray, ...params: ReadonlyArray<string | number>): RoutePath {
  let url = strings[0] ?? '';
  let route = url;
  for (let i = 0; i < params.length; i++) {
    const tail = strings[i + 1] ?? '';
    if (!routeOnly) url += encodeSegment(params[i]!) + tail;
    route += `{}${tail}`;
  }
  return { url, route };
}

/** The route template `build` gives whatever its parameters are (a refused call's, for its span). */
export function routeOf(build: () => RoutePath): string | undefined {
  routeOnly = true;
  try {
    return build().route;
  } catch {
    return undefined;
  } finally {
    routeOnly = false;
  }
}

export function encodeSegment(value: string | number): string {
  // Plain JavaScript may pass anything: `String()` of an object without a prototype throws.
  if (typeof value !== 'string' && typeof value !== 'number')
    throw new PathParameterError('A path parameter must be a string or a number');
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new PathParameterError(`A path parameter cannot be ${text === '' ? 'empty' : `"${text}"`}`);
  }
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate (URIError): no URL can carry it.
    throw new PathParameterError('A path parameter must be well-formed Unicode');
  }
}
