/** The package on Bun (npm's `bun`): app.js served by Bun.serve, against a listening sandbox. */
import { it } from 'vitest';
import { runServed } from './harness.ts';

it('runs the payer, qr and backend entries, and Bun.serve receives and confirms a payment notification', async () => {
  await runServed('bun', ['serve-bun.js']);
}, 90_000);
