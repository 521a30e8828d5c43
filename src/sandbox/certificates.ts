/**
 * Node only: X.509 certificates made at run time, with no tool outside Node (no `openssl`, no
 * dependency): a P-256 key from node:crypto, the certificate's DER written here (the handful of
 * ASN.1 types a certificate needs) and signed with ECDSA-SHA256. For the sandbox's CAs, server
 * and client certificates, and for tests that need an expired, foreign or self-signed one.
 * Test material: nothing here guards anything real.
 */
import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
} from 'node:crypto';
import { isIP } from 'node:net';
import { epochMs, systemNow } from '../internal/clock.ts';

/** A certificate and its private key, both PEM. */
export interface IssuedCertificate {
  /** The certificate (PEM). */
  readonly cert: string;
  /** Its private key (PKCS#8 PEM). */
  readonly key: string;
}

/** What `createCertificate` makes. */
export interface CertificateRequest {
  /** The subject's common name. */
  commonName: string;
  /** The signing CA (its certificate, key and common name); none: self-signed. */
  issuer?: IssuedCertificate & { readonly commonName: string };
  /** A CA certificate (may sign others) rather than a server or client one. */
  ca?: boolean;
  /** Host names and IP addresses (subjectAltName) a server certificate is good for. */
  hosts?: readonly string[];
  /** Start of validity (default: one hour ago, for clocks a little behind). */
  notBefore?: Date;
  /** End of validity (default: ten years after `notBefore`). */
  notAfter?: Date;
  /** `false`: no keyUsage extension, as many client certificates have (default: one, by `ca`). */
  keyUsage?: boolean;
}

/** A new certificate and key as `request` describes. */
export function createCertificate(request: CertificateRequest): IssuedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const notBefore = request.notBefore ?? new Date(epochMs(systemNow) - 3_600_000);
  const notAfter = request.notAfter ?? new Date(notBefore.getTime() + 10 * 365 * 86_400_000);
  const signer = request.issuer ? request.issuer.key : privateKey;
  const spki = new Uint8Array(publicKey.export({ type: 'spki', format: 'der' }));
  const issuerSpki = request.issuer
    ? new Uint8Array(createPublicKey(request.issuer.cert).export({ type: 'spki', format: 'der' }))
    : spki;
  const tbs = seq(
    explicit(0, integer(new Uint8Array([2]))), // v3
    integer(serial()),
    ECDSA_SHA256,
    name(request.issuer?.commonName ?? request.commonName),
    seq(time(notBefore), time(notAfter)),
    name(request.commonName),
    spki,
    explicit(3, seq(...extensions(request, keyId(spki), keyId(issuerSpki)))),
  );
  const signature = sign('sha256', tbs, signer);
  return {
    cert: pem('CERTIFICATE', seq(tbs, ECDSA_SHA256, bitString(signature))),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
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
  /** The CA's common name (default `instant-payments sandbox CA`). */
  caName?: string;
}

const DEFAULT_HOSTS = ['localhost', '127.0.0.1', '::1'];

/** A CA, a server certificate for `hosts` and a client certificate, signed by the CA. */
export function generateCertificates(
  options: CertificateOptions = {},
): SandboxCertificates & { ca: { commonName: string } } {
  const notBefore = new Date(epochMs(systemNow) - 3_600_000);
  const notAfter = new Date(notBefore.getTime() + (options.days ?? 365) * 86_400_000);
  const commonName = options.caName ?? 'instant-payments sandbox CA';
  const ca = { ...createCertificate({ commonName, ca: true, notBefore, notAfter }), commonName };
  const hosts = [...new Set([...DEFAULT_HOSTS, ...(options.hosts ?? [])])];
  return {
    ca,
    server: createCertificate({ commonName: 'instant-payments sandbox', hosts, issuer: ca, notBefore, notAfter }),
    client: createCertificate({ commonName: options.clientName ?? 'sandbox-client', issuer: ca, notBefore, notAfter }),
  };
}

const P12_ITERATIONS = 2048;

/**
 * `issued` as a PKCS#12 file (`.p12`) protected by `passphrase`, for clients that load a
 * certificate and key as one (Java, .NET, Python's requests through a helper): the certificate
 * in a plain bag, the key as encrypted PKCS#8 (PBES2, AES-256-CBC), both marked with the same
 * local key id, and an HMAC-SHA256 integrity check keyed by RFC 7292's derivation (appendix B).
 */
export function toPkcs12(issued: IssuedCertificate, passphrase: string): Uint8Array {
  const certDer = pemBody(issued.cert);
  const localKeyId = new Uint8Array(createHash('sha1').update(certDer).digest());
  const attributes = tlv(0x31, seq(oid('1.2.840.113549.1.9.21'), tlv(0x31, tlv(0x04, localKeyId))));
  const certBag = seq(
    oid('1.2.840.113549.1.12.10.1.3'),
    explicit(0, seq(oid('1.2.840.113549.1.9.22.1'), explicit(0, tlv(0x04, certDer)))),
    attributes,
  );
  const encryptedKey = new Uint8Array(
    createPrivateKey(issued.key).export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase }),
  );
  const keyBag = seq(oid('1.2.840.113549.1.12.10.1.2'), explicit(0, encryptedKey), attributes);
  const data = (content: Uint8Array) => seq(oid('1.2.840.113549.1.7.1'), explicit(0, tlv(0x04, content)));
  const authenticatedSafe = seq(data(seq(certBag)), data(seq(keyBag)));
  const salt = randomBytes(16);
  const mac = createHmac('sha256', pkcs12MacKey(passphrase, salt, P12_ITERATIONS))
    .update(authenticatedSafe)
    .digest();
  const macData = seq(
    seq(seq(oid('2.16.840.1.101.3.4.2.1'), new Uint8Array([0x05, 0x00])), tlv(0x04, new Uint8Array(mac))),
    tlv(0x04, new Uint8Array(salt)),
    integer(new Uint8Array([P12_ITERATIONS >> 8, P12_ITERATIONS & 0xff])),
  );
  return seq(integer(new Uint8Array([3])), data(authenticatedSafe), macData);
}

/**
 * RFC 7292 appendix B with SHA-256 (u = 32, v = 64) and ID 3 (a MAC key of 32 bytes, one
 * block): the hash, `iterations` times, of the ID block, the salt and the BMPString password,
 * each repeated to whole 64-byte blocks.
 */
function pkcs12MacKey(passphrase: string, salt: Uint8Array, iterations: number): Buffer {
  const v = 64;
  const fill = (bytes: Uint8Array) => {
    if (bytes.length === 0) return Buffer.alloc(0);
    const out = Buffer.alloc(v * Math.ceil(bytes.length / v));
    for (let i = 0; i < out.length; i++) out[i] = bytes[i % bytes.length]!;
    return out;
  };
  const password = Buffer.concat([Buffer.from(passphrase, 'utf16le').swap16(), Buffer.alloc(2)]);
  let digest = Buffer.concat([Buffer.alloc(v, 3), fill(salt), fill(password)]);
  for (let i = 0; i < iterations; i++) digest = createHash('sha256').update(digest).digest();
  return digest;
}

function pemBody(pemText: string): Uint8Array {
  return new Uint8Array(Buffer.from(pemText.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
}

function extensions(request: CertificateRequest, subjectKeyId: Uint8Array, authorityKeyId: Uint8Array): Uint8Array[] {
  const out = [
    extension('2.5.29.14', false, tlv(0x04, subjectKeyId)),
    extension('2.5.29.35', false, seq(tlv(0x80, authorityKeyId))),
    extension('2.5.29.19', true, seq(...(request.ca ? [new Uint8Array([0x01, 0x01, 0xff])] : []))), // basicConstraints
  ];
  // keyUsage: keyCertSign + cRLSign for a CA, digitalSignature otherwise.
  if (request.keyUsage !== false) {
    out.push(
      extension(
        '2.5.29.15',
        true,
        request.ca ? tlv(0x03, new Uint8Array([1, 0x06])) : tlv(0x03, new Uint8Array([7, 0x80])),
      ),
    );
  }
  // extKeyUsage: serverAuth and clientAuth.
  if (!request.ca) out.push(extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))));
  if (request.hosts && request.hosts.length > 0) {
    const names = request.hosts.map((host) =>
      isIP(host) === 4
        ? tlv(0x87, new Uint8Array(host.split('.').map(Number)))
        : isIP(host) === 6
          ? tlv(0x87, ipv6Bytes(host))
          : tlv(0x82, new TextEncoder().encode(host)),
    );
    out.push(extension('2.5.29.17', false, seq(...names))); // subjectAltName
  }
  return out;
}

/** A key identifier: SHA-1 of the public key's SPKI (RFC 7093, method 4's spirit; any unique value will do). */
function keyId(spki: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha1').update(spki).digest());
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

function extension(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  return seq(oid(id), ...(critical ? [new Uint8Array([0x01, 0x01, 0xff])] : []), tlv(0x04, value));
}

function name(commonName: string): Uint8Array {
  return seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, new TextEncoder().encode(commonName)))));
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280, 4.1.2.5). */
function time(date: Date): Uint8Array {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, ascii(`${iso.slice(2)}Z`)) : tlv(0x18, ascii(`${iso}Z`));
}

function serial(): Uint8Array {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01; // positive, no leading zero
  return bytes;
}

function integer(bytes: Uint8Array): Uint8Array {
  return tlv(0x02, bytes[0]! & 0x80 ? concat([new Uint8Array([0]), bytes]) : bytes);
}

function bitString(bytes: Uint8Array): Uint8Array {
  return tlv(0x03, concat([new Uint8Array([0]), bytes]));
}

function oid(dotted: string): Uint8Array {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let v = arc >>> 7; v > 0; v >>>= 7) groups.unshift((v & 0x7f) | 0x80);
    out.push(...groups);
  }
  return tlv(0x06, new Uint8Array(out));
}

function explicit(tag: number, content: Uint8Array): Uint8Array {
  return tlv(0xa0 | tag, content);
}

function seq(...items: Uint8Array[]): Uint8Array {
  return tlv(0x30, concat(items));
}

function tlv(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return concat([new Uint8Array([tag, ...length]), content]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function ipv6Bytes(address: string): Uint8Array {
  const [head = '', tail = ''] = address.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const left = words(head);
  const right = address.includes('::') ? words(tail) : [];
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return new Uint8Array(all.flatMap((w) => [w >> 8, w & 0xff]));
}

function pem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}
