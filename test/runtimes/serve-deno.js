// Serves app.js with Deno.serve on 127.0.0.1 and prints the origin (runtimes.test.ts reads it).
import app from './app.js';

const env = { SANDBOX: Deno.env.get('SANDBOX') };
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ hostname, port }) => console.log(`listening http://${hostname}:${port}`),
  },
  (request) => app.fetch(request, env),
);
