// Serves app.js with Bun.serve on 127.0.0.1 and prints the origin (runtimes.test.ts reads it).
import app from './app.js';

const env = { SANDBOX: Bun.env.SANDBOX };
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => app.fetch(request, env) });
console.log(`listening ${server.url.origin}`);
