/**
 * The package as an edge function: app.js bundled by `esbuild --platform=browser` and run by
 * Vercel's edge-runtime (npm's `edge-runtime`, web APIs only, no `CompressionStream`: the PNG
 * is deflated by src/qr/deflate.ts there), against a listening sandbox.
 */
import { EdgeRuntime, runServer } from 'edge-runtime';
import { expect, it } from 'vitest';
import { browserBundle, nodeOnly } from './bundle.ts';
import { exercise, listeningSandbox, project } from './harness.ts';

it('runs the payer, qr and backend entries, and the fetch listener receives and confirms a payment notification', async () => {
  const folder = project();
  const { sandbox, env } = await listeningSandbox();
  try {
    const bundle = await browserBundle(folder.dir, 'edge-entry.js', 'iife');
    expect(nodeOnly(bundle)).toEqual([]);
    const runtime = new EdgeRuntime({ initialCode: `globalThis.SANDBOX = ${JSON.stringify(env)};\n${bundle.code}` });
    const server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
    try {
      const report = await exercise(server.url.replace(/\/$/, ''), sandbox);
      expect(report.compression).toBe(false);
    } finally {
      await server.close();
    }
  } finally {
    await sandbox.close();
    folder.remove();
  }
}, 90_000);
