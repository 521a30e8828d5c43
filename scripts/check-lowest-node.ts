/**
 * Loads every built entry, ESM and CJS, on the lowest Node version `engines` admits (the
 * tools/node-lowest workspace installs that Node binary from npm). Run by `npm test` after the build:
 * the CJS build `require`s ESM-only dependencies, which works only from Node 22.12 on.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
// The `node` package of the tools/node-lowest workspace (nested there: the root has Node 24).
const lowestPackage = createRequire(join(root, 'tools/node-lowest/package.json')).resolve('node/package.json');
const binary = join(dirname(lowestPackage), 'bin/node');

const lowest = /^>=\s*(\d+\.\d+\.\d+|\d+\.\d+|\d+)$/.exec(pkg.engines.node)?.[1];
if (lowest === undefined) throw new Error(`engines.node must be ">=x.y.z", got ${pkg.engines.node}`);
const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
const padded = (v: string) => [...v.split('.'), '0', '0'].slice(0, 3).join('.');
if (padded(version) !== padded(lowest)) {
  throw new Error(`node-lowest is ${version} but engines admits ${pkg.engines.node}: keep them equal`);
}

// What each entry must export once loaded.
const entries: Record<string, string | undefined> = {
  index: 'InstantClient',
  payer: 'PayerClient',
  sandbox: 'createSandbox',
  postgres: 'createPostgresStore',
  qr: 'qrSvg',
};
// A call through the main entry loads ky, bundled as a chunk of each build: it must reach the
// network (a refused connection on loopback port 1 is the typed error, not a load failure).
const call = `await new m.InstantClient({ baseUrl: 'http://127.0.0.1:1', maxRetries: 0, auth: { getToken: async () => 't' } }).loc.get(7).then(() => { throw new Error('no failure'); }, (e) => { if (e.name !== 'ConnectionError') throw e; });`;
for (const [entry, name] of Object.entries(entries)) {
  const exported = name === undefined ? '' : `if (typeof m.${name} !== 'function') throw new Error('no ${name}');`;
  const check =
    entry === 'index'
      ? `${exported} (async () => { ${call} })().catch((e) => { console.error(e); process.exit(1); });`
      : exported;
  execFileSync(
    binary,
    ['--disable-warning=ExperimentalWarning', '-e', `const m = require('./dist/${entry}.cjs'); ${check}`],
    { cwd: root, stdio: 'inherit' },
  );
  execFileSync(
    binary,
    [
      '--disable-warning=ExperimentalWarning',
      '--input-type=module',
      '-e',
      `const m = await import('./dist/${entry}.js'); ${check}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
console.log(`entries load on Node ${version} (ESM and CJS): ${Object.keys(entries).join(', ')}`);
