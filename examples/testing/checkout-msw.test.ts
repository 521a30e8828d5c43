import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InstantClient } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { isPaid, openCheckout } from './checkout.ts';

// The sandbox's handlers answer the SDK's requests inside the test process: no port, no network.
const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

test('an order is paid once the payer pays its charge', async () => {
  const api = new InstantClient(sandbox.clientOptions());
  const [key = ''] = sandbox.ownKeys;
  const { txid, copyAndPaste } = await openCheckout(api, key, { id: '1001', total: '59.90' });
  expect(copyAndPaste).toMatch(/^000201/);
  expect(await isPaid(api, txid)).toBe(false);

  await sandbox.payCharge(txid);
  expect(await isPaid(api, txid)).toBe(true);
});
