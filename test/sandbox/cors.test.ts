/**
 * CORS: a page in a browser on another origin reaches the sandbox (payloads, the key set, the
 * API with its bearer token, the `/sandbox/...` controls). Node's `fetch` does not enforce CORS,
 * so these tests send what a browser sends (`Origin`, the preflight) and check the answer the
 * way a browser does before it hands it to the page.
 */
import { describe, expect, it } from 'vitest';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { cobBody, useSandbox } from './support.ts';

const s = useSandbox();
const PAGE = 'http://localhost:5173';

/** A browser's CORS check of an answer to a request from `PAGE` without credentials. */
function browserAccepts(response: Response): boolean {
  const allowed = response.headers.get('access-control-allow-origin');
  return allowed === '*' || allowed === PAGE;
}

/** A browser's preflight for `method` with `headers` to `url`, and whether it lets the request go. */
async function preflight(
  url: string,
  method: string,
  headers: string[] = [],
): Promise<{ response: Response; allows: boolean }> {
  const response = await fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin: PAGE,
      'access-control-request-method': method,
      ...(headers.length > 0 ? { 'access-control-request-headers': headers.join(',') } : {}),
    },
  });
  const methods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
  const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '')
    .toLowerCase()
    .split(',')
    .map((h) => h.trim());
  const allows =
    response.ok &&
    browserAccepts(response) &&
    methods.includes(method) &&
    headers.every((h) => allowedHeaders.includes(h));
  return { response, allows };
}

describe('CORS', () => {
  it('lets a page on another origin fetch a payload and the key set, and verify it', async () => {
    const txid = generateTxid();
    const cob = await s.api.cob.create(txid, cobBody(s.key, '19.90'));
    // The payload location is served on the sandbox's own origin (plain HTTP here).
    const payloadUrl = `${s.sandbox.origin}${cob.location!.slice(cob.location!.indexOf('/'))}`;
    const payload = await fetch(payloadUrl, { headers: { origin: PAGE }, mode: 'cors' });
    expect(payload.status).toBe(200);
    expect(browserAccepts(payload)).toBe(true);
    const keys = await fetch(`${s.sandbox.origin}/qr/v2/jwks.json`, { headers: { origin: PAGE }, mode: 'cors' });
    expect(browserAccepts(keys)).toBe(true);
    // A payer whose every answer passes the browser's check verifies the payload.
    const options = s.sandbox.payerOptions();
    const payer = new PayerClient({
      ...options,
      fetch: async (input, init) => {
        const response = await options.fetch!(input, {
          ...init,
          headers: { ...Object.fromEntries(new Headers(init?.headers)), origin: PAGE },
        });
        if (!browserAccepts(response)) throw new TypeError('Failed to fetch (blocked by CORS policy)');
        return response;
      },
    });
    await expect(payer.cobPayload.getCob(cob.location!)).resolves.toMatchObject({ txid, valor: { original: '19.90' } });
  });

  it('answers a preflight on every part: payloads, API with a bearer token, cash-out, token endpoint, controls', async () => {
    const cases: Array<[string, string, string[]]> = [
      [`${s.sandbox.origin}/qr/v2/jwks.json`, 'GET', []],
      [`${s.sandbox.baseUrl}/cob/${generateTxid()}`, 'PUT', ['authorization', 'content-type']],
      [
        `${s.sandbox.origin}/api/v2/instant/payments/dict`,
        'POST',
        ['authorization', 'content-type', 'x-idempotency-key'],
      ],
      [s.sandbox.credentials.tokenUrl, 'POST', ['content-type']],
      [`${s.sandbox.origin}/sandbox/charges/${generateTxid()}/pay`, 'POST', ['content-type']],
      [`${s.sandbox.origin}/sandbox/balance`, 'PUT', ['content-type']],
    ];
    for (const [url, method, headers] of cases) {
      const { response, allows } = await preflight(url, method, headers);
      expect({ url, status: response.status, allows }).toEqual({ url, status: 204, allows: true });
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
  });

  it('answers a preflight without headers asked with the headers the sandbox reads', async () => {
    const { response } = await preflight(`${s.sandbox.baseUrl}/cob`, 'GET');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('puts the header on errors too: 401, 404, 400 problems, injected 503s', async () => {
    const answers = [
      await fetch(`${s.sandbox.baseUrl}/cob/${generateTxid()}`, { headers: { origin: PAGE } }),
      await fetch(`${s.sandbox.origin}/nowhere`, { headers: { origin: PAGE } }),
      await fetch(`${s.sandbox.origin}/sandbox/balance`, {
        method: 'PUT',
        headers: { origin: PAGE },
        body: '{"balance":1}',
      }),
      await fetch(`${s.sandbox.origin}/qr/v2/${'A'.repeat(32)}`, { headers: { origin: PAGE } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 404, 400, 404]);
    for (const answer of answers) expect(browserAccepts(answer)).toBe(true);
    s.sandbox.injectFaults({ rate: 1, kinds: ['503'] });
    try {
      const faulted = await fetch(`${s.sandbox.baseUrl}/cob`, { headers: { origin: PAGE } });
      expect(faulted.status).toBe(503);
      expect(browserAccepts(faulted)).toBe(true);
      // The page may read Retry-After.
      expect(faulted.headers.get('access-control-expose-headers')).toContain('retry-after');
    } finally {
      s.sandbox.injectFaults({ rate: 0 });
    }
  });

  it('lets a page drive a control with a simple request (text/plain body, no preflight needed)', async () => {
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key, '3.00'));
    const paid = await fetch(`${s.sandbox.origin}/sandbox/charges/${txid}/pay`, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'text/plain' },
      body: JSON.stringify({ valor: '3.00' }),
    });
    expect(paid.status).toBe(200);
    expect(browserAccepts(paid)).toBe(true);
    expect(await paid.json()).toMatchObject({ txid, valor: '3.00' });
  });
});
