/** The package on Bun (npm's `bun`): app.js served by Bun.serve, against a listening sandbox. */
import { expect, it } from 'vitest';
import { bin, exercise, listeningSandbox, project, serve } from './harness.ts';

it('runs the payer, qr and backend entries, and Bun.serve receives and confirms a payment notification', async () => {
  const folder = project();
  const { sandbox, env } = await listeningSandbox();
  try {
    const app = await serve(bin('bun'), ['serve-bun.js'], { cwd: folder.dir, env: { SANDBOX: env } });
    try {
      const report = await exercise(app.origin, sandbox);
      expect(report.compression).toBe(true);
      expect(app.stderr()).toBe('');
    } finally {
      app.stop();
    }
  } finally {
    await sandbox.close();
    folder.remove();
  }
}, 90_000);
