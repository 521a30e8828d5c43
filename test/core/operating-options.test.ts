/**
 * The options real services need: `defaultHeaders`, `defaultQuery`, `baseUrls` and certificate-only
 * login (`tls_client_auth`), on a recording loopback server; and every misconfiguration of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CashOutClient, ConfigurationError, InstantClient, type InstantClientOptions } from '../../src/index.ts';
import { sendJson, startServer, type LoopbackServer, type RecordedRequest } from '../support/loopback.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const PERIOD = { inicio: '2026-01-01T00:00:00Z', fim: '2026-01-31T00:00:00Z' };

/** A service with `/v2` and `/v3` roots: answers a token, a charge, a recurrence and a two-page list of recurrences. */
async function service(options: { refuseFirstRec?: boolean } = {}) {
  let tokens = 0;
  let refused = false;
  const server = await startServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/oauth/token')
      return sendJson(res, 200, { access_token: `tok-${++tokens}`, token_type: 'Bearer', expires_in: 300 });
    if (options.refuseFirstRec && !refused && url.pathname.startsWith('/v3/rec/')) {
      refused = true;
      return sendJson(res, 401, undefined);
    }
    if (url.pathname === '/v3/rec') {
      const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
      return sendJson(res, 200, {
        parametros: {
          ...PERIOD,
          paginacao: { paginaAtual: page, itensPorPagina: 1, quantidadeDePaginas: 2, quantidadeTotalDeItens: 2 },
        },
        recs: [{ idRec: `RR1234567820260101abcdefghij${page}`, status: 'CRIADA' }],
      });
    }
    if (url.pathname.startsWith('/v3/rec/')) return sendJson(res, 200, { idRec: 'x', status: 'CRIADA' });
    if (url.pathname.startsWith('/v2/cob/')) return sendJson(res, 200, { txid: 'x', status: 'ATIVA' });
    if (url.pathname === '/api/v2/oauth/token')
      return sendJson(res, 200, { accessToken: 'cash-tok', expiresAt: Date.now() / 1000 + 300 });
    if (url.pathname === '/api/v2/accounts/balances/') return sendJson(res, 200, { available: 1, blocked: 0 });
    return sendJson(res, 404, { title: 'not here' });
  });
  servers.push(server);
  return server;
}

function client(server: LoopbackServer, extra: Partial<InstantClientOptions> = {}): InstantClient {
  return new InstantClient({
    baseUrl: `${server.url}/v2`,
    auth: { tokenUrl: `${server.url}/oauth/token`, clientId: 'app', clientSecret: 's3cret' },
    maxRetries: 0,
    ...extra,
  });
}

const apiCalls = (server: LoopbackServer): RecordedRequest[] => server.requests.filter((r) => !r.url.includes('oauth'));
const tokenCalls = (server: LoopbackServer): RecordedRequest[] =>
  server.requests.filter((r) => r.url.includes('oauth'));

describe('defaultHeaders and defaultQuery', () => {
  it('sends them with every API call, pages included, and not with the token request', async () => {
    const server = await service();
    const api = client(server, {
      defaultHeaders: { 'x-application-key': 'app-key-1' },
      defaultQuery: { 'gw-app-key': 'k1' },
      baseUrls: { rec: `${server.url}/v3` },
    });
    await api.cob.get('abcdefghijklmnopqrstuvwxyz1');
    const all = [];
    for await (const rec of api.rec.list(PERIOD)) all.push(rec);
    expect(all).toHaveLength(2);
    const calls = apiCalls(server);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.headers['x-application-key']).toBe('app-key-1');
      expect(new URL(call.url, 'http://x').searchParams.get('gw-app-key')).toBe('k1');
    }
    // Merged with the list's own query, never replacing it.
    const second = new URL(calls[2]!.url, 'http://x').searchParams;
    expect(second.get('inicio')).toBe(PERIOD.inicio);
    expect(second.get('paginacao.paginaAtual')).toBe('1');
    const token = tokenCalls(server);
    expect(token).toHaveLength(1);
    expect(token[0]!.headers['x-application-key']).toBeUndefined();
    expect(token[0]!.url).not.toContain('gw-app-key');
  });

  it("lets a call's own header and query value win", async () => {
    const server = await service();
    const api = client(server, {
      defaultHeaders: { 'x-application-key': 'default' },
      defaultQuery: { revisao: 9, extra: true },
    });
    await api.cob.get('abcdefghijklmnopqrstuvwxyz1', { revisao: 2 }, { headers: { 'X-Application-Key': 'mine' } });
    const [call] = apiCalls(server);
    expect(call!.headers['x-application-key']).toBe('mine');
    const query = new URL(call!.url, 'http://x').searchParams;
    expect(query.getAll('revisao')).toEqual(['2']);
    expect(query.get('extra')).toBe('true');
  });

  it('are taken by CashOutClient too', async () => {
    const server = await service();
    const cashOut = new CashOutClient({
      baseUrl: server.url,
      auth: { clientId: 'c', clientSecret: 's' },
      defaultHeaders: { 'x-application-key': 'cash-key' },
      defaultQuery: { tenant: 't1' },
    });
    // The balance answer is not read here: only what was sent matters.
    await cashOut.balance.get().catch(() => undefined);
    const [call] = apiCalls(server);
    expect(call!.headers['x-application-key']).toBe('cash-key');
    expect(call!.url).toContain('tenant=t1');
    expect(tokenCalls(server)[0]!.headers['x-application-key']).toBeUndefined();
  });
});

describe('baseUrls', () => {
  it("sends a tag's calls under its own root; .withResponse() and the 401 replay follow it", async () => {
    const server = await service({ refuseFirstRec: true });
    const api = client(server, { baseUrls: { rec: `${server.url}/v3/` } });
    const { response } = await api.rec.get('RR1234567820260101abcdefghijk').withResponse();
    expect(response.url).toBe(`${server.url}/v3/rec/RR1234567820260101abcdefghijk`);
    await api.cob.get('abcdefghijklmnopqrstuvwxyz1');
    expect(apiCalls(server).map((r) => new URL(r.url, 'http://x').pathname)).toEqual([
      '/v3/rec/RR1234567820260101abcdefghijk',
      '/v3/rec/RR1234567820260101abcdefghijk',
      '/v2/cob/abcdefghijklmnopqrstuvwxyz1',
    ]);
    expect(tokenCalls(server)).toHaveLength(2);
  });
});

describe("clientAuthentication 'tls_client_auth'", () => {
  it('sends the client id and no secret (the certificate authenticates the client)', async () => {
    const server = await service();
    const api = new InstantClient({
      baseUrl: `${server.url}/v2`,
      auth: { tokenUrl: `${server.url}/oauth/token`, clientId: 'cert-app', clientAuthentication: 'tls_client_auth' },
      // The certificate would be in this fetch's agent: loopback HTTP here, the sandbox over TLS in test/sandbox.
      fetch: globalThis.fetch,
    });
    await api.cob.get('abcdefghijklmnopqrstuvwxyz1');
    const [token] = tokenCalls(server);
    const form = new URLSearchParams(token!.body);
    expect(form.get('client_id')).toBe('cert-app');
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.has('client_secret')).toBe(false);
    expect(token!.headers.authorization).toBeUndefined();
  });
});

describe('misconfigurations', () => {
  const base = {
    baseUrl: 'https://api.psp.example/v2',
    auth: { tokenUrl: 'https://auth.psp.example/token', clientId: 'a', clientSecret: 's' },
  };
  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['defaultHeaders not an object', { defaultHeaders: 'x' }, 'defaultHeaders'],
    ['a header value that is not a string', { defaultHeaders: { 'x-key': 1 } }, 'defaultHeaders.x-key'],
    ['a header value with a line break', { defaultHeaders: { 'x-key': 'a\r\nb' } }, 'defaultHeaders.x-key'],
    ['a header name that is not one', { defaultHeaders: { 'bad name': 'v' } }, 'defaultHeaders'],
    ['a header the SDK sets', { defaultHeaders: { Authorization: 'Bearer x' } }, 'defaultHeaders.Authorization'],
    ['defaultQuery not an object', { defaultQuery: ['a'] }, 'defaultQuery'],
    ['a query value that is an object', { defaultQuery: { k: {} } }, 'defaultQuery.k'],
    ['a query value that is NaN', { defaultQuery: { k: Number.NaN } }, 'defaultQuery.k'],
    ['baseUrls not an object', { baseUrls: 'https://x.example' }, 'baseUrls'],
    ['baseUrls naming no tag', { baseUrls: { cobx: 'https://x.example/v3' } }, 'baseUrls.cobx'],
    ['baseUrls with a URL that does not parse', { baseUrls: { rec: 'not a url' } }, 'baseUrls.rec'],
    ['baseUrls with a non-http URL', { baseUrls: { rec: 'ftp://x.example/v3' } }, 'baseUrls.rec'],
    [
      'an unknown clientAuthentication',
      { auth: { ...base.auth, clientAuthentication: 'private_key_jwt' } },
      'auth.clientAuthentication',
    ],
    [
      'tls_client_auth with a secret',
      { auth: { ...base.auth, clientAuthentication: 'tls_client_auth' }, fetch },
      'auth.clientSecret',
    ],
    [
      'tls_client_auth without a certificate',
      { auth: { tokenUrl: base.auth.tokenUrl, clientId: 'a', clientAuthentication: 'tls_client_auth' } },
      'tls',
    ],
    [
      'tls_client_auth without a client id',
      { auth: { tokenUrl: base.auth.tokenUrl, clientAuthentication: 'tls_client_auth' }, fetch },
      'auth.clientId',
    ],
  ];
  it.each(refused)('refuses %s, naming the option', (_what, extra, option) => {
    let error: unknown;
    try {
      new InstantClient({ ...base, ...extra } as unknown as InstantClientOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe(option);
    expect((error as Error).message).not.toContain('Bearer x');
  });

  it('refuses baseUrls on CashOutClient, whose paths are all under baseUrl', () => {
    expect(
      () =>
        new CashOutClient({
          baseUrl: 'https://p.example',
          auth: { clientId: 'c', clientSecret: 's' },
          baseUrls: {},
        } as never),
    ).toThrow(expect.objectContaining({ option: 'baseUrls' }));
  });

  it('refuses a bad defaultHeaders on CashOutClient too', () => {
    expect(
      () =>
        new CashOutClient({
          baseUrl: 'https://p.example',
          auth: { clientId: 'c', clientSecret: 's' },
          defaultHeaders: { h: 2 },
        } as never),
    ).toThrow(expect.objectContaining({ option: 'defaultHeaders.h' }));
  });
});
