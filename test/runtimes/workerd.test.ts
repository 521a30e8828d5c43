/**
 * The package on Cloudflare's workerd (npm's `workerd`): app.js bundled by wrangler without
 * `nodejs_compat` at an early compatibility date, served as the worker's `fetch` by `workerd
 * serve`, against a listening sandbox (the worker may reach loopback addresses: the config's
 * network service allows them).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { COMPATIBILITY_DATE, nodeOnly, wranglerBundle } from './bundle.ts';
import { bin, exercise, listeningSandbox, project } from './harness.ts';

it('runs the payer, qr and backend entries, and the worker fetch receives and confirms a payment notification', async () => {
  const workerd = bin('workerd');
  const folder = project();
  const { sandbox, env } = await listeningSandbox();
  try {
    const bundle = await wranglerBundle(bin('wrangler'), folder.dir, 'app.js');
    expect(nodeOnly(bundle)).toEqual([]);
    writeFileSync(join(folder.dir, 'app.bundle.js'), bundle.code);
    writeFileSync(join(folder.dir, 'config.capnp'), CONFIG);
    // workerd tells the port it listens on through --control-fd.
    const worker = spawn(workerd, ['serve', 'config.capnp', '--socket-addr=http=127.0.0.1:0', '--control-fd=3'], {
      cwd: folder.dir,
      env: { ...process.env, SANDBOX: env },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    worker.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let control = '';
        worker.once('exit', (code) => reject(new Error(`workerd exited (${code}):\n${stderr}`)));
        (worker.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
          control += chunk.toString();
          const port = /"port":(\d+)/.exec(control)?.[1];
          if (port) resolve(`http://127.0.0.1:${port}`);
        });
      });
      const report = await exercise(origin, sandbox);
      expect(report.compression).toBe(true);
      expect(stderr).not.toMatch(/error|uncaught/i);
    } finally {
      worker.kill('SIGKILL');
    }
  } finally {
    await sandbox.close();
    folder.remove();
  }
}, 120_000);

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
