/**
 * The package on Cloudflare's workerd (npm's `workerd`): app.js bundled by wrangler without
 * `nodejs_compat` at an early compatibility date, served as the worker's `fetch` by `workerd
 * serve`, against a listening sandbox (the worker may reach loopback addresses: the config's
 * network service allows them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox.ts';
import { COMPATIBILITY_DATE, nodeOnly, wranglerBundle } from './bundle.ts';
import { bin, exercise, listeningSandbox, project } from './harness.ts';

let sandbox: Sandbox;
let worker: ChildProcess | undefined;
let stderr = '';
let origin: string;
let folder: ReturnType<typeof project>;
let problems: string[];

beforeAll(async () => {
  bin('workerd');
  folder = project();
  const started = await listeningSandbox();
  sandbox = started.sandbox;
  const bundle = await wranglerBundle(bin('wrangler'), folder.dir, 'app.js');
  problems = nodeOnly(bundle);
  writeFileSync(join(folder.dir, 'app.bundle.js'), bundle.code);
  writeFileSync(join(folder.dir, 'config.capnp'), CONFIG);
  // workerd tells the port it listens on through --control-fd.
  worker = spawn(bin('workerd'), ['serve', 'config.capnp', '--socket-addr=http=127.0.0.1:0', '--control-fd=3'], {
    cwd: folder.dir,
    env: { ...process.env, SANDBOX: started.env },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  worker.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  origin = await new Promise<string>((resolve, reject) => {
    let control = '';
    worker!.once('exit', (code) => reject(new Error(`workerd exited (${code}):\n${stderr}`)));
    (worker!.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      control += chunk.toString();
      const port = /"port":(\d+)/.exec(control)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
  });
}, 90_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await sandbox?.close();
  folder?.remove();
});

it('runs the payer, qr and backend entries, and the worker fetch receives and confirms a payment notification', async () => {
  expect(problems).toEqual([]);
  const report = await exercise(origin, sandbox);
  expect(report.compression).toBe(true);
  expect(stderr).not.toMatch(/error|uncaught/i);
}, 60_000);

const CONFIG = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "app", worker = .app),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", http = (), service = "app")],
);
const app :Workerd.Worker = (
  modules = [(name = "app.js", esModule = embed "app.bundle.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  bindings = [(name = "SANDBOX", fromEnvironment = "SANDBOX")],
  globalOutbound = "internet",
);
`;
