/**
 * What importing the built main entry loads, as a user's process does (`dist/`, made by `npm run
 * build`): the entry and its shared chunks. ky, the Node listener and node:stream, the OAuth
 * client, jose, zod and undici load when first used (each module is cold-start time:
 * `npm run bench -- cold-start`). A Node module hook records every module resolved. And what the
 * shared chunks must keep: the browser entries reach no Node built-in, and a class is the same
 * class through every entry. And that an uncaught error's report stays readable (the build keeps
 * its lines).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What an ESM file of the build loads at once, transitively: the files (itself first) and the
 * packages and built-ins they import.
 */
function staticGraph(entry: string): { files: string[]; bare: string[] } {
  const files = [resolve(entry)];
  const bare = new Set<string>();
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
      /^(?:import|export)\b[^;]*?["']([^"']+)["'];?$/gm,
    )) {
      if (!specifier!.startsWith('./')) {
        bare.add(specifier!);
        continue;
      }
      const next = join(dirname(file), specifier!);
      if (!files.includes(next)) files.push(next);
    }
  }
  return { files, bare: [...bare] };
}

/** Runs `script` (ESM) in a fresh Node process that records what is resolved; gives the URLs after the import, then after `script`. */
function resolvedBy(script: string): { afterImport: string[]; afterScript: string[] } {
  const hook = `
import { registerHooks } from 'node:module';
globalThis.resolved = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); globalThis.resolved.push(r.url); return r; } });
`;
  const main = `
await import('instant-payments');
const afterImport = [...globalThis.resolved];
${script}
process.stdout.write(JSON.stringify({ afterImport, afterScript: globalThis.resolved }));
`;
  const out = execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', main],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  return JSON.parse(out) as { afterImport: string[]; afterScript: string[] };
}

const LAZY = [
  /\/dist\/ky-/,
  /\/dist\/listener-/,
  /\/dist\/oidc-/,
  /\/dist\/jose-/,
  /\/dist\/schema-/,
  /^node:stream$/,
  /\/node_modules\/(ky|undici|openid-client|jose|zod|msw|pg)\//,
  // The PDF library, its font engine and font: loaded by the first receipt() only.
  /\/dist\/pdf-/,
  /\/node_modules\/(pdf-lib|@pdf-lib|dejavu-fonts-ttf)\//,
  /\/node_modules\/@modelcontextprotocol\//,
];
const lazyIn = (urls: string[]) => urls.filter((url) => LAZY.some((pattern) => pattern.test(url)));

describe('the main entry loads what only some users need on first use', () => {
  it('is built (npm test runs npm run build before vitest)', () => {
    expect(existsSync(`${root}dist/index.js`)).toBe(true);
  });

  it('imports no transport, listener, OAuth client, schema library or node:stream; the first call loads ky, the first Node request the listener', () => {
    const { afterImport, afterScript } = resolvedBy(`
const { InstantClient, receivedPaymentsHandler } = await import('instant-payments');
const api = new InstantClient({
  baseUrl: 'http://127.0.0.1:9/v2',
  auth: { getToken: async () => 'token' },
  fetch: async () => Response.json({ txid: 'a'.repeat(26), revisao: 0, status: 'ATIVA', calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: 3600 }, valor: { original: '1.00' }, chave: 'a@b.co' }),
});
await api.cob.get('a'.repeat(26));
const handler = receivedPaymentsHandler(api, { onPayment() {} });
const { createServer } = await import('node:http');
const server = createServer(handler.node).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
await fetch('http://127.0.0.1:' + server.address().port + '/', { method: 'GET' });
server.close();
`);
    expect(afterImport.some((url) => url.endsWith('/dist/index.js'))).toBe(true);
    expect(lazyIn(afterImport)).toEqual([]);
    // The hook sees what loads later: the same check would catch an eager import.
    expect(lazyIn(afterScript)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/dist\/ky-/),
        expect.stringMatching(/\/dist\/listener-/),
        'node:stream',
      ]),
    );
  });

  it('loads the PDF library, its font engine and the font on the first receipt() only', () => {
    const { afterImport, afterScript } = resolvedBy(`
const { receipt } = await import('instant-payments');
await receipt({ endToEndId: 'E'.padEnd(32, '1'), valor: '1.00', horario: '2026-01-01T00:00:00Z' });
`);
    expect(lazyIn(afterImport)).toEqual([]);
    expect(afterScript).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/dist\/pdf-/),
        expect.stringMatching(/\/node_modules\/pdf-lib\//),
        expect.stringMatching(/\/node_modules\/@pdf-lib\/fontkit\//),
      ]),
    );
  });
});

describe('the shared chunks of the ESM entries', () => {
  const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

  it.each(['payer.js', 'qr.js'])('%s, made for browsers too, reaches no Node built-in at load', (entry) => {
    const { files, bare } = staticGraph(`${root}dist/${entry}`);
    expect(files.length).toBeGreaterThan(1);
    expect(bare.filter((specifier) => builtins.has(specifier))).toEqual([]);
  });

  it.each(['index.js', 'payer.js'])('%s loads no QR encoder at once (the qr entry and receipt() do)', (entry) => {
    expect(staticGraph(`${root}dist/${entry}`).bare).not.toContain('qr');
  });

  it('give each class once: an error class is the same through the main, payer and qr entries', async () => {
    // The built entries, as a user imports them (typed from the sources: dist/ is built after the type check).
    const built = (specifier: string) => import(specifier) as Promise<unknown>;
    const [main, payer, qr] = (await Promise.all([
      built('instant-payments'),
      built('instant-payments/payer'),
      built('instant-payments/qr'),
    ])) as [typeof import('../../src/index.ts'), typeof import('../../src/payer.ts'), typeof import('../../src/qr.ts')];
    expect(payer.InstantError).toBe(main.InstantError);
    expect(payer.BrCodeError).toBe(main.BrCodeError);
    expect(payer.CobPayloadNaoEncontrado).toBe(main.CobPayloadNaoEncontrado);
    expect(qr.InstantError).toBe(main.InstantError);
    expect(qr.ConfigurationError).toBe(main.ConfigurationError);
    const refused = (() => {
      try {
        payer.brcode.parse('not a code');
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(main.BrCodeError);
  });
});

describe('an error nobody catches, as Node reports it', () => {
  it('shows the line it was thrown from as one readable line of the build, not a minified bundle', () => {
    // Node prints the source line of the throw site above the error. Shipped minified, that
    // line was the whole bundle (~100 KB on the terminal), so the build keeps its lines.
    // A port nothing listens on: the call fails with a ConnectionError nobody catches.
    const script = `
const { createServer } = await import('node:net');
const server = createServer().listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address();
await new Promise((resolve) => server.close(resolve));
const { InstantClient } = await import('instant-payments');
const api = new InstantClient({ baseUrl: 'http://127.0.0.1:' + port + '/v2', auth: { getToken: async () => 'token' }, maxRetries: 0 });
await api.cob.get('a'.repeat(26));
`;
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
        stdio: 'pipe',
      });
    } catch (error) {
      stderr = String((error as { stderr?: unknown }).stderr);
    }
    expect(stderr).toContain('ConnectionError: GET /cob/{} failed');
    expect(stderr).toMatch(/dist\/index\.js:\d+\n/);
    expect(Math.max(...stderr.split('\n').map((line) => line.length))).toBeLessThan(400);
    expect(stderr.length).toBeLessThan(6_000);
  });
});
