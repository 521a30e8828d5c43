/**
 * The package as an edge function: app.js bundled by `esbuild --platform=browser` and run by
 * Vercel's edge-runtime (npm's `edge-runtime`, web APIs only, no `CompressionStream`: the PNG
 * is deflated by fflate there), against a listening sandbox.
 */
import { EdgeRuntime, runServer } from 'edge-runtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox.ts';
import { browserBundle, nodeOnly } from './bundle.ts';
import { exercise, listeningSandbox, project } from './harness.ts';

let sandbox: Sandbox;
let server: Awaited<ReturnType<typeof runServer>> | undefined;
let folder: ReturnType<typeof project>;
let problems: string[];

beforeAll(async () => {
  folder = project();
  const started = await listeningSandbox();
  sandbox = started.sandbox;
  const bundle = await browserBundle(folder.dir, 'edge-entry.js', 'iife');
  problems = nodeOnly(bundle);
  const runtime = new EdgeRuntime({ initialCode: `globalThis.SANDBOX = ${JSON.stringify(started.env)};\n${bundle.code}` });
  server = await runServer({ runtime, host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await sandbox?.close();
  folder?.remove();
});

it('runs the payer, qr and backend entries, and the fetch listener receives and confirms a payment notification', async () => {
  expect(problems).toEqual([]);
  const report = await exercise(server!.url.replace(/\/$/, ''), sandbox);
  expect(report.compression).toBe(false);
}, 60_000);
