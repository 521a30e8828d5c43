/**
 * The sandbox command for clients in other languages, as a newcomer meets it: the docs' own
 * curl flow (receiving user and recurring part) over TLS against the docs' own command, a JSON
 * token body under `--lenient-token`, the files `--tls-dir` writes (`.p12` and `sandbox.env`
 * included), the scheme the banner names, a port in use, the certificate-less token request
 * and http webhooks off loopback.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startCommand } from './support.ts';

const CLI = fileURLToPath(new URL('../../src/sandbox-cli.ts', import.meta.url));
const GUIDE = readFileSync(new URL('../../docs/sandbox-and-testing.md', import.meta.url), 'utf8');
const run = promisify(execFile);
const running: Array<() => Promise<void>> = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((stop) => stop()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-other-languages-'));
  folders.push(dir);
  return dir;
}

/** Starts the command in `cwd` on a free port, stopped after the test; its whole printout. */
async function startCli(args: string[], cwd: string): Promise<string> {
  const { out, stop } = await startCommand(args, { cwd, timeoutMs: 90_000 });
  running.push(stop);
  return out;
}

/** The guide's section on other languages: the command it starts, and its shell block. */
function guideFlow(): { args: string[]; script: string } {
  const section = GUIDE.slice(GUIDE.indexOf('## Clients in other languages'));
  const command = /`npx instant-payments sandbox ([^`]+)`/.exec(section)![1]!;
  const script = /```sh\n([\s\S]*?)\n```/.exec(section)![1]!;
  return { args: command.split(' '), script };
}

/** `sandbox.env` parsed (single-quoted values, as the command writes them). */
function readEnv(path: string): Record<string, string> {
  return Object.fromEntries(
    [...readFileSync(path, 'utf8').matchAll(/^(\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!] as const),
  );
}

describe('a client in another language', () => {
  it("runs the guide's curl flow, receiving user and recurring part, over TLS against the guide's command", async () => {
    const cwd = folder();
    const { args, script } = guideFlow();
    expect(args).toContain('--tls-dir');
    await startCli(args, cwd);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd, timeout: 60_000 });
    expect(stdout).toMatch(
      /^flow done: charge \w+ paid by E\w{31}, recurrence RR\w+ approved, recurring charge \w+ settled$/m,
    );
  }, 90_000);

  it('gets a token with a JSON body under --lenient-token, and is refused one without a certificate in the OAuth shape', async () => {
    const cwd = folder();
    await startCli(['--tls-dir', 'tls', '--lenient-token', '--seed', '8'], cwd);
    const env = readEnv(join(cwd, 'tls', 'sandbox.env'));
    const body = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: env['INSTANT_CLIENT_ID'],
      client_secret: env['INSTANT_CLIENT_SECRET'],
    });
    const curl = (...more: string[]) =>
      run('curl', ['-sS', '--cacert', env['INSTANT_CA']!, '-H', 'Content-Type: application/json', '-d', body, ...more]);
    const granted = await curl(
      '--cert',
      env['INSTANT_CLIENT_CERT']!,
      '--key',
      env['INSTANT_CLIENT_KEY']!,
      env['INSTANT_TOKEN_URL']!,
    );
    expect(JSON.parse(granted.stdout)).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
    const anonymous = await curl('-w', '\n%{http_code}', env['INSTANT_TOKEN_URL']!);
    const [text, status] = anonymous.stdout.split('\n');
    expect(status).toBe('401');
    expect(JSON.parse(text!)).toEqual({
      error: 'invalid_client',
      error_description: expect.stringContaining('certificate'),
    });
  }, 30_000);

  it('writes the certificates, a .p12 that opens with the printed passphrase, the webhook CA and sandbox.env as printed; the banner says HTTPS', async () => {
    const cwd = folder();
    const out = await startCli(['--tls-dir', 'tls', '--webhook-mtls', '--seed', '9'], cwd);
    const dir = join(cwd, 'tls');
    expect(out.split('\n')[0]).toMatch(/^instant-payments sandbox serving HTTPS .* on https:\/\/127\.0\.0\.1:\d+ /);
    expect(out).not.toMatch(/speaks http\b/);
    const passphrase = /client \.p12 +\S+ +\(passphrase (\w+)\)/.exec(out)![1]!;
    const env = readEnv(join(dir, 'sandbox.env'));
    expect(env['INSTANT_CLIENT_P12_PASSPHRASE']).toBe(passphrase);
    for (const [name, value] of Object.entries(env)) expect(out).toContain(`  ${name}='${value}'`);
    expect(env['INSTANT_BASE_URL']).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(env['INSTANT_WEBHOOK_CA']).toBe(join(dir, 'webhook-ca.pem'));
    expect(readFileSync(env['INSTANT_WEBHOOK_CA']!, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    // The .p12 logs in where the PEM pair does (curl reads PKCS#12 with its passphrase).
    const token = await run('curl', [
      '-sS',
      '--fail-with-body',
      '--cacert',
      env['INSTANT_CA']!,
      '--cert-type',
      'P12',
      '--cert',
      `${env['INSTANT_CLIENT_P12']}:${passphrase}`,
      env['INSTANT_TOKEN_URL']!,
      '-d',
      `grant_type=client_credentials&client_id=${env['INSTANT_CLIENT_ID']}`,
    ]);
    expect(JSON.parse(token.stdout)).toMatchObject({ access_token: expect.any(String) });
    const wrong = spawnSync('openssl', [
      'pkcs12',
      '-in',
      env['INSTANT_CLIENT_P12']!,
      '-passin',
      'pass:wrong',
      '-noout',
    ]);
    expect(wrong.status).not.toBe(0);
  }, 30_000);

  it('says in one line that a port is in use, suggesting --port', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const result = spawnSync(process.execPath, [CLI, '--port', String(port)], { encoding: 'utf8', timeout: 20_000 });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `Port ${port} on 127.0.0.1 is in use: choose another with --port N (--port 0 takes any free port).`,
      ]);
    } finally {
      server.close();
    }
  }, 30_000);

  it('takes an http webhook URL off loopback with --allow-http-webhooks; without it the refusal names the flag', async () => {
    const register = async (args: string[]) => {
      const out = await startCli(['--seed', '12', ...args], folder());
      const env = Object.fromEntries([...out.matchAll(/^ {2}(\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!] as const));
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: env['INSTANT_CLIENT_ID']!,
        client_secret: env['INSTANT_CLIENT_SECRET']!,
      });
      const { access_token } = (await (
        await fetch(env['INSTANT_TOKEN_URL']!, { method: 'POST', body: form })
      ).json()) as {
        access_token: string;
      };
      return fetch(`${env['INSTANT_BASE_URL']}/webhook/${env['INSTANT_RECEIVER_KEY']}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ webhookUrl: 'http://receiver:8080/hooks' }),
      });
    };
    const refused = await register([]);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('--allow-http-webhooks');
    expect((await register(['--allow-http-webhooks'])).status).toBe(200);
  }, 30_000);
});
