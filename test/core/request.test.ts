/** `client.request()`: an endpoint the SDK does not model, through the same auth, retries and errors. */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { CashOutConflictError, CobNaoEncontrado, NaoEncontrado, path } from '../../src/index.ts';
import { CASH_OUT_URL, cashOutClient } from '../cash-out/fixtures.ts';
import { BASE_URL, problem, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();

describe('InstantClient.request', () => {
  it('sends the call with the token, retries a 503 and reads the JSON answer', async () => {
    let calls = 0;
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, ({ request, params }) => {
        calls++;
        if (calls === 1) return new HttpResponse(null, { status: 503 });
        return HttpResponse.json({
          txid: params['txid'],
          revisao: new URL(request.url).searchParams.get('revisao'),
          auth: request.headers.get('authorization'),
        });
      }),
    );
    const api = testClient({ maxRetries: 1 });
    const body = await api.request<{ txid: string; revisao: string; auth: string }>({
      method: 'GET',
      path: path`/cob/${'abc'}`,
      query: { revisao: 2 },
    });
    expect(body).toEqual({ txid: 'abc', revisao: '2', auth: expect.stringMatching(/^Bearer /) });
    expect(calls).toBe(2);
  });

  it('maps an error answer by its type, as a resource call does', async () => {
    net.server.use(
      http.get(`${BASE_URL}/custom`, () =>
        problem({ type: 'https://x.example/CobNaoEncontrado', title: 't', status: 404 }),
      ),
    );
    const error = await testClient({ maxRetries: 0 })
      .request({ method: 'GET', path: path`/custom` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CobNaoEncontrado);
    expect(error).toBeInstanceOf(NaoEncontrado);
  });
});

describe('CashOutClient.request', () => {
  it("maps the provider's answers by status", async () => {
    net.server.use(
      http.post(`${CASH_OUT_URL}/api/v2/other`, () =>
        HttpResponse.json({ type: 'https://p.example/X-0001', title: 'dup' }, { status: 409 }),
      ),
    );
    const error = await cashOutClient({ maxRetries: 0 })
      .request({ method: 'POST', path: path`/api/v2/other`, body: { a: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CashOutConflictError);
  });
});
