/**
 * `authenticate`: who may deliver a notification, judged from what arrives before the body (the
 * TLS peer's certificate, the path, the headers, the connecting address), so that a forged
 * delivery costs neither a body read nor a call to the service. Every configured check must pass;
 * the cheap ones run first (secret, addresses, then the certificate's signatures).
 *
 * - `clientCertificate`: the service's certificate, its chain (the leaf and what the peer sent)
 *   verified up to one of `ca` with node:crypto's `X509Certificate`, every link in its validity
 *   dates, the leaf optionally pinned by SHA-256 fingerprint. From the TLS socket (`.node` on an
 *   https server), or, from a `trustedProxies` hop only, from `forwardedCertificateHeader`: a
 *   URL-encoded PEM (nginx's `$ssl_client_escaped_cert`, also a PEM chain or RFC 9440's
 *   `:base64:`), or Envoy's XFCC when that header is `x-forwarded-client-cert` (the last element,
 *   the one the trusted hop appended; its `Cert` and `Chain`).
 * - `secret`: a path segment `webhookUrl(url, secret)` added to the registered URL. A path
 *   segment, not a query parameter: the service appends `/<list name>` (`/instant`, `/rec`,
 *   `/cobr`) to the registered URL as text, which would land inside a query's value.
 * - `allowIps`: the connecting address, or, when that is a trusted hop, the rightmost address of
 *   `X-Forwarded-For` that is not one (what the hop nearest the handler saw).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { X509Certificate } from 'node:crypto';
import { ConfigurationError, WebhookAuthenticationError } from '../errors/failures.ts';
import { AddressSet, parseAddress } from './addresses.ts';
import { epochMs, type Now } from '../internal/clock.ts';

/** Who may deliver notifications to a handler (`authenticate`); every check given must pass. */
export interface WebhookAuthentication {
  /**
   * The service's client certificate (mTLS): its chain must lead to one of `ca` (PEM; a bundle
   * or a list), every certificate within its dates; with `fingerprints`, the leaf's SHA-256
   * fingerprint must be one of them (`AB:CD:...`, any case, colons optional).
   */
  clientCertificate?: {
    ca: string | Uint8Array | ReadonlyArray<string | Uint8Array>;
    fingerprints?: readonly string[];
  };
  /** Hops (CIDR ranges, IPv4 and IPv6) whose forwarded certificate and `X-Forwarded-For` are believed. */
  trustedProxies?: readonly string[];
  /** The header a TLS-terminating proxy puts the certificate in (`x-client-cert`; `x-forwarded-client-cert` is read as Envoy's XFCC). */
  forwardedCertificateHeader?: string;
  /** The secret `webhookUrl(url, secret)` put in the registered URL (at least 16 characters). */
  secret?: string;
  /** The service's addresses (CIDR ranges): any other client address is refused. */
  allowIps?: readonly string[];
}

/** What a delivery shows before its body: from a Node socket or a web-standard request. */
export interface Arrival {
  /** The request URL's path, as sent (percent-encoded). */
  readonly path: string;
  header(name: string): string | undefined;
  /** The connecting address, when known. */
  readonly remoteAddress: string | undefined;
  /** The TLS peer's certificates, leaf first (DER); `undefined` when the connection is not TLS. */
  readonly peerChain: (() => Uint8Array[]) | undefined;
}

/**
 * Why a delivery is refused, and the status to answer (500: the handler's own configuration).
 * The error itself is made only when someone reads it (`onError`): capturing its stack would be
 * most of what a forged delivery costs.
 */
export class Refusal {
  readonly status: 401 | 403 | 500;
  /** The class name of the error, for logs. */
  readonly name: string;
  readonly #make: () => WebhookAuthenticationError | ConfigurationError;

  constructor(status: 401 | 403 | 500, name: string, make: () => WebhookAuthenticationError | ConfigurationError) {
    this.status = status;
    this.name = name;
    this.#make = make;
  }

  error(): WebhookAuthenticationError | ConfigurationError {
    return this.#make();
  }
}

/** Checks a delivery; `undefined` lets it through. */
export type Gate = (arrival: Arrival) => Refusal | undefined;

/** Marks the path segment that carries the secret. */
const SECRET_PREFIX = 'whs_';
const MIN_SECRET = 16;

/**
 * The URL to register for notifications with `secret` in it, as a last path segment
 * (`https://shop.example/webhook/whs_<secret>`): the service appends `/instant` (or `/rec`,
 * `/cobr`) after it, and the handler's `authenticate.secret` finds it there.
 */
export function webhookUrl(url: string, secret: string): string {
  checkSecret('secret', secret);
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/${SECRET_PREFIX}${encodeURIComponent(secret)}`;
  return parsed.href;
}

function checkSecret(option: string, secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET) {
    throw new ConfigurationError(option, `${option} must be a string of at least ${MIN_SECRET} characters`);
  }
}

/** The gate for `options`, or `undefined` without any check. Throws `ConfigurationError` for bad options. */
export function authenticator(options: WebhookAuthentication | undefined, now: Now): Gate | undefined {
  if (options === undefined) return undefined;
  const { clientCertificate, secret, allowIps, trustedProxies, forwardedCertificateHeader } = options;
  if (secret !== undefined) checkSecret('authenticate.secret', secret);
  const allowed = allowIps === undefined ? undefined : new AddressSet('authenticate.allowIps', allowIps);
  const trusted = new AddressSet('authenticate.trustedProxies', trustedProxies ?? []);
  const header = forwardedCertificateHeader?.toLowerCase();
  const certificate = clientCertificate === undefined ? undefined : certificateCheck(clientCertificate, header, now);
  const checks: Gate[] = [];
  if (secret !== undefined) {
    const expected = utf8.encode(secret);
    checks.push((arrival) => secretCheck(arrival.path, expected));
  }
  if (allowed) {
    checks.push((arrival) => {
      if (arrival.remoteAddress === undefined) {
        return misconfigured(
          'authenticate.allowIps',
          'allowIps needs the connecting address: give the web-standard handler { remoteAddress } as its second argument',
        );
      }
      return allowed.has(clientAddress(arrival, trusted))
        ? undefined
        : refuse('allowIps', 403, 'the client address is not in allowIps');
    });
  }
  if (certificate) checks.push((arrival) => certificate(arrival, trusted));
  if (checks.length === 0) return undefined;
  return (arrival) => {
    for (const check of checks) {
      const refusal = check(arrival);
      if (refusal) return refusal;
    }
    return undefined;
  };
}

function refuse(check: WebhookAuthenticationError['check'], status: 401 | 403, reason: string): Refusal {
  return new Refusal(status, 'WebhookAuthenticationError', () => new WebhookAuthenticationError(check, status, reason));
}

function misconfigured(option: string, message: string): Refusal {
  return new Refusal(500, 'ConfigurationError', () => new ConfigurationError(option, message));
}

function secretCheck(path: string, secret: Uint8Array): Refusal | undefined {
  let seen = false;
  let match = false;
  for (const segment of path.split('?')[0]!.split('/')) {
    if (!segment.startsWith(SECRET_PREFIX)) continue;
    seen = true;
    let given: string;
    try {
      given = decodeURIComponent(segment.slice(SECRET_PREFIX.length));
    } catch {
      continue;
    }
    // Every candidate is compared in full: the time taken does not say which one came close.
    match = constantTimeEqual(given, secret) || match;
  }
  if (match) return undefined;
  return seen
    ? refuse('secret', 403, 'the secret in the URL is wrong')
    : refuse('secret', 401, 'the URL carries no secret');
}

const utf8 = new TextEncoder();

/** `given === expected` in a time that depends on `expected`'s length only. */
function constantTimeEqual(given: string, expected: Uint8Array): boolean {
  const a = utf8.encode(given);
  let diff = a.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (a[i % Math.max(a.length, 1)] ?? 0) ^ expected[i]!;
  return diff === 0;
}

/** The client's address: the peer's, or behind trusted hops the rightmost forwarded one that is not a hop. */
function clientAddress(arrival: Arrival, trusted: AddressSet): Uint8Array | undefined {
  const peer = parseAddress(arrival.remoteAddress);
  if (!trusted.has(peer)) return peer;
  const hops = (arrival.header('x-forwarded-for') ?? '').split(',').filter((hop) => hop.trim() !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    // An entry that is no address is not a hop either: `undefined`, refused.
    const hop = parseAddress(hops[i]);
    if (!trusted.has(hop)) return hop;
  }
  return hops.length > 0 ? parseAddress(hops[0]) : peer;
}

type Crypto = typeof import('node:crypto');

function certificateCheck(
  options: NonNullable<WebhookAuthentication['clientCertificate']>,
  header: string | undefined,
  now: Now,
): (arrival: Arrival, trusted: AddressSet) => Refusal | undefined {
  const crypto = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.(
    'node:crypto',
  ) as Crypto | undefined;
  if (!crypto)
    throw new ConfigurationError(
      'authenticate.clientCertificate',
      'clientCertificate needs node:crypto (Node, Deno or Bun)',
    );
  const anchors = certificatesOf(crypto, options.ca);
  if (anchors === undefined || anchors.length === 0) {
    throw new ConfigurationError(
      'authenticate.clientCertificate.ca',
      'clientCertificate.ca must be one or more PEM certificates',
    );
  }
  const pins = options.fingerprints?.map((fingerprint) => {
    const hex = typeof fingerprint === 'string' ? fingerprint.replace(/:/g, '').toUpperCase() : '';
    if (!/^[0-9A-F]{64}$/.test(hex)) {
      throw new ConfigurationError(
        'authenticate.clientCertificate.fingerprints',
        'each fingerprint must be a SHA-256 fingerprint in hex (AB:CD:...)',
      );
    }
    return hex;
  });
  return (arrival, trusted) => {
    let chain: X509Certificate[] | undefined;
    // An empty header is none: nginx sends `$ssl_client_escaped_cert` empty when no certificate came.
    const forwarded = (header === undefined ? undefined : arrival.header(header)?.trim()) || undefined;
    if (forwarded !== undefined && trusted.has(parseAddress(arrival.remoteAddress))) {
      chain =
        header === 'x-forwarded-client-cert'
          ? fromXfcc(crypto, forwarded)
          : certificatesOf(crypto, forwardedText(forwarded));
      if (chain === undefined || chain.length === 0)
        return refuse('clientCertificate', 403, 'the forwarded certificate cannot be read');
    } else {
      const peer = arrival.peerChain?.();
      if (peer !== undefined && peer.length > 0) {
        try {
          chain = peer.map((der) => new crypto.X509Certificate(der));
        } catch {
          return refuse('clientCertificate', 403, 'the peer certificate cannot be read');
        }
      } else if (forwarded !== undefined) {
        return refuse('clientCertificate', 403, 'a certificate was forwarded by a hop not in trustedProxies');
      } else if (arrival.peerChain === undefined && header === undefined) {
        return misconfigured(
          'authenticate.clientCertificate',
          'clientCertificate needs the TLS socket (handler.node on an https server with requestCert) or, behind a proxy, forwardedCertificateHeader and trustedProxies',
        );
      } else {
        return refuse('clientCertificate', 401, 'no client certificate');
      }
    }
    const reason = verify(chain, anchors, pins, epochMs(now));
    return reason === undefined ? undefined : refuse('clientCertificate', 403, reason);
  };
}

/** Why `chain` (leaf first) is not trusted, or `undefined` when it leads to an anchor, every link in its dates. */
function verify(
  chain: X509Certificate[],
  anchors: X509Certificate[],
  pins: string[] | undefined,
  now: number,
): string | undefined {
  const inDates = (certificate: X509Certificate) =>
    Date.parse(certificate.validFrom) <= now && now <= Date.parse(certificate.validTo);
  const leaf = chain[0]!;
  if (pins && !pins.includes(leaf.fingerprint256.replace(/:/g, '').toUpperCase()))
    return 'the certificate fingerprint is not one of fingerprints';
  const unused = chain.slice(1);
  let current = leaf;
  for (let depth = 0; depth < 10; depth++) {
    if (!inDates(current)) return 'a certificate of the chain is expired or not yet valid';
    if (anchors.some((anchor) => anchor.fingerprint256 === current.fingerprint256)) return undefined;
    const anchor = anchors.find((candidate) => current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (anchor) return inDates(anchor) ? undefined : 'the ca certificate is expired or not yet valid';
    const index = unused.findIndex(
      (candidate) => candidate.ca && current.checkIssued(candidate) && current.verify(candidate.publicKey),
    );
    if (index < 0) return 'the certificate is not issued by the configured ca';
    current = unused.splice(index, 1)[0]!;
  }
  return 'the certificate chain is too long';
}

/** The certificates in PEM text (or DER bytes, or a list of either); `undefined` when one cannot be read. */
function certificatesOf(crypto: Crypto, input: unknown): X509Certificate[] | undefined {
  try {
    const items = Array.isArray(input) ? input : [input];
    return items.flatMap((item: unknown) => {
      if (item instanceof Uint8Array) {
        const text = new TextDecoder().decode(item);
        return text.includes('-----BEGIN')
          ? pemBlocks(text).map((b) => new crypto.X509Certificate(b))
          : [new crypto.X509Certificate(item)];
      }
      if (typeof item !== 'string') throw new TypeError('not a certificate');
      return pemBlocks(item).map((block) => new crypto.X509Certificate(block));
    });
  } catch {
    return undefined;
  }
}

function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** A forwarded certificate header's text as PEM: URL-encoded PEM (nginx), or `:base64 DER:` (RFC 9440). */
function forwardedText(value: string): string | Uint8Array {
  const trimmed = value.trim();
  const rfc9440 = /^:([A-Za-z0-9+/=]+):$/.exec(trimmed);
  if (rfc9440) return Uint8Array.from(atob(rfc9440[1]!), (c) => c.charCodeAt(0));
  try {
    return decodeURIComponent(trimmed);
  } catch {
    return '';
  }
}

/**
 * Envoy's `x-forwarded-client-cert`: elements split by commas, each `Key=value;...`, values
 * quoted where needed. The last element is the one the nearest (trusted) hop appended.
 */
function fromXfcc(crypto: Crypto, value: string): X509Certificate[] | undefined {
  const elements = splitOutsideQuotes(value, ',');
  const fields = new Map<string, string>();
  for (const pair of splitOutsideQuotes(elements.at(-1)!, ';')) {
    const at = pair.indexOf('=');
    if (at > 0)
      fields.set(
        pair.slice(0, at).trim().toLowerCase(),
        pair
          .slice(at + 1)
          .trim()
          .replace(/^"(.*)"$/s, '$1'),
      );
  }
  const leaf = fields.get('cert');
  if (leaf === undefined) return undefined;
  const chain = fields.get('chain');
  const all = certificatesOf(crypto, [forwardedText(leaf), ...(chain === undefined ? [] : [forwardedText(chain)])]);
  // Chain repeats the leaf first: keep one of each.
  return all?.filter(
    (certificate, i) => all.findIndex((other) => other.fingerprint256 === certificate.fingerprint256) === i,
  );
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** A Node request as an `Arrival`: its socket's address and, over TLS, its peer's certificates. */
export function nodeArrival(req: IncomingMessage): Arrival {
  const socket = req.socket as TLSSocket | null;
  return {
    path: (req.url ?? '/').split('?')[0]!,
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    remoteAddress: socket?.remoteAddress,
    peerChain: socket?.encrypted ? () => peerCertificates(socket) : undefined,
  };
}

/** The peer's certificates, leaf first, as the TLS socket holds them (each once). */
function peerCertificates(socket: TLSSocket): Uint8Array[] {
  const out: Uint8Array[] = [];
  const seen = new Set<string>();
  let current = socket.getPeerCertificate(true) as {
    raw?: Buffer;
    fingerprint256?: string;
    issuerCertificate?: unknown;
  } | null;
  while (current?.raw && current.fingerprint256 && !seen.has(current.fingerprint256)) {
    seen.add(current.fingerprint256);
    out.push(current.raw);
    current = current.issuerCertificate as typeof current;
  }
  return out;
}

/** A web-standard request as an `Arrival`: no socket; `remoteAddress` when the platform gave it. */
export function webArrival(request: Request, remoteAddress: string | undefined): Arrival {
  let path = '/';
  try {
    path = new URL(request.url).pathname;
  } catch {
    // A relative URL (some frameworks): only its path matters.
    path = request.url.split('?')[0]!;
  }
  return { path, header: (name) => request.headers.get(name) ?? undefined, remoteAddress, peerChain: undefined };
}
