import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ClientCredentialsProvider,
  parseTokenAnswer,
  type ClientCredentialsOptions,
  type SecretClientCredentials,
} from '../../src/core/auth.ts';
import { AuthenticationError } from '../../src/errors/failures.ts';
import { UnauthorizedError } from '../../src/errors/api-error.ts';
import { InstantClient } from '../../src/client.ts';
import { HttpCore } from '../../src/core/http.ts';
import { path } from '../../src/core/path.ts';
import { sendJson, startServer, type LoopbackServer, type RecordedRequest } from '../support/loopback.ts';

const SECRET = 'client-secret-do-not-leak';
let servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A token endpoint plus a tiny API that accepts only the tokens it issued (and not revoked). */
async function startService(
  options: {
    format?: 'form' | 'json';
    answer?: (n: number, req: RecordedRequest) => [number, unknown];
    revokeFirst?: boolean;
    slowTokenMs?: number;
  } = {},
) {
  let issued = 0;
  const valid = new Set<string>();
  const server = await startServer(async (req, res) => {
    if (req.url === '/oauth/token') {
      issued++;
      if (options.slowTokenMs) await new Promise((r) => setTimeout(r, options.slowTokenMs));
      const [status, body] = options.answer?.(issued, req) ?? [
        200,
        { access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: 300 },
      ];
      const value =
        (body as Record<string, unknown> | null)?.['access_token'] ??
        (body as Record<string, unknown> | null)?.['accessToken'];
      if (typeof value === 'string') valid.add(value);
      return sendJson(res, status, body);
    }
    const token = req.headers.authorization?.replace('Bearer ', '') ?? '';
    if (options.revokeFirst && token === 'tok-1') return sendJson(res, 401, undefined);
    if (!valid.has(token)) return sendJson(res, 401, undefined);
    return sendJson(res, 200, { ok: true, token });
  });
  servers.push(server);
  const tokenRequests = () => server.requests.filter((r) => r.url === '/oauth/token');
  return { server, tokenRequests };
}

function clientFor(url: string, extra: Partial<SecretClientCredentials> = {}, options?: ClientCredentialsOptions) {
  const auth = new ClientCredentialsProvider(
    {
      tokenUrl: `${url}/oauth/token`,
      clientId: 'merchant-1',
      clientSecret: SECRET,
      scope: 'cob.read cob.write',
      ...extra,
    },
    options,
  );
  return { auth, http: new HttpCore({ baseUrl: url, auth }) };
}

describe('client credentials through openid-client (form body)', () => {
  it('the lifetime is expires_in as answered, however long the answer took to read', async () => {
    const { server } = await startService();
    const { auth } = clientFor(server.url);
    // Every clock reading a millisecond later than the one before, as on a busy machine.
    const now = Date.now.bind(Date);
    let drift = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now() + ++drift);
    try {
      const started = now();
      const info = await auth.getTokenInfo();
      expect(info.expiresAt - started).toBeGreaterThanOrEqual(300_000);
    } finally {
      clock.mockRestore();
    }
  });

  it('sends the standard form request and caches the token', async () => {
    const { server, tokenRequests } = await startService();
    const { http } = clientFor(server.url);
    await http.json({ method: 'GET', path: path`/cob` });
    await http.json({ method: 'GET', path: path`/cob` });
    expect(tokenRequests()).toHaveLength(1);
    const [request] = tokenRequests();
    expect(request!.headers['content-type']).toContain('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request!.body);
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_id')).toBe('merchant-1');
    expect(form.get('client_secret')).toBe(SECRET);
    expect(form.get('scope')).toBe('cob.read cob.write');
  });

  it('100 concurrent calls on a cold client make exactly 1 token request', async () => {
    const { server, tokenRequests } = await startService({ slowTokenMs: 50 });
    const { http } = clientFor(server.url);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => http.json<{ token: string }>({ method: 'GET', path: path`/cob` })),
    );
    expect(tokenRequests()).toHaveLength(1);
    expect(new Set(results.map((r) => r.token))).toEqual(new Set(['tok-1']));
  });

  it('fetches a new token when the cached one is about to expire', async () => {
    const { server, tokenRequests } = await startService({
      answer: (n) => [200, { access_token: `tok-${n}`, token_type: 'Bearer', expires_in: 1 }],
    });
    // The provider's clock, not the machine's, says when the token is about to expire.
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const { auth } = clientFor(server.url, {}, { now: () => new Date(clock) });
    expect(await auth.getToken()).toBe('tok-1');
    expect(await auth.getToken()).toBe('tok-1');
    clock += 1_000;
    expect(await auth.getToken()).toBe('tok-2');
    expect(tokenRequests()).toHaveLength(2);
  });

  it('a 401 from the API gets a fresh token once and the call succeeds', async () => {
    const { server, tokenRequests } = await startService({ revokeFirst: true });
    const { http } = clientFor(server.url);
    const result = await http.json<{ token: string }>({ method: 'GET', path: path`/cob` });
    expect(result.token).toBe('tok-2');
    expect(tokenRequests()).toHaveLength(2);
  });

  it('a second 401 gives UnauthorizedError', async () => {
    const { server } = await startService({
      answer: (n) => [200, { access_token: `never-valid-${n}`, token_type: 'Bearer', expires_in: 300 }],
    });
    const server401 = await startServer((_req, res) => sendJson(res, 401, undefined));
    servers.push(server401);
    const auth = new ClientCredentialsProvider({
      tokenUrl: `${server.url}/oauth/token`,
      clientId: 'c',
      clientSecret: SECRET,
    });
    const http = new HttpCore({ baseUrl: server401.url, auth });
    await expect(http.json({ method: 'GET', path: path`/cob` })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(server401.requests).toHaveLength(2);
  });

  it('token endpoint failures give AuthenticationError without the secret', async () => {
    const { server } = await startService({
      answer: () => [401, { error: 'invalid_client', error_description: `bad secret ${SECRET}` }],
    });
    const { http } = clientFor(server.url);
    const error = await http.json({ method: 'GET', path: path`/cob` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const shown = `${JSON.stringify(error)} ${(error as Error).message} ${inspect(error, { depth: 0 })}`;
    expect(shown).not.toContain(SECRET);
  });

  it('an unreachable token endpoint gives AuthenticationError', async () => {
    const { server } = await startService();
    const url = server.url;
    await server.close();
    servers = [];
    const { auth } = clientFor(url);
    await expect(auth.getToken()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('a caller can abort its wait for the shared token request', async () => {
    const { server, tokenRequests } = await startService({ slowTokenMs: 300 });
    const { auth } = clientFor(server.url);
    const controller = new AbortController();
    const waiting = auth.getToken(controller.signal);
    const other = auth.getToken();
    setTimeout(() => controller.abort(new Error('caller left')), 20);
    await expect(waiting).rejects.toThrow('caller left');
    expect(await other).toBe('tok-1');
    expect(tokenRequests()).toHaveLength(1);
  });

  it('refuses a plain-http token URL that is not loopback', () => {
    expect(
      () =>
        new ClientCredentialsProvider({ tokenUrl: 'http://auth.psp.example/token', clientId: 'c', clientSecret: 's' }),
    ).toThrow(AuthenticationError);
  });
});

describe('JSON token body (the cash-out provider)', () => {
  it('sends snake_case JSON and reads a camelCase 201 answer', async () => {
    const { server, tokenRequests } = await startService({
      answer: (n) => [201, { accessToken: `tok-${n}`, tokenType: 'Bearer', expiresAt: 300, refreshExpiresIn: 0 }],
    });
    const { http } = clientFor(server.url, { tokenRequestFormat: 'json' });
    const result = await http.json<{ token: string }>({ method: 'GET', path: path`/x` });
    expect(result.token).toBe('tok-1');
    const [request] = tokenRequests();
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'merchant-1',
      client_secret: SECRET,
      scope: 'cob.read cob.write',
    });
  });

  it('reads a snake_case 200 answer', async () => {
    const { server } = await startService({
      answer: (n) => [200, { access_token: `tok-${n}`, expires_in: 300, refresh_expires_in: 0, token_type: 'Bearer' }],
    });
    const { auth } = clientFor(server.url, { tokenRequestFormat: 'json' });
    expect(await auth.getToken()).toBe('tok-1');
  });

  it('a "null" answer (rate limit) and an error answer give AuthenticationError', async () => {
    const nullAnswer = await startService({ answer: () => [201, null] });
    await expect(
      clientFor(nullAnswer.server.url, { tokenRequestFormat: 'json' }).auth.getToken(),
    ).rejects.toBeInstanceOf(AuthenticationError);
    const refused = await startService({
      answer: () => [
        401,
        { type: 'x/AUTH-0001', title: 'Unauthorized', detail: 'nope', instance: '/api/v2/oauth/token' },
      ],
    });
    const error = await clientFor(refused.server.url, { tokenRequestFormat: 'json' })
      .auth.getToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
  });

  it('understands expiresAt as seconds, epoch seconds or epoch milliseconds', () => {
    const now = Date.now();
    expect(parseTokenAnswer({ accessToken: 'a', expiresAt: 120 }, 201).lifetimeS).toBe(120);
    expect(
      parseTokenAnswer({ accessToken: 'a', expiresAt: Math.floor(now / 1000) + 600 }, 201).lifetimeS,
    ).toBeGreaterThan(590);
    expect(parseTokenAnswer({ accessToken: 'a', expiresAt: now + 600_000 }, 201).lifetimeS).toBeGreaterThan(590);
    expect(parseTokenAnswer({ access_token: 'a' }, 200).lifetimeS).toBe(300);
  });
});

describe('on InstantClient', () => {
  it('accepts any { getToken(signal) } provider in place of the built-in one', async () => {
    const api = await startServer((req, res) => sendJson(res, 200, { auth: req.headers.authorization }));
    servers.push(api);
    const client = new InstantClient({ baseUrl: api.url, auth: { getToken: async () => 'custom-token' } });
    expect(await client.http.json({ method: 'GET', path: path`/cob` })).toEqual({ auth: 'Bearer custom-token' });
  });

  it('builds the client-credentials provider from plain credentials and never shows the secret', async () => {
    const { server } = await startService();
    const client = new InstantClient({
      baseUrl: server.url,
      auth: { tokenUrl: `${server.url}/oauth/token`, clientId: 'c', clientSecret: SECRET },
    });
    expect(await client.http.json<{ ok: boolean }>({ method: 'GET', path: path`/cob` })).toMatchObject({ ok: true });
    expect(inspect(client, { depth: 5 })).not.toContain(SECRET);
  });
});

describe('the clock (now)', () => {
  it("a token's lifetime is counted by the client's clock: refreshed once the clock passes its refresh time", async () => {
    const { server, tokenRequests } = await startService({ format: 'json' });
    let ms = Date.parse('2026-11-28T12:00:00Z');
    const provider = new ClientCredentialsProvider(
      {
        tokenUrl: `${server.url}/oauth/token`,
        clientId: 'merchant-1',
        clientSecret: SECRET,
        tokenRequestFormat: 'json',
      },
      { now: () => new Date(ms) },
    );
    expect(await provider.getToken()).toBe('tok-1');
    ms += 200_000; // within the 300 s lifetime, before its refresh margin
    expect(await provider.getToken()).toBe('tok-1');
    ms += 90_000; // 290 s: inside the last 30 s, refreshed
    expect(await provider.getToken()).toBe('tok-2');
    expect(tokenRequests()).toHaveLength(2);
  });
});

describe("the token request's retries", () => {
  const token = { access_token: 'tok-retried', token_type: 'Bearer', expires_in: 300 };

  it.each(['form', 'json'] as const)(
    'a %s grant answered 503 without Retry-After is sent again, up to twice',
    async (tokenRequestFormat) => {
      const { server, tokenRequests } = await startService({
        format: tokenRequestFormat,
        answer: (n) => (n < 3 ? [503, { error: 'temporarily_unavailable' }] : [200, token]),
      });
      const { auth } = clientFor(server.url, { tokenRequestFormat });
      expect(await auth.getToken()).toBe('tok-retried');
      expect(tokenRequests()).toHaveLength(3);
    },
  );

  it('gives up after two retries with the last AuthenticationError', async () => {
    const { server, tokenRequests } = await startService({ answer: () => [502, { error: 'bad_gateway' }] });
    const error = await clientFor(server.url)
      .auth.getToken()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthenticationError', status: 502 });
    expect(tokenRequests()).toHaveLength(3);
  });

  it.each(['form', 'json'] as const)('a %s grant whose connection is cut is sent again', async (tokenRequestFormat) => {
    let requests = 0;
    const server = await startServer((_req, res) => {
      requests++;
      if (requests === 1) {
        res.destroy();
        return;
      }
      sendJson(res, 200, token);
    });
    servers.push(server);
    const { auth } = clientFor(server.url, { tokenRequestFormat });
    expect(await auth.getToken()).toBe('tok-retried');
    expect(requests).toBe(2);
  });

  it.each([400, 401, 429])('a %i is never sent again', async (status) => {
    const { server, tokenRequests } = await startService({ answer: () => [status, { error: 'invalid_client' }] });
    const error = await clientFor(server.url)
      .auth.getToken()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthenticationError', status });
    expect(tokenRequests()).toHaveLength(1);
  });
});

describe('the cached token', () => {
  const at = (url: string, clock: () => number) =>
    new ClientCredentialsProvider(
      { tokenUrl: `${url}/oauth/token`, clientId: 'merchant-1', clientSecret: SECRET },
      { now: () => new Date(clock()) },
    );

  it('is used until its refresh time, not at it (300 s lifetime: refreshed at 270 s)', async () => {
    const { server, tokenRequests } = await startService();
    let ms = Date.parse('2026-11-28T12:00:00Z');
    const provider = at(server.url, () => ms);
    expect(provider.tokenNow()).toBeUndefined();
    expect(await provider.getToken()).toBe('tok-1');
    expect(provider.tokenNow()).toBe('tok-1');
    ms += 269_999;
    expect(provider.tokenNow()).toBe('tok-1');
    expect(await provider.getToken()).toBe('tok-1');
    ms += 1;
    expect(provider.tokenNow()).toBeUndefined();
    expect(await provider.getToken()).toBe('tok-2');
    expect(tokenRequests()).toHaveLength(2);
  });

  it('a 401 drops only the token it refused: a late 401 of an older token keeps the newer one', async () => {
    const { server, tokenRequests } = await startService();
    const provider = at(server.url, () => Date.parse('2026-11-28T12:00:00Z'));
    provider.invalidate('tok-0'); // nothing cached yet: nothing to drop
    expect(await provider.getToken()).toBe('tok-1');
    provider.invalidate('tok-0');
    expect(provider.tokenNow()).toBe('tok-1');
    provider.invalidate('tok-1');
    expect(provider.tokenNow()).toBeUndefined();
    expect(await provider.getToken()).toBe('tok-2');
    provider.invalidate();
    expect(provider.tokenNow()).toBeUndefined();
    expect(await provider.getToken()).toBe('tok-3');
    expect(tokenRequests()).toHaveLength(3);
  });
});
