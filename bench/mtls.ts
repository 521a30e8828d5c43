/**
 * Over mTLS: the HTTPS server demands a client certificate. One SDK client (certificate, OAuth
 * token from the same server) against raw fetch through one undici Agent carrying the same
 * certificate, at concurrency 32. The server counts handshakes: those opening each pool (up to
 * two per concurrent call: undici may dial again while the first handshakes are still running)
 * apart from those of the interleaved rounds after it, where a client that dialled per call, or
 * built a pool per call, would show it.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { drive, fmt, interleave, loadSdk, median, type BenchContext, type Row } from './support.ts';

const CONCURRENCY = 32;
/** Milliseconds each contender runs per round. */
const ROUND_MS = 500;
const ROUNDS = 5;
const TXID = 'benchcharge0000000000000000002';

const fixture = (name: string) => readFileSync(new URL(`../test/fixtures/tls/${name}`, import.meta.url));

export async function measure(ctx: BenchContext): Promise<Row[]> {
  const { InstantClient } = await loadSdk();
  const tls = { cert: fixture('client.pem'), key: fixture('client.key'), ca: fixture('ca.pem') };
  const base = ctx.httpsUrl;
  const sdk = new InstantClient({
    baseUrl: base,
    tls,
    auth: { tokenUrl: `${base}/oauth/token`, clientId: 'bench', clientSecret: 'bench-secret' },
  });
  const agent = new Agent({ connect: { ...tls, rejectUnauthorized: true } });
  const headers = { authorization: 'Bearer bench-token', accept: 'application/json' };
  const raw = async () => (await fetch(`${base}/cob/${TXID}`, { headers, dispatcher: agent } as RequestInit)).json();

  const contenders = { sdk: () => sdk.cob.get(TXID), raw };
  // Opening the pools (and fetching the token): counted apart from the steady state.
  const opening = { sdk: 0, raw: 0 };
  for (const name of ['sdk', 'raw'] as const) {
    const before = (await ctx.stats()).handshakes;
    await drive(200, CONCURRENCY, contenders[name]);
    opening[name] = (await ctx.stats()).handshakes - before;
  }
  const handshakes = { sdk: 0, raw: 0 };
  const calls = { sdk: 0, raw: 0 };
  const run = (name: 'sdk' | 'raw') => async () => {
    const before = (await ctx.stats()).handshakes;
    const result = await drive(ROUND_MS, CONCURRENCY, contenders[name]);
    handshakes[name] += (await ctx.stats()).handshakes - before;
    calls[name] += result.calls;
    return result;
  };
  const runs = await interleave(ROUNDS, { sdk: run('sdk'), raw: run('raw') });
  await Promise.all([sdk.close(), agent.close()]);

  const sdkRate = median((runs['sdk'] ?? []).map((r) => r.callsPerSecond));
  const rawRate = median((runs['raw'] ?? []).map((r) => r.callsPerSecond));
  const per100 = (name: 'sdk' | 'raw') => (handshakes[name] * 100) / calls[name];
  return [
    {
      measure: `mTLS GET, c=${CONCURRENCY}: SDK calls/s`,
      value: `${fmt.int(sdkRate)}/s`,
      baseline: `raw fetch + one Agent ${fmt.int(rawRate)}/s`,
      ratio: fmt.ratio(sdkRate / rawRate),
      goal: '(for reference)',
      holds: undefined,
    },
    {
      measure: `mTLS: TLS handshakes per 100 calls after the pool opened (SDK: ${handshakes.sdk} in ${fmt.int(calls.sdk)} calls; ${opening.sdk} opening it, token included)`,
      value: fmt.fixed(per100('sdk'), 2),
      baseline: `raw fetch + one Agent ${fmt.fixed(per100('raw'), 2)} (${handshakes.raw} in ${fmt.int(calls.raw)}; ${opening.raw} opening)`,
      ratio: handshakes.raw > 0 ? fmt.ratio(per100('sdk') / per100('raw')) : `${opening.sdk}/${opening.raw} opening`,
      goal: '≤ 2 (one pool per client)',
      holds: per100('sdk') <= 2,
    },
  ];
}
