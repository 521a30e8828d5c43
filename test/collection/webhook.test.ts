import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { WebhookConsultaInvalida, WebhookNaoEncontrado, WebhookOperacaoInvalida } from '../../src/index.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = testClient({ maxRetries: 0 });

const PHONE = '+5561912345678';
const EMAIL = 'recebedor@example.com';
const EVP = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
const HOOK = 'https://hooks.example.com/instant/webhook';

describe('api.webhook', () => {
  it('put: PUT /webhook/{chave} with { webhookUrl }; the 200 without body resolves', async () => {
    let body: unknown;
    net.server.use(
      http.put(`${BASE_URL}/webhook/:chave`, async ({ request }) => {
        body = await request.json();
        return new HttpResponse(null, { status: 200 });
      }),
    );
    await expect(api.webhook.put(EVP, HOOK)).resolves.toBeUndefined();
    expect(body).toEqual({ webhookUrl: HOOK });
    expect(net.requests[0]?.url).toBe(`${BASE_URL}/webhook/${EVP}`);
  });

  it('percent-encodes + and @ in the key (raw request URL)', async () => {
    net.server.use(
      http.put(`${BASE_URL}/webhook/:chave`, () => new HttpResponse(null, { status: 200 })),
      http.get(`${BASE_URL}/webhook/:chave`, ({ params }) =>
        HttpResponse.json({ webhookUrl: HOOK, chave: params['chave'], criacao: '2026-01-01T00:00:00Z' }),
      ),
      http.delete(`${BASE_URL}/webhook/:chave`, () => new HttpResponse(null, { status: 204 })),
    );
    await api.webhook.put(PHONE, HOOK);
    await api.webhook.get(EMAIL);
    await api.webhook.delete(PHONE);
    expect(net.requests.map((r) => r.url)).toEqual([
      `${BASE_URL}/webhook/%2B5561912345678`,
      `${BASE_URL}/webhook/recebedor%40example.com`,
      `${BASE_URL}/webhook/%2B5561912345678`,
    ]);
  });

  it.each([
    ['not-a-key', HOOK, 'chave'],
    ['5561912345678', HOOK, 'chave'],
    ['Recebedor@Example.com', HOOK, 'chave'],
    [EVP, 'http://hooks.example.com/x', 'webhookUrl'],
    [EVP, 'hooks.example.com/x', 'webhookUrl'],
    [EVP, 'https://user:pw@hooks.example.com/x', 'webhookUrl'],
    [EVP, 'https://', 'webhookUrl'],
  ])(
    'put: refuses chave %s / webhookUrl %s with WebhookOperacaoInvalida (%s) before sending',
    async (chave, url, propriedade) => {
      const error = await api.webhook.put(chave, url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookOperacaoInvalida);
      expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade }] });
      expect(net.requests).toHaveLength(0);
    },
  );

  it.each(['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://[::1]:9/hook'])(
    'put: accepts plain http on a loopback host (%s), for a local sandbox or test server',
    async (url) => {
      net.server.use(http.put(`${BASE_URL}/webhook/:chave`, () => new HttpResponse(null, { status: 200 })));
      await api.webhook.put(EVP, url);
      expect(await net.requests[0]?.json()).toEqual({ webhookUrl: url });
    },
  );

  it('put: refuses a key that is not one of ownKeys', async () => {
    const own = testClient({ ownKeys: [EVP] });
    await expect(own.webhook.put(PHONE, HOOK)).rejects.toMatchObject({
      name: 'WebhookOperacaoInvalida',
      violacoes: [{ propriedade: 'chave' }],
    });
    expect(net.requests).toHaveLength(0);
  });

  it('never echoes the key in the refusal', async () => {
    const error = await api.webhook.put('5561912345678', HOOK).catch((e: unknown) => e);
    expect(JSON.stringify(error)).not.toContain('5561912345678');
    expect((error as Error).message).not.toContain('5561912345678');
  });

  it('get: accepts the key under chave or under cnpj', async () => {
    net.server.use(
      http.get(`${BASE_URL}/webhook/:chave`, () =>
        HttpResponse.json({ webhookUrl: HOOK, cnpj: '12345678000195', criacao: '2026-01-01T00:00:00Z' }),
      ),
    );
    await expect(api.webhook.get(EVP)).resolves.toMatchObject({ webhookUrl: HOOK, cnpj: '12345678000195' });
    net.server.use(
      http.get(`${BASE_URL}/webhook/:chave`, () =>
        HttpResponse.json({ webhookUrl: HOOK, chave: EVP, criacao: '2026-01-01T00:00:00Z' }),
      ),
    );
    await expect(api.webhook.get(EVP)).resolves.toMatchObject({ chave: EVP });
  });

  it('get and delete: a bare 404 is WebhookNaoEncontrado', async () => {
    net.server.use(
      http.get(`${BASE_URL}/webhook/:chave`, () => new HttpResponse(null, { status: 404 })),
      http.delete(`${BASE_URL}/webhook/:chave`, () => new HttpResponse(null, { status: 404 })),
    );
    await expect(api.webhook.get(EVP)).rejects.toBeInstanceOf(WebhookNaoEncontrado);
    await expect(api.webhook.delete(EVP)).rejects.toBeInstanceOf(WebhookNaoEncontrado);
  });

  it('get refuses a malformed key with WebhookConsultaInvalida, delete with WebhookOperacaoInvalida', async () => {
    await expect(api.webhook.get('..')).rejects.toMatchObject({ name: 'WebhookConsultaInvalida', sentRequest: false });
    await expect(api.webhook.delete('')).rejects.toMatchObject({ name: 'WebhookOperacaoInvalida', sentRequest: false });
    expect(net.requests).toHaveLength(0);
  });

  it('delete: 204 resolves', async () => {
    net.server.use(http.delete(`${BASE_URL}/webhook/:chave`, () => new HttpResponse(null, { status: 204 })));
    await expect(api.webhook.delete(EVP)).resolves.toBeUndefined();
  });

  it('list: query optional; items and the wire array webhooks', async () => {
    let search = '';
    net.server.use(
      http.get(`${BASE_URL}/webhook`, ({ request }) => {
        search = new URL(request.url).search;
        return HttpResponse.json({
          parametros: {
            paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
          },
          webhooks: [{ webhookUrl: HOOK, chave: EVP, criacao: '2026-01-01T00:00:00Z' }],
        });
      }),
    );
    const page = await api.webhook.list();
    expect(page.items).toEqual([{ webhookUrl: HOOK, chave: EVP, criacao: '2026-01-01T00:00:00Z' }]);
    expect(search).toBe('');
    const all = [];
    for await (const w of api.webhook.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-02-01T00:00:00Z' }))
      all.push(w);
    expect(all).toHaveLength(1);
    expect(search).toContain('inicio=2026-01-01T00%3A00%3A00Z');
  });

  it('list: refuses fim before inicio with WebhookConsultaInvalida', async () => {
    await expect(
      api.webhook.list({ inicio: '2026-02-01T00:00:00Z', fim: '2026-01-01T00:00:00Z' }),
    ).rejects.toBeInstanceOf(WebhookConsultaInvalida);
    expect(net.requests).toHaveLength(0);
  });
});
