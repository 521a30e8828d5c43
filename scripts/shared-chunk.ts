/**
 * A tsup plugin for the library's ESM build: after esbuild has written it, the chunks the entries
 * share are joined into one (`chunk-shared-*.js`), kept apart only from what the `qr` entry
 * shares with them (`chunk-base-*.js`, so that a browser bundle of `qr` takes nothing more). What
 * the `qr` entry shares only with a chunk loaded on use (the QR encoder, which `receipt()`'s PDF
 * module draws with) joins the `qr` entry's own chunk, so the other entries never load it.
 *
 * Why: esbuild makes a chunk per set of entries sharing code, and the main entry had five; each
 * file a fresh process loads costs it time to resolve, read and link, on top of compiling its
 * bytes. Joined, the main entry's import took 1.9 ms less and the payer's 1.7 (31
 * interleaved fresh processes each). esbuild cannot group chunks itself, so rollup (which tsup
 * already uses) re-chunks the written files, source maps chained. Every module still exists
 * once, so a class is the same class through every entry (`instanceof` holds across
 * `instant-payments` and `instant-payments/payer`). The chunks loaded on first use (ky, the
 * OAuth client, the listener...) stay apart as they were.
 */
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { rollup, type ExistingRawSourceMap } from 'rollup';
import type { Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/**
 * What an ESM file of the build loads at once, transitively: the files (itself first) and the
 * packages and built-ins they import. The test of the output reads it the same way.
 */
export function staticGraph(entry: string): { files: string[]; bare: string[] } {
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

/** The files `entry` loads at once, itself aside. */
const reached = (entry: string): Set<string> => new Set(staticGraph(entry).files.slice(1));

/**
 * Joins the shared chunks of the ESM files of `entries` (names of `<outDir>/<name>.js`), in place.
 * `light`: the entry whose static imports stay in a chunk of their own.
 */
export function sharedChunk(entries: readonly string[], light: string): TsupPlugin {
  return {
    name: 'shared-chunk',
    async buildEnd() {
      if (this.format !== 'esm') return;
      // Real path: rollup names modules by theirs, and the sets below are compared with them.
      const dir = realpathSync(resolve(this.options.outDir ?? 'dist'));
      const isChunk = (id: string) => basename(id).startsWith('chunk-');
      const lightEntry = join(dir, `${light}.js`);
      // What the first entry loads at once; a chunk only some other entry loads at once (the
      // sandbox's, which the first loads on use) keeps its own file and its own imports.
      const main = reached(join(dir, `${entries[0]}.js`));
      const others = new Set(
        entries.filter((name) => name !== light).flatMap((name) => [...reached(join(dir, `${name}.js`))]),
      );
      // What the light entry shares with the others; what it shares only with a chunk loaded on use
      // (the receipt's PDF module draws its QR code) joins the light entry itself.
      const base = new Set([...reached(lightEntry)].filter((id) => others.has(id)));
      const lightOnly = new Set([...reached(lightEntry)].filter((id) => !others.has(id)));
      const read = new Set<string>();
      const bundle = await rollup({
        input: Object.fromEntries(entries.map((name) => [name, join(dir, `${name}.js`)])),
        // Packages and Node's built-ins stay imports, as esbuild left them.
        external: (id, importer) => importer !== undefined && !id.startsWith('.') && !isAbsolute(id),
        preserveEntrySignatures: 'strict',
        // esbuild has shaken the code already; rollup only moves it.
        treeshake: false,
        plugins: [
          {
            name: 'with-source-maps',
            load(id) {
              read.add(id);
              const map = `${id}.map`;
              return {
                code: readFileSync(id, 'utf8'),
                map: existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as ExistingRawSourceMap) : null,
              };
            },
          },
        ],
      });
      const { output } = await bundle.write({
        dir,
        format: 'es',
        sourcemap: true,
        entryFileNames: '[name].js',
        // The joined chunks get a hash; the others keep esbuild's names (hash included).
        chunkFileNames: (chunk) =>
          chunk.name === 'shared' || chunk.name === 'base' || chunk.name === light
            ? 'chunk-[name]-[hash].js'
            : '[name].js',
        manualChunks: (id) =>
          id === lightEntry || lightOnly.has(id)
            ? light
            : !isChunk(id)
              ? undefined
              : base.has(id)
                ? 'base'
                : main.has(id)
                  ? 'shared'
                  : undefined,
        minifyInternalExports: false,
      });
      await bundle.close();
      const written = new Set(output.map((file) => join(dir, file.fileName)));
      for (const file of read) {
        if (written.has(file)) continue;
        rmSync(file, { force: true });
        rmSync(`${file}.map`, { force: true });
      }
    },
  };
}
