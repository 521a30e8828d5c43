/**
 * msw for HTTP-level tests: one server per test file that treats an unhandled request as an
 * error, and records every request that left the client (handled or not), so a test can
 * assert that a client-side refusal sent nothing.
 *
 *   const net = useMsw();
 *   net.server.use(http.get(`${BASE_URL}/cob/:txid`, () => HttpResponse.json(cob)));
 *   expect(net.requests).toHaveLength(0);
 */
import { HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { InstantClient, type ApiError, type InstantClientOptions } from '../../src/index.ts';

/** The API base URL every test client uses (a neutral, non-resolvable host). */
export const BASE_URL = 'https://api.psp.example/v2';

export interface MswHarness {
  readonly server: SetupServer;
  /** Every request that left a client since the current test started, in order. */
  readonly requests: Request[];
}

/** Starts an msw server for the calling test file; requests are reset after each test. */
export function useMsw(): MswHarness {
  const server = setupServer();
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    // A copy, so a test can read the body the handler consumes.
    requests.push(request.clone());
  });
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return { server, requests };
}

/** An `InstantClient` on `BASE_URL` with a fixed token; `options` adds to or overrides that. */
export function testClient(options: Partial<InstantClientOptions> = {}): InstantClient {
  return new InstantClient({ baseUrl: BASE_URL, auth: { getToken: async () => 'test-token' }, ...options });
}

/** A problem+json answer, as the service sends its errors. */
export function problem(body: Record<string, unknown>, status = Number(body['status'] ?? 400)) {
  return HttpResponse.json(body, { status, headers: { 'content-type': 'application/problem+json' } });
}

/**
 * Asserts a client-side refusal: `promise` rejects with `ErrorClass`, `sentRequest` false, a
 * single violation named `propriedade`, and no request left the client.
 */
export async function expectRefused(
  net: MswHarness,
  promise: PromiseLike<unknown>,
  ErrorClass: abstract new (...args: never[]) => ApiError,
  propriedade: string,
): Promise<ApiError> {
  const error: unknown = await Promise.resolve(promise).then(
    () => new Error('expected the call to be refused'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ErrorClass);
  expect(error).toMatchObject({ sentRequest: false, violacoes: [expect.objectContaining({ propriedade })] });
  expect(net.requests).toHaveLength(0);
  return error as ApiError;
}
