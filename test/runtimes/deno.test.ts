/**
 * The package on Deno (npm's `deno`): app.js served by Deno.serve, against a listening sandbox.
 * Nothing on stderr: Deno.serve warned when a handler read `request.signal`.
 */
import { it } from 'vitest';
import { runServed } from './harness.ts';

it('runs the payer, qr and backend entries, and Deno.serve receives and confirms a payment notification, with no warning', async () => {
  await runServed('deno', ['run', '--allow-net', '--allow-env', '--allow-read', 'serve-deno.js']);
}, 90_000);
