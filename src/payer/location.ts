/**
 * Checks a payload location before the payer app fetches it. A location comes from a QR code,
 * i.e. from anyone: it is written without a scheme (`psp.example/qr/v2/abc`), and the app
 * fetches it over HTTPS only, on a public host name, on the default port. Everything else is
 * refused with an `InvalidLocationError` naming the reason, before any request.
 *
 * `allowPrivateHosts` (sandbox and development only) lets loopback, private and link-local
 * hosts through, on any port and over plain `http://` too; public hosts keep every rule.
 *
 * Host names are judged by their text: a public name whose DNS answer is a private address
 * cannot be told apart in a browser (the platform resolves it), so that is left to the network.
 */
import { InvalidLocationError } from './errors.ts';

/** Longest location (without scheme) the spec allows. */
export const LOCATION_MAX_LENGTH = 77;

export interface ResolvedLocation {
  url: URL;
  /** For error messages: scheme and host only, never the access token in the path. */
  route: string;
}

const WITH_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
// `javascript:...`, `data:...`: a scheme not followed by a port number.
const OPAQUE_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;
// Whitespace, controls and backslashes: URL parsers disagree on them; no real location has one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const UNSAFE_CHARACTERS = /[\s\\\u0000-\u001f\u007f]/;
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'lan', 'home.arpa'];

/** The URL a location is fetched at, or an `InvalidLocationError`. */
export function resolveLocation(location: string, allowPrivateHosts: boolean): ResolvedLocation {
  if (typeof location !== 'string' || location === '') throw refused('malformed', 'the location is empty');
  // A BR Code opens with its payload format indicator (ID 00, length 02, value 01).
  if (location.startsWith('000201')) {
    throw refused('malformed', 'this is a whole BR Code, not a location: pass brcode.parse(code).url');
  }
  let rest = location;
  let scheme = 'https';
  const withScheme = WITH_SCHEME.exec(location);
  if (withScheme) {
    scheme = withScheme[1]!.toLowerCase();
    rest = location.slice(withScheme[0].length);
  }
  const authority = rest.split('/', 1)[0] ?? '';
  if (authority.includes('@')) throw refused('userinfo', 'a location carries no user name or password');
  if (!withScheme && OPAQUE_SCHEME.test(location)) throw refused('scheme', 'only https locations are fetched');
  if (scheme !== 'https' && scheme !== 'http') throw refused('scheme', 'only https locations are fetched');
  if (rest.length > LOCATION_MAX_LENGTH) {
    throw refused('too-long', `a location has at most ${LOCATION_MAX_LENGTH} characters`);
  }
  if (UNSAFE_CHARACTERS.test(rest) || /[?#]/.test(rest)) {
    throw refused('malformed', 'a location has no spaces, backslashes, query or fragment');
  }
  let url: URL;
  try {
    url = new URL(`${scheme}://${rest}`);
  } catch {
    throw refused('malformed', 'the location is not a valid URL');
  }
  if (url.username !== '' || url.password !== '')
    throw refused('userinfo', 'a location carries no user name or password');

  const kind = classifyHost(url.hostname);
  if (kind === 'public-ip') throw refused('ip-literal', 'a location names its host, not an IP address');
  if (kind === 'private' && !allowPrivateHosts) {
    throw refused('private-host', 'loopback, private and local hosts are refused (allowPrivateHosts is for sandboxes)');
  }
  if (kind === 'public') {
    if (scheme !== 'https') throw refused('scheme', 'only https locations are fetched');
    if (url.port !== '') throw refused('port', 'a location uses the default https port');
  }
  return { url, route: `GET ${url.protocol}//${url.host}/…` };
}

/**
 * `public` for an ordinary host name, `private` for loopback, private, link-local and local
 * names (single-label names included), `public-ip` for any other IP literal.
 */
export function classifyHost(hostname: string): 'public' | 'private' | 'public-ip' {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) return isPrivateIpv6(host.slice(1, -1)) ? 'private' : 'public-ip';
  const v4 = parseIpv4(host);
  if (v4) return isPrivateIpv4(v4) ? 'private' : 'public-ip';
  if (!host.includes('.')) return 'private';
  return PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`)) ? 'private' : 'public';
}

function parseIpv4(host: string): number[] | undefined {
  // The WHATWG URL parser has already turned `0x7f.1` and friends into dotted decimal.
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return undefined;
  return host.split('.').map(Number);
}

function isPrivateIpv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

function isPrivateIpv6(host: string): boolean {
  if (host === '::1' || host === '::') return true;
  // IPv4-mapped (`::ffff:7f00:1`, as the URL parser writes `::ffff:127.0.0.1`).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    return isPrivateIpv4([high >> 8, high & 255]);
  }
  return /^f[cd]/.test(host) || /^fe[89ab]/.test(host); // unique local, link-local
}

function refused(reason: ConstructorParameters<typeof InvalidLocationError>[0], detail: string): InvalidLocationError {
  return new InvalidLocationError(reason, detail);
}
