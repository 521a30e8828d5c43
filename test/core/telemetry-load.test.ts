/**
 * When `@opentelemetry/api` is loaded, as a user's process sees it: a fresh Node process imports
 * the built main entry (`dist/`, made by `npm run build`) under a module hook that records every
 * module resolved, and can hide the API as if it were not installed. Without telemetry nothing of
 * it is loaded; with telemetry the first call, made before the import has settled, is traced;
 * without the API installed, a client given a provider still traces and every call still works.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  /** Whether `@opentelemetry/api` was resolved. */
  loadedApi: boolean;
  /** What the script wrote to `globalThis.out`. */
  out: unknown;
}

/** Runs `script` (ESM, `instant-payments` imported as `sdk`) in a fresh Node process. */
function run(
  script: string,
  { hideApi = false, env = {} }: { hideApi?: boolean; env?: Record<string, string> } = {},
): Run {
  const hook = `
import { registerHooks } from 'node:module';
globalThis.resolved = [];
registerHooks({
  resolve(specifier, context, next) {
    if (${hideApi} && specifier.startsWith('@opentelemetry/api'))
      throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
    const resolved = next(specifier, context);
    globalThis.resolved.push(resolved.url);
    return resolved;
  },
});
`;
  const main = `
const sdk = await import('instant-payments');
const answer = () => Response.json({ txid: 'a'.repeat(26), revisao: 0, status: 'ATIVA', calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: 3600 }, valor: { original: '1.00' }, chave: 'a@b.co' });
const options = { baseUrl: 'http://127.0.0.1:9/v2', auth: { getToken: async () => 'token' }, fetch: async () => answer() };
${script}
process.stdout.write(JSON.stringify({
  loadedApi: globalThis.resolved.some((url) => url.includes('/node_modules/@opentelemetry/api/')),
  out: globalThis.out,
}));
`;
  const out = execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', main],
    { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...process.env, INSTANT_PAYMENTS_TELEMETRY: '', ...env } },
  );
  return JSON.parse(out) as Run;
}

/** A tracer provider recording what the SDK asked of it, as `globalThis.out`. */
const RECORDING_PROVIDER = `
globalThis.out = [];
const tracerProvider = {
  getTracer: () => ({
    startSpan: (name, options, context) => {
      const span = { name, ended: false, parentGiven: context !== undefined };
      globalThis.out.push(span);
      return { setAttribute() {}, addEvent() {}, setStatus(status) { span.status = status.code; }, end() { span.ended = true; }, spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 }), isRecording: () => true };
    },
  }),
};
`;

describe('@opentelemetry/api is loaded only when telemetry is on', () => {
  it('is built (npm test runs npm run build before vitest)', () => {
    expect(existsSync(`${root}dist/index.js`)).toBe(true);
  });

  it('without telemetry: a client built and a call made, nothing of it is loaded', () => {
    const { loadedApi, out } = run(`
const api = new sdk.InstantClient(options);
globalThis.out = (await api.cob.get('a'.repeat(26))).status;
`);
    expect(out).toBe('ATIVA');
    expect(loadedApi).toBe(false);
  });

  it.each([
    ['a call', `await api.cob.get('a'.repeat(26)).then(settled)`, { name: 'cob.get', ended: true, parentGiven: true }],
    [
      'a refusal',
      `await api.cob.get('').catch(settled)`,
      { name: 'cob.get', ended: true, status: 2, parentGiven: true },
    ],
  ])(
    'with telemetry: loaded, and %s made at once on the first client is traced by the time it settles',
    (_, call, span) => {
      const { loadedApi, out } = run(`
${RECORDING_PROVIDER}
const spans = globalThis.out;
const api = new sdk.InstantClient({ ...options, telemetry: { tracerProvider } });
const settled = () => { globalThis.out = spans.map((span) => ({ ...span })); };
${call};
`);
      expect(loadedApi).toBe(true);
      expect(out).toEqual([span]);
    },
  );

  it('INSTANT_PAYMENTS_TELEMETRY=on loads it for a client without the option', () => {
    const { loadedApi } = run(
      `const api = new sdk.InstantClient(options);
await api.cob.get('a'.repeat(26));`,
      { env: { INSTANT_PAYMENTS_TELEMETRY: 'on' } },
    );
    expect(loadedApi).toBe(true);
  });

  it('not installed: a given provider still traces (without a parent), the global choice records nothing, calls work', () => {
    const { loadedApi, out } = run(
      `
${RECORDING_PROVIDER}
const given = new sdk.InstantClient({ ...options, telemetry: { tracerProvider } });
const globals = new sdk.InstantClient({ ...options, telemetry: {} });
const statuses = [(await given.cob.get('a'.repeat(26))).status, (await globals.cob.get('a'.repeat(26))).status];
globalThis.out = [...globalThis.out, ...statuses];
`,
      { hideApi: true },
    );
    expect(loadedApi).toBe(false);
    expect(out).toEqual([{ name: 'cob.get', ended: true, parentGiven: false }, 'ATIVA', 'ATIVA']);
  });
});
