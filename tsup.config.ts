import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    payer: 'src/payer.ts',
    sandbox: 'src/sandbox.ts',
    'sandbox-cli': 'src/sandbox-cli.ts',
    cli: 'src/cli.ts',
    postgres: 'src/postgres.ts',
    qr: 'src/qr.ts',
  },
  format: ['esm', 'cjs'],
  // Members marked @internal (the clients' HTTP core) stay out of the public declarations.
  dts: { compilerOptions: { stripInternal: true } },
  sourcemap: true,
  clean: true,
  target: 'node22',
  splitting: true,
  // import.meta.url in the CJS build (the sandbox loads msw relative to itself).
  shims: true,
  treeshake: true,
  define: { __SDK_VERSION__: JSON.stringify(version) },
});
