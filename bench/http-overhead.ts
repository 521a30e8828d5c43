/**
 * The SDK's cost per call over raw fetch: sequential GETs against a loopback server, the same
 * number through `fetch` and through the HTTP core (auth header, retry policy, error mapping),
 * interleaved in rounds so both see the same machine state.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpCore } from '../src/core/http.ts';
import { path } from '../src/core/path.ts';

const BODY = JSON.stringify({ txid: 'a'.repeat(35), status: 'ATIVA', valor: { original: '10.00' } });

export async function run(): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const core = new HttpCore({ baseUrl: url, auth: { getToken: async () => 'bench-token' } });
  const raw = async () => {
    const response = await fetch(`${url}/cob/x`, { headers: { authorization: 'Bearer bench-token', accept: 'application/json' } });
    return response.json();
  };
  const sdk = () => core.json({ method: 'GET', path: path`/cob/x` });

  const rounds = 5;
  const perRound = 400;
  const times = { raw: 0, sdk: 0 };
  for (let i = 0; i < 200; i++) await Promise.all([raw(), sdk()]); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [name, call] of [['raw', raw], ['sdk', sdk]] as const) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await call();
      times[name] += performance.now() - started;
    }
  }
  server.close();
  const n = rounds * perRound;
  const rawUs = (times.raw / n) * 1000;
  const sdkUs = (times.sdk / n) * 1000;
  console.log(`http-overhead: ${n} sequential GETs on loopback`);
  console.log(`  raw fetch   ${rawUs.toFixed(0)} µs/call`);
  console.log(`  HttpCore    ${sdkUs.toFixed(0)} µs/call`);
  console.log(`  ratio       ${(sdkUs / rawUs).toFixed(2)}x raw fetch (+${(sdkUs - rawUs).toFixed(0)} µs/call)`);
}
