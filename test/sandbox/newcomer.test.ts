/**
 * What a newcomer hit building a merchant app and a payer script against the sandbox (issue 29,
 * item 7): each refusal or failure says what went wrong and what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, CobOperacaoInvalida, InstantClient, type Logger } from '../../src/index.ts';
import { INSTANT_LIST_KEY } from '../../src/collection/instant.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
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

/** A logger that keeps its warnings. */
function recording(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { logger: { warn: (message: string) => void warnings.push(message) }, warnings };
}

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

  it('a string that is not an amount keeps its message', async () => {
    const body = { ...cobBody(sandbox.ownKeys[0]!), valor: { original: '59.9' } };
    const error = await api.cob.create(generateTxid(), body).catch((e: unknown) => e);
    expect((error as Error).message).toContain('valor.original must match');
    expect((error as Error).message).not.toContain('number');
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
  it('is registered, with a warning that notifications go to .../instant/instant', async () => {
    const { logger, warnings } = recording();
    const client = new InstantClient({ ...sandbox.clientOptions(), logger });
    try {
      await client.webhook.put(sandbox.ownKeys[0]!, 'https://shop.example/webhook/instant');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('/instant/instant');
      // The URL itself is not logged (it may carry a secret path).
      expect(warnings[0]).not.toContain('shop.example');
      await client.webhook.put(sandbox.ownKeys[0]!, 'https://shop.example/webhook');
      expect(warnings).toHaveLength(1);
      // The service's own list name (the sandbox's is `instant`).
      await client.webhook.put(sandbox.ownKeys[0]!, `https://shop.example/webhook/${INSTANT_LIST_KEY}`);
      expect(warnings[1]).toContain(`/${INSTANT_LIST_KEY}/${INSTANT_LIST_KEY}`);
    } finally {
      await client.close();
    }
  });

  it('the recurring registrations warn the same for /rec and /cobr', async () => {
    const { logger, warnings } = recording();
    const client = new InstantClient({ ...sandbox.clientOptions(), logger });
    try {
      await client.webhookrec.put('https://shop.example/hooks/rec/');
      await client.webhookcobr.put('https://shop.example/hooks/cobr');
      await client.webhookcobr.put('https://shop.example/hooks/rec');
      expect(warnings.map((w) => /\.\.\.(\/\w+\/\w+)/.exec(w)?.[1])).toEqual(['/rec/rec', '/cobr/cobr']);
    } finally {
      await client.close();
    }
  });
});
