/**
 * A merchant backend that creates charges and receives notifications (backend-worker.js),
 * bundled for Cloudflare Workers by wrangler (no `nodejs_compat`) and for edge functions by
 * `esbuild --platform=browser`: both build, pick the package's web build through the exports
 * map, and hold no Node built-in and no undici. (workerd.test.ts and edge.test.ts run such
 * bundles.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, project } from './harness.ts';
import { gzipSync } from 'node:zlib';
import { BACKEND_GZIP_BUDGET, browserBundle, nodeOnly, wranglerBundle, type Bundle } from './bundle.ts';

let folder: ReturnType<typeof project>;

beforeAll(() => {
  folder = project();
});
afterAll(() => folder?.remove());

const isWebBuild = (bundle: Bundle) => bundle.inputs.some((path) => path.endsWith('dist/web/index.js'));
/** What only Node's receipt() needs: the web build's rejects, so none of it is bundled. */
const pdfLibrary = (bundle: Bundle) => bundle.inputs.filter((path) => /node_modules\/(pdf-lib|@pdf-lib)\//.test(path));
/** What the bundle weighs as served: minified, gzipped (the bench reports the same figure). */
const gzipped = (bundle: Bundle) => gzipSync(bundle.code, { level: 9 }).byteLength;

describe('the backend bundled for a runtime without Node built-ins', () => {
  it('by wrangler for Workers, without nodejs_compat', async () => {
    const bundle = await wranglerBundle(bin('wrangler'), folder.dir, 'backend-worker.js');
    expect(nodeOnly(bundle)).toEqual([]);
    expect(isWebBuild(bundle)).toBe(true);
    expect(pdfLibrary(bundle)).toEqual([]);
    expect(gzipped(bundle)).toBeLessThan(BACKEND_GZIP_BUDGET);
  }, 60_000);

  it('by esbuild --platform=browser, for edge functions', async () => {
    const bundle = await browserBundle(folder.dir, 'backend-worker.js');
    expect(nodeOnly(bundle)).toEqual([]);
    expect(isWebBuild(bundle)).toBe(true);
    expect(pdfLibrary(bundle)).toEqual([]);
    expect(gzipped(bundle)).toBeLessThan(BACKEND_GZIP_BUDGET);
  });
});
