/**
 * What a refused delivery tells: the `WebhookAuthenticationError` `onError` gets (check, status,
 * reason) and the operator's log record; the secret's rules (its length, the URL `webhookUrl`
 * makes, the path as a Node request or a framework's relative URL gives it); and which address
 * `allowIps` judges behind trusted hops.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  receivedPaymentsHandler,
  webhookUrl,
  type NotificationHandler,
  type WebhookAuthentication,
} from '../../src/index.ts';
import { countingApi, paymentBody, post, service } from './support.ts';

const SECRET = 'k7Qm2vXw9Lp4Rt8Z';
const FORWARDED: WebhookAuthentication = {
  clientCertificate: { ca: service.ca.cert },
  trustedProxies: ['10.0.0.0/8'],
  forwardedCertificateHeader: 'x-client-cert',
};

interface Told {
  handler: NotificationHandler;
  errors: unknown[];
  logged: Array<[string, string, Record<string, unknown> | undefined]>;
}

function handlerWith(authenticate: WebhookAuthentication): Told {
  const told: Told = { handler: undefined as never, errors: [], logged: [] };
  const record = (level: string) => (message: string, meta?: Record<string, unknown>) =>
    void told.logged.push([level, message, meta]);
  told.handler = receivedPaymentsHandler(countingApi(), {
    authenticate,
    onPayment: () => {},
    onError: (error) => void told.errors.push(error),
    logger: { warn: record('warn'), error: record('error') },
  });
  return told;
}

async function send(
  told: Told,
  url: string,
  remoteAddress?: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const request = new Request(url, { method: 'POST', body: paymentBody(), headers });
  return (await told.handler(request, remoteAddress === undefined ? undefined : { remoteAddress })).status;
}

describe('what a refusal tells', () => {
  it('each check: the error onError gets, and one warning naming its class, never what was presented', async () => {
    const cases: Array<[WebhookAuthentication, string, string | undefined, Record<string, string>, object]> = [
      [
        { secret: SECRET },
        'https://shop.example/w/instant',
        undefined,
        {},
        { check: 'secret', status: 401, reason: 'the URL carries no secret' },
      ],
      [
        { secret: SECRET },
        `${webhookUrl('https://shop.example/w', `${SECRET}x`)}/instant`,
        undefined,
        {},
        { check: 'secret', status: 403, reason: 'the secret in the URL is wrong' },
      ],
      [
        { allowIps: ['203.0.113.0/24'] },
        'https://shop.example/w',
        '198.51.100.7',
        {},
        { check: 'allowIps', status: 403, reason: 'the client address is not in allowIps' },
      ],
      [
        FORWARDED,
        'https://shop.example/w',
        '10.0.0.1',
        {},
        { check: 'clientCertificate', status: 401, reason: 'no client certificate' },
      ],
      [
        FORWARDED,
        'https://shop.example/w',
        '192.0.2.1',
        { 'x-client-cert': 'anything' },
        {
          check: 'clientCertificate',
          status: 403,
          reason: 'a certificate was forwarded by a hop not in trustedProxies',
        },
      ],
    ];
    for (const [authenticate, url, remoteAddress, headers, expected] of cases) {
      const told = handlerWith(authenticate);
      const status = await send(told, url, remoteAddress, headers);
      expect(status).toBe((expected as { status: number }).status);
      expect(told.errors).toEqual([expect.objectContaining({ name: 'WebhookAuthenticationError', ...expected })]);
      expect(told.logged).toEqual([['warn', 'notification refused', { status, error: 'WebhookAuthenticationError' }]]);
    }
  });

  it('allowIps with no connecting address: 500, a ConfigurationError saying what to give, an error record', async () => {
    const told = handlerWith({ allowIps: ['203.0.113.0/24'] });
    expect(await send(told, 'https://shop.example/w')).toBe(500);
    expect(told.errors).toEqual([
      expect.objectContaining({
        name: 'ConfigurationError',
        option: 'authenticate.allowIps',
        message:
          'allowIps needs the connecting address: give the web-standard handler { remoteAddress } as its second argument',
      }),
    ]);
    expect(told.logged).toEqual([['error', 'notification failed', { status: 500, error: 'ConfigurationError' }]]);
  });
});

describe('the secret', () => {
  it('at least 16 characters, a string: refused when the handler is built or the URL made, naming the option', () => {
    expect(() => handlerWith({ secret: SECRET })).not.toThrow();
    for (const secret of [SECRET.slice(1), 1234567890123456 as never]) {
      expect(() => handlerWith({ secret })).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          option: 'authenticate.secret',
          message: 'authenticate.secret must be a string of at least 16 characters',
        }),
      );
    }
    expect(() => webhookUrl('https://shop.example/w', SECRET.slice(1))).toThrow(
      expect.objectContaining({
        name: 'ConfigurationError',
        option: 'secret',
        message: 'secret must be a string of at least 16 characters',
      }),
    );
  });

  it('a secret segment that is not valid percent-encoding is a wrong secret, not an error', async () => {
    const told = handlerWith({ secret: SECRET });
    expect(await send(told, 'https://shop.example/w/whs_%E0%A4%A/instant')).toBe(403);
    expect(await send(told, `https://shop.example/w/whs_%E0%A4%A/whs_${SECRET}/instant`)).toBe(200);
  });

  it('webhookUrl drops every trailing slash of the path before its segment', () => {
    expect(webhookUrl('https://shop.example/webhook//', SECRET)).toBe(`https://shop.example/webhook/whs_${SECRET}`);
  });

  it("a framework's relative request URL: its path is checked, the query left out", async () => {
    const told = handlerWith({ secret: SECRET });
    const relative = (url: string) => {
      const request = new Request(`https://shop.example${url}`, { method: 'POST', body: paymentBody() });
      Object.defineProperty(request, 'url', { value: url });
      return request;
    };
    expect((await told.handler(relative(`/w/whs_${SECRET}/instant?tenant=1`))).status).toBe(200);
    expect((await told.handler(relative('/w/instant?secret=whs_x'))).status).toBe(401);
  });

  describe('on a Node server (handler.node)', () => {
    let server: Server | undefined;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    it('the path of the request, its query left out', async () => {
      const told = handlerWith({ secret: SECRET });
      server = createServer((req, res) => void told.handler.node(req, res));
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await post(`${webhookUrl(`${origin}/w`, SECRET)}/instant?tenant=1`, paymentBody())).toBe(200);
      expect(await post(`${origin}/w/instant?whs_${SECRET}`, paymentBody())).toBe(401);
    });
  });
});

describe('allowIps behind trusted hops', () => {
  const told = handlerWith({ allowIps: ['203.0.113.0/24', '10.0.0.5'], trustedProxies: ['10.0.0.0/8'] });
  const from = (peer: string, forwardedFor?: string) =>
    send(told, 'https://shop.example/w', peer, forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });

  it('no X-Forwarded-For: the hop itself is the client', async () => {
    expect(await from('10.0.0.5')).toBe(200);
    expect(await from('10.0.0.6')).toBe(403);
  });

  it('every forwarded address a hop: the first one is the client', async () => {
    expect(await from('10.0.0.1', '10.0.0.5, 10.0.0.9')).toBe(200);
    expect(await from('10.0.0.5', '10.0.0.9, 10.0.0.5')).toBe(403);
  });

  it('empty entries are skipped; an entry that is no address refuses', async () => {
    expect(await from('10.0.0.1', '203.0.113.9, ')).toBe(200);
    expect(await from('10.0.0.1', '203.0.113.9,,10.0.0.7,')).toBe(200);
    expect(await from('10.0.0.1', '203.0.113.9, , 10.0.0.7')).toBe(200);
    expect(await from('10.0.0.1', '203.0.113.9, nowhere, 10.0.0.7')).toBe(403);
  });
});
