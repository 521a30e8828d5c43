/**
 * Raw responses: `.withResponse()` on every call's promise and on a list's page promise, giving
 * `{ data, response }`: the same call (sent once), the same data as a plain `await`, and the
 * `Response` with its status and headers. Both clients, against a listening sandbox, and
 * `client.request()`; typed per method.
 */
import { http, HttpResponse, passthrough } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CobNaoEncontrado,
  addDays,
  generateTxid,
  path,
  todayInBrasilia,
  type Balance,
  type CobCompleta,
  type CobGerada,
  type Page,
  type ParametrosConsultaCob,
  type RecCompleta,
  type Transfer,
} from '../../src/index.ts';
import { aroundNow, useSandbox } from '../e2e/harness.ts';
import { testClient, useMsw } from '../support/msw.ts';

const s = useSandbox();
const net = useMsw();
// msw sees every request: those for the loopback sandbox go through.
const sandboxPassthrough = () => net.server.use(http.all(/^http:\/\/127\.0\.0\.1/, () => passthrough()));

/** `.withResponse()` of `call()` and a plain `await` of another `call()` give the same data. */
async function same<T>(
  call: () => Promise<T> & { withResponse(): Promise<{ data: T; response: Response }> },
  status: number,
) {
  const { data, response } = await call().withResponse();
  expect(response).toBeInstanceOf(Response);
  expect(response.status).toBe(status);
  return { data, response };
}

describe('.withResponse()', () => {
  it('api.cob.get(txid).withResponse(): the charge and its Response, typed', async () => {
    sandboxPassthrough();
    const txid = generateTxid();
    const created = await s.api.cob.create(txid, { valor: { original: '10.00' }, chave: s.receiverKey }).withResponse();
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ txid, status: 'ATIVA' });

    const pending = s.api.cob.get(txid).withResponse();
    expectTypeOf(pending).toEqualTypeOf<Promise<{ data: CobCompleta; response: Response }>>();
    const { data, response } = await pending;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(data).toEqual(await s.api.cob.get(txid));
  });

  it('is the same call: one request, whether awaited, asked for the response, or both', async () => {
    let sent = 0;
    net.server.use(
      http.get('https://api.psp.example/v2/cob/:txid', ({ params }) => {
        sent++;
        return HttpResponse.json(
          { txid: params['txid'], revisao: 0, status: 'ATIVA' },
          { headers: { 'x-correlation-id': 'corr-1' } },
        );
      }),
    );
    const api = testClient();
    const call = api.cob.get('abcdefghijklmnopqrstuvwxyz123');
    const [plain, raw] = await Promise.all([call, call.withResponse()]);
    expect(sent).toBe(1);
    expect(raw.data).toBe(plain);
    expect(raw.response.headers.get('x-correlation-id')).toBe('corr-1');
  });

  it('a failed call rejects withResponse() with the same typed error, and nothing is left unhandled', async () => {
    net.server.use(http.get('https://api.psp.example/v2/cob/:txid', () => new HttpResponse(null, { status: 404 })));
    const api = testClient({ maxRetries: 0 });
    await expect(api.cob.get('abcdefghijklmnopqrstuvwxyz123').withResponse()).rejects.toBeInstanceOf(CobNaoEncontrado);
    // Refused before sending: the same.
    await expect(api.cob.get('no').withResponse()).rejects.toMatchObject({ sentRequest: false });
  });

  it("a list's page promise: the first page with its Response, one request for both", async () => {
    sandboxPassthrough();
    for (let i = 0; i < 3; i++)
      await s.api.cob.create(generateTxid(), {
        valor: { original: '1.00' },
        chave: s.receiverKey,
        devedor: { cpf: '11144477735', nome: 'Lista' },
      });
    const before = net.requests.length;
    const pages = s.api.cob.list({ ...aroundNow(), cpf: '11144477735', paginacao: { itensPorPagina: 2 } });
    const raw = await pages.withResponse();
    expectTypeOf(raw).toEqualTypeOf<{ data: Page<CobCompleta, ParametrosConsultaCob>; response: Response }>();
    expect(raw.response.status).toBe(200);
    expect(raw.data.items).toHaveLength(2);
    expect(raw.data.hasNextPage()).toBe(true);
    expect(await pages).toBe(raw.data);
    expect(net.requests.length - before).toBe(1);
  });

  it('every resource call of the receiving client', async () => {
    sandboxPassthrough();
    // Where the webhook registered below points: the refund's notification may land there.
    net.server.use(http.post(/^https:\/\/hooks\.example\.com\//, () => new HttpResponse(null, { status: 200 })));
    const api = s.api;
    const txid = generateTxid();
    const cob = { valor: { original: '5.00' }, chave: s.receiverKey };
    expectTypeOf(api.cob.create(cob).withResponse()).toEqualTypeOf<Promise<{ data: CobGerada; response: Response }>>();
    await same(() => api.cob.create(cob), 201);
    await same(() => api.cob.create(txid, cob), 201);
    await same(() => api.cob.update(txid, { solicitacaoPagador: 'x' }), 200);
    await same(() => api.cob.remove(txid), 200);

    const due = addDays(todayInBrasilia(), 3);
    const cobv = {
      calendario: { dataDeVencimento: due },
      devedor: { cpf: '12345678909', nome: 'Fulano' },
      valor: { original: '7.00' },
      chave: s.receiverKey,
    };
    const vtxid = generateTxid();
    await same(() => api.cobv.create(vtxid, cobv), 201);
    await same(() => api.cobv.get(vtxid), 200);
    expect((await api.cobv.list(aroundNow()).withResponse()).response.status).toBe(200);

    const lote = await same(
      () => api.lotecobv.put(31, { descricao: 'raw', cobsv: [{ txid: generateTxid(), ...cobv }] }),
      202,
    );
    expect(lote.data).toBeUndefined();
    await same(() => api.lotecobv.get(31), 200);
    expect((await api.lotecobv.list(aroundNow()).withResponse()).response.status).toBe(200);

    const loc = await same(() => api.loc.create({ tipoCob: 'cob' }), 201);
    await same(() => api.loc.get(loc.data.id), 200);
    await same(() => api.loc.update(loc.data.id, { tipoCob: 'cobv' }), 200);
    expect((await api.loc.list(aroundNow()).withResponse()).response.status).toBe(200);

    const paidTxid = generateTxid();
    await api.cob.create(paidTxid, cob);
    const { endToEndId } = await s.sandbox.payCharge(paidTxid);
    await same(() => api.instant.get(endToEndId), 200);
    await same(() => api.instant.refund(endToEndId, 'raw1', { valor: '1.00' }), 201);
    await same(() => api.instant.getRefund(endToEndId, 'raw1'), 200);
    expect((await api.instant.list(aroundNow()).withResponse()).response.status).toBe(200);

    const hook = await same(() => api.webhook.put(s.receiverKey, 'https://hooks.example.com/notifications'), 200);
    expect(hook.data).toBeUndefined();
    await same(() => api.webhook.get(s.receiverKey), 200);
    expect((await api.webhook.list().withResponse()).response.status).toBe(200);
    await same(() => api.webhook.delete(s.receiverKey), 204);

    const custom = await same(() => api.request<CobCompleta>({ method: 'GET', path: path`/cob/${paidTxid}` }), 200);
    expect(custom.data.status).toBe('CONCLUIDA');
  });

  it('every resource call of the cash-out client, and its request()', async () => {
    sandboxPassthrough();
    const { cashOut } = s;
    const balance = await same(() => cashOut.balance.get(), 200);
    expectTypeOf(balance.data).toEqualTypeOf<Balance>();
    expect(balance.data.available).toMatch(/^\d+\.\d{2}$/);

    const order = {
      instantKey: 'someone@example.com',
      creditorDocument: '12345678909',
      payment: { currency: 'BRL', amount: '2.00' },
    } as const;
    const placed = await cashOut.payments.create(order, { idempotencyKey: 'raw0001' }).withResponse();
    expectTypeOf(placed.data).toEqualTypeOf<Transfer>();
    expect(placed.response.status).toBe(202);
    expect(placed.data.idempotencyKey).toBe('raw0001');

    const found = await same(() => cashOut.payments.getByIdempotencyKey('raw0001'), 200);
    expect(found.data.idempotencyKey).toBe('raw0001');
    await same(() => cashOut.request({ method: 'GET', path: path`/api/v2/accounts/balances/` }), 200);
  });
  it("the recurring resources too: typed, the answer's status kept", async () => {
    const idRec = 'RR1234567820240115abcdefghijk';
    net.server.use(
      http.get('https://api.psp.example/v2/rec/:idRec', ({ params }) =>
        HttpResponse.json({ idRec: params['idRec'], status: 'CRIADA' }),
      ),
      http.patch('https://api.psp.example/v2/solicrec/:id', ({ params }) =>
        HttpResponse.json({ idSolicRec: params['id'], status: 'CANCELADA' }, { status: 201 }),
      ),
      http.delete('https://api.psp.example/v2/webhookcobr', () => new HttpResponse(null, { status: 204 })),
    );
    const api = testClient();
    const rec = await api.rec.get(idRec).withResponse();
    expectTypeOf(rec.data).toEqualTypeOf<RecCompleta>();
    expect(rec.data).toMatchObject({ idRec, status: 'CRIADA' });
    const cancelled = await api.solicrec.cancel('SC1234567820240115abcdefghijk').withResponse();
    expect(cancelled.response.status).toBe(201);
    const removed = await api.webhookcobr.delete().withResponse();
    expectTypeOf(removed.data).toEqualTypeOf<void>();
    expect(removed.response.status).toBe(204);
  });
});
