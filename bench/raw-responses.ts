/**
 * Raw responses: what `.withResponse()` costs, and that it costs nothing unused. One GET of a
 * charge through an in-process `fetch` (no network, no server: only the client's own work is
 * measured) by bare ky, the SDK awaited plainly, and the SDK with `.withResponse()`, in the
 * same run. Ratios are the median of the per-round ratios (with their interquartile range), as
 * in the throughput section: the medians of 7 unpaired rounds moved by ±10% from run to run,
 * more than what is measured. The goal (`.withResponse()` against the plain await) is judged in
 * a duel, the two alone over many short rounds, as the throughput goals are: with three
 * contenders sharing 31 rounds it read 0.91x to 1.07x over one session's runs, where the two
 * calls do the same work. Bare ky takes part in shared rounds, for reference.
 */
import ky from 'ky';
import { fmt, interleave, loadSdk, medians, pairedRatio, perCallUs, type Row } from './support.ts';

/** Calls per contender per round (about 70 ms), and rounds; the duel's, shorter and more. */
const CALLS = 2_000;
const ROUNDS = 31;
const DUEL_CALLS = 1_000;
const DUEL_ROUNDS = 121;
const BASE = 'https://api.psp.example/v2';
const TXID = 'benchcharge0000000000000000001';
const BODY = JSON.stringify({
  txid: TXID,
  revisao: 0,
  status: 'ATIVA',
  calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: 3600 },
  valor: { original: '10.00' },
  chave: '7c084cd4-54af-4172-a516-a7d1a12b75cc',
});

/** The same answer for every request, as a server on the other end would give it. */
const answer = async (): Promise<Response> =>
  new Response(BODY, { headers: { 'content-type': 'application/json', 'content-length': String(BODY.length) } });

export async function measure(): Promise<Row[]> {
  const { InstantClient } = await loadSdk();
  const sdk = new InstantClient({ baseUrl: BASE, auth: { getToken: async () => 'bench-token' }, fetch: answer });
  const statuses = [408, 429, 500, 502, 503, 504];
  const bare = ky.create({
    prefix: BASE,
    fetch: answer,
    headers: { authorization: 'Bearer bench-token', accept: 'application/json' },
    timeout: 30_000,
    totalTimeout: 120_000,
    retry: {
      limit: 2,
      methods: ['get', 'put', 'delete'],
      statusCodes: statuses,
      afterStatusCodes: statuses,
      maxRetryAfter: 60_000,
      retryOnTimeout: true,
    },
  });
  const calls = {
    'bare ky': async () => (await bare.get(`cob/${TXID}`)).json(),
    'SDK await': () => sdk.cob.get(TXID),
    'SDK withResponse': () => sdk.cob.get(TXID).withResponse(),
  };
  type Name = keyof typeof calls;
  const rounds = (names: Name[], count: number, n: number) =>
    interleave(count, Object.fromEntries(names.map((name) => [name, () => perCallUs(n, calls[name])])));
  for (const call of Object.values(calls)) await perCallUs(CALLS, call); // warm-up
  const runs = await rounds(['bare ky', 'SDK await'], ROUNDS, CALLS);
  const duel = await rounds(['SDK withResponse', 'SDK await'], DUEL_ROUNDS, DUEL_CALLS);
  const us = medians(runs, (value) => value);
  const kyUs = us['bare ky'] ?? Number.NaN;
  const plainUs = us['SDK await'] ?? Number.NaN;
  const duelUs = medians(duel, (value) => value);
  const rawUs = duelUs['SDK withResponse'] ?? Number.NaN;
  const plainOverKy = pairedRatio(runs, 'SDK await', 'bare ky', (value) => value);
  const rawOverPlain = pairedRatio(duel, 'SDK withResponse', 'SDK await', (value) => value);
  const spread = (r: { q1: number; q3: number }) => `rounds' IQR ${r.q1.toFixed(2)}–${r.q3.toFixed(2)}`;
  return [
    {
      measure: 'GET charge through an in-process fetch (client work only): SDK, plain await, µs per call',
      value: `${fmt.fixed(plainUs)} µs`,
      baseline: `bare ky ${fmt.fixed(kyUs)} µs`,
      ratio: `${fmt.ratio(plainOverKy.median)} (${spread(plainOverKy)})`,
      goal: '(≈ 1x bare ky)',
      holds: undefined,
    },
    {
      measure: `same call with .withResponse(), µs per call (duel with the plain await, ${DUEL_ROUNDS} rounds of ${fmt.int(DUEL_CALLS)} calls)`,
      value: `${fmt.fixed(rawUs)} µs`,
      baseline: `plain await ${fmt.fixed(duelUs['SDK await'] ?? Number.NaN)} µs`,
      ratio: `${fmt.ratio(rawOverPlain.median)} (${spread(rawOverPlain)})`,
      goal: '≤ 1.05x plain await',
      holds: rawOverPlain.median <= 1.05,
    },
  ];
}
