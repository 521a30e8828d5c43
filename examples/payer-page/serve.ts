/**
 * Builds the payer page for browsers and serves it on 127.0.0.1: `page.ts` bundled by esbuild
 * (platform browser, minified, one ES module, as a production build would ship it) next to
 * `index.html`. Its own port, so the page's requests to a sandbox are cross-origin, as they are
 * to a real payment provider.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { listenOnLoopback } from '../setup.ts';

const HERE = new URL('./', import.meta.url);

/** Matches once the page has shown its result (verified, static, empty or an error). */
export const PAGE_SETTLED = '#status:not([data-state="loading"])';

/** `page.ts` and everything it imports, as one browser ES module. */
export async function bundlePayerPage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('page.ts', HERE))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild produced no bundle');
  return output.text;
}

export interface PayerPageServer {
  /** The page, e.g. `http://127.0.0.1:PORT/`; open it with `payerPageUrl`. */
  url: string;
  close(): Promise<void>;
}

/** Serves `index.html` at `/` and the bundle at `/payer-page.js`; anything else is 404. */
export async function servePayerPage(): Promise<PayerPageServer> {
  const files: Record<string, { type: string; body: string }> = {
    '/': { type: 'text/html; charset=utf-8', body: readFileSync(new URL('index.html', HERE), 'utf8') },
    '/payer-page.js': { type: 'text/javascript; charset=utf-8', body: await bundlePayerPage() },
  };
  const server = createServer((req, res) => {
    const file = req.method === 'GET' ? files[new URL(req.url ?? '/', 'http://page').pathname] : undefined;
    if (file === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  const origin = await listenOnLoopback(server);
  return {
    url: `${origin}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a browser keeps its connections open
      }),
  };
}

/** The page's address for a code; `sandbox` is a listening sandbox's origin (local testing only). */
export function payerPageUrl(page: string, code: string, sandbox?: string): string {
  const url = new URL(page);
  url.searchParams.set('code', code);
  if (sandbox !== undefined) url.searchParams.set('sandbox', sandbox);
  return url.href;
}
