/**
 * What the `authenticate` tests share: certificates made for the run (the service's CA and
 * client certificate, an expired one, another CA's, a self-signed impostor), a received-payments
 * API that counts its calls, and genuine notification bodies.
 */
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createCertificate, generateCertificates, type IssuedCertificate } from '../../src/sandbox/certificates.ts';
import type { InstantPayment, ReceivedPaymentsApi } from '../../src/index.ts';

export const service = generateCertificates({ caName: 'service CA', clientName: 'service client' });
/** The receiver's own server certificate (another CA: the service trusts it separately). */
export const receiver = generateCertificates({ caName: 'receiver CA' });
const YEAR = 365 * 86_400_000;
export const expired = createCertificate({
  commonName: 'service client',
  issuer: service.ca,
  notBefore: new Date(Date.now() - 2 * YEAR),
  notAfter: new Date(Date.now() - YEAR),
});
export const otherCa = generateCertificates({ caName: 'other CA', clientName: 'service client' }).client;
export const selfSigned = createCertificate({ commonName: 'service client' });

export const PAYMENT: InstantPayment = {
  endToEndId: 'E12345678202611261200abcdefghijk',
  txid: 'tx1234567890abcdefghijklmnop',
  valor: '10.00',
  horario: '2026-11-26T12:00:00Z',
};

/** A received-payments API whose `instant.get` confirms `PAYMENT` and counts every call. */
export function countingApi(delayMs = 0): ReceivedPaymentsApi & { calls: number; maxInFlight: number } {
  let inFlight = 0;
  const api = {
    calls: 0,
    maxInFlight: 0,
    instant: {
      get: async (e2eid: string) => {
        api.calls++;
        api.maxInFlight = Math.max(api.maxInFlight, ++inFlight);
        try {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          return { ...PAYMENT, endToEndId: e2eid };
        } finally {
          inFlight--;
        }
      },
    },
  };
  return api;
}

/** A notification of `PAYMENT` under another e2eid (the counting API confirms any). */
export function paymentBody(e2eid = PAYMENT.endToEndId): string {
  return JSON.stringify({ instant: [{ ...PAYMENT, endToEndId: e2eid }] });
}

/** A body stream that records whether anything pulled from it (high-water mark 0: nothing pulls unless read). */
export function watchedBody(text: string): { body: ReadableStream<Uint8Array>; pulled: () => boolean } {
  let pulled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled = true;
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled };
}

/** POSTs `body` over HTTPS (with `client`'s certificate, if any) or HTTP; resolves with the status. */
export function post(
  url: string,
  body: string,
  options: { client?: IssuedCertificate | undefined; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<number> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        ...(target.protocol === 'https:' && {
          ca: receiver.ca.cert,
          ...(options.client && { cert: options.client.cert, key: options.client.key }),
        }),
        ...(options.localAddress && { localAddress: options.localAddress }),
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
