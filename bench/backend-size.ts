/**
 * Size of a merchant backend on Workers and edge functions: test/runtimes/backend-worker.js
 * (creates charges, receives payment notifications; no cash-out, no recurring) bundled with the
 * package's build (`dist/`) and every dependency by wrangler (`--minify`, no `nodejs_compat`)
 * and by `esbuild --platform=browser --minify`, gzipped. Throws when a bundle holds a Node
 * built-in or undici; the bench reports each against the 60 KB gzip budget.
 *
 * Run alone (after `npm run build`): `node bench/backend-size.ts`.
 */
import { gzipSync } from 'node:zlib';
import {
  BACKEND_GZIP_BUDGET,
  bin,
  browserBundle,
  nodeOnly,
  project,
  wranglerBundle,
  type Bundle,
} from '../test/runtimes/bundle.ts';
import type { Row } from './support.ts';

export async function measure(): Promise<Row[]> {
  const folder = project();
  try {
    return [
      row(
        'Workers (wrangler, no nodejs_compat)',
        await wranglerBundle(bin('wrangler'), folder.dir, 'backend-worker.js'),
      ),
      row('edge (esbuild --platform=browser)', await browserBundle(folder.dir, 'backend-worker.js')),
    ];
  } finally {
    folder.remove();
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function row(what: string, bundle: Bundle): Row {
  const bad = nodeOnly(bundle);
  if (bad.length > 0) throw new Error(`The ${what} backend bundle holds Node-only modules: ${bad.join(', ')}`);
  const size = gzipSync(bundle.code, { level: 9 }).byteLength;
  return {
    measure: `backend (charges + notifications), ${what} bundle, min+gzip (min ${kb(Buffer.byteLength(bundle.code))})`,
    value: kb(size),
    baseline: `budget ${kb(BACKEND_GZIP_BUDGET)}`,
    ratio: `${(size / BACKEND_GZIP_BUDGET).toFixed(2)}x`,
    goal: `< ${kb(BACKEND_GZIP_BUDGET)}`,
    holds: size < BACKEND_GZIP_BUDGET,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await measure()) console.log(`${r.measure}: ${r.value} (${r.goal}: ${r.holds ? 'holds' : 'over'})`);
}
