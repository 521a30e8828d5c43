/** `api.locrec`, `api.webhookrec` and `api.webhookcobr` over msw. */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  NaoEncontrado,
  PayloadLocationRecConsultaInvalida,
  PayloadLocationRecNaoEncontrado,
  ServicoIndisponivel,
  WebhookCobRConsultaInvalida,
  WebhookCobROperacaoInvalida,
  WebhookRecConsultaInvalida,
  WebhookRecOperacaoInvalida,
  type ApiErrorClass,
  type InstantClient,
  type WebhookRegistration,
} from '../../src/index.ts';
import { BASE_URL, expectRefused, problem, testClient, useMsw } from '../support/msw.ts';
import { ID_REC, RANGE, bare, pagedList } from './fixtures.ts';

const net = useMsw();
const api = testClient();

const loc = {
  id: 12069,
  location: 'instant.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002',
  criacao: '2026-01-20T12:38:28.774Z',
};

describe('api.locrec', () => {
  it('create: POST /locrec with no body; the answer and its location header', async () => {
    net.server.use(
      http.post(`${BASE_URL}/locrec`, () =>
        HttpResponse.json(loc, { status: 201, headers: { location: 'instant.example.com/api/locrec/12069' } }),
      ),
    );
    await expect(api.locrec.create()).resolves.toEqual(loc);
    const [request] = net.requests;
    expect(request?.method).toBe('POST');
    expect(await request?.text()).toBe('');
    expect(request?.headers.get('content-type')).toBeNull();
  });

  it('create: never retried (a retry could create a second location)', async () => {
    net.server.use(http.post(`${BASE_URL}/locrec`, () => bare(503)));
    await expect(api.locrec.create()).rejects.toBeInstanceOf(ServicoIndisponivel);
    expect(net.requests).toHaveLength(1);
  });

  it('get: GET /locrec/{id}, with the linked idRec; retried on a 503', async () => {
    let calls = 0;
    net.server.use(
      http.get(`${BASE_URL}/locrec/12069`, () =>
        ++calls === 1 ? bare(503) : HttpResponse.json({ ...loc, idRec: ID_REC }),
      ),
    );
    await expect(api.locrec.get(12069)).resolves.toMatchObject({ idRec: ID_REC });
    expect(net.requests).toHaveLength(2);
  });

  it('get and unlink: a bare 404 is PayloadLocationRecNaoEncontrado', async () => {
    net.server.use(
      http.get(`${BASE_URL}/locrec/:id`, () => bare(404)),
      http.delete(`${BASE_URL}/locrec/:id/idRec`, () => bare(404)),
    );
    await expect(api.locrec.get('7')).rejects.toBeInstanceOf(PayloadLocationRecNaoEncontrado);
    await expect(api.locrec.unlink(7)).rejects.toBeInstanceOf(PayloadLocationRecNaoEncontrado);
  });

  it('get refuses an id that is not an integer with PayloadLocationRecConsultaInvalida; unlink with PayloadLocationRecNaoEncontrado (no 400 is declared)', async () => {
    for (const id of ['abc', '..', -1, 1.5, '']) {
      await expectRefused(net, api.locrec.get(id), PayloadLocationRecConsultaInvalida, 'id');
      expect((await expectRefused(net, api.locrec.unlink(id), PayloadLocationRecNaoEncontrado, 'id')).status).toBe(404);
    }
  });

  it('unlink: DELETE /locrec/{id}/idRec returns the location; retried on a 503', async () => {
    let calls = 0;
    net.server.use(
      http.delete(`${BASE_URL}/locrec/:id/idRec`, () => (++calls === 1 ? bare(503) : HttpResponse.json(loc))),
    );
    await expect(api.locrec.unlink('12069')).resolves.toEqual(loc);
    expect(net.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `DELETE ${BASE_URL}/locrec/12069/idRec`,
      `DELETE ${BASE_URL}/locrec/12069/idRec`,
    ]);
  });

  it('list: walks every location across pages (loc)', async () => {
    const list = pagedList('/locrec', 'loc', 3, 1, (i) => ({ ...loc, id: i }));
    net.server.use(list.handler);
    const ids: number[] = [];
    for await (const l of api.locrec.list({ ...RANGE, idRecPresente: false })) ids.push(l.id);
    expect(ids).toEqual([0, 1, 2]);
    expect(new URL(net.requests[0]!.url).searchParams.get('idRecPresente')).toBe('false');
  });

  it.each([
    ['idRecPresente not a boolean', { ...RANGE, idRecPresente: 1 }, 'idRecPresente'],
    ['convenio over 60', { ...RANGE, convenio: 'c'.repeat(61) }, 'convenio'],
    ['fim missing', { inicio: RANGE.inicio }, 'fim'],
  ])('list refuses %s with PayloadLocationRecConsultaInvalida', async (_rule, query, propriedade) => {
    await expectRefused(net, api.locrec.list(query as never), PayloadLocationRecConsultaInvalida, propriedade);
  });
});

const registrations: Array<[string, (c: InstantClient) => WebhookRegistration, ApiErrorClass, ApiErrorClass]> = [
  ['webhookrec', (c) => c.webhookrec, WebhookRecOperacaoInvalida, WebhookRecConsultaInvalida],
  ['webhookcobr', (c) => c.webhookcobr, WebhookCobROperacaoInvalida, WebhookCobRConsultaInvalida],
];

describe.each(registrations)('api.%s', (name, of, WriteError, ReadError) => {
  const hook = `https://merchant.example/hooks/${name}/`;

  it(`put: PUT /${name} with { webhookUrl }; the 200 without body resolves`, async () => {
    net.server.use(http.put(`${BASE_URL}/${name}`, () => new HttpResponse(null, { status: 200 })));
    await expect(of(api).put(hook)).resolves.toBeUndefined();
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/${name}`);
    expect(await net.requests[0]?.json()).toEqual({ webhookUrl: hook });
  });

  it('put: retried on a 503 (it replaces the one registration)', async () => {
    let calls = 0;
    net.server.use(
      http.put(`${BASE_URL}/${name}`, () => (++calls === 1 ? bare(503) : new HttpResponse(null, { status: 200 }))),
    );
    await of(api).put(hook);
    expect(net.requests).toHaveLength(2);
  });

  it.each([
    'http://merchant.example/hook',
    'ftp://merchant.example/hook',
    'https://user:pw@merchant.example/',
    'hooks',
    '',
  ])('put refuses %j before sending', async (url) => {
    await expectRefused(net, of(api).put(url), WriteError, 'webhookUrl');
  });

  it('put: the service refusal keeps its class', async () => {
    net.server.use(
      http.put(`${BASE_URL}/${name}`, () =>
        problem({
          type: `https://instant.example.com/api/v2/error/${WriteError.errorType}`,
          title: 'Webhook inválido.',
          status: 400,
        }),
      ),
    );
    await expect(of(api).put(hook)).rejects.toMatchObject({ name: WriteError.errorType, sentRequest: true });
  });

  it(`get: GET /${name}; delete: DELETE /${name} answered 204`, async () => {
    net.server.use(
      http.get(`${BASE_URL}/${name}`, () =>
        HttpResponse.json({ webhookUrl: hook, criacao: '2026-01-20T12:51:16.485Z' }),
      ),
      http.delete(`${BASE_URL}/${name}`, () => new HttpResponse(null, { status: 204 })),
    );
    await expect(of(api).get()).resolves.toEqual({ webhookUrl: hook, criacao: '2026-01-20T12:51:16.485Z' });
    await expect(of(api).delete()).resolves.toBeUndefined();
    expect(net.requests.map((r) => r.method)).toEqual(['GET', 'DELETE']);
  });

  it('a bare 404 is NaoEncontrado (no specific type); a bare 400 on GET is the query class', async () => {
    net.server.use(
      http.get(`${BASE_URL}/${name}`, () => bare(404)),
      http.delete(`${BASE_URL}/${name}`, () => bare(400)),
    );
    await expect(of(api).get()).rejects.toBeInstanceOf(NaoEncontrado);
    net.server.use(http.get(`${BASE_URL}/${name}`, () => bare(400)));
    await expect(of(api).get()).rejects.toBeInstanceOf(ReadError);
    await expect(of(api).delete()).rejects.toBeInstanceOf(WriteError);
  });
});
