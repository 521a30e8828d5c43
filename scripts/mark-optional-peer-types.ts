/**
 * Run after tsup (`npm run build`): in the built declarations, marks every import from an optional
 * peer dependency (msw, pg) with `@ts-ignore`, so a project without that peer still compiles
 * under `skipLibCheck: false`. With the peer installed, its types apply as written (`handlers`
 * is msw's `HttpHandler[]`); without it they read as `any`, and that project cannot use them anyway.
 * tsup rewrites the imports of the declaration bundles, so this cannot be written in the sources.
 *
 * `node scripts/mark-optional-peer-types.ts [dist folder]` (default `dist`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MARK = '// @ts-ignore optional peer dependency: its types apply when it is installed';

/** The optional peer dependencies of package.json. */
export function optionalPeers(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  return Object.entries(pkg.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional === true)
    .map(([name]) => name);
}

/** `text` with each import or re-export from one of `peers` (or a subpath) preceded by the mark; idempotent. */
export function markOptionalPeerImports(text: string, peers: readonly string[]): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const line of lines) {
    const from = /^(?:import|export)\b.*\bfrom\s+['"]([^'"]+)['"];?\s*$/.exec(line)?.[1];
    const peer = from !== undefined && peers.some((name) => from === name || from.startsWith(`${name}/`));
    if (peer && out.at(-1) !== MARK) out.push(MARK);
    out.push(line);
  }
  return out.join('\n');
}

/** Marks the declaration files of `dist`; returns the files it changed. */
export function markDist(dist: string, peers: readonly string[]): string[] {
  const changed: string[] = [];
  for (const name of readdirSync(dist)) {
    if (!/\.d\.c?ts$/.test(name)) continue;
    const file = join(dist, name);
    const text = readFileSync(file, 'utf8');
    const marked = markOptionalPeerImports(text, peers);
    if (marked !== text) {
      writeFileSync(file, marked);
      changed.push(name);
    }
  }
  return changed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dist = resolve(process.argv[2] ?? join(root, 'dist'));
  markDist(dist, optionalPeers(root));
}
