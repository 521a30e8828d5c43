/**
 * A cold client (no token yet) hit by 1,000 concurrent calls: how many token requests reach the
 * token endpoint (which takes 20 ms to answer, so the calls really overlap). Goal: one.
 */
import { fmt, loadSdk, median, type BenchContext, type Row } from './support.ts';

const CALLS = 1_000;
const ROUNDS = 3;
const TXID = 'benchcharge0000000000000000003';

export async function measure(ctx: BenchContext): Promise<Row[]> {
  const { InstantClient } = await loadSdk();
  const counts: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const api = new InstantClient({
      baseUrl: ctx.httpUrl,
      auth: { tokenUrl: `${ctx.httpUrl}/oauth/token`, clientId: 'bench', clientSecret: 'bench-secret' },
    });
    const before = (await ctx.stats()).tokenRequests;
    await Promise.all(Array.from({ length: CALLS }, () => api.cob.get(TXID)));
    counts.push((await ctx.stats()).tokenRequests - before);
    await api.close();
  }
  const tokens = median(counts);
  return [
    {
      measure: `token requests for ${fmt.int(CALLS)} concurrent calls on a cold client (${ROUNDS} clients: ${counts.join(', ')})`,
      value: String(tokens),
      baseline: `${fmt.int(CALLS)} calls`,
      ratio: fmt.fixed(tokens / CALLS, 3),
      goal: '1',
      holds: Math.max(...counts) === 1,
    },
  ];
}
