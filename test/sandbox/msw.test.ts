/**
 * The same service through `sandbox.handlers` in msw's setupServer: no port, no network. The
 * client, the payer and the webhook all meet the sandbox on its virtual origin.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CobOperacaoInvalida, ConnectionError, InstantClient } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { createSandbox, VIRTUAL_ORIGIN } from '../../src/sandbox.ts';
import { CPF, cobBody, properties, refusal } from './support.ts';

const sandbox = createSandbox({ seed: 11 });
const notifications: unknown[] = [];
const server = setupServer(
  ...sandbox.handlers,
  http.post('https://merchant.example/hooks/instant', async ({ request }) => {
    notifications.push(await request.json());
    return new HttpResponse(null, { status: 200 });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(async () => {
  server.close();
  await sandbox.close();
});

describe('sandbox.handlers', () => {
  it('serves the collection API, the payer side and the webhook on the virtual origin', async () => {
    expect(sandbox.clientOptions().baseUrl).toBe(`${VIRTUAL_ORIGIN}/v2`);
    const api = new InstantClient({ ...sandbox.clientOptions(), validate: false, maxRetries: 0 });
    const key = sandbox.ownKeys[0]!;
    await api.webhook.put(key, 'https://merchant.example/hooks');
    const txid = generateTxid();
    const cob = await api.cob.create(txid, cobBody(key, '15.00'));
    const payer = new PayerClient(sandbox.payerOptions());
    await expect(payer.cobPayload.getCob(cob.location!)).resolves.toMatchObject({ txid, valor: { original: '15.00' } });
    const payment = await sandbox.payCharge(txid);
    expect(notifications).toEqual([{ instant: [expect.objectContaining({ endToEndId: payment.endToEndId, txid })] }]);
    const error = await refusal(api.cob.create(generateTxid(), { ...cobBody(key), chave: CPF }));
    expect(error).toBeInstanceOf(CobOperacaoInvalida);
    expect(properties(error)).toEqual(['cob.chave']);
  });

  it('answers a dropped connection as a network error', async () => {
    const api = new InstantClient({ ...sandbox.clientOptions(), maxRetries: 0 });
    await api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z' });
    sandbox.injectFaults({ rate: 1, kinds: ['drop-before'] });
    try {
      await expect(api.cob.get(generateTxid())).rejects.toBeInstanceOf(ConnectionError);
    } finally {
      sandbox.injectFaults({ rate: 0 });
    }
  });
});
