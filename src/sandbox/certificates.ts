/**
 * Test certificates for the sandbox, made with node:crypto alone (no openssl, no dependency): a
 * CA, a server certificate for the hosts given and a client certificate, each an ECDSA P-256
 * key and an X.509 v3 certificate written in DER by the few encoders below. Test data: the keys
 * guard nothing beyond a sandbox.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

/** A certificate and its private key, both PEM. */
export interface IssuedCertificate {
  cert: string;
  key: string;
}

/** A CA and the server and client certificates it signed. */
export interface SandboxCertificates {
  ca: IssuedCertificate;
  server: IssuedCertificate;
  client: IssuedCertificate;
}

export interface CertificateOptions {
  /** Names and addresses the server certificate is valid for (default: localhost, 127.0.0.1, ::1). */
  hosts?: readonly string[];
  /** The client certificate's common name (default `sandbox-client`). */
  clientName?: string;
  /** Days of validity (default 365). */
  days?: number;
}

const DEFAULT_HOSTS = ['localhost', '127.0.0.1', '::1'];
const DAY_MS = 86_400_000;

/** A CA, a server certificate for `hosts` and a client certificate, signed by the CA. */
export function generateCertificates(options: CertificateOptions = {}): SandboxCertificates {
  const days = options.days ?? 365;
  const hosts = [...new Set([...DEFAULT_HOSTS, ...(options.hosts ?? [])])];
  const ca = keyPair();
  const caName = name('instant-payments sandbox CA');
  const caId = keyId(ca.publicKey);
  const issue = (subject: string, publicKey: KeyObject, extensions: Buffer[]) =>
    certificate({ issuer: caName, subject: name(subject), publicKey, signer: ca.privateKey, days, extensions: [...extensions, authorityKeyId(caId)] });
  const server = keyPair();
  const client = keyPair();
  return {
    ca: {
      cert: certificate({
        issuer: caName, subject: caName, publicKey: ca.publicKey, signer: ca.privateKey, days,
        extensions: [basicConstraints(true), keyUsage(0x06), subjectKeyId(caId)],
      }),
      key: pemKey(ca.privateKey),
    },
    server: {
      cert: issue('instant-payments sandbox', server.publicKey, [basicConstraints(false), keyUsage(0x80), extendedKeyUsage(SERVER_AUTH), subjectAltName(hosts), subjectKeyId(keyId(server.publicKey))]),
      key: pemKey(server.privateKey),
    },
    client: {
      cert: issue(options.clientName ?? 'sandbox-client', client.publicKey, [basicConstraints(false), keyUsage(0x80), extendedKeyUsage(CLIENT_AUTH), subjectKeyId(keyId(client.publicKey))]),
      key: pemKey(client.privateKey),
    },
  };
}

function keyPair(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

function pemKey(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

interface CertificateSpec {
  issuer: Buffer;
  subject: Buffer;
  publicKey: KeyObject;
  signer: KeyObject;
  days: number;
  extensions: Buffer[];
}

const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

function certificate(spec: CertificateSpec): string {
  const now = Date.now();
  const algorithm = seq(oid(ECDSA_SHA256));
  // A positive serial of 16 random bytes.
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    spec.issuer,
    seq(time(new Date(now - DAY_MS)), time(new Date(now + spec.days * DAY_MS))),
    spec.subject,
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...spec.extensions)),
  );
  const der = seq(tbs, algorithm, bitString(sign('sha256', tbs, spec.signer)));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function name(commonName: string): Buffer {
  return seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));
}

function basicConstraints(ca: boolean): Buffer {
  return extension('2.5.29.19', true, ca ? seq(tlv(0x01, Buffer.from([0xff]))) : seq());
}

/** `bits`: the first byte of the usage bits (0x80 digitalSignature, 0x04 keyCertSign, 0x02 cRLSign). */
function keyUsage(bits: number): Buffer {
  let unused = 0;
  while (unused < 7 && (bits & (1 << unused)) === 0) unused++;
  return extension('2.5.29.15', true, tlv(0x03, Buffer.from([unused, bits])));
}

function extendedKeyUsage(purpose: string): Buffer {
  return extension('2.5.29.37', false, seq(oid(purpose)));
}

function subjectAltName(hosts: readonly string[]): Buffer {
  const names = hosts.map((host) => {
    const version = isIP(host);
    if (version === 4) return tlv(0x87, Buffer.from(host.split('.').map(Number)));
    if (version === 6) return tlv(0x87, ipv6(host));
    return tlv(0x82, Buffer.from(host, 'ascii'));
  });
  return extension('2.5.29.17', false, seq(...names));
}

function keyId(publicKey: KeyObject): Buffer {
  return createHash('sha1').update(publicKey.export({ type: 'spki', format: 'der' })).digest();
}

function subjectKeyId(id: Buffer): Buffer {
  return extension('2.5.29.14', false, tlv(0x04, id));
}

function authorityKeyId(id: Buffer): Buffer {
  return extension('2.5.29.35', false, seq(tlv(0x80, id)));
}

/** The 16 bytes of an IPv6 address (`::` expanded). */
function ipv6(address: string): Buffer {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = Buffer.alloc(16);
  all.forEach((group, i) => bytes.writeUInt16BE(group, i * 2));
  return bytes;
}

// DER encoders: tag, length, content.

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

function seq(...parts: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(parts));
}

/** A non-negative integer from its big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function bitString(bytes: Buffer): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) base128.unshift((value & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}
