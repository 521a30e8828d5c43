/**
 * What the runtime tests share: a listening sandbox, a server process read for its origin, and
 * the checks of what app.js reports (the project folder and binaries: bundle.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { decode } from 'fast-png';
import jsQRModule from 'jsqr';
import { expect } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';

import { bin, project } from './bundle.ts';

export { bin, project };

const jsQR = jsQRModule.default;

/** A sandbox listening on 127.0.0.1, and app.js's `env.SANDBOX` for it. */
export async function listeningSandbox(): Promise<{ sandbox: Sandbox; env: string }> {
  const sandbox = createSandbox({ seed: 1 });
  await sandbox.listen({ port: 0 });
  return { sandbox, env: JSON.stringify({ origin: sandbox.origin, client: sandbox.clientOptions() }) };
}

export interface Served {
  origin: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Kills the process and everything it started (npm's `deno` is a Node script that spawns the binary). */
  stop(): void;
}

/** Starts a server process and waits for its `listening <origin>` line. */
export function serve(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<Served> {
  // Its own process group, so that killing the group takes a launcher's child with it.
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL'); // the group is gone already, or never formed
    }
  };
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${command} did not start in 30 s:\n${out}\n${err}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      kill();
      reject(error);
    };
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`${command} exited (${code}) before listening:\n${out}\n${err}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const origin = /listening (http:\/\/\S+)/.exec(out)?.[1];
      if (!origin) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ origin, stderr: () => err, stop: kill });
    });
  });
}

/** What app.js's POST /run answers. */
export interface RunReport {
  txid: string;
  cob: { status: string; original: string };
  listed: boolean;
  rec: { idRec: string; status: string };
  brcode: { url: string; built: string };
  payload: { txid: string; original: string };
  recPayload: { idRec: string };
  svg: string;
  png: string;
  compression: boolean;
}

/**
 * Runs app.js's scenario at `origin` (`self`: where the sandbox reaches it, the same unless a
 * proxy sits between), checks every entry's part, then waits until the runtime's handler has
 * received and confirmed the sandbox's payment notification. Returns the report.
 */
export async function exercise(origin: string, sandbox: Sandbox, self = origin): Promise<RunReport> {
  const answer = await fetch(`${origin}/run`, { method: 'POST', body: JSON.stringify({ self }) });
  const report = (await answer.json()) as RunReport & { error?: string; stack?: string };
  expect(report.error, report.stack).toBeUndefined();
  expect(answer.status).toBe(200);
  expect(report).toMatchObject({
    cob: { status: 'ATIVA', original: '12.34' },
    listed: true,
    rec: { status: 'CRIADA' },
    brcode: { built: 'RT1' },
    payload: { txid: report.txid, original: '12.34' },
    recPayload: { idRec: report.rec.idRec },
  });
  expect(report.brcode.url).toMatch(/\/qr\/v2\//);
  expect(report.svg).toMatch(/^<svg /);
  const png = Uint8Array.from(atob(report.png), (c) => c.charCodeAt(0));
  expect(readQr(png)).toBe(await brcodeOf(sandbox, report.txid));
  // Compressed: the same image stored uncompressed is over 20 KB.
  expect(png.length).toBeLessThan(4_000);

  await expect
    .poll(async () => ((await (await fetch(`${origin}/paid?txid=${report.txid}`)).json()) as { paid: boolean }).paid, {
      timeout: 10_000,
    })
    .toBe(true);
  const sent = sandbox.notifications().filter((n) => JSON.stringify(n).includes(report.txid));
  expect(sent.length).toBeGreaterThan(0);
  return report;
}

async function brcodeOf(sandbox: Sandbox, txid: string): Promise<string> {
  const { InstantClient } = await import('../../src/index.ts');
  const api = new InstantClient(sandbox.clientOptions());
  try {
    return (await api.cob.get(txid)).instantCopiaECola ?? '';
  } finally {
    await api.close();
  }
}

/** The QR code a 1-bit greyscale PNG shows, read by fast-png and jsQR. */
function readQr(png: Uint8Array): string | undefined {
  const image = decode(png);
  const { width, height } = image;
  const rowBytes = Math.ceil((width * image.depth * image.channels) / 8);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = (image.data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
      rgba.set([value, value, value, 255], (y * width + x) * 4);
    }
  }
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })?.data;
}

/**
 * The whole test of a runtime that serves app.js itself: a project folder and a sandbox, the
 * server started with `command args` (printing `listening <origin>`), app.js's scenario, and
 * nothing on the server's stderr (no warning). A missing binary fails the test.
 */
export async function runServed(name: string, args: string[]): Promise<void> {
  const command = bin(name);
  const folder = project();
  const { sandbox, env } = await listeningSandbox();
  try {
    const app = await serve(command, args, { cwd: folder.dir, env: { SANDBOX: env } });
    try {
      const report = await exercise(app.origin, sandbox);
      expect(report.compression).toBe(true);
      expect(app.stderr()).toBe('');
    } finally {
      app.stop();
    }
    // Nothing of the runtime is left listening once the test is over.
    await expect
      .poll(
        () =>
          fetch(app.origin).then(
            () => 'answered',
            () => 'refused',
          ),
        { timeout: 5_000 },
      )
      .toBe('refused');
  } finally {
    await sandbox.close();
    folder.remove();
  }
}
