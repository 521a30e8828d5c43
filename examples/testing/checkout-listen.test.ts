import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { openCheckout, paymentsWebhook } from './checkout.ts';

// A real HTTP server on 127.0.0.1: the sandbox can call your webhook back.
const sandbox = createSandbox();
beforeAll(() => sandbox.listen({ port: 0 }));
afterAll(() => sandbox.close());

test('the webhook marks the order paid', async () => {
  const api = new InstantClient(sandbox.clientOptions());
  const [key = ''] = sandbox.ownKeys;
  const paid: string[] = [];
  const webhook = createServer(paymentsWebhook(api, async (txid) => void paid.push(txid)));
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  try {
    await api.webhook.put(key, `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/webhook`);
    const { txid } = await openCheckout(api, key, { id: '1002', total: '10.00' });

    await sandbox.payCharge(txid); // POSTs the notification to the webhook
    await expect.poll(() => paid).toEqual([txid]);
  } finally {
    webhook.close();
  }
});
