/**
 * OpenTelemetry against the sandbox, with the SDK's in-memory exporters: a CLIENT span per call
 * named after the method, its attributes, retries and the 401 replay as events, errors, a span
 * for a call refused before sending, the `cashOut.pay` and `recover()` store steps, a SERVER span
 * per notification with its outcome (received payments, recurring, and deliveries the
 * `authenticate` gate refuses), the calls of a workflow or a notification nested under its span
 * and every span under the caller's active one, the duration metric; and nothing exported
 * carries an id, key, document, amount, token or secret.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackAsyncContext } from './telemetry-context.ts';
import {
  CashOutClient,
  ConfigurationError,
  InstantClient,
  createMemoryStore,
  generateIdempotencyKey,
  generateTxid,
  receivedPaymentsHandler,
  recurringHandler,
  webhookUrl,
  type RecCompleta,
  type Store,
  type TelemetryOptions,
} from '../../src/index.ts';
import { selfSigned, service } from '../notifications/support.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { createSealer } from '../../src/store/crypto.ts';

const SPAN_KIND_SERVER = 1;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

const sandbox = createSandbox({ seed: 28 });
const spans = new InMemorySpanExporter();
const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 });
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const telemetry: TelemetryOptions = {
  tracerProvider,
  meterProvider: new MeterProvider({ readers: [reader] }),
};
/** Every secret and personal value the calls below carry: none may appear in anything exported. */
const secrets = new Set<string>();

// The context manager a Node process using OpenTelemetry has (NodeSDK registers it).
const untrack = trackAsyncContext();
beforeAll(() => sandbox.listen({ port: 0 }));
afterAll(async () => {
  untrack();
  await sandbox.close();
});

const byName = (name: string): ReadableSpan[] => spans.getFinishedSpans().filter((span) => span.name === name);
/** The spans started directly under `parent`. */
const childrenOf = (parent: ReadableSpan | undefined): string[] =>
  spans
    .getFinishedSpans()
    .filter((span) => parent !== undefined && span.parentSpanContext?.spanId === parent.spanContext().spanId)
    .map((span) => span.name);

function api(extra: Record<string, unknown> = {}): InstantClient {
  const options = sandbox.clientOptions();
  secrets.add(options.auth.clientSecret).add(options.auth.clientId);
  for (const key of options.ownKeys) secrets.add(key);
  return new InstantClient({ ...options, telemetry, ...extra });
}

const CPF = '12345678909';

/** A store that is not the in-memory default: payments then go through intents. */
function sharedStore(): Store {
  const memory = createMemoryStore();
  return {
    lease: (...a) => memory.lease(...a),
    renew: (...a) => memory.renew!(...a),
    unlease: (...a) => memory.unlease(...a),
    get: (k) => memory.get(k),
    set: (...a) => memory.set(...a),
    delete: (...a) => memory.delete(...a),
    list: (p) => memory.list(p),
    sealer: createSealer(new Uint8Array(32).fill(7)),
  };
}

describe('CLIENT spans', () => {
  it('one per call, named after the method, with the HTTP attributes and the attempt count', async () => {
    const client = api();
    const txid = generateTxid();
    secrets.add(txid).add('7.31').add(CPF).add('Fulana de Tal');
    await client.cob.create(txid, {
      calendario: { expiracao: 600 },
      devedor: { cpf: CPF, nome: 'Fulana de Tal' },
      valor: { original: '7.31' },
      chave: sandbox.ownKeys[0]!,
    });
    await client.cob.get(txid);
    const [create] = byName('cob.create');
    expect(create?.kind).toBe(SPAN_KIND_CLIENT);
    expect(create?.attributes).toEqual({
      'http.request.method': 'PUT',
      'url.template': '/cob/{}',
      'server.address': '127.0.0.1',
      'http.response.status_code': 201,
      'instant_payments.attempts': 1,
    });
    expect(byName('cob.get')[0]?.attributes['http.response.status_code']).toBe(200);
  });

  it('a failure: status ERROR, error.type the error class, no message', async () => {
    const txid = generateTxid();
    secrets.add(txid);
    await expect(api().cob.get(txid)).rejects.toThrow();
    const failed = byName('cob.get').at(-1)!;
    expect(failed.status.code).toBe(STATUS_ERROR);
    expect(failed.status.message).toBeUndefined();
    expect(failed.attributes['error.type']).toBe('CobNaoEncontrado');
    expect(failed.attributes['http.response.status_code']).toBe(404);
  });

  it('retries and the 401 replay are events; the attempts are counted', async () => {
    const client = api({ maxRetries: 2 });
    const rec = generateTxid();
    secrets.add(rec);
    await client.cob.get(rec).catch(() => undefined);
    sandbox.injectFaults({ rate: 1, kinds: ['503'], retryAfter: 0 });
    await client.cob.get(rec).catch(() => undefined);
    sandbox.injectFaults({ rate: 0 });
    const retried = byName('cob.get').at(-1)!;
    expect(retried.events.map((event) => event.name)).toEqual(['retry', 'retry']);
    expect(retried.events[0]?.attributes).toEqual({ 'http.request.resend_count': 1, reason: 'HTTP 503' });
    expect(retried.attributes['instant_payments.attempts']).toBe(3);
    sandbox.expireTokens();
    await client.cob.get(rec).catch(() => undefined);
    const replayed = byName('cob.get').at(-1)!;
    expect(replayed.events.map((event) => event.name)).toEqual(['token refused (401): dropped, call replayed once']);
    expect(replayed.attributes['instant_payments.attempts']).toBe(2);
  });

  it('rec.get and a list are named after their methods', async () => {
    const client = api();
    await client.rec.get('RR1234567820260101abcdefghijk').catch(() => undefined);
    await client.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-12-31T00:00:00Z' });
    expect(byName('rec.get')[0]?.attributes['url.template']).toBe('/rec/{}');
    expect(byName('cob.list')[0]?.attributes['http.request.method']).toBe('GET');
  });
});

describe('workflows and notifications', () => {
  it('cashOut.pay and recover() show their store steps', async () => {
    const store = sharedStore();
    const options = sandbox.cashOutOptions();
    secrets.add(options.auth.clientSecret).add(options.auth.clientId);
    const cashOut = new CashOutClient({ ...options, store, telemetry });
    const idempotencyKey = generateIdempotencyKey();
    secrets.add(idempotencyKey).add('2.57');
    await cashOut.pay({ idempotencyKey, key: '+5561999990001', creditorDocument: '52998224725', amount: '2.57' });
    const [pay] = byName('cashOut.pay');
    expect(pay?.kind).toBe(SPAN_KIND_CLIENT);
    expect(pay?.attributes['instant_payments.outcome']).toBe('placed');
    expect(pay?.events.map((event) => event.name)).toEqual(expect.arrayContaining(['store.lease', 'store.set']));
    // The workflow's calls (the balance check, the order, its look-up) are its children.
    expect(childrenOf(pay)).toEqual(expect.arrayContaining(['cashOut.balance.get', 'cashOut.payments.create']));
    const sameTrace = spans
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === pay?.spanContext().traceId);
    expect(sameTrace.map((span) => span.name).sort()).toEqual(['cashOut.pay', ...childrenOf(pay)].sort());
    secrets.add('+5561999990001').add('5561999990001').add('52998224725');
    await cashOut.recover();
    const [recover] = byName('cashOut.recover');
    expect(recover?.events.map((event) => event.name)).toEqual(expect.arrayContaining(['store.list', 'recovered']));
    expect(byName('cashOut.payments.create')[0]?.attributes['url.template']).toBe('/api/v2/instant/payments/dict');
  });

  it("recover()'s look-ups are its children", async () => {
    const store = sharedStore();
    const options = sandbox.cashOutOptions();
    let ordersFail = true;
    // The order answered 503 without reaching the sandbox: its outcome is unknown, its intent left open.
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (ordersFail && url.endsWith('/payments/dict')) return Promise.resolve(new Response(null, { status: 503 }));
      return globalThis.fetch(input, init);
    };
    const cashOut = new CashOutClient({ ...options, store, telemetry, fetch, maxRetries: 0 });
    const idempotencyKey = generateIdempotencyKey();
    secrets.add(idempotencyKey).add('3.33');
    await expect(
      cashOut.pay({ idempotencyKey, key: '+5561999990001', creditorDocument: '52998224725', amount: '3.33' }),
    ).rejects.toMatchObject({ name: 'PaymentOutcomeUnknownError' });
    ordersFail = false;
    expect(await cashOut.recover({ settleDelayMs: 1 })).toEqual([{ idempotencyKey, outcome: 'not-placed' }]);
    const recover = byName('cashOut.recover').at(-1);
    expect(childrenOf(recover)).toContain('cashOut.payments.get');
  });

  it('one SERVER span per notification with its outcome: confirmed, duplicate, unconfirmed, refused', async () => {
    const client = api();
    const txid = generateTxid();
    secrets.add(txid).add('4.44');
    await client.cob.create(txid, {
      calendario: { expiracao: 600 },
      valor: { original: '4.44' },
      chave: sandbox.ownKeys[0]!,
    });
    const payment = await sandbox.payCharge(txid);
    secrets.add(payment.endToEndId);
    const handler = receivedPaymentsHandler(client, { onPayment: () => undefined });
    const deliver = (body: unknown) =>
      handler(new Request('https://hooks.example.com/x', { method: 'POST', body: JSON.stringify(body) }));
    expect((await deliver({ recebidos: [payment] })).status).toBe(200);
    expect((await deliver({ recebidos: [payment] })).status).toBe(200);
    // Another amount under the handled e2eid would be answered from its done mark (a duplicate):
    // an e2eid the service does not know is asked about, and unconfirmed.
    const unknown = 'E99999999202611261200zzzzzzzzzzz';
    secrets.add(unknown);
    expect((await deliver({ recebidos: [{ ...payment, endToEndId: unknown, valor: '9.99' }] })).status).toBe(200);
    expect((await deliver('not a notification')).status).toBe(400);
    const handled = byName('receivedPayments.notification');
    expect(handled.map((span) => span.kind)).toEqual([
      SPAN_KIND_SERVER,
      SPAN_KIND_SERVER,
      SPAN_KIND_SERVER,
      SPAN_KIND_SERVER,
    ]);
    expect(handled.map((span) => span.attributes['instant_payments.outcome'])).toEqual([
      'confirmed',
      'duplicate',
      'unconfirmed',
      'refused',
    ]);
    // The confirming GET of the payment is a child of the notification that asked for it.
    expect(childrenOf(handled[0])).toEqual(['instant.get']);
    expect(childrenOf(handled[3])).toEqual([]);
  });
});

describe('every notification handled has its SERVER span', () => {
  it('recurring: confirmed, duplicate, unconfirmed, refused', async () => {
    const client = api();
    const idRec = 'RR1234567820261126abcdefghijk';
    const record = { idRec, status: 'APROVADA', valor: { valorRec: '31.17' } } as unknown as RecCompleta;
    secrets.add(idRec).add('31.17');
    // The client's telemetry, with a service whose records are known to the test.
    const recurring = {
      rec: { get: async (id: string) => ({ ...record, idRec: id }) },
      cobr: { get: async () => ({}) as never },
      telemetry: client.telemetry,
    };
    const handler = recurringHandler(recurring, { onRec: () => undefined });
    const deliver = (body: unknown) =>
      handler(new Request('https://hooks.example.com/rec', { method: 'POST', body: JSON.stringify(body) }));
    expect((await deliver({ recs: [{ idRec, status: 'APROVADA' }] })).status).toBe(200);
    expect((await deliver({ recs: [{ idRec, status: 'APROVADA' }] })).status).toBe(200);
    expect((await deliver({ recs: [{ idRec, status: 'CANCELADA' }] })).status).toBe(200);
    expect((await deliver({ other: [] })).status).toBe(400);
    const handled = byName('recurring.notification');
    expect(handled.map((span) => span.kind)).toEqual([
      SPAN_KIND_SERVER,
      SPAN_KIND_SERVER,
      SPAN_KIND_SERVER,
      SPAN_KIND_SERVER,
    ]);
    expect(handled.map((span) => span.attributes['instant_payments.outcome'])).toEqual([
      'confirmed',
      'duplicate',
      'unconfirmed',
      'refused',
    ]);
  });

  it('recurring, given the client itself: its telemetry; the record lookup a CLIENT span of its own', async () => {
    const client = api();
    const idRec = 'RR1234567820261126unknownrec1';
    secrets.add(idRec);
    const handler = recurringHandler(client, { onRec: () => undefined, onCobr: () => undefined });
    const response = await handler(
      new Request('https://hooks.example.com/rec', {
        method: 'POST',
        body: JSON.stringify({ recs: [{ idRec, status: 'APROVADA' }] }),
      }),
    );
    expect(response.status).toBe(200);
    const served = byName('recurring.notification').at(-1)!;
    expect(served.kind).toBe(SPAN_KIND_SERVER);
    // The sandbox has no such recurrence: the service's record did not confirm it.
    expect(served.attributes['instant_payments.outcome']).toBe('unconfirmed');
    const lookup = byName('rec.get').at(-1)!;
    expect(lookup.kind).toBe(SPAN_KIND_CLIENT);
    // The lookup is made while the notification is handled: a child of its span.
    expect(lookup.parentSpanContext?.spanId).toBe(served.spanContext().spanId);
  });

  it('a delivery the authenticate gate refuses: refused with its status, nothing it presented', async () => {
    const client = api();
    const secret = 'whs-telemetry-secret-0123456789';
    const wrong = 'whs-telemetry-wrong-9876543210';
    secrets
      .add(secret)
      .add(wrong)
      .add('10.1.2.3')
      .add(selfSigned.cert.replace(/-----[A-Z ]+-----|\s/g, '').slice(0, 64));
    const bySecret = receivedPaymentsHandler(client, { onPayment: () => undefined, authenticate: { secret } });
    const byCertificate = receivedPaymentsHandler(client, {
      onPayment: () => undefined,
      authenticate: {
        clientCertificate: { ca: service.ca.cert },
        trustedProxies: ['10.0.0.0/8'],
        forwardedCertificateHeader: 'X-Client-Cert',
      },
    });
    const post = (url: string, headers: Record<string, string> = {}) =>
      new Request(url, { method: 'POST', headers, body: '{}' });
    const before = byName('receivedPayments.notification').length;
    expect((await bySecret(post(`${webhookUrl('https://hooks.example.com/w', wrong)}/instant`))).status).toBe(403);
    expect((await bySecret(post('https://hooks.example.com/w/instant'))).status).toBe(401);
    const forged = { 'x-client-cert': encodeURIComponent(selfSigned.cert) };
    expect(
      (await byCertificate(post('https://hooks.example.com/w', forged), { remoteAddress: '10.1.2.3' })).status,
    ).toBe(403);
    const refused = byName('receivedPayments.notification').slice(before);
    expect(refused.map((span) => span.kind)).toEqual([SPAN_KIND_SERVER, SPAN_KIND_SERVER, SPAN_KIND_SERVER]);
    expect(refused.map((span) => span.attributes['instant_payments.outcome'])).toEqual([
      'refused',
      'refused',
      'refused',
    ]);
    expect(refused.map((span) => span.events.at(-1)?.attributes?.['http.response.status_code'])).toEqual([
      403, 401, 403,
    ]);
  });
});

describe('a call refused before sending', () => {
  const refusedSpan = (name: string) => {
    const span = byName(name).at(-1);
    return span && { kind: span.kind, status: span.status, attributes: span.attributes };
  };

  it('has its CLIENT span, named after the method: status ERROR, error.type, no status code', async () => {
    const client = api();
    const txid = generateTxid();
    secrets.add(txid).add('7.3');
    // An amount the spec refuses, on the client's first call: the span is there when the call fails.
    const amount = await client.cob
      .create(txid, { calendario: { expiracao: 600 }, valor: { original: '7.3' }, chave: sandbox.ownKeys[0]! })
      .catch((error: unknown) => error);
    expect(amount).toMatchObject({ name: 'CobOperacaoInvalida', sentRequest: false });
    expect(refusedSpan('cob.create')).toEqual({
      kind: SPAN_KIND_CLIENT,
      status: { code: STATUS_ERROR },
      attributes: { 'http.request.method': 'PUT', 'url.template': '/cob/{}', 'error.type': 'CobOperacaoInvalida' },
    });
    // An empty txid: the path cannot be built, the span still names the route.
    await expect(client.cob.get('')).rejects.toMatchObject({ sentRequest: false });
    expect(refusedSpan('cob.get')?.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': '/cob/{}',
      'error.type': 'CobConsultaInvalida',
    });
  });

  it('a list refused before its first page, and cashOut.pay() without its params', async () => {
    await expect(api().cobv.list({ inicio: 'yesterday', fim: 'today' })).rejects.toMatchObject({ sentRequest: false });
    expect(refusedSpan('cobv.list')).toMatchObject({
      status: { code: STATUS_ERROR },
      attributes: { 'http.request.method': 'GET', 'url.template': '/cobv' },
    });
    const cashOut = new CashOutClient({ ...sandbox.cashOutOptions(), telemetry });
    await expect(cashOut.pay(undefined as never)).rejects.toThrow(ConfigurationError);
    expect(refusedSpan('cashOut.pay')).toEqual({
      kind: SPAN_KIND_CLIENT,
      status: { code: STATUS_ERROR },
      attributes: { 'error.type': 'ConfigurationError' },
    });
  });
});

describe("the caller's active span", () => {
  it("is the parent of the SDK's spans, a refused call's included; the call's span is active in fetch", async () => {
    const activeInFetch: (string | undefined)[] = [];
    const client = api({
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        activeInFetch.push(trace.getActiveSpan()?.spanContext().spanId);
        return globalThis.fetch(input, init);
      },
    });
    const txid = generateTxid();
    secrets.add(txid);
    const tracer = tracerProvider.getTracer('the-users-app');
    await tracer.startActiveSpan('checkout', async (checkout) => {
      await client.cob.get(txid).catch(() => undefined);
      await client.cob.get('').catch(() => undefined);
      checkout.end();
    });
    const [checkout] = byName('checkout');
    expect(childrenOf(checkout)).toEqual(['cob.get', 'cob.get']);
    expect(
      byName('cob.get')
        .slice(-2)
        .map((span) => span.attributes['error.type']),
    ).toEqual(['CobNaoEncontrado', 'CobConsultaInvalida']);
    // An instrumented fetch (undici's) nests its span under the call's.
    const get = byName('cob.get').at(-2)!;
    expect(activeInFetch.at(-1)).toBe(get.spanContext().spanId);
  });
});

describe('the duration metric and what nothing exported carries', () => {
  it('records http.client.request.duration by method, template and status', async () => {
    await reader.forceFlush();
    const exported = metrics.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
    const duration = exported.find((metric) => metric.descriptor.name === 'http.client.request.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const points = duration!.dataPoints.map((point) => point.attributes);
    expect(points).toContainEqual(
      expect.objectContaining({
        'http.request.method': 'PUT',
        'url.template': '/cob/{}',
        'http.response.status_code': 201,
      }),
    );
    expect(points).toContainEqual(
      expect.objectContaining({
        'url.template': '/cob/{}',
        'http.response.status_code': 404,
        'error.type': 'CobNaoEncontrado',
      }),
    );
  });

  it('never an id, key, document, amount, token or secret in a span, event or metric', async () => {
    await reader.forceFlush();
    const everything = JSON.stringify({
      spans: spans
        .getFinishedSpans()
        .map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
      metrics: metrics.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics)),
    });
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/Bearer|authorization/i);
  });
});

describe('the telemetry option', () => {
  it('is checked by the constructor', () => {
    expect(() => new InstantClient({ ...sandbox.clientOptions(), telemetry: { tracerProvider: {} } as never })).toThrow(
      ConfigurationError,
    );
    expect(() => new InstantClient({ ...sandbox.clientOptions(), telemetry: 'on' as never })).toThrow(
      expect.objectContaining({ option: 'telemetry' }),
    );
  });
});
