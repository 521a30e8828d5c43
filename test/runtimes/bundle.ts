/**
 * The backend bundled as Workers and edge functions bundle it: wrangler (no `nodejs_compat`, an
 * early compatibility date) and `esbuild --platform=browser`, each with the bundler's own export
 * conditions picking the package's build; bench/backend-size.ts weighs them. Also: a folder
 * where `instant-payments` resolves to this repository's build (`dist/`, made by `npm run build`
 * before vitest in `npm test`) as in a user's project, and the runtimes' npm-installed binaries
 * (a missing one fails the test, never skips it).
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('./', import.meta.url));

/**
 * Where the platform packages put the real binaries. Their `node_modules/.bin` entries are
 * placeholders an install script would replace (bun) or Node wrappers that do not pass file
 * descriptors on (workerd's control fd); package.json declines those scripts, so a fresh clone's
 * `npm install` has only the platform packages' binaries.
 */
const NATIVE: Record<string, string> = {
  bun: `@oven/bun-${process.platform}-${process.arch}/bin/bun`,
  workerd: `@cloudflare/workerd-${process.platform}-${process.arch === 'x64' ? '64' : process.arch}/bin/workerd`,
};

/** An npm-installed binary (its platform package's, else node_modules/.bin's); throws (the test fails) when it is missing. */
export function bin(name: string): string {
  const native = NATIVE[name] === undefined ? undefined : join(ROOT, 'node_modules', NATIVE[name]);
  if (native !== undefined && existsSync(native)) return native;
  const path = join(ROOT, 'node_modules/.bin', name);
  if (!existsSync(path)) throw new Error(`${name} is not installed: run npm install (it is a devDependency)`);
  return path;
}

/** A project folder holding this folder's apps, where `instant-payments` is this repository's build. */
export function project(): { dir: string; remove(): void } {
  if (!existsSync(join(ROOT, 'dist/web/index.js')))
    throw new Error('dist/ is not built: npm test runs npm run build before vitest');
  const dir = mkdtempSync(join(tmpdir(), 'instant-runtime-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/instant-payments'), 'dir');
  // Deno reads a package.json's dependencies to resolve bare names from node_modules.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, type: 'module', dependencies: { 'instant-payments': '*' } }),
  );
  for (const file of readdirSync(HERE).filter((name) => name.endsWith('.js')))
    cpSync(join(HERE, file), join(dir, file));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Workers' compatibility date for the bundles: an early one (no later web APIs assumed). */
export const COMPATIBILITY_DATE = '2022-11-30';

/** Goal for a merchant backend's bundle (backend-worker.js) on Workers and edge, gzipped, in bytes. */
export const BACKEND_GZIP_BUDGET = 60 * 1024;

export interface Bundle {
  code: string;
  /** Every module in the bundle (paths as the bundler wrote them) and every import left external. */
  inputs: string[];
  externals: string[];
}

/** `entry` (a file of `dir`) bundled by wrangler as a deploy would (minified, nothing uploaded). */
export async function wranglerBundle(wrangler: string, dir: string, entry: string): Promise<Bundle> {
  const name = entry.replace(/\.js$/, '');
  const config = join(dir, `wrangler-${name}.json`);
  writeFileSync(config, JSON.stringify({ name, main: entry, compatibility_date: COMPATIBILITY_DATE }));
  const out = join(dir, `out-${name}`);
  await run(
    process.execPath,
    [
      wrangler,
      'deploy',
      '--dry-run',
      '--minify',
      '--config',
      config,
      '--outdir',
      out,
      '--metafile',
      join(out, 'meta.json'),
    ],
    {
      cwd: dir,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_UPDATE_NOTIFIER: '1' },
    },
  );
  return read(join(out, entry), JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as esbuild.Metafile);
}

/** `entry` bundled by `esbuild --bundle --platform=browser --format=esm --minify`. */
export async function browserBundle(dir: string, entry: string, format: 'esm' | 'iife' = 'esm'): Promise<Bundle> {
  const outfile = join(dir, `browser-${entry}`);
  const result = await esbuild.build({
    entryPoints: [join(dir, entry)],
    bundle: true,
    platform: 'browser',
    format,
    minify: true,
    metafile: true,
    outfile,
    logLevel: 'silent',
  });
  return read(outfile, result.metafile);
}

function read(file: string, meta: esbuild.Metafile): Bundle {
  const inputs = Object.keys(meta.inputs);
  const externals = Object.values(meta.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  );
  return { code: readFileSync(file, 'utf8'), inputs, externals };
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** What a bundle holds that a runtime without Node built-ins cannot load: built-ins, undici. */
export function nodeOnly(bundle: Bundle): string[] {
  const imports = [
    ...bundle.externals,
    ...[...bundle.code.matchAll(/(?:from|import|require)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!),
  ];
  return [
    ...new Set([
      ...imports.filter((name) => name.startsWith('node:') || BUILTINS.has(name)),
      ...bundle.inputs.filter((path) => /(^|\/)node_modules\/undici\//.test(path)),
    ]),
  ];
}
