/**
 * Throughput and client CPU per call at concurrency 32 against the server process: GET and PUT
 * of a charge through raw `fetch`, bare ky configured as the SDK configures it (same retry and
 * timeout settings; the body read with `Response.json()` once ky returned, the cheapest way, though
 * outside ky's time limits; ky's own `.json()` for reference), and the SDK.
 *
 * The goals (the SDK against bare ky, the transport it builds on) are judged in duels: the two
 * alone, one right after the other (A B B A ...), over many short rounds, by the median of the
 * per-round ratios with their interquartile range beside it. A control duel of bare ky against a
 * second, identical bare ky client shows the method's resolution in the same run. Seen on the
 * bench's 2-core machine: with three contenders taking turns (64 rounds of 200 ms), two identical
 * SDK clients came out 0.93x and 0.98x of each other in two runs; in duels, identical contenders
 * stayed within 1.3% of 1x over eight runs. The other contenders (raw fetch, `.withResponse()`,
 * ky's own `.json()`, the SDK without its rule checks) take turns in shared rounds, for reference.
 */
import ky from 'ky';
import { metrics, trace } from '@opentelemetry/api';
import {
  drive,
  fmt,
  interleave,
  loadSdk,
  medians,
  pairedRatio,
  type BenchContext,
  type DriveResult,
  type Row,
} from './support.ts';

const CONCURRENCY = 32;
/** The duels: rounds, and milliseconds each contender runs per round. */
const DUEL_ROUNDS = 150;
const DUEL_MS = 100;
/** The shared rounds of the reference contenders. */
const ROUNDS = 16;
const ROUND_MS = 200;
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
  // The same client with OpenTelemetry's no-op providers (nothing registered): what a span and a
  // metric cost when nobody records them; the plain client takes no telemetry at all.
  const noopTelemetry = new InstantClient({
    baseUrl: base,
    auth: { getToken: async () => TOKEN },
    telemetry: { tracerProvider: trace.getTracerProvider(), meterProvider: metrics.getMeterProvider() },
  });
  // The SDK's settings: 2 retries of safe methods on the same statuses, 30 s per attempt,
  // 120 s in all, exponential backoff from 500 ms with jitter, Retry-After capped at 60 s.
  const statuses = [408, 429, 500, 502, 503, 504];
  const bareKy = () =>
    ky.create({
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
  const bare = bareKy();
  // The control duel's second contender: the same code as bare ky, another client.
  const bareTwin = bareKy();
  const body = JSON.stringify(CHARGE);
  const calls = {
    'GET raw fetch': async () => (await fetch(`${base}/cob/${TXID}`, { headers })).json(),
    'GET bare ky': async () => (await bare.get(`cob/${TXID}`)).json(),
    // ky's own `.json()`, as ky's README writes calls: it bounds the body read by ky's time
    // limits, as the SDK does; the line above reads the body after ky returned, unbounded.
    'GET bare ky .json()': () => bare.get(`cob/${TXID}`).json(),
    'GET SDK': () => sdk.cob.get(TXID),
    'GET SDK withResponse': () => sdk.cob.get(TXID).withResponse(),
    'GET SDK, no-op telemetry': () => noopTelemetry.cob.get(TXID),
    'PUT raw fetch': async () =>
      (
        await fetch(`${base}/cob/${TXID}`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        })
      ).json(),
    'PUT bare ky': async () => (await bare.put(`cob/${TXID}`, { json: CHARGE })).json(),
    'PUT SDK': () => sdk.cob.create(TXID, CHARGE),
    'PUT SDK validate: false': () => unchecked.cob.create(TXID, CHARGE),
    'PUT bare ky, second client': async () => (await bareTwin.put(`cob/${TXID}`, { json: CHARGE })).json(),
  };
  type Name = keyof typeof calls;
  const rounds = (names: Name[], count: number, ms: number) =>
    interleave<DriveResult>(
      count,
      Object.fromEntries(names.map((name) => [name, () => drive(ms, CONCURRENCY, calls[name])])),
    );
  // Warm-up: connections open, code optimised.
  for (const call of Object.values(calls)) await drive(200, CONCURRENCY, call);
  const duels = {
    GET: await rounds(['GET SDK', 'GET bare ky'], DUEL_ROUNDS, DUEL_MS),
    PUT: await rounds(['PUT SDK', 'PUT bare ky'], DUEL_ROUNDS, DUEL_MS),
    control: await rounds(['PUT bare ky, second client', 'PUT bare ky'], DUEL_ROUNDS, DUEL_MS),
    telemetry: await rounds(['GET SDK, no-op telemetry', 'GET SDK'], DUEL_ROUNDS, DUEL_MS),
  };
  const runs = await rounds(
    [
      'GET raw fetch',
      'GET bare ky',
      'GET bare ky .json()',
      'GET SDK',
      'GET SDK withResponse',
      'PUT raw fetch',
      'PUT bare ky',
      'PUT SDK',
      'PUT SDK validate: false',
    ],
    ROUNDS,
    ROUND_MS,
  );
  const rate = medians(runs, (r) => r.callsPerSecond);
  const cpu = medians(runs, (r) => r.cpuUsPerCall);
  await Promise.all([sdk.close(), unchecked.close(), noopTelemetry.close()]);

  const spread = (r: { q1: number; q3: number }) => `rounds' IQR ${r.q1.toFixed(2)}–${r.q3.toFixed(2)}`;
  const kyGet = rate['GET bare ky'] ?? Number.NaN;
  const sdkGet = rate['GET SDK'] ?? Number.NaN;
  /** Bare ky against raw fetch (shared rounds); the SDK against bare ky, the goal, and client CPU per call (the duel). */
  const methodRows = (method: 'GET' | 'PUT'): Row[] => {
    const duel = duels[method];
    const duelRate = medians(duel, (r) => r.callsPerSecond);
    const duelCpu = medians(duel, (r) => r.cpuUsPerCall);
    const kyOverRaw = pairedRatio(runs, `${method} bare ky`, `${method} raw fetch`, (r) => r.callsPerSecond);
    const sdkOverKy = pairedRatio(duel, `${method} SDK`, `${method} bare ky`, (r) => r.callsPerSecond);
    const cpuOverKy = pairedRatio(duel, `${method} SDK`, `${method} bare ky`, (r) => r.cpuUsPerCall);
    return [
      {
        measure: `${method} charge, c=${CONCURRENCY}: bare ky calls/s`,
        value: `${fmt.int(rate[`${method} bare ky`] ?? Number.NaN)}/s`,
        baseline: `raw fetch ${fmt.int(rate[`${method} raw fetch`] ?? Number.NaN)}/s`,
        ratio: `${fmt.ratio(kyOverRaw.median)} (${spread(kyOverRaw)})`,
        goal: '(transport, for reference)',
        holds: undefined,
      },
      {
        measure: `${method} charge, c=${CONCURRENCY}: SDK calls/s (duel with bare ky, ${DUEL_ROUNDS} rounds of ${DUEL_MS} ms each)`,
        value: `${fmt.int(duelRate[`${method} SDK`] ?? Number.NaN)}/s`,
        baseline: `bare ky ${fmt.int(duelRate[`${method} bare ky`] ?? Number.NaN)}/s`,
        ratio: `${fmt.ratio(sdkOverKy.median)} (${spread(sdkOverKy)})`,
        goal: '≥ 0.95x bare ky',
        holds: sdkOverKy.median >= 0.95,
      },
      {
        measure: `${method} charge, c=${CONCURRENCY}: SDK client CPU per call (same duel)`,
        value: `${fmt.fixed(duelCpu[`${method} SDK`] ?? Number.NaN, 0)} µs`,
        baseline: `bare ky ${fmt.fixed(duelCpu[`${method} bare ky`] ?? Number.NaN, 0)} µs; raw fetch ${fmt.fixed(cpu[`${method} raw fetch`] ?? Number.NaN, 0)} µs in the shared rounds`,
        ratio: `${fmt.ratio(cpuOverKy.median)} (${spread(cpuOverKy)})`,
        goal: '(≈ 1x bare ky)',
        holds: undefined,
      },
    ];
  };
  const control = pairedRatio(duels.control, 'PUT bare ky, second client', 'PUT bare ky', (r) => r.callsPerSecond);
  const controlRate = medians(duels.control, (r) => r.callsPerSecond);
  const noop = pairedRatio(duels.telemetry, 'GET SDK, no-op telemetry', 'GET SDK', (r) => r.callsPerSecond);
  const noopRate = medians(duels.telemetry, (r) => r.callsPerSecond);
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
    {
      measure: `GET charge, c=${CONCURRENCY}: SDK with OpenTelemetry's no-op providers against the SDK without telemetry (duel, ${DUEL_ROUNDS} rounds of ${DUEL_MS} ms)`,
      value: `${fmt.int(noopRate['GET SDK, no-op telemetry'] ?? Number.NaN)}/s`,
      baseline: `SDK without telemetry ${fmt.int(noopRate['GET SDK'] ?? Number.NaN)}/s`,
      ratio: `${fmt.ratio(noop.median)} (${spread(noop)})`,
      goal: "(≈ 1x within the control duel's spread)",
      holds: undefined,
    },
    {
      measure: `control duel, PUT c=${CONCURRENCY}: bare ky against a second bare ky client (the same code: how far apart the method puts equals)`,
      value: `${fmt.int(controlRate['PUT bare ky, second client'] ?? Number.NaN)}/s`,
      baseline: `bare ky ${fmt.int(controlRate['PUT bare ky'] ?? Number.NaN)}/s`,
      ratio: `${fmt.ratio(control.median)} (${spread(control)})`,
      goal: '(≈ 1x: the resolution)',
      holds: undefined,
    },
  ];
}
