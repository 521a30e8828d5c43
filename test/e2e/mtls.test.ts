/** The SDK over mTLS: the sandbox on HTTPS demanding a client certificate from its CA. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Agent } from 'undici';
import { AuthenticationError, CashOutClient, InstantClient, generateTxid } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';

const pem = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
const sandbox = createSandbox({ seed: 3 });
const tls = { cert: pem('client.pem'), key: pem('client.key'), ca: pem('ca.pem') };

beforeAll(() =>
  sandbox.listen({ port: 0, tls: { cert: pem('server.pem'), key: pem('server.key'), ca: pem('ca.pem') } }),
);
afterAll(() => sandbox.close());

it('creates and reads a charge, and reads the balance, with a client certificate', async () => {
  const api = new InstantClient({ ...sandbox.clientOptions(), tls });
  const cashOut = new CashOutClient({ ...sandbox.cashOutOptions(), tls });
  try {
    expect(sandbox.clientOptions().baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v2$/);
    const txid = generateTxid();
    await api.cob.create(txid, {
      calendario: { expiracao: 60 },
      valor: { original: '7.00' },
      chave: sandbox.ownKeys[0] ?? '',
    });
    expect((await api.cob.get(txid)).valor.original).toBe('7.00');
    expect((await cashOut.balance.get()).available).toBe('1000.00');
  } finally {
    await Promise.all([api.close(), cashOut.close()]);
  }
});

it('is refused without a client certificate (the token endpoint too)', async () => {
  // Trusts the sandbox's CA, presents no certificate.
  const agent = new Agent({ connect: { ca: pem('ca.pem') } });
  const api = new InstantClient({
    ...sandbox.clientOptions(),
    fetch: (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit),
    maxRetries: 0,
  });
  try {
    await expect(api.cob.get(generateTxid())).rejects.toBeInstanceOf(AuthenticationError);
  } finally {
    await agent.close();
  }
});
