import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    payer: 'src/payer.ts',
    sandbox: 'src/sandbox.ts',
    postgres: 'src/postgres.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  splitting: true,
  treeshake: true,
});
