/**
 * Size of the payer entry (`instant-payments/payer`) as a browser app ships it: src/payer.ts
 * bundled with every dependency (jose, lib, core errors), minified, ESM, platform browser.
 * Prints the minified and gzipped sizes and the largest inputs. Throws (non-zero exit) when
 * the bundle imports any Node built-in, and reports when it is over the 20 KB gzip budget.
 *
 * Run alone: `node bench/payer-size.ts`.
 */
import { build, type Plugin } from 'esbuild';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Goal for the gzipped bundle, in bytes. */
export const PAYER_GZIP_BUDGET = 20 * 1024;

export interface PayerSize {
  minified: number;
  gzipped: number;
  inputs: Array<{ path: string; bytes: number }>;
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Bundles the payer entry (or `entry`) and measures it; throws if a Node built-in is reachable
 * from it.
 */
export async function measurePayerBundle(entry = fileURLToPath(new URL('../src/payer.ts', import.meta.url))): Promise<PayerSize> {
  const builtinImports: string[] = [];
  const detectBuiltins: Plugin = {
    name: 'detect-node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.split('/')[0] ?? args.path;
        if (args.path.startsWith('node:') || BUILTINS.has(args.path) || BUILTINS.has(bare)) {
          builtinImports.push(`${args.path} (imported by ${args.importer})`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [detectBuiltins],
  });
  if (builtinImports.length > 0) {
    throw new Error(`The payer bundle imports Node built-ins:\n  ${builtinImports.join('\n  ')}`);
  }
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output');
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {})
    .map(([path, info]) => ({ path, bytes: info.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return { minified: output.contents.byteLength, gzipped: gzipSync(output.contents, { level: 9 }).byteLength, inputs };
}

export async function run(): Promise<void> {
  const size = await measurePayerBundle();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`payer bundle (browser, esm, minified, dependencies included): ${kb(size.minified)} min, ${kb(size.gzipped)} gzip (${size.gzipped} bytes; budget ${kb(PAYER_GZIP_BUDGET)})`);
  for (const input of size.inputs.slice(0, 8)) console.log(`  ${String(input.bytes).padStart(6)} B  ${input.path}`);
  if (size.gzipped > PAYER_GZIP_BUDGET) {
    throw new Error(`payer bundle is ${size.gzipped} bytes gzipped, over the ${PAYER_GZIP_BUDGET}-byte budget`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
