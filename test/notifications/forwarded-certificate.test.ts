/**
 * The service's certificate forwarded by a trusted TLS-terminating hop, in each encoding a proxy
 * uses: nginx's URL-encoded PEM (empty when no certificate came), RFC 9440's `:base64 DER:`, and
 * Envoy's `x-forwarded-client-cert` (the last element, its `Cert` and `Chain`, quoted values with
 * escapes). What cannot be read is refused, and a header is read only when configured.
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  receivedPaymentsHandler,
  WebhookAuthenticationError,
  type WebhookAuthentication,
} from '../../src/index.ts';
import { createCertificate, type IssuedCertificate } from '../../src/sandbox/certificates.ts';
import { countingApi, paymentBody, selfSigned, service } from './support.ts';

const root = { ...createCertificate({ commonName: 'root CA', ca: true }), commonName: 'root CA' };
const intermediate = {
  ...createCertificate({ commonName: 'intermediate CA', ca: true, issuer: root }),
  commonName: 'intermediate CA',
};
const leaf = createCertificate({ commonName: 'service client', issuer: intermediate });

const FORWARDED: WebhookAuthentication = {
  clientCertificate: { ca: root.cert },
  trustedProxies: ['10.0.0.0/8'],
  forwardedCertificateHeader: 'X-Client-Cert',
};

/** The status and the refusal's reason (or the configuration error's option) a delivery from a trusted hop gets. */
async function verdict(
  headers: Record<string, string>,
  authenticate: WebhookAuthentication = FORWARDED,
): Promise<{ status: number; check?: string; reason?: string; option?: string }> {
  const errors: unknown[] = [];
  const handler = receivedPaymentsHandler(countingApi(), {
    authenticate,
    onPayment: () => {},
    onError: (error) => void errors.push(error),
  });
  const request = new Request('https://shop.example/webhook/instant', { method: 'POST', body: paymentBody(), headers });
  const { status } = await handler(request, { remoteAddress: '10.0.0.1' });
  const error = errors[0];
  if (error instanceof WebhookAuthenticationError) return { status, check: error.check, reason: error.reason };
  if (error instanceof ConfigurationError) return { status, option: error.option };
  return { status };
}

const OK = { status: 200 };
const UNREADABLE = { status: 403, check: 'clientCertificate', reason: 'the forwarded certificate cannot be read' };
const BROKEN_PEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
const base64Der = (pem: string) => Buffer.from(new X509Certificate(pem).raw).toString('base64');
const chain = leaf.cert + intermediate.cert;

describe("nginx's URL-encoded PEM", () => {
  it('a certificate with its chain: verified; an empty or blank header: no certificate (401)', async () => {
    expect(await verdict({ 'x-client-cert': encodeURIComponent(chain) })).toEqual(OK);
    for (const blank of ['', '   ']) {
      expect(await verdict({ 'x-client-cert': blank }), JSON.stringify(blank)).toEqual({
        status: 401,
        check: 'clientCertificate',
        reason: 'no client certificate',
      });
    }
  });

  it('text that is no certificate, or not URL-encoding: refused as unreadable', async () => {
    for (const value of ['garbage', '%E0%A4%A', encodeURIComponent(BROKEN_PEM)]) {
      expect(await verdict({ 'x-client-cert': value }), value).toEqual(UNREADABLE);
    }
  });
});

describe("RFC 9440's :base64 DER:", () => {
  it('the leaf between colons (spaces around it ignored); anything before or after it: unreadable', async () => {
    const ca = { ...FORWARDED, clientCertificate: { ca: intermediate.cert } };
    expect(await verdict({ 'x-client-cert': `:${base64Der(leaf.cert)}:` }, ca)).toEqual(OK);
    expect(await verdict({ 'x-client-cert': ` :${base64Der(leaf.cert)}: ` }, ca)).toEqual(OK);
    for (const value of [`x:${base64Der(leaf.cert)}:`, `:${base64Der(leaf.cert)}:x`, `:${base64Der(leaf.cert)}`]) {
      expect(await verdict({ 'x-client-cert': value }, ca), value).toEqual(UNREADABLE);
    }
    expect(await verdict({ 'x-client-cert': `:${base64Der(selfSigned.cert)}:` }, ca)).toMatchObject({ status: 403 });
  });
});

describe("Envoy's x-forwarded-client-cert", () => {
  const xfcc = (...elements: string[]) => ({ 'x-forwarded-client-cert': elements.join(',') });
  const envoy = { ...FORWARDED, forwardedCertificateHeader: 'x-forwarded-client-cert' };
  const genuine = { ...envoy, clientCertificate: { ca: service.ca.cert } };
  const quoted = (pem: string) => `"${encodeURIComponent(pem)}"`;
  const element = (certificate: IssuedCertificate) =>
    `By=spiffe://shop/hook;Hash=ab12;Cert=${quoted(certificate.cert)};Subject="CN=service client,O=x";URI=`;

  it('Cert with its Chain (which repeats the leaf first)', async () => {
    expect(await verdict(xfcc(`Hash=ab;Cert=${quoted(leaf.cert)};Chain=${quoted(chain)}`), envoy)).toEqual(OK);
    expect(await verdict(xfcc(`Hash=ab;Cert=${quoted(leaf.cert)}`), envoy)).toMatchObject({ status: 403 });
  });

  it('only the last element counts: one without Cert is refused, whatever an earlier element carries', async () => {
    expect(await verdict(xfcc(element(service.client), 'By=spiffe://shop/hook;Hash=ab12'), genuine)).toEqual(
      UNREADABLE,
    );
    expect(await verdict(xfcc(element(selfSigned), element(service.client)), genuine)).toEqual(OK);
    expect(await verdict(xfcc(`Cert="garbage"`), genuine)).toEqual(UNREADABLE);
    expect(await verdict(xfcc(`Cert=${quoted(BROKEN_PEM)}`), genuine)).toEqual(UNREADABLE);
  });

  it('keys in any case with spaces around them, a field without a value, quoted commas and escaped quotes', async () => {
    for (const value of [
      `By=spiffe://shop/hook; cert = ${quoted(service.client.cert)} ;URI=`,
      `Cert=${quoted(service.client.cert)};Certs`,
      `Cert=${quoted(service.client.cert)};Subject="CN=a\\",b=c,O=x"`,
      `Subject="CN=a\\",b=c";Cert=${quoted(service.client.cert)}`,
    ]) {
      expect(await verdict(xfcc(value), genuine), value).toEqual(OK);
    }
  });

  it('a Cert in RFC 9440 form, quoted or not, spaces inside the quotes ignored', async () => {
    const der = base64Der(service.client.cert);
    for (const cert of [`:${der}:`, `":${der}:"`, `" :${der}: "`]) {
      expect(await verdict(xfcc(`Hash=ab;Cert=${cert}`), genuine), cert).toEqual(OK);
    }
    expect(await verdict(xfcc(`Hash=ab; Cert = ":${der}:" ;URI=`), genuine)).toEqual(OK);
  });
});

describe('a header is read only when configured', () => {
  it('without forwardedCertificateHeader, no header stands for a certificate: 500, clientCertificate needs the socket', async () => {
    const pem = encodeURIComponent(service.client.cert);
    const headers = { undefined: pem, 'x-client-cert': pem, 'x-forwarded-client-cert': `Cert="${pem}"` };
    const { forwardedCertificateHeader: _, ...withoutHeader } = FORWARDED;
    const result = await verdict(headers, { ...withoutHeader, clientCertificate: { ca: service.ca.cert } });
    expect(result).toEqual({ status: 500, option: 'authenticate.clientCertificate' });
  });
});
