/**
 * Throughput and client CPU per call at concurrency 32 against the server process: GET and PUT
 * of a charge through raw `fetch`, bare ky configured as the SDK configures it (same retry and
 * timeout settings; the body read with `Response.json()` once ky returned, the cheapest way, though
 * outside ky's time limits; ky's own `.json()` for reference), and the SDK. The SDK is judged
 * against that bare ky, the transport it builds on, by the median of the ratios of the two in
 * each round (they run one after the other), with the interquartile range of those ratios beside
 * it: the spread is the machine's, and worth seeing.
 */
import ky from 'ky';
import { drive, fmt, interleave, loadSdk, medians, pairedRatio, type BenchContext, type DriveResult, type Row } from './support.ts';

const CONCURRENCY = 32;
/** Milliseconds each contender runs per round. */
const ROUND_MS = 200;
/** Rounds: enough for the median of per-round ratios to settle on a machine that is not idle. */
const ROUNDS = 32;
const TXID = 'benchcharge0000000000000000001';
const TOKEN = 'bench-token';

/** A valid immediate charge: the SDK judges it against the rules before each PUT. */
export const CHARGE = {
  calendario: { expiracao: 3600 },
  devedor: { cpf: '12345678909', nome: 'Test Person' },
  valor: { original: '10.00' },
  chave: '7c084cd4-54af-4172-a516-a7d1a12b75cc',
  solicitacaoPagador: 'Order 1234',
  infoAdicionais: [{ nome: 'Order', valor: '1234' }],
};

export async function measure(ctx: BenchContext): Promise<Row[]> {
  const { InstantClient } = await loadSdk();
  const base = ctx.httpUrl;
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const sdk = new InstantClient({ baseUrl: base, auth: { getToken: async () => TOKEN } });
  // The same client without the client-side rules: what the rules cost a PUT, on the wire.
  const unchecked = new InstantClient({ baseUrl: base, auth: { getToken: async () => TOKEN }, validate: false });
  // The SDK's settings: 2 retries of safe methods on the same statuses, 30 s per attempt,
  // 120 s in all, exponential backoff from 500 ms with jitter, Retry-After capped at 60 s.
  const statuses = [408, 429, 500, 502, 503, 504];
  const bare = ky.create({
    prefix: base,
    headers,
    timeout: 30_000,
    totalTimeout: 120_000,
    retry: {
      limit: 2,
      methods: ['get', 'put', 'delete'],
      statusCodes: statuses,
      afterStatusCodes: statuses,
      maxRetryAfter: 60_000,
      delay: (attempt) => 500 * 2 ** (attempt - 1),
      backoffLimit: 8_000,
      jitter: true,
      retryOnTimeout: true,
    },
  });
  const body = JSON.stringify(CHARGE);
  const calls = {
    'GET raw fetch': async () => (await fetch(`${base}/cob/${TXID}`, { headers })).json(),
    'GET bare ky': async () => (await bare.get(`cob/${TXID}`)).json(),
    // ky's own `.json()`, as ky's README writes calls: it bounds the body read by ky's time
    // limits, as the SDK does; the line above reads the body after ky returned, unbounded.
    'GET bare ky .json()': () => bare.get(`cob/${TXID}`).json(),
    'GET SDK': () => sdk.cob.get(TXID),
    'GET SDK withResponse': () => sdk.cob.get(TXID).withResponse(),
    'PUT raw fetch': async () =>
      (await fetch(`${base}/cob/${TXID}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body })).json(),
    'PUT bare ky': async () => (await bare.put(`cob/${TXID}`, { json: CHARGE })).json(),
    'PUT SDK': () => sdk.cob.create(TXID, CHARGE),
    'PUT SDK validate: false': () => unchecked.cob.create(TXID, CHARGE),
  };
  // Warm-up: connections open, code optimised.
  for (const call of Object.values(calls)) await drive(200, CONCURRENCY, call);
  const runs = await interleave<DriveResult>(
    ROUNDS,
    Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, () => drive(ROUND_MS, CONCURRENCY, call)])),
  );
  const rate = medians(runs, (r) => r.callsPerSecond);
  const cpu = medians(runs, (r) => r.cpuUsPerCall);
  await Promise.all([sdk.close(), unchecked.close()]);

  const spread = (r: { q1: number; q3: number }) => `rounds' IQR ${r.q1.toFixed(2)}–${r.q3.toFixed(2)}`;
  const kyGet = rate['GET bare ky'] ?? Number.NaN;
  const sdkGet = rate['GET SDK'] ?? Number.NaN;
  /** Bare ky against raw fetch, the SDK against bare ky (the goal), and client CPU per call. */
  const methodRows = (method: 'GET' | 'PUT'): Row[] => {
    const raw = rate[`${method} raw fetch`] ?? Number.NaN;
    const kyRate = rate[`${method} bare ky`] ?? Number.NaN;
    const sdkRate = rate[`${method} SDK`] ?? Number.NaN;
    const kyOverRaw = pairedRatio(runs, `${method} bare ky`, `${method} raw fetch`, (r) => r.callsPerSecond);
    const sdkOverKy = pairedRatio(runs, `${method} SDK`, `${method} bare ky`, (r) => r.callsPerSecond);
    const cpuOverKy = pairedRatio(runs, `${method} SDK`, `${method} bare ky`, (r) => r.cpuUsPerCall);
    return [
      {
        measure: `${method} charge, c=${CONCURRENCY}: bare ky calls/s`,
        value: `${fmt.int(kyRate)}/s`,
        baseline: `raw fetch ${fmt.int(raw)}/s`,
        ratio: `${fmt.ratio(kyOverRaw.median)} (${spread(kyOverRaw)})`,
        goal: '(transport, for reference)',
        holds: undefined,
      },
      {
        measure: `${method} charge, c=${CONCURRENCY}: SDK calls/s`,
        value: `${fmt.int(sdkRate)}/s`,
        baseline: `bare ky ${fmt.int(kyRate)}/s`,
        ratio: `${fmt.ratio(sdkOverKy.median)} (${spread(sdkOverKy)})`,
        goal: '≥ 0.95x bare ky',
        holds: sdkOverKy.median >= 0.95,
      },
      {
        measure: `${method} charge, c=${CONCURRENCY}: SDK client CPU per call`,
        value: `${fmt.fixed(cpu[`${method} SDK`] ?? Number.NaN, 0)} µs`,
        baseline: `bare ky ${fmt.fixed(cpu[`${method} bare ky`] ?? Number.NaN, 0)} µs, raw fetch ${fmt.fixed(cpu[`${method} raw fetch`] ?? Number.NaN, 0)} µs`,
        ratio: `${fmt.ratio(cpuOverKy.median)} (${spread(cpuOverKy)})`,
        goal: '(≈ 1x bare ky)',
        holds: undefined,
      },
    ];
  };
  const withOverPlain = pairedRatio(runs, 'GET SDK withResponse', 'GET SDK', (r) => r.callsPerSecond);
  const kyOwnJson = pairedRatio(runs, 'GET bare ky .json()', 'GET bare ky', (r) => r.callsPerSecond);
  const sdkOverKyOwnJson = pairedRatio(runs, 'GET SDK', 'GET bare ky .json()', (r) => r.callsPerSecond);
  const uncheckedOverKy = pairedRatio(runs, 'PUT SDK validate: false', 'PUT bare ky', (r) => r.callsPerSecond);
  return [
    ...methodRows('GET'),
    {
      measure: `GET charge, c=${CONCURRENCY}: SDK with .withResponse() calls/s`,
      value: `${fmt.int(rate['GET SDK withResponse'] ?? Number.NaN)}/s`,
      baseline: `SDK plain await ${fmt.int(sdkGet)}/s, bare ky ${fmt.int(kyGet)}/s`,
      ratio: `${fmt.ratio(withOverPlain.median)} (${spread(withOverPlain)})`,
      goal: '(≈ 1x plain await)',
      holds: undefined,
    },
    {
      measure: `GET charge, c=${CONCURRENCY}: bare ky with its own .json() (the body read under ky's time limits, as the SDK reads it) calls/s`,
      value: `${fmt.int(rate['GET bare ky .json()'] ?? Number.NaN)}/s`,
      baseline: `bare ky reading the body after it returned ${fmt.int(kyGet)}/s; SDK ${fmt.int(sdkGet)}/s is ${fmt.ratio(sdkOverKyOwnJson.median)} of it (${spread(sdkOverKyOwnJson)})`,
      ratio: `${fmt.ratio(kyOwnJson.median)} (${spread(kyOwnJson)})`,
      goal: '(for reference)',
      holds: undefined,
    },
    ...methodRows('PUT'),
    {
      measure: `PUT charge, c=${CONCURRENCY}: SDK without the rule checks (validate: false) calls/s`,
      value: `${fmt.int(rate['PUT SDK validate: false'] ?? Number.NaN)}/s`,
      baseline: `bare ky ${fmt.int(rate['PUT bare ky'] ?? Number.NaN)}/s, SDK with them ${fmt.int(rate['PUT SDK'] ?? Number.NaN)}/s`,
      ratio: `${fmt.ratio(uncheckedOverKy.median)} (${spread(uncheckedOverKy)})`,
      goal: '(for reference)',
      holds: undefined,
    },
  ];
}
