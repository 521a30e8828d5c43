/**
 * `authenticate` on the notification handlers: the service's certificate on the TLS socket or
 * forwarded by a trusted hop, the secret in the URL, the service's addresses. Every refusal is
 * made before the body is read (a body stream that records a pull; on Node, the request's
 * `readableDidRead` when the answer is written) and before any call to the service.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  WebhookAuthenticationError,
  createTransferNotificationHandler,
  receivedPaymentsHandler,
  recurringHandler,
  toNodeHandler,
  webhookUrl,
  type NotificationHandler,
  type WebhookAuthentication,
} from '../../src/index.ts';
import {
  countingApi,
  expired,
  otherCa,
  paymentBody,
  post,
  receiver,
  selfSigned,
  service,
  watchedBody,
} from './support.ts';

const SECRET = 'k7Qm2vXw9Lp4Rt8Zs3Nb';

interface Setup {
  handler: NotificationHandler;
  api: ReturnType<typeof countingApi>;
  paid: number;
  errors: Array<{ error: unknown; status: number }>;
}

function setup(authenticate: WebhookAuthentication): Setup {
  const api = countingApi();
  const out: Setup = { api, paid: 0, errors: [], handler: undefined as never };
  out.handler = receivedPaymentsHandler(api, {
    authenticate,
    onPayment: () => void out.paid++,
    onError: (error, status) => void out.errors.push({ error, status }),
  });
  return out;
}

/** Sends to the web-standard handler with a watched body; checks nothing was read or asked on a refusal. */
async function deliver(
  s: Setup,
  url: string,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<number> {
  const { body, pulled } = watchedBody(paymentBody());
  const request = new Request(url, {
    method: 'POST',
    body,
    headers: options.headers ?? {},
    duplex: 'half',
  } as RequestInit);
  const calls = s.api.calls;
  const paid = s.paid;
  const response = await s.handler(
    request,
    options.remoteAddress === undefined ? undefined : { remoteAddress: options.remoteAddress },
  );
  if (response.status !== 200) {
    expect(pulled(), 'body read on a refusal').toBe(false);
    expect(s.api.calls - calls, 'service called on a refusal').toBe(0);
    expect(s.paid - paid, 'callback run on a refusal').toBe(0);
  }
  return response.status;
}

function lastError(s: Setup): WebhookAuthenticationError {
  const error = s.errors.at(-1)?.error;
  expect(error).toBeInstanceOf(WebhookAuthenticationError);
  return error as WebhookAuthenticationError;
}

describe('clientCertificate on the TLS socket (.node on an https server)', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** An https server asking for (not demanding) a client certificate, recording whether the body was read before the answer. */
  async function serve(s: Setup, listener = s.handler.node): Promise<{ url: string; bodyRead: boolean[] }> {
    const bodyRead: boolean[] = [];
    server = createServer(
      { cert: receiver.server.cert, key: receiver.server.key, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
        res.writeHead = ((...args: unknown[]) => {
          bodyRead.push(req.readableDidRead);
          return writeHead(...args);
        }) as typeof res.writeHead;
        void listener(req, res);
      },
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/instant`, bodyRead };
  }

  it("the service's certificate: 200, the callback once, one confirming call", async () => {
    const s = setup({ clientCertificate: { ca: service.ca.cert } });
    const { url, bodyRead } = await serve(s);
    expect(await post(url, paymentBody(), { client: service.client })).toBe(200);
    expect(s.paid).toBe(1);
    expect(s.api.calls).toBe(1);
    expect(bodyRead).toEqual([true]);
  });

  it('no certificate: 401; self-signed, another CA, expired: 403; none read the body or call the service', async () => {
    const s = setup({ clientCertificate: { ca: service.ca.cert } });
    const { url, bodyRead } = await serve(s);
    expect(await post(url, paymentBody())).toBe(401);
    expect(lastError(s)).toMatchObject({ check: 'clientCertificate', status: 401 });
    for (const client of [selfSigned, otherCa, expired]) {
      expect(await post(url, paymentBody(), { client })).toBe(403);
      expect(lastError(s)).toMatchObject({ check: 'clientCertificate', status: 403 });
    }
    expect(s.errors.map((e) => e.status)).toEqual([401, 403, 403, 403]);
    expect(lastError(s).reason).toMatch(/expired/);
    expect(bodyRead).toEqual([false, false, false, false]);
    expect(s.api.calls).toBe(0);
    expect(s.paid).toBe(0);
  });

  it('a fingerprint pin: another fingerprint 403; its own (any case, colons or not) 200', async () => {
    const own = new X509Certificate(service.client.cert).fingerprint256;
    const other = new X509Certificate(otherCa.cert).fingerprint256;
    const pinnedElsewhere = setup({ clientCertificate: { ca: service.ca.cert, fingerprints: [other] } });
    let { url } = await serve(pinnedElsewhere);
    expect(await post(url, paymentBody(), { client: service.client })).toBe(403);
    expect(lastError(pinnedElsewhere).reason).toMatch(/fingerprint/);
    expect(pinnedElsewhere.api.calls).toBe(0);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const pinned = setup({
      clientCertificate: { ca: service.ca.cert, fingerprints: [own.replace(/:/g, '').toLowerCase()] },
    });
    ({ url } = await serve(pinned));
    expect(await post(url, paymentBody(), { client: service.client })).toBe(200);
    expect(pinned.paid).toBe(1);
  });

  it('toNodeHandler(handler) checks the socket as handler.node does', async () => {
    const s = setup({ clientCertificate: { ca: service.ca.cert } });
    const { url, bodyRead } = await serve(s, toNodeHandler(s.handler, { maxBodyBytes: 4096 }));
    expect(await post(url, paymentBody())).toBe(401);
    expect(await post(url, paymentBody(), { client: otherCa })).toBe(403);
    expect(await post(url, paymentBody(), { client: service.client })).toBe(200);
    expect(bodyRead).toEqual([false, false, true]);
    expect(s.paid).toBe(1);
  });

  it('bad options throw ConfigurationError when the handler is built', () => {
    const attempts: Array<[string, WebhookAuthentication]> = [
      ['authenticate.clientCertificate.ca', { clientCertificate: { ca: 'not a certificate' } }],
      [
        'authenticate.clientCertificate.fingerprints',
        { clientCertificate: { ca: service.ca.cert, fingerprints: ['AB:CD'] } },
      ],
      ['authenticate.secret', { secret: 'short' }],
      ['authenticate.allowIps', { allowIps: ['203.0.113.0/33'] }],
      ['authenticate.trustedProxies', { trustedProxies: ['nowhere'] }],
    ];
    for (const [option, authenticate] of attempts) {
      expect(() => setup(authenticate), option).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', option }),
      );
    }
  });
});

describe('a certificate forwarded by a proxy', () => {
  const forwarded = (pem: string) => ({ 'x-client-cert': encodeURIComponent(pem) });
  const options: WebhookAuthentication = {
    clientCertificate: { ca: service.ca.cert },
    trustedProxies: ['10.0.0.0/8', 'fd00::/8'],
    forwardedCertificateHeader: 'X-Client-Cert',
  };

  it('from a trusted hop (IPv4, IPv4-mapped, IPv6): verified like a direct one', async () => {
    const s = setup(options);
    for (const remoteAddress of ['10.1.2.3', '::ffff:10.1.2.3', 'fd00::7']) {
      expect(
        await deliver(s, 'https://shop.example/webhook/instant', {
          remoteAddress,
          headers: forwarded(service.client.cert),
        }),
      ).toBe(200);
    }
    for (const client of [selfSigned, otherCa, expired]) {
      expect(
        await deliver(s, 'https://shop.example/webhook/instant', {
          remoteAddress: '10.1.2.3',
          headers: forwarded(client.cert),
        }),
      ).toBe(403);
    }
    expect(await deliver(s, 'https://shop.example/webhook/instant', { remoteAddress: '10.1.2.3' })).toBe(401);
    expect(s.paid).toBe(1);
  });

  it('from an untrusted hop, or with no address known: refused, even the genuine certificate', async () => {
    const s = setup(options);
    expect(
      await deliver(s, 'https://shop.example/webhook/instant', {
        remoteAddress: '192.0.2.1',
        headers: forwarded(service.client.cert),
      }),
    ).toBe(403);
    expect(lastError(s).reason).toMatch(/trustedProxies/);
    expect(await deliver(s, 'https://shop.example/webhook/instant', { headers: forwarded(service.client.cert) })).toBe(
      403,
    );
    expect(s.api.calls).toBe(0);
  });

  it("Envoy's x-forwarded-client-cert: the element the nearest hop appended (the last) counts", async () => {
    const s = setup({ ...options, forwardedCertificateHeader: 'x-forwarded-client-cert' });
    const element = (pem: string) =>
      `By=spiffe://shop/hook;Hash=ab12;Cert="${encodeURIComponent(pem)}";Subject="CN=service client,O=x";URI=`;
    const xfcc = (...pems: string[]) => ({ 'x-forwarded-client-cert': pems.map(element).join(',') });
    expect(
      await deliver(s, 'https://shop.example/hook', {
        remoteAddress: '10.0.0.1',
        headers: xfcc(selfSigned.cert, service.client.cert),
      }),
    ).toBe(200);
    expect(
      await deliver(s, 'https://shop.example/hook', {
        remoteAddress: '10.0.0.1',
        headers: xfcc(service.client.cert, selfSigned.cert),
      }),
    ).toBe(403);
    expect(s.paid).toBe(1);
  });

  it('the web-standard handler with clientCertificate but no forwarded header: 500 and a ConfigurationError (it has no socket)', async () => {
    const s = setup({ clientCertificate: { ca: service.ca.cert } });
    expect(await deliver(s, 'https://shop.example/webhook/instant', { remoteAddress: '10.0.0.1' })).toBe(500);
    expect(s.errors[0]?.error).toBeInstanceOf(ConfigurationError);
  });
});

describe('secret in the registered URL', () => {
  it('webhookUrl puts it in a last path segment, after which the service appends the list name', () => {
    expect(webhookUrl('https://shop.example/webhook/', SECRET)).toBe(`https://shop.example/webhook/whs_${SECRET}`);
    expect(webhookUrl('https://shop.example/hook?tenant=1', 'a b/c?d%e&f=g#h-long-enough')).toBe(
      'https://shop.example/hook/whs_a%20b%2Fc%3Fd%25e%26f%3Dg%23h-long-enough?tenant=1',
    );
    expect(() => webhookUrl('https://shop.example/webhook', 'short')).toThrow(ConfigurationError);
  });

  it('right: 200; wrong: 403; missing: 401; the secret never in an error', async () => {
    const s = setup({ secret: SECRET });
    const registered = webhookUrl('https://shop.example/webhook', SECRET);
    expect(await deliver(s, `${registered}/instant`)).toBe(200);
    expect(await deliver(s, `${webhookUrl('https://shop.example/webhook', `${SECRET}x`)}/instant`)).toBe(403);
    expect(lastError(s)).toMatchObject({ check: 'secret', status: 403 });
    expect(await deliver(s, `${webhookUrl('https://shop.example/webhook', `${SECRET.slice(0, -1)}Y`)}/instant`)).toBe(
      403,
    );
    expect(await deliver(s, 'https://shop.example/webhook/instant')).toBe(401);
    expect(lastError(s)).toMatchObject({ check: 'secret', status: 401 });
    expect(s.paid).toBe(1);
    for (const { error } of s.errors) {
      const shown = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
      expect(shown).not.toContain(SECRET.slice(0, 12));
    }
  });

  it('a truncated, empty or prefixed secret is wrong: only the whole secret passes', async () => {
    const s = setup({ secret: SECRET });
    const at = (secret: string) => `https://shop.example/webhook/whs_${encodeURIComponent(secret)}/instant`;
    for (const wrong of [SECRET.slice(0, -1), SECRET.slice(0, 1), '', `x${SECRET}`, SECRET.slice(1)]) {
      expect(await deliver(s, at(wrong))).toBe(403);
      expect(lastError(s)).toMatchObject({ check: 'secret', status: 403 });
    }
    expect(s.paid).toBe(0);
    expect(await deliver(s, at(SECRET))).toBe(200);
    expect(s.paid).toBe(1);
  });

  it('a secret with characters that need encoding survives the round trip', async () => {
    const secret = 'p@ss/word?with#odd&chars=1';
    const s = setup({ secret });
    expect(await deliver(s, `${webhookUrl('https://shop.example/w', secret)}/instant`)).toBe(200);
  });
});

describe('allowIps', () => {
  it('the connecting address outside the ranges: 403; inside (IPv4, mapped, IPv6): 200', async () => {
    const s = setup({ allowIps: ['203.0.113.0/24', '2001:db8::/32'] });
    expect(await deliver(s, 'https://shop.example/w', { remoteAddress: '198.51.100.7' })).toBe(403);
    expect(lastError(s)).toMatchObject({ check: 'allowIps', status: 403 });
    expect(await deliver(s, 'https://shop.example/w', { remoteAddress: '2001:db9::1' })).toBe(403);
    expect(await deliver(s, 'https://shop.example/w', { remoteAddress: '203.0.113.9' })).toBe(200);
    expect(await deliver(s, 'https://shop.example/w', { remoteAddress: '::ffff:203.0.113.9' })).toBe(200);
    expect(await deliver(s, 'https://shop.example/w', { remoteAddress: '2001:db8::5' })).toBe(200);
  });

  it("behind trusted hops: the rightmost X-Forwarded-For address that is not a hop; an untrusted peer's header is ignored", async () => {
    const s = setup({ allowIps: ['203.0.113.0/24'], trustedProxies: ['10.0.0.0/8'] });
    const xff = (value: string) => ({ 'x-forwarded-for': value });
    expect(
      await deliver(s, 'https://shop.example/w', { remoteAddress: '10.0.0.1', headers: xff('203.0.113.9, 10.0.0.5') }),
    ).toBe(200);
    expect(
      await deliver(s, 'https://shop.example/w', {
        remoteAddress: '10.0.0.1',
        headers: xff('203.0.113.9, 198.51.100.7'),
      }),
    ).toBe(403);
    expect(
      await deliver(s, 'https://shop.example/w', { remoteAddress: '198.51.100.7', headers: xff('203.0.113.9') }),
    ).toBe(403);
    expect(await deliver(s, 'https://shop.example/w', { remoteAddress: '10.0.0.1', headers: xff('garbage') })).toBe(
      403,
    );
  });

  it('the web-standard handler without { remoteAddress }: 500 and a ConfigurationError', async () => {
    const s = setup({ allowIps: ['203.0.113.0/24'] });
    expect(await deliver(s, 'https://shop.example/w')).toBe(500);
    expect(s.errors[0]?.error).toMatchObject({ name: 'ConfigurationError', option: 'authenticate.allowIps' });
  });

  it('every configured check must pass', async () => {
    const s = setup({ allowIps: ['203.0.113.0/24'], secret: SECRET });
    const url = `${webhookUrl('https://shop.example/w', SECRET)}/instant`;
    expect(await deliver(s, url, { remoteAddress: '198.51.100.7' })).toBe(403);
    expect(await deliver(s, 'https://shop.example/w/instant', { remoteAddress: '203.0.113.1' })).toBe(401);
    expect(await deliver(s, url, { remoteAddress: '203.0.113.1' })).toBe(200);
  });
});

describe('every handler takes authenticate', () => {
  const fail = () => {
    throw new Error('the service must not be called');
  };
  const built: Array<[string, (ran: () => void) => NotificationHandler]> = [
    [
      'received payments',
      (ran) =>
        receivedPaymentsHandler({ instant: { get: fail } }, { authenticate: { secret: SECRET }, onPayment: ran }),
    ],
    [
      'recurring',
      (ran) =>
        recurringHandler(
          { rec: { get: fail }, cobr: { get: fail } },
          { authenticate: { secret: SECRET }, onRec: ran, onCobr: ran },
        ),
    ],
    [
      'transfer confirmations',
      (ran) =>
        createTransferNotificationHandler({ payments: { getByIdempotencyKey: fail } } as never, {
          authenticate: { secret: SECRET },
          onConfirmed: ran,
          onSuspicious: ran,
        }),
    ],
  ];
  it.each(built)('%s: no secret 401, a wrong one 403, nothing read, asked or called', async (_name, make) => {
    let ran = 0;
    const handler = make(() => void ran++);
    for (const [url, status] of [
      ['https://shop.example/w/x', 401],
      [`${webhookUrl('https://shop.example/w', `${SECRET}!`)}/x`, 403],
    ] as const) {
      const { body, pulled } = watchedBody('{}');
      const response = await handler(new Request(url, { method: 'POST', body, duplex: 'half' } as RequestInit));
      expect(response.status).toBe(status);
      expect(pulled()).toBe(false);
    }
    expect(ran).toBe(0);
  });
});
