/**
 * `authenticate.clientCertificate`: which chains lead to a configured `ca` (through the
 * intermediates the sender presents, each one a CA whose signature verifies), every link within
 * its dates to the second on the client's clock, the forms `ca` takes, and what is refused with
 * which reason. Certificates are forwarded by a trusted hop (the web-standard handler), and sent
 * on the TLS socket where only the socket shows it.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ConfigurationError,
  receivedPaymentsHandler,
  type WebhookAuthenticationError,
  type WebhookAuthentication,
} from '../../src/index.ts';
import { createCertificate, type IssuedCertificate } from '../../src/sandbox/certificates.ts';
import { countingApi, paymentBody, post, receiver, service } from './support.ts';

type Issuer = IssuedCertificate & { commonName: string };
type ClientCertificate = NonNullable<WebhookAuthentication['clientCertificate']>;

const HOUR = 3_600_000;
const root: Issuer = { ...createCertificate({ commonName: 'root CA', ca: true }), commonName: 'root CA' };
const intermediate: Issuer = {
  ...createCertificate({ commonName: 'intermediate CA', ca: true, issuer: root }),
  commonName: 'intermediate CA',
};
const leaf = createCertificate({ commonName: 'service client', issuer: intermediate });

interface Verdict {
  status: number;
  reason?: string;
  option?: string;
}

/** What a handler with `clientCertificate` answers to `pem` forwarded by a trusted hop, at `now`. */
async function verdict(clientCertificate: ClientCertificate, pem: string, now?: Date): Promise<Verdict> {
  const errors: unknown[] = [];
  const handler = receivedPaymentsHandler(
    { ...countingApi(), ...(now && { now: () => now }) },
    {
      authenticate: { clientCertificate, trustedProxies: ['10.0.0.0/8'], forwardedCertificateHeader: 'x-client-cert' },
      onPayment: () => {},
      onError: (error) => void errors.push(error),
    },
  );
  const request = new Request('https://shop.example/webhook/instant', {
    method: 'POST',
    body: paymentBody(),
    headers: { 'x-client-cert': encodeURIComponent(pem) },
  });
  const { status } = await handler(request, { remoteAddress: '10.0.0.1' });
  const error = errors[0] as Partial<WebhookAuthenticationError & ConfigurationError> | undefined;
  return {
    status,
    ...(error?.reason !== undefined && { reason: error.reason }),
    ...(error?.option !== undefined && { option: error.option }),
  };
}

const NOT_ISSUED = { status: 403, reason: 'the certificate is not issued by the configured ca' };

describe('the chain to a configured ca', () => {
  it('through the intermediates the sender presents, in any order', async () => {
    expect(await verdict({ ca: root.cert }, leaf.cert + intermediate.cert)).toEqual({ status: 200 });
    const second: Issuer = {
      ...createCertificate({ commonName: 'second CA', ca: true, issuer: intermediate }),
      commonName: 'second CA',
    };
    const deep = createCertificate({ commonName: 'service client', issuer: second });
    expect(await verdict({ ca: root.cert }, deep.cert + intermediate.cert + second.cert)).toEqual({ status: 200 });
    expect(await verdict({ ca: root.cert }, deep.cert + second.cert)).toEqual(NOT_ISSUED);
    expect(await verdict({ ca: root.cert }, leaf.cert)).toEqual(NOT_ISSUED);
  });

  it('a ca may be an intermediate, or the very certificate the service presents', async () => {
    expect(await verdict({ ca: intermediate.cert }, leaf.cert)).toEqual({ status: 200 });
    expect(await verdict({ ca: [service.client.cert, root.cert] }, service.client.cert)).toEqual({ status: 200 });
    expect(await verdict({ ca: [root.cert, service.client.cert] }, service.client.cert)).toEqual({ status: 200 });
  });

  it("a link that is not a CA cannot issue, whatever it signed: not another client's certificate of the same ca", async () => {
    for (const keyUsage of [true, false]) {
      const plain: Issuer = {
        ...createCertificate({ commonName: 'plain', issuer: root, keyUsage }),
        commonName: 'plain',
      };
      const underPlain = createCertificate({ commonName: 'service client', issuer: plain });
      expect(await verdict({ ca: root.cert }, underPlain.cert + plain.cert), `keyUsage ${keyUsage}`).toEqual(
        NOT_ISSUED,
      );
    }
  });

  it('a signature that does not verify is refused, though the names and key ids match', async () => {
    for (const [ca, chain] of [
      [root.cert, broken(createCertificate({ commonName: 'service client', issuer: root }).cert)],
      [root.cert, broken(leaf.cert) + intermediate.cert],
    ] as const) {
      expect(await verdict({ ca }, chain)).toEqual(NOT_ISSUED);
    }
  });

  it('at most ten links are followed: a longer chain is refused', async () => {
    const links: Issuer[] = [];
    let issuer = root;
    for (let i = 0; i < 10; i++) {
      issuer = { ...createCertificate({ commonName: `CA ${i}`, ca: true, issuer }), commonName: `CA ${i}` };
      links.push(issuer);
    }
    const far = createCertificate({ commonName: 'service client', issuer });
    const presented = far.cert + links.map((link) => link.cert).join('');
    expect(await verdict({ ca: root.cert }, presented)).toEqual({
      status: 403,
      reason: 'the certificate chain is too long',
    });
    expect(await verdict({ ca: links[0]!.cert }, presented)).toEqual({ status: 200 });
  });
});

describe('dates, on the client clock', () => {
  // Whole seconds, within the root's dates: a certificate's dates have no fraction of a second.
  const from = new Date(Math.floor(Date.now() / 1000) * 1000 + 24 * HOUR);
  const to = new Date(from.getTime() + 48 * HOUR);
  const dated = createCertificate({ commonName: 'service client', issuer: root, notBefore: from, notAfter: to });
  const outside = { status: 403, reason: 'a certificate of the chain is expired or not yet valid' };

  it('valid from its first second to its last one, refused a second before or after', async () => {
    expect(await verdict({ ca: root.cert }, dated.cert, from)).toEqual({ status: 200 });
    expect(await verdict({ ca: root.cert }, dated.cert, to)).toEqual({ status: 200 });
    expect(await verdict({ ca: root.cert }, dated.cert, new Date(from.getTime() - 1000))).toEqual(outside);
    expect(await verdict({ ca: root.cert }, dated.cert, new Date(to.getTime() + 1000))).toEqual(outside);
  });

  it('an intermediate or the ca out of its dates refuses the chain', async () => {
    const old: Issuer = {
      ...createCertificate({
        commonName: 'old CA',
        ca: true,
        notBefore: new Date(Date.now() - 48 * HOUR),
        notAfter: new Date(Date.now() - 24 * HOUR),
      }),
      commonName: 'old CA',
    };
    const underOld = createCertificate({ commonName: 'service client', issuer: old });
    expect(await verdict({ ca: old.cert }, underOld.cert)).toEqual({
      status: 403,
      reason: 'the ca certificate is expired or not yet valid',
    });
    const oldIntermediate: Issuer = {
      ...createCertificate({
        commonName: 'old intermediate',
        ca: true,
        issuer: root,
        notBefore: new Date(Date.now() - 48 * HOUR),
        notAfter: new Date(Date.now() - 24 * HOUR),
      }),
      commonName: 'old intermediate',
    };
    const underOldIntermediate = createCertificate({ commonName: 'service client', issuer: oldIntermediate });
    expect(await verdict({ ca: root.cert }, underOldIntermediate.cert + oldIntermediate.cert)).toEqual(outside);
  });
});

describe('the forms ca takes', () => {
  it('PEM text, PEM bytes, DER bytes, a bundle or a list of them', async () => {
    const der = new Uint8Array(new X509Certificate(intermediate.cert).raw);
    for (const ca of [
      intermediate.cert,
      new TextEncoder().encode(intermediate.cert),
      der,
      [root.cert, der],
      service.ca.cert + intermediate.cert,
      new TextEncoder().encode(service.ca.cert + intermediate.cert),
    ]) {
      expect(await verdict({ ca }, leaf.cert)).toEqual({ status: 200 });
    }
  });

  it('a ca that cannot be read is refused when the handler is built', () => {
    const build = (clientCertificate: ClientCertificate) => () =>
      receivedPaymentsHandler(countingApi(), { authenticate: { clientCertificate }, onPayment: () => {} });
    const message = 'clientCertificate.ca must be one or more PEM certificates';
    for (const ca of [
      'not a certificate',
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----',
      new Uint8Array([1, 2, 3]),
      [root.cert, 42 as never],
    ]) {
      expect(build({ ca }), String(ca)).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', option: 'authenticate.clientCertificate.ca', message }),
      );
    }
  });

  it('fingerprints: 64 hex digits each, colons and case free', async () => {
    const build = (fingerprints: unknown[]) => () =>
      receivedPaymentsHandler(countingApi(), {
        authenticate: { clientCertificate: { ca: root.cert, fingerprints: fingerprints as string[] } },
        onPayment: () => {},
      });
    const hex = new X509Certificate(leaf.cert).fingerprint256.replace(/:/g, '');
    for (const fingerprint of [`${hex}A`, `X${hex}`, `${hex}X`, hex.slice(1), 42]) {
      expect(build([fingerprint]), String(fingerprint)).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          option: 'authenticate.clientCertificate.fingerprints',
          message: 'each fingerprint must be a SHA-256 fingerprint in hex (AB:CD:...)',
        }),
      );
    }
    expect(await verdict({ ca: root.cert, fingerprints: [hex.toLowerCase()] }, leaf.cert + intermediate.cert)).toEqual({
      status: 200,
    });
  });

  it('a runtime without node:crypto: clientCertificate is refused when the handler is built', () => {
    const getBuiltinModule = vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    try {
      expect(() =>
        receivedPaymentsHandler(countingApi(), {
          authenticate: { clientCertificate: { ca: root.cert } },
          onPayment: () => {},
        }),
      ).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          option: 'authenticate.clientCertificate',
          message: 'clientCertificate needs node:crypto (Node, Deno or Bun)',
        }),
      );
    } finally {
      getBuiltinModule.mockRestore();
    }
  });
});

describe('on the TLS socket', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('the chain the client sends, up to a self-signed root it sends too, is read once and verified', async () => {
    let paid = 0;
    const handler = receivedPaymentsHandler(countingApi(), {
      authenticate: { clientCertificate: { ca: root.cert } },
      onPayment: () => void paid++,
    });
    server = createServer(
      { cert: receiver.server.cert, key: receiver.server.key, requestCert: true, rejectUnauthorized: false },
      (req, res) => void handler.node(req, res),
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/instant`;
    const client = { cert: leaf.cert + intermediate.cert + root.cert, key: leaf.key };
    expect(await post(url, paymentBody(), { client })).toBe(200);
    expect(await post(url, paymentBody(), { client: { cert: leaf.cert, key: leaf.key } })).toBe(403);
    expect(paid).toBe(1);
  });
});

/** `pem` with one bit of its signature flipped: it still parses, names and key ids unchanged. */
function broken(pem: string): string {
  const der = new Uint8Array(new X509Certificate(pem).raw);
  der[der.length - 3]! ^= 0x01;
  const base64 = Buffer.from(der).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
