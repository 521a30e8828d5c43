/**
 * Errors a newcomer can act on: what plain JavaScript or a `.env` with a missing line gets wrong
 * is a typed error naming the option, the argument or the call, never a `TypeError` from inside
 * the SDK, and never a secret in the message.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  CashOutClient,
  CobConsultaInvalida,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  ConfigurationError,
  InstantClient,
  LoteCobVConsultaInvalida,
  LoteCobVOperacaoInvalida,
  RequisicaoInvalida,
  path,
} from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { useMsw } from '../support/msw.ts';

const net = useMsw();
const SECRET = 'sup3r-s3cret-Value';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** What a call threw or rejected with. */
async function failure(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** A ConfigurationError naming `option`, with no secret in its message or JSON. */
async function expectConfiguration(call: () => unknown, option: string): Promise<ConfigurationError> {
  const error = await failure(call);
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error).toMatchObject({ option });
  expect((error as Error).message).toContain(option);
  expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(SECRET);
  return error as ConfigurationError;
}

const credentials = { tokenUrl: 'https://api.psp.example/oauth/token', clientId: 'id', clientSecret: SECRET };
const js = <T>(value: unknown) => value as T;

describe('new InstantClient(options): a ConfigurationError naming the option', () => {
  it.each([
    ['no options at all', undefined, 'options'],
    ['{}', {}, 'baseUrl'],
    ['an undefined baseUrl (a missing .env line)', { baseUrl: undefined, auth: credentials }, 'baseUrl'],
    ['a baseUrl that does not parse', { baseUrl: 'https://api psp.example/v2' }, 'baseUrl'],
    ['a baseUrl without its scheme', { baseUrl: 'api.psp.example/v2' }, 'baseUrl'],
    ['a baseUrl that is not http(s)', { baseUrl: 'ftp://api.psp.example/v2' }, 'baseUrl'],
    ['a baseUrl carrying a password', { baseUrl: `https://user:${SECRET}@api.psp.example/v2` }, 'baseUrl'],
    ['a certificate without its key', { baseUrl: 'https://api.psp.example/v2', tls: { cert: PEM } }, 'tls.key'],
    ['a key without its certificate', { baseUrl: 'https://api.psp.example/v2', tls: { key: PEM } }, 'tls.cert'],
    ['an empty tls', { baseUrl: 'https://api.psp.example/v2', tls: {} }, 'tls'],
    [
      'credentials without tokenUrl',
      { baseUrl: 'https://api.psp.example/v2', auth: { clientId: 'id', clientSecret: SECRET } },
      'auth.tokenUrl',
    ],
    [
      'credentials without clientSecret',
      { baseUrl: 'https://api.psp.example/v2', auth: { ...credentials, clientSecret: undefined } },
      'auth.clientSecret',
    ],
    [
      'a token endpoint over plain http',
      { baseUrl: 'https://api.psp.example/v2', auth: { ...credentials, tokenUrl: 'http://auth.psp.example/token' } },
      'auth.tokenUrl',
    ],
    [
      'a tokenUrl that does not parse',
      { baseUrl: 'https://api.psp.example/v2', auth: { ...credentials, tokenUrl: 'oauth/token' } },
      'auth.tokenUrl',
    ],
    [
      'a getToken that is no function',
      { baseUrl: 'https://api.psp.example/v2', auth: { getToken: 'abc' } },
      'auth.getToken',
    ],
    ['a timeout in words', { baseUrl: 'https://api.psp.example/v2', timeout: '30s' }, 'timeout'],
    ['negative retries', { baseUrl: 'https://api.psp.example/v2', maxRetries: -1 }, 'maxRetries'],
    ['a fetch that is no function', { baseUrl: 'https://api.psp.example/v2', fetch: {} }, 'fetch'],
  ])('%s', async (_case, options, option) => {
    const error = await expectConfiguration(() => new InstantClient(js(options)), option);
    // What baseUrl should look like, unless the fault is elsewhere in it.
    if (option === 'baseUrl' && !error.message.includes('password'))
      expect(error.message).toMatch(/such as https:\/\/api\.psp\.example\/v2/);
  });

  it('takes what the README shows, and the sandbox gives', async () => {
    expect(
      () =>
        new InstantClient({ baseUrl: 'https://api.psp.example/v2', auth: credentials, tls: { cert: PEM, key: PEM } }),
    ).not.toThrow();
    expect(
      () =>
        new InstantClient({
          baseUrl: 'http://127.0.0.1:8080/v2',
          auth: { ...credentials, tokenUrl: 'http://127.0.0.1:8080/oauth/token' },
        }),
    ).not.toThrow();
    const sandbox = createSandbox();
    await sandbox.listen({ port: 0 });
    try {
      expect(() => new InstantClient(sandbox.clientOptions())).not.toThrow();
      expect(() => new CashOutClient(sandbox.cashOutOptions())).not.toThrow();
    } finally {
      await sandbox.close();
    }
  });
});

describe('new CashOutClient(options)', () => {
  it.each([
    ['no options at all', undefined, 'options'],
    ['{}', {}, 'baseUrl'],
    ['no auth', { baseUrl: 'https://accounts.psp.example' }, 'auth'],
    [
      'a baseUrl that does not parse',
      { baseUrl: 'accounts psp', auth: { clientId: 'id', clientSecret: SECRET } },
      'baseUrl',
    ],
  ])('%s', async (_case, options, option) => {
    await expectConfiguration(() => new CashOutClient(js(options)), option);
  });
});

describe('a call missing its argument in plain JavaScript: the typed error, nothing sent', () => {
  const api = new InstantClient({ baseUrl: 'https://api.psp.example/v2', auth: { getToken: async () => 'token' } });
  const cashOut = new CashOutClient({
    baseUrl: 'https://accounts.psp.example',
    auth: { getToken: async () => 'token' },
  });
  const loose = js<Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>(api);

  it.each([
    ['api.cob.create()', () => loose['cob']!['create']!(), CobOperacaoInvalida],
    ['api.cob.get()', () => loose['cob']!['get']!(), CobConsultaInvalida],
    ['api.cob.list()', () => loose['cob']!['list']!(), CobConsultaInvalida],
    ['api.lotecobv.get()', () => loose['lotecobv']!['get']!(), LoteCobVConsultaInvalida],
    ['api.lotecobv.put()', () => loose['lotecobv']!['put']!(), LoteCobVOperacaoInvalida],
    [
      'cashOut.payments.create(body) without its options',
      () => js<(b: unknown) => Promise<unknown>>(cashOut.payments.create.bind(cashOut.payments))({}),
      RequisicaoInvalida,
    ],
  ])('%s', async (_call, call, ErrorClass) => {
    const error = await failure(call);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ sentRequest: false });
    expect(net.requests).toHaveLength(0);
  });

  it('cashOut.pay() with no argument: ConfigurationError naming params, nothing sent', async () => {
    const error = await expectConfiguration(() => js<() => Promise<unknown>>(cashOut.pay.bind(cashOut))(), 'params');
    expect(error.message).toMatch(/key, amount, creditorDocument/);
    expect(net.requests).toHaveLength(0);
  });

  it.each([
    ['no call', undefined, 'call'],
    ['no method', { path: path`/cob` }, 'call.method'],
    ['a plain string path', { method: 'GET', path: '/cob/abc' }, 'call.path'],
  ])(
    'client.request() with %s: ConfigurationError, a rejection (not a throw), nothing sent',
    async (_case, call, option) => {
      const pending = js<(c: unknown) => Promise<unknown>>(api.request.bind(api))(call);
      expect(pending).toBeInstanceOf(Promise);
      await expectConfiguration(() => pending, option);
      await expectConfiguration(
        () => js<(c: unknown) => Promise<unknown>>(cashOut.request.bind(cashOut))(call),
        option,
      );
      expect(net.requests).toHaveLength(0);
    },
  );
});

describe('an error answer names the call: the method and the route template, never a value', () => {
  it('a baseUrl missing its /v2: the 404 says GET /cob/{} (not the txid)', async () => {
    // The host answers its own 404 page for anything outside /v2.
    net.server.use(
      http.all(
        'https://api.psp.example/*',
        () => new HttpResponse('<html>Not Found</html>', { status: 404, headers: { 'content-type': 'text/html' } }),
      ),
    );
    const api = new InstantClient({
      baseUrl: 'https://api.psp.example',
      auth: { getToken: async () => 'token' },
      maxRetries: 0,
    });
    const txid = 'abcdefghijklmnopqrstuvwxyz123';
    const error = await failure(() => api.cob.get(txid));
    expect(error).toBeInstanceOf(CobNaoEncontrado);
    expect((error as Error).message).toMatch(/^GET \/cob\/\{\} answered 404/);
    expect((error as Error).message).not.toContain(txid);
  });

  it('a problem document keeps its text after the call', async () => {
    net.server.use(
      http.put('https://api.psp.example/v2/cob/:txid', () =>
        HttpResponse.json(
          { type: 'https://x/CobOperacaoInvalida', title: 'Cobrança inválida.', status: 400, detail: 'valor.original' },
          { status: 400 },
        ),
      ),
    );
    const api = new InstantClient({
      baseUrl: 'https://api.psp.example/v2',
      auth: { getToken: async () => 'token' },
      validate: false,
    });
    const error = await failure(() => api.cob.create('abcdefghijklmnopqrstuvwxyz123', js({})));
    expect((error as Error).message).toBe(
      'PUT /cob/{} answered 400 CobOperacaoInvalida: the service says "Cobrança inválida. valor.original"',
    );
  });
});

describe('a token endpoint that cannot be reached: what failed, in words, with the network code', () => {
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it.each(['form', 'json'] as const)('refused (%s token request)', async (format) => {
    net.server.use(http.all(/^http:\/\/127\.0\.0\.1/, () => passthrough()));
    const port = await closedPort();
    const api = new InstantClient({
      baseUrl: `http://127.0.0.1:${port}/v2`,
      auth: {
        tokenUrl: `http://127.0.0.1:${port}/oauth/token`,
        clientId: 'id',
        clientSecret: SECRET,
        tokenRequestFormat: format,
      },
      maxRetries: 0,
    });
    const error = await failure(() => api.cob.get('abcdefghijklmnopqrstuvwxyz123'));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(
      /could not reach the token endpoint \(auth\.tokenUrl\): connection refused.*ECONNREFUSED/,
    );
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(SECRET);
  });

  it('a host name that does not resolve', async () => {
    net.server.use(http.all(/^https:\/\/token\.invalid\//, () => passthrough()));
    const api = new InstantClient({
      baseUrl: 'https://api.invalid/v2',
      auth: { tokenUrl: 'https://token.invalid/oauth/token', clientId: 'id', clientSecret: SECRET },
      maxRetries: 0,
    });
    const error = await failure(() => api.cob.get('abcdefghijklmnopqrstuvwxyz123'));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(
      /could not reach the token endpoint \(auth\.tokenUrl\): .*(ENOTFOUND|EAI_AGAIN)/,
    );
  });
});
