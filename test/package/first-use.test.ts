/**
 * What importing the built main entry loads, as a user's process does (`dist/`, made by `npm run
 * build`): only the entry and its shared chunks. ky, the Node listener and node:stream, the
 * OAuth client, jose, zod and undici load when first used (each module is cold-start time:
 * `npm run bench -- cold-start`). A Node module hook records every module resolved.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

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
  const out = execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', main], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out) as { afterImport: string[]; afterScript: string[] };
}

const LAZY = [/\/dist\/ky-/, /\/dist\/listener-/, /\/dist\/oidc-/, /\/dist\/jose-/, /\/dist\/schema-/, /^node:stream$/, /\/node_modules\/(ky|undici|openid-client|jose|zod|msw|pg)\//];
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
    expect(lazyIn(afterScript)).toEqual(expect.arrayContaining([expect.stringMatching(/\/dist\/ky-/), expect.stringMatching(/\/dist\/listener-/), 'node:stream']));
  });
});
