/** The package on Deno (npm's `deno`): app.js served by Deno.serve, against a listening sandbox. */
import { expect, it } from 'vitest';
import { bin, exercise, listeningSandbox, project, serve } from './harness.ts';

it('runs the payer, qr and backend entries, and Deno.serve receives and confirms a payment notification, with no warning', async () => {
  const folder = project();
  const { sandbox, env } = await listeningSandbox();
  try {
    const args = ['run', '--allow-net', '--allow-env', '--allow-read', 'serve-deno.js'];
    const app = await serve(bin('deno'), args, { cwd: folder.dir, env: { SANDBOX: env } });
    try {
      const report = await exercise(app.origin, sandbox);
      expect(report.compression).toBe(true);
      // Nothing on stderr: Deno.serve warned when a handler read `request.signal`.
      expect(app.stderr()).toBe('');
    } finally {
      app.stop();
    }
  } finally {
    await sandbox.close();
    folder.remove();
  }
}, 90_000);
