import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

const shared = {
  sourcemap: true,
  splitting: true,
  treeshake: true,
  define: { __SDK_VERSION__: JSON.stringify(version) },
  // ky is bundled into one chunk of our own, loaded on the first call: its package is 30 modules,
  // and resolving them is most of its cold start (~13 ms of 19 on the bench machine; bench row
  // "cold start: process start to the first answered call").
  noExternal: ['ky'],
} satisfies Options;

/**
 * Empties `folder` of the output folder when the build starts: the builds run side by side, so
 * each one apart from the library's cleans its own folder (the library's `clean` spares them).
 */
const cleansOwn = (folder: string): NonNullable<Options['esbuildPlugins']>[number] => ({
  name: `cleans-${folder}`,
  setup(build) {
    build.onStart(() => rmSync(join(build.initialOptions.outdir ?? 'dist', folder), { recursive: true, force: true }));
  },
});

/**
 * The web build of the backend entry (`dist/web/`, beside the Node build in the same output
 * folder so that `--out-dir` moves both; it cleans its own folder), chosen by the exports map for every runtime
 * without the `node` condition: Workers, edge functions, browsers): each source file with a
 * `.web.ts` sibling is swapped for it, so the Node adapter and the mTLS transport (Node built-ins,
 * undici) never reach a bundle. Lazy imports cannot do that: bundlers follow `import()` too.
 */
const webSiblings: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'web-siblings',
  setup(build) {
    build.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind === 'entry-point' || args.importer.endsWith('.web.ts')) return undefined;
      const web = resolve(dirname(args.importer), args.path).replace(/\.ts$/, '.web.ts');
      return existsSync(web) ? { path: web } : undefined;
    });
  },
};

/** Every source module `entries` reach through relative imports (type-only imports aside), by its path. */
function moduleGraph(entries: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    found.add(file);
    const source = readFileSync(file, 'utf8');
    const imports = [
      ...source.matchAll(/^(?:import|export)(?! type\b)[^'";]*?from '(\.[^']+)'/gm),
      ...source.matchAll(/import\('(\.[^']+)'\)/g),
    ];
    for (const [, specifier] of imports) visit(join(dirname(file), specifier as string));
  };
  for (const entry of entries) visit(entry);
  return [...found];
}

/**
 * The browser build of the payer and qr entries (`dist/browser/`, chosen by the exports map's
 * `browser` condition): one file per source module, each import left as an import, so that a
 * payer app's bundler drops every module and export the app does not use. A bundled entry hands
 * it one chunk shared with the backend instead (error catalogue, log redaction, lint rules).
 */
const moduleByModule: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'module-by-module',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.ts$/, '.js'), external: true },
    );
  },
};

const BROWSER_MODULES = Object.fromEntries(
  moduleGraph(['src/payer.ts', 'src/qr.ts']).map((file) => [
    file.replace(/^src\//, 'browser/').replace(/\.ts$/, ''),
    file,
  ]),
);

/** The package's import paths (the commands are built apart, below). */
const LIBRARY_ENTRIES = {
  index: 'src/index.ts',
  payer: 'src/payer.ts',
  sandbox: 'src/sandbox.ts',
  postgres: 'src/postgres.ts',
  qr: 'src/qr.ts',
};

export default defineConfig([
  {
    ...shared,
    entry: LIBRARY_ENTRIES,
    format: ['esm', 'cjs'],
    // Members marked @internal (the clients' HTTP core) stay out of the public declarations.
    dts: { compilerOptions: { stripInternal: true } },
    // The web build and the commands' write beside it at the same time, and clean their own.
    clean: ['!web/**', '!commands/**', '!cli.js*', '!sandbox-cli.js*'],
    target: 'node22',
    // import.meta.url in the CJS build (the sandbox loads msw relative to itself).
    shims: true,
  },
  {
    // The commands run in their own processes and share no object with a user's import: built
    // apart, their chunks in a folder of their own.
    ...shared,
    entry: { cli: 'src/cli.ts', 'sandbox-cli': 'src/sandbox-cli.ts' },
    format: ['esm'],
    target: 'node22',
    esbuildOptions: (options) => {
      options.chunkNames = 'commands/[name]-[hash]';
    },
    esbuildPlugins: [cleansOwn('commands')],
  },
  {
    ...shared,
    entry: BROWSER_MODULES,
    format: ['esm'],
    splitting: false,
    treeshake: false,
    target: 'es2022',
    platform: 'browser',
    esbuildPlugins: [cleansOwn('browser'), moduleByModule],
  },
  {
    ...shared,
    entry: { 'web/index': 'src/index.ts' },
    format: ['esm'],
    esbuildOptions: (options) => {
      options.chunkNames = 'web/[name]-[hash]';
    },
    target: 'es2022',
    platform: 'browser',
    esbuildPlugins: [cleansOwn('web'), webSiblings],
  },
]);
