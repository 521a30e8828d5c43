/**
 * What a newcomer hit building a merchant app and a payer script against the sandbox (issue 29,
 * item 7): each refusal or failure says what went wrong and what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  CobOperacaoInvalida,
  InstantClient,
} from '../../src/index.ts';
import { INSTANT_LIST_KEY } from '../../src/collection/instant.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { InvalidLocationError, PayerClient } from '../../src/payer.ts';
import { createSandbox, sandboxPayerOptions, type Sandbox } from '../../src/sandbox.ts';
import { cobBody } from './support.ts';

let sandbox: Sandbox;
let api: InstantClient;

beforeAll(async () => {
  sandbox = createSandbox({ seed: 29 });
  await sandbox.listen();
  api = new InstantClient({ ...sandbox.clientOptions(), maxRetries: 0 });
});

afterAll(async () => {
  await api.close();
  await sandbox.close();
});

describe('a payer in another process', () => {
  it('cannot reach the http sandbox over https: the error names the real cause and sandboxPayerOptions', async () => {
    const cob = await api.cob.create(generateTxid(), cobBody(sandbox.ownKeys[0]!));
    const error = await new PayerClient({ allowPrivateHosts: true, maxRetries: 0 }).cobPayload
      .getCob(cob.location!)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const message = (error as Error).message;
    // The TLS failure two causes down, not fetch's bare "fetch failed".
    expect(message).not.toMatch(/failed: fetch failed/);
    expect(message).toMatch(/SSL|TLS/);
    expect(message).toContain('sandboxPayerOptions(origin)');
  });

  it('reaches it with sandboxPayerOptions(origin), built from the origin alone', async () => {
    const cob = await api.cob.create(generateTxid(), cobBody(sandbox.ownKeys[0]!));
    const payer = new PayerClient(sandboxPayerOptions(sandbox.origin));
    await expect(payer.cobPayload.getCob(cob.location!)).resolves.toMatchObject({ txid: cob.txid });
  });

  it('an https location elsewhere that fails gets no sandbox hint', async () => {
    const payer = new PayerClient({
      allowPrivateHosts: true,
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const error = await payer.cobPayload.getCob('pay.example.com/qr/v2/abc').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).not.toContain('sandboxPayerOptions');
  });
});

describe('an amount given as a number', () => {
  it('is refused saying it got a number, with the string to pass', async () => {
    const body = { ...cobBody(sandbox.ownKeys[0]!), valor: { original: 59.9 as unknown as string } };
    const error = await api.cob.create(generateTxid(), body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CobOperacaoInvalida);
    expect((error as Error).message).toContain('got the number 59.9; pass the string "59.90"');
  });

  it('a one-decimal string is told the string to write, not a regular expression', async () => {
    const body = { ...cobBody(sandbox.ownKeys[0]!), valor: { original: '59.9' } };
    const error = await api.cob.create(generateTxid(), body).catch((e: unknown) => e);
    expect((error as Error).message).toContain('(cob.valor.original: needs two decimals: write "59.90", not "59.9")');
    expect((error as Error).message).not.toMatch(/number|\\d/);
    const other = await api.cob
      .create(generateTxid(), { ...body, valor: { original: 'ten' } })
      .catch((e: unknown) => e);
    expect((other as Error).message).toContain(
      '(cob.valor.original: must be a decimal string with two decimals, such as "10.00")',
    );
  });
});

describe('a baseUrl without its version segment', () => {
  it('answers 404 naming the route under baseUrl and suggesting to check it', async () => {
    const unversioned = new InstantClient({ ...sandbox.clientOptions(), baseUrl: sandbox.origin, maxRetries: 0 });
    try {
      const error = await unversioned.cob.get(generateTxid()).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 404 });
      expect((error as Error).message).toContain(`no route GET ${sandbox.origin}/cob/{}`);
      expect((error as Error).message).toContain('check that baseUrl ends with');
    } finally {
      await unversioned.close();
    }
  });

  it('a charge that does not exist under the right baseUrl gets no such hint', async () => {
    const error = await api.cob.get(generateTxid()).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, errorType: 'CobNaoEncontrado' });
    expect((error as Error).message).not.toContain('baseUrl');
  });
});

describe('a webhook URL that already ends with the appended segment', () => {
  it('is refused with a ConfigurationError saying notifications would land at .../instant/instant', async () => {
    const key = sandbox.ownKeys[0]!;
    for (const segment of ['instant', INSTANT_LIST_KEY]) {
      const error = await api.webhook.put(key, `https://shop.example/webhook/${segment}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ option: 'webhookUrl' });
      expect((error as Error).message).toContain(`notifications would land at .../${segment}/${segment}`);
      // The URL itself is not repeated (it may carry a secret path).
      expect((error as Error).message).not.toContain('shop.example');
    }
    // Nothing was registered; the URL without the segment is.
    await expect(api.webhook.get(key)).rejects.toMatchObject({ status: 404 });
    await api.webhook.put(key, 'https://shop.example/webhook');
    expect((await api.webhook.get(key)).webhookUrl).toBe('https://shop.example/webhook');
  });

  it('the recurring registrations refuse the same for /rec and /cobr', async () => {
    const refused = await Promise.all([
      api.webhookrec.put('https://shop.example/hooks/rec/').catch((e: unknown) => e),
      api.webhookcobr.put('https://shop.example/hooks/cobr').catch((e: unknown) => e),
    ]);
    expect(refused.map((e) => /\.\.\.(\/\w+\/\w+)/.exec((e as Error).message)?.[1])).toEqual([
      '/rec/rec',
      '/cobr/cobr',
    ]);
    expect(refused.every((e) => e instanceof ConfigurationError)).toBe(true);
    await api.webhookcobr.put('https://shop.example/hooks/rec');
  });
});

describe('refusals a newcomer reads (issue 40)', () => {
  it("name each field once, as `field: reason`; the service's reason quoted as it was sent", async () => {
    const key = sandbox.ownKeys[0]!;
    const own = await api.cob.create('short', cobBody(key)).catch((e: unknown) => e);
    expect((own as Error).message).toContain('(txid: must be 26 to 35 letters or digits)');
    const cobv = await api.cobv.create(generateTxid(), {
      calendario: { dataDeVencimento: '2099-01-10' },
      devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
      valor: { original: '5.00' },
      chave: key,
    });
    const payer = new PayerClient({ ...sandbox.payerOptions(), maxRetries: 0 });
    const wire = await payer.cobPayload
      .getCobv(cobv.location!, { codMun: '5300108', DPP: '2099-12-31' })
      .catch((e: unknown) => e);
    const message = (wire as Error).message;
    expect(message).toMatch(/: the service says "[^"]+" \(DPP: "DPP excede a validade/);
    expect(message).not.toContain('DPP DPP');
  });

  it('a whole BR Code given where a location is expected says so and shows brcode.parse(code).url', async () => {
    const cob = await api.cob.create(generateTxid(), cobBody(sandbox.ownKeys[0]!));
    const payer = new PayerClient(sandbox.payerOptions());
    const error = await payer.cobPayload.getCob(cob.instantCopiaECola!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidLocationError);
    expect((error as Error).message).toContain('this is a whole BR Code, not a location: pass brcode.parse(code).url');
  });

  it("keeps the service's ordinary words when the secret is one of them", async () => {
    const client = new InstantClient({
      ...sandbox.clientOptions(),
      auth: { ...sandbox.credentials, clientSecret: 'wrong' },
      maxRetries: 0,
    });
    try {
      const error = await client.cob.get(generateTxid()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as Error).message).toContain('Unknown client or wrong secret.');
    } finally {
      await client.close();
    }
  });
});
