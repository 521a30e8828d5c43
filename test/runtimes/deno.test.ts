/** The package on Deno (npm's `deno`): app.js served by Deno.serve, against a listening sandbox. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox.ts';
import { bin, exercise, listeningSandbox, project, serve, type Served } from './harness.ts';

let sandbox: Sandbox;
let app: Served;
let folder: ReturnType<typeof project>;

beforeAll(async () => {
  folder = project();
  const started = await listeningSandbox();
  sandbox = started.sandbox;
  app = await serve(bin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', 'serve-deno.js'], { cwd: folder.dir, env: { SANDBOX: started.env } });
}, 60_000);

afterAll(async () => {
  app?.stop();
  await sandbox?.close();
  folder?.remove();
});

it('runs the payer, qr and backend entries, and Deno.serve receives and confirms a payment notification', async () => {
  const report = await exercise(app.origin, sandbox);
  expect(report.compression).toBe(true);
  // No warning either (Deno once warned on reading `request.signal` under Deno.serve).
  expect(app.stderr()).toBe('');
}, 60_000);
