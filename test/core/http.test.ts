import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpCore, type HttpCoreConfig } from '../../src/core/http.ts';
import type { TokenProvider } from '../../src/core/types.ts';
import { path, PathParameterError } from '../../src/core/path.ts';
import { ConnectionError, TimeoutError } from '../../src/errors/failures.ts';
import { ServicoIndisponivel } from '../../src/errors/catalogue.ts';
import { InstantError } from '../../src/errors/base.ts';
import { UnauthorizedError } from '../../src/errors/api-error.ts';
import { rejection } from '../support/settles.ts';

const BASE = 'https://api.psp.example/v2';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const token: TokenProvider = { getToken: async () => 'tok-secret-123' };

function core(config: Partial<HttpCoreConfig> = {}): HttpCore {
  // Short backoff so retries run quickly; jitter keeps it at most this.
  return new HttpCore({ baseUrl: BASE, auth: token, ...config });
}

/** Answers with `statuses` in turn (then 200), recording each request. */
function sequence(
  method: 'get' | 'put' | 'post' | 'patch' | 'delete',
  route: string,
  statuses: number[],
  headers: Record<string, string> = {},
) {
  const seen: Request[] = [];
  server.use(
    http[method](`${BASE}${route}`, ({ request }) => {
      seen.push(request.clone());
      const status = statuses[seen.length - 1];
      if (status === undefined) return HttpResponse.json({ ok: true, n: seen.length });
      if (status === 0) return HttpResponse.error();
      return new HttpResponse(null, { status, headers });
    }),
  );
  return seen;
}

describe('retries', () => {
  it('retries GET, PUT and DELETE on 503 and succeeds', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const seen = sequence(method.toLowerCase() as 'get', '/cob/x', [503, 502]);
      const data = await core().json<{ n: number }>({ method, path: path`/cob/x` });
      expect(data.n).toBe(3);
      expect(seen).toHaveLength(3);
    }
  });

  it('retries 408, 429, 500 and 504 too, but not 400', async () => {
    for (const status of [408, 429, 500, 504]) {
      const seen = sequence('get', '/cob', [status]);
      await core().json({ method: 'GET', path: path`/cob` });
      expect(seen).toHaveLength(2);
    }
    const seen = sequence('get', '/cob', [400]);
    await expect(core().json({ method: 'GET', path: path`/cob` })).rejects.toMatchObject({ status: 400 });
    expect(seen).toHaveLength(1);
  });

  it('never retries a POST without an idempotency key, nor a PATCH', async () => {
    const posts = sequence('post', '/cob', [503]);
    await expect(core().json({ method: 'POST', path: path`/cob`, body: {} })).rejects.toBeInstanceOf(
      ServicoIndisponivel,
    );
    expect(posts).toHaveLength(1);
    const patches = sequence('patch', '/cob/x', [503]);
    await expect(core().json({ method: 'PATCH', path: path`/cob/x`, body: {} })).rejects.toBeInstanceOf(
      ServicoIndisponivel,
    );
    expect(patches).toHaveLength(1);
  });

  it('does not retry a POST after a network error', async () => {
    const posts = sequence('post', '/cob', [0]);
    await expect(core().json({ method: 'POST', path: path`/cob`, body: {} })).rejects.toBeInstanceOf(ConnectionError);
    expect(posts).toHaveLength(1);
  });

  it('retries a GET after a network error', async () => {
    const seen = sequence('get', '/cob', [0]);
    await core().json({ method: 'GET', path: path`/cob` });
    expect(seen).toHaveLength(2);
  });

  it('retries a POST that carries an idempotency key, with the same key', async () => {
    const seen = sequence('post', '/api/v2/instant/payments/dict', [503, 0]);
    const idempotencyKey = { header: 'x-idempotency-key', value: 'key123' };
    await core().json({ method: 'POST', path: path`/api/v2/instant/payments/dict`, body: { a: 1 }, idempotencyKey });
    expect(seen).toHaveLength(3);
    expect(seen.map((r) => r.headers.get('x-idempotency-key'))).toEqual(['key123', 'key123', 'key123']);
    for (const request of seen) expect(await request.json()).toEqual({ a: 1 });
  });

  it("a client's maxRetries holds for a call that logs its retries (the per-call policy leaves the limit alone)", async () => {
    const seen = sequence('get', '/cob', [503, 503, 503, 503, 503, 503]);
    const warn = vi.fn();
    await expect(
      core({ maxRetries: 3, logger: { warn } }).json({ method: 'GET', path: path`/cob` }),
    ).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(seen).toHaveLength(4);
    expect(warn.mock.calls.filter(([message]) => message === 'retry')).toHaveLength(3);
  });

  it('stops after maxRetries and throws the last error', async () => {
    const seen = sequence('get', '/cob', [503, 503, 503, 503]);
    await expect(core({ maxRetries: 1 }).json({ method: 'GET', path: path`/cob` })).rejects.toBeInstanceOf(
      ServicoIndisponivel,
    );
    expect(seen).toHaveLength(2);
    const perCall = sequence('get', '/cob', [503, 503, 503]);
    await expect(core().json({ method: 'GET', path: path`/cob`, options: { maxRetries: 0 } })).rejects.toBeInstanceOf(
      ServicoIndisponivel,
    );
    expect(perCall).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  async function gapAfter(headers: Record<string, string>, config: Partial<HttpCoreConfig> = {}): Promise<number> {
    const times: number[] = [];
    server.use(
      http.get(`${BASE}/cob`, () => {
        times.push(Date.now());
        return times.length === 1 ? new HttpResponse(null, { status: 503, headers }) : HttpResponse.json({});
      }),
    );
    await core(config).json({ method: 'GET', path: path`/cob` });
    return times[1]! - times[0]!;
  }

  it('honours Retry-After in seconds', async () => {
    expect(await gapAfter({ 'retry-after': '1' })).toBeGreaterThanOrEqual(950);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    const at = new Date(Date.now() + 2000).toUTCString();
    // HTTP-dates have one-second resolution: the wait is between 1 and 2 seconds.
    expect(await gapAfter({ 'retry-after': at })).toBeGreaterThanOrEqual(900);
  });

  it('caps a long Retry-After', async () => {
    // Cut to 200 ms; uncut, an hour: the bound leaves a loaded machine room and tells them apart.
    expect(await gapAfter({ 'retry-after': '3600' }, { maxRetryAfter: 200 })).toBeLessThan(10_000);
  });
});

/** A handler that never answers: it lets go only once the client gave the request up. */
const untilAborted = ({ request }: { request: Request }) =>
  new Promise<Response>((resolve) =>
    request.signal.addEventListener('abort', () => resolve(HttpResponse.json({ late: true }))),
  );

describe('timeouts and abort', () => {
  it('gives TimeoutError when an attempt takes too long', async () => {
    // Never answered: only the attempt's timeout can end the call (its total budget is minutes away).
    server.use(http.get(`${BASE}/cob`, untilAborted));
    const call = core({ timeout: 100, maxRetries: 0 }).json({ method: 'GET', path: path`/cob` });
    expect(await rejection(call, 'a call never answered')).toBeInstanceOf(TimeoutError);
  });

  it("a time-out is the SDK's TimeoutError, never ky's class of the same name", async () => {
    const { TimeoutError: KyTimeoutError } = await import('ky');
    server.use(
      http.get(`${BASE}/cob`, async () => {
        await delay(2_000);
        return HttpResponse.json({});
      }),
    );
    const error = await core({ timeout: 50, maxRetries: 0 })
      .json({ method: 'GET', path: path`/cob` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(InstantError);
    expect(error).not.toBeInstanceOf(KyTimeoutError);
    expect(error).not.toBeInstanceOf(DOMException);
  });

  it('gives TimeoutError when the overall budget runs out across retries', async () => {
    const seen = sequence('get', '/cob', [503, 503, 503], { 'retry-after': '1' });
    await expect(core({ totalTimeout: 300 }).json({ method: 'GET', path: path`/cob` })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(seen).toHaveLength(1);
  });

  it("an abort stops a pending retry and rejects with the caller's reason", async () => {
    const controller = new AbortController();
    const seen: Request[] = [];
    // The retry waits a minute (Retry-After); the caller gives up once the first attempt is answered.
    server.use(
      http.get(`${BASE}/cob`, ({ request }) => {
        seen.push(request);
        setImmediate(() => controller.abort(new Error('user gave up')));
        return new HttpResponse(null, { status: 503, headers: { 'retry-after': '60' } });
      }),
    );
    const call = core().json({ method: 'GET', path: path`/cob`, options: { signal: controller.signal } });
    expect(await rejection(call, 'a call aborted while its retry waits')).toMatchObject({ message: 'user gave up' });
    expect(seen).toHaveLength(1);
  });

  it('an abort also stops a pending token request', async () => {
    let tokenCalls = 0;
    const slowToken: TokenProvider = {
      getToken: (signal) => {
        tokenCalls++;
        return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
      },
    };
    const seen = sequence('get', '/cob', []);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(
      core({ auth: slowToken }).json({ method: 'GET', path: path`/cob`, options: { signal: controller.signal } }),
    ).rejects.toThrow('stop');
    expect(tokenCalls).toBe(1);
    expect(seen).toHaveLength(0);
  });
});

describe('authorization', () => {
  it('a token that never comes is cut by totalTimeout, and what is left of the budget bounds the call', async () => {
    const hanging: TokenProvider = { getToken: () => new Promise(() => {}) };
    const seen = sequence('get', '/cob', []);
    const cut = core({ auth: hanging, totalTimeout: 150 }).json({ method: 'GET', path: path`/cob` });
    expect(await rejection(cut, 'a call whose token never comes')).toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(0);

    // A provider whose wait comes before the first attempt (`tokenNow`, as the built-in ones): its
    // token takes 290 ms of the call's 300 by the client's clock (the clock moves, not the
    // machine's time); the answer comes 200 ms after the request. What is left (10 ms) ends the
    // call first; a fresh budget after the token (300 ms) would take the answer.
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const slow: TokenProvider = {
      tokenNow: () => undefined,
      getToken: async () => {
        clock += 290;
        return 'late';
      },
    };
    server.use(
      http.get(`${BASE}/cob`, async () => {
        await delay(200);
        return HttpResponse.json({});
      }),
    );
    const late = core({ auth: slow, totalTimeout: 300, maxRetries: 0, now: () => new Date(clock) }).json({
      method: 'GET',
      path: path`/cob`,
    });
    expect(await rejection(late, 'a call after a slow token')).toBeInstanceOf(TimeoutError);
  });

  it('the token wait is part of each attempt: a token slower than timeout fails the attempt, and a safe call is retried', async () => {
    let asked = 0;
    // The first wait outlasts the 100 ms attempt; the retry's token comes at once.
    const slowFirst: TokenProvider = {
      getToken: () => new Promise((resolve) => setTimeout(() => resolve('tok'), ++asked === 1 ? 400 : 0)),
    };
    const seen = sequence('get', '/cob', []);
    const started = Date.now();
    await expect(
      core({ auth: slowFirst, timeout: 100, maxRetries: 0 }).json({ method: 'GET', path: path`/cob` }),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(350);
    expect(seen).toHaveLength(0);

    asked = 0;
    await expect(
      core({ auth: slowFirst, timeout: 100, maxRetries: 1 }).json({ method: 'GET', path: path`/cob` }),
    ).resolves.toEqual({ ok: true, n: 1 });
    expect(asked).toBe(2);
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer tok']);
  });

  it('sends the bearer token on every attempt', async () => {
    const seen = sequence('get', '/cob', [503]);
    await core().json({ method: 'GET', path: path`/cob` });
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer tok-secret-123', 'Bearer tok-secret-123']);
  });

  it('on 401 invalidates the token, fetches a new one once and replays once', async () => {
    let issued = 0;
    const invalidated: Array<string | undefined> = [];
    const provider: TokenProvider = {
      getToken: async () => `tok-${++issued}`,
      invalidate: (rejected) => invalidated.push(rejected),
    };
    const seen: string[] = [];
    server.use(
      http.post(`${BASE}/cob`, ({ request }) => {
        seen.push(request.headers.get('authorization') ?? '');
        return seen.length === 1
          ? new HttpResponse(null, { status: 401 })
          : HttpResponse.json({ txid: 'a' }, { status: 201 });
      }),
    );
    const data = await core({ auth: provider }).json({ method: 'POST', path: path`/cob`, body: {} });
    expect(data).toEqual({ txid: 'a' });
    expect(seen).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(invalidated).toEqual(['tok-1']);
  });

  it('a second 401 gives UnauthorizedError', async () => {
    const seen = sequence('get', '/cob', [401, 401, 401]);
    const provider: TokenProvider = { getToken: async () => 't', invalidate: () => {} };
    await expect(core({ auth: provider }).json({ method: 'GET', path: path`/cob` })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(seen).toHaveLength(2);
  });
});

describe('transport', () => {
  it('looks fetch up at request time, so a mock installed later still sees the call', async () => {
    const client = core();
    const stub = vi.fn(async () => Response.json({ stubbed: true }));
    vi.stubGlobal('fetch', stub);
    try {
      expect(await client.json({ method: 'GET', path: path`/cob` })).toEqual({ stubbed: true });
      expect(stub).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends everything through the fetch option when one is given', async () => {
    const own = vi.fn(async () => Response.json({ own: true }));
    expect(await core({ fetch: own }).json({ method: 'GET', path: path`/cob` })).toEqual({ own: true });
    expect(own).toHaveBeenCalledTimes(1);
  });

  it('percent-encodes keys with +, @ and / as one segment', async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${BASE}/webhook/*`, ({ request }) => {
        urls.push(new URL(request.url).pathname);
        return HttpResponse.json({});
      }),
    );
    for (const key of ['+5561912345678', 'fulano@example.com', 'a/b']) {
      await core().json({ method: 'GET', path: path`/webhook/${key}` });
    }
    expect(urls).toEqual(['/v2/webhook/%2B5561912345678', '/v2/webhook/fulano%40example.com', '/v2/webhook/a%2Fb']);
  });

  it('refuses empty, . and .. segments before sending', () => {
    for (const bad of ['', '.', '..']) expect(() => path`/cob/${bad}`).toThrow(PathParameterError);
    expect(path`/cob/${'abc'}/x`).toEqual({ url: '/cob/abc/x', route: '/cob/{}/x' });
  });

  it('serialises query parameters with their wire names and skips undefined ones', async () => {
    let query = '';
    server.use(
      http.get(`${BASE}/cob`, ({ request }) => {
        query = new URL(request.url).search;
        return HttpResponse.json({});
      }),
    );
    await core().json({
      method: 'GET',
      path: path`/cob`,
      query: { inicio: '2026-01-01T00:00:00Z', cpf: undefined, 'paginacao.paginaAtual': 2 },
    });
    expect(query).toBe('?inicio=2026-01-01T00%3A00%3A00Z&paginacao.paginaAtual=2');
  });

  it('returns undefined for an empty body and text for a non-JSON one', async () => {
    server.use(
      http.put(`${BASE}/lotecobv/1`, () => new HttpResponse(null, { status: 202 })),
      http.get(`${BASE}/jws`, () => new HttpResponse('a.b.c', { headers: { 'content-type': 'application/jose' } })),
    );
    expect(await core().json({ method: 'PUT', path: path`/lotecobv/1`, body: {} })).toBeUndefined();
    expect(await core().json({ method: 'GET', path: path`/jws` })).toBe('a.b.c');
  });
});

describe('what leaves the SDK', () => {
  it('sends accept JSON, its user agent and the bearer token, on every attempt; a call or caller may set its own accept and user agent', async () => {
    const seen = sequence('get', '/cob/*', [503]);
    await core().json({ method: 'GET', path: path`/cob/${'abc'}` });
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request.headers.get('accept')).toBe('application/json');
      expect(request.headers.get('user-agent')).toMatch(/^instant-payments\/\d/);
      expect(request.headers.get('authorization')).toBe('Bearer tok-secret-123');
    }
    const own = sequence('get', '/loc/*', []);
    await core().json({
      method: 'GET',
      path: path`/loc/${'7'}/qrcode`,
      accept: 'image/png',
      options: { headers: { 'user-agent': 'merchant-app/2.1' } },
    });
    expect(own[0]?.headers.get('accept')).toBe('image/png');
    expect(own[0]?.headers.get('user-agent')).toBe('merchant-app/2.1');
  });

  it('logs routes, statuses and timings but no token or parameter value', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (m: string, meta?: object) => lines.push(m + JSON.stringify(meta)),
      warn: (m: string, meta?: object) => lines.push(m + JSON.stringify(meta)),
    };
    sequence('get', '/webhook/*', [503]);
    await core({ logger }).json({ method: 'GET', path: path`/webhook/${'fulano@example.com'}` });
    const text = lines.join('\n');
    expect(text).toContain('/webhook/{}');
    expect(text).not.toContain('tok-secret-123');
    expect(text).not.toContain('fulano');
  });

  it('no error carries the token in its message, fields or JSON', async () => {
    const errors: unknown[] = [];
    sequence('get', '/cob', [400]);
    errors.push(
      await core()
        .json({ method: 'GET', path: path`/cob` })
        .catch((e: unknown) => e),
    );
    sequence('get', '/cob', [0, 0, 0]);
    errors.push(
      await core({ maxRetries: 0 })
        .json({ method: 'GET', path: path`/cob` })
        .catch((e: unknown) => e),
    );
    server.use(
      http.get(`${BASE}/slow`, async () => {
        await delay(1_000);
        return HttpResponse.json({});
      }),
    );
    errors.push(
      await core({ timeout: 50, maxRetries: 0 })
        .json({ method: 'GET', path: path`/slow` })
        .catch((e: unknown) => e),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      const shown = `${JSON.stringify(error)} ${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(Object.entries(error as object))}`;
      expect(shown).not.toContain('tok-secret-123');
    }
  });
});

describe('what the log tells an operator', () => {
  const recorder = () => {
    const records: Array<[string, string, unknown]> = [];
    const logger = {
      debug: (m: string, meta?: object) => void records.push(['debug', m, meta]),
      warn: (m: string, meta?: object) => void records.push(['warn', m, meta]),
    };
    return { records, logger };
  };
  const frozen = new Date('2026-11-28T12:00:00Z');

  it('a retry: method, route, its count, the reason and the wait; then the answer: status and time', async () => {
    const { records, logger } = recorder();
    sequence('get', '/cob/*', [500]);
    await core({ logger, now: () => frozen }).json({ method: 'GET', path: path`/cob/${'abc'}` });
    expect(records).toEqual([
      ['warn', 'retry', { method: 'GET', route: '/cob/{}', retry: 1, reason: 'HTTP 500', waitedMs: 0 }],
      ['debug', 'request', { method: 'GET', route: '/cob/{}', status: 200, ms: 0 }],
    ]);
  });

  it('a 401 replayed: the token dropped is said once, with method and route', async () => {
    const { records, logger } = recorder();
    sequence('get', '/cob/*', [401]);
    const auth: TokenProvider = { getToken: async () => 'tok', invalidate: () => undefined };
    await core({ logger, auth, now: () => frozen }).json({ method: 'GET', path: path`/cob/${'abc'}` });
    expect(records.filter(([level]) => level === 'warn')).toEqual([
      ['warn', '401: token dropped, replaying once', { method: 'GET', route: '/cob/{}' }],
    ]);
  });

  it('a logger without warn: a 401 is still replayed', async () => {
    const lines: string[] = [];
    sequence('get', '/cob', [401]);
    const auth: TokenProvider = { getToken: async () => 'tok', invalidate: () => undefined };
    const logger = { debug: (m: string) => void lines.push(m) };
    await expect(core({ logger, auth }).json({ method: 'GET', path: path`/cob` })).resolves.toBeDefined();
    expect(lines).toEqual(['request', 'request']); // the 401, then the replay's answer
  });
});

describe('a core without a token provider', () => {
  it('sends the call; a 401 is UnauthorizedError, with nothing to replay', async () => {
    const seen = sequence('get', '/cob', [401]);
    const bare = new HttpCore({ baseUrl: BASE });
    await expect(bare.json({ method: 'GET', path: path`/cob` })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(seen).toHaveLength(1);
    await expect(bare.json({ method: 'GET', path: path`/cob` })).resolves.toMatchObject({ ok: true });
  });
});
