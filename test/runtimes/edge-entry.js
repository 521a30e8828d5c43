// app.js as an edge function: a `fetch` event listener, `env` from a global the test sets
// (edge.test.ts bundles this with esbuild --platform=browser and runs it in edge-runtime).
import app from './app.js';

addEventListener('fetch', (event) => event.respondWith(app.fetch(event.request, { SANDBOX: globalThis.SANDBOX })));
