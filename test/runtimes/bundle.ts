/**
 * The backend bundled as Workers and edge functions bundle it: wrangler (no `nodejs_compat`, an
 * early compatibility date) and `esbuild --platform=browser`, each with the bundler's own export
 * conditions picking the package's build. Also weighed by bench/bundle-size.ts.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const run = promisify(execFile);

/** Workers' compatibility date for the bundles: an early one (no later web APIs assumed). */
export const COMPATIBILITY_DATE = '2022-11-30';

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
  await run(process.execPath, [wrangler, 'deploy', '--dry-run', '--minify', '--config', config, '--outdir', out, '--metafile', join(out, 'meta.json')], {
    cwd: dir,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_UPDATE_NOTIFIER: '1' },
  });
  return read(join(out, entry), JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as esbuild.Metafile);
}

/** `entry` bundled by `esbuild --bundle --platform=browser --format=esm --minify`. */
export async function browserBundle(dir: string, entry: string, format: 'esm' | 'iife' = 'esm'): Promise<Bundle> {
  const outfile = join(dir, `browser-${entry}`);
  const result = await esbuild.build({ entryPoints: [join(dir, entry)], bundle: true, platform: 'browser', format, minify: true, metafile: true, outfile, logLevel: 'silent' });
  return read(outfile, result.metafile);
}

function read(file: string, meta: esbuild.Metafile): Bundle {
  const inputs = Object.keys(meta.inputs);
  const externals = Object.values(meta.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  return { code: readFileSync(file, 'utf8'), inputs, externals };
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** What a bundle holds that a runtime without Node built-ins cannot load: built-ins, undici. */
export function nodeOnly(bundle: Bundle): string[] {
  const imports = [...bundle.externals, ...[...bundle.code.matchAll(/(?:from|import|require)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!)];
  return [
    ...new Set([
      ...imports.filter((name) => name.startsWith('node:') || BUILTINS.has(name)),
      ...bundle.inputs.filter((path) => /(^|\/)node_modules\/undici\//.test(path)),
    ]),
  ];
}
