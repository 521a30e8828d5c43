/**
 * The shared token's failure handling, in one process over an in-memory store with a sealer
 * (several providers stand for several processes): a failed refresh keeps the still-valid token
 * in use, failures are paused between (and `Retry-After` honoured), a recovered endpoint is used
 * again after the pause, a stalled store fails a call in time without wedging the provider.
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, createMemoryStore, createSealer, StoreError, type Store } from '../../src/index.ts';
import { ClientCredentialsProvider, type TokenInfo } from '../../src/core/auth.ts';
import { sendJson, startServer } from '../support/loopback.ts';
import { rejection } from '../support/settles.ts';
import { SharedTokenProvider, type TokenSource } from '../../src/composition/shared-token.ts';

const sealed = (): Store => Object.assign(createMemoryStore(), { sealer: createSealer(new Uint8Array(32).fill(4)) });

/** A token endpoint: answers tokens of `lifetimeMs` (refreshed 20% early), or fails while `failing` says so. */
function endpoint(lifetimeMs: number) {
  const state = {
    requests: [] as number[],
    failing: undefined as AuthenticationError | undefined,
    issued: 0,
    source(): TokenSource {
      return {
        getTokenInfo: async (): Promise<TokenInfo> => {
          state.requests.push(Date.now());
          if (state.failing) throw state.failing;
          const now = Date.now();
          return { value: `token-${++state.issued}`, refreshAt: now + lifetimeMs * 0.8, expiresAt: now + lifetimeMs };
        },
        invalidate: () => undefined,
      };
    },
  };
  return state;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shared token under a failing endpoint', () => {
  it('a failed refresh keeps the still-valid token in use; the endpoint is asked again only after the pause', async () => {
    const store = sealed();
    // Refresh due at 1.6 s, expiry at 2 s: the 150 ms below end well before it, even on a loaded machine.
    const tokens = endpoint(2_000);
    const a = new SharedTokenProvider(tokens.source(), store, { identity: ['refresh'], pollMs: 20 });
    const b = new SharedTokenProvider(tokens.source(), store, { identity: ['refresh'], pollMs: 20 });
    expect(await a.getToken()).toBe('token-1');
    tokens.failing = new AuthenticationError('Token endpoint answered 503', { status: 503 });
    await pause(1_620);
    // Refresh due, the endpoint failing: both processes keep serving the valid token.
    const seen = new Set<string>();
    const until = Date.now() + 150;
    while (Date.now() < until) {
      seen.add(await a.getToken());
      seen.add(await b.getToken());
      await pause(5);
    }
    expect([...seen]).toEqual(['token-1']);
    expect(tokens.requests).toHaveLength(2);
  });

  it('failures pause token requests (Retry-After honoured); a recovered endpoint is used after the pause', async () => {
    const store = sealed();
    const tokens = endpoint(60_000);
    tokens.failing = new AuthenticationError('Token endpoint answered 429', { status: 429, retryAfterMs: 300 });
    const fleet = Array.from(
      { length: 3 },
      () => new SharedTokenProvider(tokens.source(), store, { identity: ['pause'], pollMs: 20 }),
    );
    const failures: unknown[] = [];
    const until = Date.now() + 250;
    while (Date.now() < until) {
      for (const provider of fleet) await provider.getToken().catch((error: unknown) => failures.push(error));
      await pause(10);
    }
    expect(failures.length).toBeGreaterThan(20);
    expect(failures.every((e) => e instanceof AuthenticationError)).toBe(true);
    // The pause is the longer of the first back-off (1 s) and Retry-After (300 ms): one request.
    expect(tokens.requests).toHaveLength(1);
    tokens.failing = undefined;
    await pause(1_100);
    expect(await fleet[1]!.getToken()).toBe('token-1');
    expect(await fleet[2]!.getToken()).toBe('token-1');
    expect(tokens.requests).toHaveLength(2);
    // Back to normal: the failure count is gone, so a new failure pauses from 1 s again.
    expect((await store.list('token:')).map((e) => e.key.split(':')[2] ?? 'fresh').sort()).toEqual(['fresh', 'valid']);
  });

  it('Retry-After longer than the back-off is waited out fleet-wide, on the store clock', async () => {
    const store = sealed();
    const tokens = endpoint(60_000);
    tokens.failing = new AuthenticationError('Token endpoint answered 503', { status: 503, retryAfterMs: 1_500 });
    const a = new SharedTokenProvider(tokens.source(), store, { identity: ['retry-after'], pollMs: 20 });
    const b = new SharedTokenProvider(tokens.source(), store, { identity: ['retry-after'], pollMs: 20 });
    await expect(a.getToken()).rejects.toBeInstanceOf(AuthenticationError);
    tokens.failing = undefined;
    await pause(1_100);
    // Past the 1 s back-off, inside Retry-After: nobody asks.
    await expect(b.getToken()).rejects.toMatchObject({ name: 'AuthenticationError', status: 503 });
    expect(tokens.requests).toHaveLength(1);
    await pause(500);
    expect(await b.getToken()).toBe('token-1');
  });

  it('a stalled store fails the call within the token request time limit, and the next call works', async () => {
    const store = sealed();
    let stalled = true;
    const flaky: Store = {
      lease: (name, owner, ttl) => store.lease(name, owner, ttl),
      unlease: (name, owner) => store.unlease(name, owner),
      get: (key) => (stalled ? new Promise<string | undefined>(() => undefined) : store.get(key)),
      set: (key, value, ttl) => store.set(key, value, ttl),
      delete: (key, ifValue) => store.delete(key, ifValue),
      list: (prefix) => store.list(prefix),
      sealer: store.sealer,
    };
    const tokens = endpoint(60_000);
    const provider = new SharedTokenProvider(tokens.source(), flaky, { identity: ['stall'], requestTimeoutMs: 200 });
    // The read never answers: only the provider's time limit can end the wait.
    expect(await rejection(provider.getToken(), 'a token read from a stalled store')).toBeInstanceOf(StoreError);
    stalled = false;
    expect(await provider.getToken()).toBe('token-1');
  });
});

describe("the token endpoint's Retry-After", () => {
  it('is carried by the AuthenticationError of both request formats (form and JSON)', async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 503, { error: 'temporarily_unavailable' }, { 'retry-after': '7' }),
    );
    try {
      for (const tokenRequestFormat of ['form', 'json'] as const) {
        const provider = new ClientCredentialsProvider({
          tokenUrl: `${server.url}/token`,
          clientId: 'client',
          clientSecret: 'secret-value',
          tokenRequestFormat,
        });
        await expect(provider.getToken()).rejects.toMatchObject({
          name: 'AuthenticationError',
          status: 503,
          retryAfterMs: 7_000,
        });
      }
    } finally {
      await server.close();
    }
  });
});
