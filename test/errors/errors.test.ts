import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.ts';
import * as payer from '../../src/payer.ts';
import { ApiError, UnauthorizedError } from '../../src/errors/api-error.ts';
import { AuthenticationError } from '../../src/errors/failures.ts';
import {
  CobPayloadNaoEncontrado,
  CobOperacaoInvalida,
  ERROR_CATALOGUE,
  ERROR_CLASSES,
  GENERAL_BY_STATUS,
  NaoEncontrado,
  ServicoIndisponivel,
  type CatalogueErrorType,
} from '../../src/errors/catalogue.ts';
import { InstantError } from '../../src/errors/base.ts';
import { createApiError } from '../../src/errors/factory.ts';

const BASE = 'https://api.psp.example/api/v2/error';

function problem(status: number, body: unknown, contentType = 'application/problem+json'): [Response, unknown] {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return [
    new Response(text, { status, headers: { 'content-type': contentType } }),
    typeof body === 'string' ? body : body,
  ];
}

describe('error catalogue', () => {
  const names = Object.keys(ERROR_CATALOGUE) as CatalogueErrorType[];

  it.each(names)('%s maps from a problem body to its own exported class', (name) => {
    const status = ERROR_CATALOGUE[name].status[0];
    const [response, body] = problem(status, {
      type: `${BASE}/${name}`,
      title: 'Some title',
      status,
      detail: 'Some detail',
      correlationId: 'corr-1',
      violacoes: [{ razao: 'r', propriedade: 'cob.valor.original', valor: '0.00' }],
    });
    const error = createApiError(response, body);
    const exported = (sdk as Record<string, unknown>)[name];
    expect(exported).toBe(ERROR_CLASSES[name]);
    expect(error).toBeInstanceOf(ERROR_CLASSES[name]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(InstantError);
    expect(error.name).toBe(name);
    expect(error.errorType).toBe(name);
    expect(error.type).toBe(`${BASE}/${name}`);
    expect(error.status).toBe(status);
    expect(error.title).toBe('Some title');
    expect(error.detail).toBe('Some detail');
    expect(error.correlationId).toBe('corr-1');
    expect(error.violacoes).toEqual([{ razao: 'r', propriedade: 'cob.valor.original', valor: '0.00' }]);
    expect(error.sentRequest).toBe(true);
    expect(error.response).toBe(response);
  });

  it('every class is also exported from the payer entry', () => {
    for (const name of names) expect((payer as Record<string, unknown>)[name]).toBe(ERROR_CLASSES[name]);
  });

  it('takes the last path segment as errorType, whatever the error base is', () => {
    for (const type of [
      'https://other.example/errors/v2/CobOperacaoInvalida',
      'urn:acme:CobOperacaoInvalida',
      'CobOperacaoInvalida',
      'https://x.example/CobOperacaoInvalida/',
    ]) {
      const [response, body] = problem(400, { type, title: 't', status: 400 });
      const error = createApiError(response, body);
      expect(error).toBeInstanceOf(CobOperacaoInvalida);
      expect(error.errorType).toBe('CobOperacaoInvalida');
    }
  });

  it('keeps the name of an unknown type on a plain ApiError', () => {
    const [response, body] = problem(400, { type: `${BASE}/AutorizacaoOperacaoInvalida`, title: 't', status: 400 });
    const error = createApiError(response, body);
    expect(error.constructor).toBe(ApiError);
    expect(error.name).toBe('ApiError');
    expect(error.errorType).toBe('AutorizacaoOperacaoInvalida');
  });

  it('gives CobPayloadNaoEncontrado for both 404 and 410, keeping the status', () => {
    for (const status of [404, 410]) {
      const [response, body] = problem(status, { type: `${BASE}/CobPayloadNaoEncontrado`, title: 't', status });
      const error = createApiError(response, body);
      expect(error).toBeInstanceOf(CobPayloadNaoEncontrado);
      expect(error.status).toBe(status);
    }
  });
});

describe('bodies that are not problem documents', () => {
  it.each([
    ['HTML', '<html><body>Bad gateway</body></html>', 'text/html'],
    ['empty', '', 'text/plain'],
    ['broken JSON', '{"type":', 'application/json'],
    ['a JSON array', '[1,2]', 'application/json'],
  ])('a %s 503 still gives ServicoIndisponivel', (_label, text, contentType) => {
    const response = new Response(text, { status: 503, headers: { 'content-type': contentType } });
    const error = createApiError(response, text);
    expect(error).toBeInstanceOf(ServicoIndisponivel);
    expect(error.status).toBe(503);
  });

  it('401 is UnauthorizedError whatever the body', () => {
    const error = createApiError(new Response('nope', { status: 401 }), 'nope');
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.status).toBe(401);
  });

  it('uses the per-endpoint fallback before the general class', () => {
    const response = new Response('', { status: 410 });
    expect(createApiError(response, undefined, { status: { 410: CobPayloadNaoEncontrado } })).toBeInstanceOf(
      CobPayloadNaoEncontrado,
    );
    expect(createApiError(new Response('', { status: 404 }), undefined)).toBeInstanceOf(NaoEncontrado);
  });

  it('an unmapped status is a plain ApiError with that status', () => {
    const error = createApiError(new Response('', { status: 418 }), undefined);
    expect(error.constructor).toBe(ApiError);
    expect(error.status).toBe(418);
  });

  it("understands the cash-out provider's {type, title, detail, instance}", () => {
    const body = {
      type: 'https://accounts.psp.example/errors/LIMIT-0009',
      title: 'Too many',
      detail: 'slow down',
      instance: '/api/v2/instant/payments/dict',
    };
    const error = createApiError(new Response(JSON.stringify(body), { status: 429 }), body);
    expect(error.errorType).toBe('LIMIT-0009');
    expect(error.title).toBe('Too many');
    expect(error.detail).toBe('slow down');
    expect(error.instance).toBe('/api/v2/instant/payments/dict');
    expect(error.status).toBe(429);
  });
});

describe('error hygiene', () => {
  it('keeps the response out of JSON and enumeration', () => {
    const [response, body] = problem(400, { type: `${BASE}/CobOperacaoInvalida`, title: 't', status: 400 });
    const error = createApiError(response, body);
    expect(Object.keys(error)).not.toContain('response');
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json['name']).toBe('CobOperacaoInvalida');
    expect(json['status']).toBe(400);
    expect(json).not.toHaveProperty('response');
  });

  it('never keeps a document number, e-mail or key given as a violation value', () => {
    const body = {
      type: `${BASE}/CobOperacaoInvalida`,
      title: 'Cobrança inválida.',
      status: 400,
      detail: 'Devedor 12345678909 / fulano@example.com inválido',
      violacoes: [
        { razao: 'CPF inválido', propriedade: 'cob.devedor.cpf', valor: '12345678909' },
        { razao: 'Nome', propriedade: 'cob.devedor.nome', valor: 'Fulano de Tal' },
        { razao: 'Chave', propriedade: 'cob.chave', valor: '+5561912345678' },
        { razao: 'valor', propriedade: 'cob.valor.original', valor: '0.00' },
      ],
    };
    const error = createApiError(new Response(JSON.stringify(body), { status: 400 }), body);
    const serialised = JSON.stringify(error) + error.message + String(error.stack);
    for (const secret of ['12345678909', 'fulano@example.com', 'Fulano de Tal', '+5561912345678']) {
      expect(serialised).not.toContain(secret);
    }
    expect(error.violacoes[3]?.valor).toBe('0.00');
  });

  it('literal names on the non-HTTP errors', () => {
    expect(new AuthenticationError('x').name).toBe('AuthenticationError');
    expect(new sdk.ConnectionError('x').name).toBe('ConnectionError');
    expect(new sdk.TimeoutError('x').name).toBe('TimeoutError');
    expect(new CobOperacaoInvalida().status).toBe(400);
    expect(new CobOperacaoInvalida({ sentRequest: false }).sentRequest).toBe(false);
  });
});

describe('error hierarchy', () => {
  it('every specific class extends the general class of its status, so one instanceof catches them', async () => {
    const { TransferNotFoundError } = await import('../../src/cash-out/errors.ts');
    for (const name of Object.keys(ERROR_CATALOGUE) as CatalogueErrorType[]) {
      const general = GENERAL_BY_STATUS[ERROR_CATALOGUE[name].status[0]];
      const error = new ERROR_CLASSES[name]();
      if (general !== undefined && general !== name) expect(error, name).toBeInstanceOf(ERROR_CLASSES[general]);
      expect(error.name).toBe(name);
    }
    expect(new sdk.CobNaoEncontrado()).toBeInstanceOf(NaoEncontrado);
    expect(new sdk.InstantDevolucaoNaoEncontrada()).toBeInstanceOf(NaoEncontrado);
    expect(new sdk.WebhookConsultaInvalida()).toBeInstanceOf(sdk.RequisicaoInvalida);
    expect(new sdk.InstantDevolucaoInvalida()).toBeInstanceOf(sdk.RequisicaoInvalida);
    expect(new TransferNotFoundError()).toBeInstanceOf(NaoEncontrado);
    expect(new NaoEncontrado()).not.toBeInstanceOf(sdk.CobNaoEncontrado);
    expect(new sdk.CobNaoEncontrado().name).toBe('CobNaoEncontrado');
  });

  it("a refusal keeps the SDK's own text; an answer's text is scrubbed", () => {
    const violacoes = [{ razao: 'see 12345678909', propriedade: 'cob.valor.original', valor: '12345678909' }];
    const refused = new CobOperacaoInvalida({ sentRequest: false, title: 'Refused', violacoes });
    expect(refused.violacoes[0]).toEqual({
      razao: 'see 12345678909',
      propriedade: 'cob.valor.original',
      valor: '[redacted]',
    });
    const answered = new CobOperacaoInvalida({ title: 'a@b.io', violacoes });
    expect(answered.title).toBe('[redacted]');
    expect(answered.violacoes[0]?.razao).toBe('see [redacted]');
  });
});
