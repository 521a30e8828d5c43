/**
 * The `instant-payments` command as a user runs it: the package is built with its own tsup
 * config (into a folder under node_modules/.cache, so the built files resolve the package's
 * dependencies as an install would), and `node dist/cli.js ...` is spawned.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MANUAL_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
/** Accented name and city, uppercase GUI, and a CRC that does not match. */
const BROKEN =
  '00020126330014BR.GOV.BCB.PIX0111529982247255204000053039865802BR5904José6009São Paulo62070503***6304D31D';

let work: string;
let cli: string;

beforeAll(() => {
  // A fresh install has no node_modules/.cache yet.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  work = mkdtempSync(join(root, 'node_modules/.cache/cli-test-'));
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/tsup/dist/cli-default.js'), '--silent', '--out-dir', join(work, 'dist')],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  cli = join(work, 'dist/cli.js');
}, 180_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', timeout: 20_000 });

describe('instant-payments (built bin)', () => {
  it('is the package bin, beside the sandbox alias', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({
      'instant-payments': './dist/cli.js',
      'instant-payments-sandbox': './dist/sandbox-cli.js',
    });
  });

  it('brcode prints the decoded fields, then no findings, exit 0', () => {
    const { status, stdout } = run(['brcode', MANUAL_STATIC]);
    expect(stdout).toContain('key                  123e4567-e12b-12d1-a456-426655440000');
    expect(stdout).toContain('merchant name        Fulano de Tal');
    expect(stdout).toContain('26-01  123e4567');
    expect(stdout).toContain('No findings');
    expect(status).toBe(0);
  });

  it('brcode prints the findings in plain words and exits 1 on an error', () => {
    const { status, stdout } = run(['brcode', BROKEN]);
    expect(stdout).toContain('could not be decoded');
    expect(stdout).toMatch(/error +63 +the code says CRC D31D, its content gives [0-9A-F]{4} \[crc-mismatch\]/);
    expect(stdout).toMatch(/warning +60 .*outside plain ASCII/);
    expect(status).toBe(1);
  });

  it('brcode reads stdin when no text is given, and --json prints { parsed, findings }', () => {
    const ok = run(['brcode', '--json'], `${MANUAL_STATIC}\n`);
    expect(ok.status).toBe(0);
    const json = JSON.parse(ok.stdout) as { parsed: { key: string; crc: string }; findings: unknown[] };
    expect(json.parsed).toMatchObject({ key: '123e4567-e12b-12d1-a456-426655440000', crc: '1D3D' });
    expect(json.findings).toEqual([]);
    const bad = run(['brcode', '--json'], BROKEN);
    expect(bad.status).toBe(1);
    const broken = JSON.parse(bad.stdout) as { parsed: null; findings: Array<{ code: string; severity: string }> };
    expect(broken.parsed).toBeNull();
    expect(broken.findings.map((f) => f.code)).toContain('crc-mismatch');
  });

  it('qr writes an SVG or a PNG, and refuses a code with an error', () => {
    const svg = join(work, 'code.svg');
    expect(run(['qr', MANUAL_STATIC, '--out', svg]).status).toBe(0);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg /);
    const png = join(work, 'code.png');
    expect(run(['qr', '--out', png], MANUAL_STATIC).status).toBe(0);
    expect([...readFileSync(png).subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const refused = run(['qr', BROKEN, '--out', join(work, 'no.svg')]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('crc-mismatch');
    expect(run(['qr', MANUAL_STATIC]).status).toBe(2);
  });

  it('answers an unknown command with the usage, exit 2', () => {
    const { status, stderr } = run(['nope']);
    expect(status).toBe(2);
    expect(stderr).toContain('Usage: instant-payments <command>');
  });

  it('sandbox runs the sandbox command', async () => {
    const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--seed', '7'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Seed')) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      expect(banner).toMatch(/instant-payments sandbox serving HTTP on http:\/\/127\.0\.0\.1:\d+/);
      expect(banner).toContain('Seed             7');
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it('mcp serves the MCP SDK client over stdio, and receipt writes a PDF, from the build (packages resolved as installed)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--sandbox'],
      stderr: 'ignore',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('get_received_payment');
      const lint = await client.callTool({ name: 'lint_br_code', arguments: { code: MANUAL_STATIC } });
      expect(lint.structuredContent).toEqual({ ok: true, findings: [] });
    } finally {
      await client.close();
    }
    const pdf = join(work, 'demo.pdf');
    const { status, stdout } = run(['receipt', '--sandbox', '--out', pdf]);
    expect({ status, stdout }).toEqual({ status: 0, stdout: `Wrote ${pdf}\n` });
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);
});
