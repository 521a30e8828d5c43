/**
 * What an operator and a caller see of a notification's confirmed delivery, through the
 * received-payments handler over an in-memory service: the SERVER span's outcome and events, the
 * log lines (what happened, never contents), the bound on confirming calls and its warning, the
 * memory of what was answered (by content) and handed over (by id and state), a delivery found
 * running in another process, and the errors a bad body is refused with.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ClaimBusyError,
  ConfigurationError,
  InvalidNotificationError,
  receivedPaymentsHandler,
  recurringHandler,
  webhookUrl,
  type RecurringNotificationsApi,
  type InstantPayment,
  type Logger,
  type ReceivedPaymentsApi,
  type ReceivedPaymentsHandlerOptions,
  type Store,
} from '../../src/index.ts';
import { Telemetry, type TelemetryTracerProvider } from '../../src/core/telemetry.ts';
import { notificationOutcome, type DeliveryOutcome } from '../../src/notifications/confirmed.ts';
import { claimingStore, sharedStore } from '../support/shared-store.ts';

const PAYMENT: InstantPayment = {
  endToEndId: 'E12345678202611261200confirmed1',
  txid: 'tx1234567890abcdefghijklmnop',
  valor: '10.00',
  horario: '2026-11-26T12:00:00Z',
};
const OTHER = 'E12345678202611261200confirmed2';

interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  meta?: Record<string, unknown>;
}

/** A logger that keeps its lines. */
function recordingLogger(): Logger & { lines: LogLine[]; messages: (level?: LogLine['level']) => string[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (message: string, meta?: Record<string, unknown>): void =>
      void lines.push({ level, message, ...(meta && { meta }) });
  return {
    lines,
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    messages: (level) =>
      lines.filter((line) => level === undefined || line.level === level).map((line) => line.message),
  };
}

interface RecordedSpan {
  name: string;
  kind: number | undefined;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> | undefined }>;
  status?: number;
  ended: boolean;
}

/** A tracer provider that keeps the spans it starts. */
function recordingTracer(): TelemetryTracerProvider & { spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  return {
    spans,
    getTracer: () => ({
      startSpan(name, options) {
        const span: RecordedSpan = { name, kind: options?.kind, attributes: {}, events: [], ended: false };
        spans.push(span);
        return {
          setAttribute: (key, value) => (span.attributes[key] = value),
          addEvent: (event, attributes) => span.events.push({ name: event, attributes }),
          setStatus: ({ code }) => (span.status = code),
          end: () => void (span.ended = true),
        };
      },
    }),
  };
}

/** A gate a test opens: `wait()` resolves once `open()` was called. */
function gate(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

/** A clock the test moves (and that moves `stepMs` after each read). */
function manualClock(stepMs = 0): { now: () => Date; advance: (ms: number) => void } {
  let at = Date.parse('2026-11-26T12:00:00Z');
  return {
    now: () => {
      const read = new Date(at);
      at += stepMs;
      return read;
    },
    advance: (ms) => void (at += ms),
  };
}

interface ServiceOptions {
  /** The service's record of a notified e2eid (default: `PAYMENT` under that e2eid). */
  record?: (e2eid: string) => InstantPayment;
  /** Awaited before each answer (the call counted first). */
  before?: (call: number) => Promise<void> | void;
  store?: Store;
  logger?: Logger;
  tracer?: TelemetryTracerProvider;
  now?: () => Date;
  listed?: InstantPayment[];
}

/** A received-payments API over an in-memory service that counts its confirming calls; honours the call's signal. */
function service(options: ServiceOptions = {}): ReceivedPaymentsApi & { calls: number } {
  const api = {
    calls: 0,
    instant: {
      get: async (e2eid: string, request?: { signal?: AbortSignal | undefined }) => {
        const call = ++api.calls;
        request?.signal?.throwIfAborted();
        await options.before?.(call);
        return options.record?.(e2eid) ?? { ...PAYMENT, endToEndId: e2eid };
      },
      list: async () => ({
        items: options.listed ?? [],
        parametros: {
          inicio: '2026-11-26T00:00:00Z',
          fim: '2026-11-27T00:00:00Z',
          paginacao: { paginaAtual: 0, itensPorPagina: 1000, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
        },
      }),
    },
    ...(options.store && { store: options.store }),
    ...(options.logger && { logger: options.logger }),
    ...(options.tracer && { telemetry: Telemetry.resolve({ tracerProvider: options.tracer }) }),
    ...(options.now && { now: options.now }),
  };
  return api as unknown as ReceivedPaymentsApi & { calls: number };
}

const post = (body: string | Uint8Array<ArrayBuffer> | object, init: RequestInit = {}) =>
  new Request('https://hooks.example.com/n', {
    method: 'POST',
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
    ...init,
  });

const notify = (...payments: Array<Partial<InstantPayment> & Record<string, unknown>>) => ({
  instant: payments.map((payment) => ({ ...PAYMENT, ...payment })),
});

type Options = Partial<ReceivedPaymentsHandlerOptions> & { maxRemembered?: number };
const handlerOf = (api: ReceivedPaymentsApi, options: Options = {}) =>
  receivedPaymentsHandler(api, { onPayment: () => undefined, ...options });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a notification's span and log lines", () => {
  it('confirmed, answered again, reworded, unconfirmed, empty: the outcome on the span, each told in the log', async () => {
    const tracer = recordingTracer();
    const logger = recordingLogger();
    const clock = manualClock();
    const api = service({
      tracer,
      logger,
      now: clock.now,
      before: () => clock.advance(7),
      record: (e2eid) => ({ ...PAYMENT, endToEndId: e2eid, valor: e2eid === OTHER ? '11.00' : PAYMENT.valor }),
    });
    const onPayment = vi.fn();
    const handler = handlerOf(api, { onPayment });
    const outcomes: unknown[] = [];
    for (const body of [
      notify({}),
      notify({}),
      notify({ pad: 'reworded' }),
      notify({ pad: 'reworded' }),
      notify({ endToEndId: OTHER }),
      { instant: [] },
    ]) {
      expect((await handler(post(body))).status).toBe(200);
      const span = tracer.spans.at(-1)!;
      expect(span).toMatchObject({ name: 'receivedPayments.notification', kind: 1, ended: true });
      expect(span.events).toEqual([{ name: 'answered', attributes: { 'http.response.status_code': 200 } }]);
      outcomes.push(span.attributes['instant_payments.outcome']);
    }
    expect(outcomes).toEqual(['confirmed', 'duplicate', 'duplicate', 'duplicate', 'unconfirmed', 'unconfirmed']);
    // The reworded one was answered from what this process handed over: no call.
    expect(api.calls).toBe(2);
    expect(onPayment).toHaveBeenCalledTimes(1);
    expect(logger.messages('info')).toEqual([
      'notification received',
      'payment confirmed',
      'notification answered',
      'notification received',
      'payment duplicate: notification already answered',
      'notification answered',
      'notification received',
      'payment duplicate: already handed to onPayment, the service not asked',
      'notification answered',
      'notification received',
      'payment duplicate: notification already answered',
      'notification answered',
      'notification received',
      'notification answered',
      'notification received',
      'notification answered',
    ]);
    expect(logger.lines[0]!.meta).toEqual({ payments: 1 });
    // The time from the body read to the answer, the confirming call's 7 ms.
    expect(logger.lines[2]!.meta).toEqual({ status: 200, payments: 1, ms: 7 });
    expect(logger.lines.at(-1)!.meta).toEqual({ status: 200, payments: 0, ms: 0 });
  });

  it('refused (400, 405) and failed (500) answers: the span says refused or failed, the log the status and error class', async () => {
    const tracer = recordingTracer();
    const logger = recordingLogger();
    const api = service({ tracer, logger });
    const failures: unknown[] = [new Error('books unavailable'), 'not an error'];
    const handler = handlerOf(api, {
      onPayment: () => {
        throw failures.shift();
      },
    });
    expect((await handler(post('{not json'))).status).toBe(400);
    expect((await handler(new Request('https://hooks.example.com/n'))).status).toBe(405);
    expect((await handler(post(notify({ pad: 'first' })))).status).toBe(500);
    expect((await handler(post(notify({ pad: 'second' })))).status).toBe(500);
    expect(
      tracer.spans.map((span) => [span.attributes['instant_payments.outcome'], span.events[0]?.attributes]),
    ).toEqual([
      ['refused', { 'http.response.status_code': 400 }],
      ['refused', { 'http.response.status_code': 405 }],
      ['failed', { 'http.response.status_code': 500 }],
      ['failed', { 'http.response.status_code': 500 }],
    ]);
    expect(tracer.spans.map((span) => [span.status, span.attributes['error.type']])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [2, 'NotificationFailed'],
      [2, 'NotificationFailed'],
    ]);
    expect(logger.lines.filter((line) => line.level !== 'info')).toEqual([
      { level: 'warn', message: 'notification refused', meta: { status: 400, error: 'InvalidNotificationError' } },
      { level: 'warn', message: 'notification refused', meta: { status: 405, error: 'InvalidNotificationError' } },
      { level: 'error', message: 'notification failed', meta: { status: 500, error: 'Error' } },
      { level: 'error', message: 'notification failed', meta: { status: 500, error: 'string' } },
    ]);
  });

  it('a delivery the secret check refuses has its span too: refused, with the status, and a warn line', async () => {
    const tracer = recordingTracer();
    const logger = recordingLogger();
    const api = service({ tracer, logger });
    const secret = 'a-secret-of-32-characters-long!!';
    const handler = handlerOf(api, { authenticate: { secret } });
    expect((await handler(post(notify({})))).status).toBe(401);
    await vi.waitFor(() => expect(tracer.spans).toHaveLength(1));
    expect(tracer.spans[0]).toMatchObject({
      name: 'receivedPayments.notification',
      kind: 1,
      attributes: { 'instant_payments.outcome': 'refused' },
      events: [{ name: 'answered', attributes: { 'http.response.status_code': 401 } }],
      ended: true,
    });
    expect(logger.lines).toEqual([
      { level: 'warn', message: 'notification refused', meta: { status: 401, error: 'WebhookAuthenticationError' } },
    ]);
    const url = `${webhookUrl('https://hooks.example.com/n', secret)}/instant`;
    expect((await handler(new Request(url, { method: 'POST', body: JSON.stringify(notify({})) }))).status).toBe(200);
  });

  it('a logger with only some methods, or none at all, changes no answer', async () => {
    for (const logger of [{ info: () => undefined }, { warn: () => undefined }, undefined]) {
      const handler = handlerOf(service(logger && { logger }), {
        onPayment: vi.fn().mockRejectedValueOnce(new Error('down')),
      });
      expect((await handler(post('{not json'))).status).toBe(400);
      const statuses: number[] = [];
      for (const body of [notify({}), notify({}), notify({}), notify({ pad: 'reworded' })]) {
        statuses.push((await handler(post(body))).status);
      }
      // Failed, confirmed, answered from memory, handed over already.
      expect(statuses).toEqual([500, 200, 200, 200]);
    }
  });

  it('a tracer that throws answers 500 (told to onError), never a rejection', async () => {
    const tracerProvider: TelemetryTracerProvider = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('tracer broken');
        },
      }),
    };
    const onError = vi.fn();
    const handler = handlerOf(service({ tracer: tracerProvider }), { onError });
    expect((await handler(post(notify({})))).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'tracer broken' }), 500);
  });
});

describe('the outcome a notification of several items ends with', () => {
  it.each<[DeliveryOutcome[], DeliveryOutcome]>([
    [[], 'unconfirmed'],
    [['unconfirmed'], 'unconfirmed'],
    [['duplicate'], 'duplicate'],
    [['in-flight'], 'in-flight'],
    [['confirmed'], 'confirmed'],
    [['duplicate', 'confirmed'], 'confirmed'],
    [['unconfirmed', 'confirmed', 'in-flight'], 'confirmed'],
    [['duplicate', 'in-flight'], 'in-flight'],
    [['in-flight', 'duplicate'], 'in-flight'],
    [['duplicate', 'duplicate'], 'duplicate'],
    [['duplicate', 'unconfirmed'], 'unconfirmed'],
    [['in-flight', 'unconfirmed'], 'unconfirmed'],
  ])('%j: %s', (outcomes, outcome) => {
    expect(notificationOutcome(outcomes)).toBe(outcome);
  });
});

describe('error answers say what was wrong', () => {
  it('the method, the body limit, text that is not UTF-8 and text that is not JSON', async () => {
    const onError = vi.fn();
    const handler = handlerOf(service(), { onError, maxBodyBytes: 64 });
    const json = JSON.stringify(notify({}));
    // JSON but for one byte that is not UTF-8, inside a string.
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const notUtf8 = new Uint8Array([...utf8('{"instant":[{"pad":"'), 0xff, ...utf8('"}]}')]);
    const answers = [
      await handler(new Request('https://hooks.example.com/n', { method: 'PUT', body: json })),
      await handler(post(json.padEnd(65))),
      await handler(post(notUtf8)),
      await handler(post('{"instant": [')),
    ].map((response) => response.status);
    expect(answers).toEqual([405, 400, 400, 400]);
    const errors = onError.mock.calls.map(([error]) => error as InvalidNotificationError);
    expect(errors.every((error) => error instanceof InvalidNotificationError)).toBe(true);
    expect(errors.map((error) => error.message)).toEqual([
      'Method PUT not allowed',
      'Notification body exceeds 64 bytes',
      'Notification body is not UTF-8 text',
      'Notification body is not JSON',
    ]);
    expect(errors[2]!.cause).toBeInstanceOf(TypeError);
    expect(errors[3]!.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('the bound on confirming calls (maxConcurrentConfirmations)', () => {
  it('is a positive integer: anything else is refused when the handler is built, naming the option', () => {
    for (const maxConcurrentConfirmations of [0, -1, 1.5, Number.NaN]) {
      expect(() => handlerOf(service(), { maxConcurrentConfirmations })).toThrow(
        new ConfigurationError('maxConcurrentConfirmations', 'maxConcurrentConfirmations must be a positive integer'),
      );
    }
  });

  /**
   * One slot: `held` keeps the first call; the test moves the clock. Resolves the answers'
   * statuses in arrival order.
   */
  function oneSlot(logger: Logger | undefined, clock = manualClock()) {
    const tracer = recordingTracer();
    const held = gate();
    const started: number[] = [];
    const api = service({
      ...(logger && { logger }),
      tracer,
      now: clock.now,
      before: async (call) => {
        started.push(call);
        if (call === 1) await held.wait();
      },
    });
    const handler = handlerOf(api, { maxConcurrentConfirmations: 1 });
    const deliver = (e2eid: string, init?: RequestInit) =>
      handler(post(notify({ endToEndId: e2eid.padEnd(32, '0') }), init)).then((response) => response.status);
    /** Once `count` deliveries were read (the log says so) and the pending promise callbacks ran: all queued. */
    const queued = async (count: number) => {
      const received = () => (logger as ReturnType<typeof recordingLogger>).messages('info');
      await vi.waitFor(() => expect(received().filter((m) => m === 'notification received')).toHaveLength(count));
      await new Promise(setImmediate);
    };
    /** The first delivery's answer to come, once its confirming call holds the slot. */
    const holding = async (): Promise<{ answer: Promise<number> }> => {
      const answer = deliver('E1');
      await vi.waitFor(() => expect(started).toEqual([1]));
      return { answer };
    };
    return { api, clock, held, started, deliver, holding, queued, tracer };
  }

  it('says once, in the log and on the span, when a delivery has waited the delivery timeout for a slot', async () => {
    const logger = recordingLogger();
    const { clock, held, started, deliver, holding, queued, tracer } = oneSlot(logger);
    const { answer: first } = await holding();
    const second = deliver('E2');
    await queued(2);
    clock.advance(5_000);
    // The third finds the second waiting 5 s: said at once, before any slot frees.
    const third = deliver('E3');
    await vi.waitFor(() => expect(logger.messages('warn')).toHaveLength(1));
    expect(started).toEqual([1]);
    expect(logger.lines.find((line) => line.level === 'warn')).toEqual({
      level: 'warn',
      message:
        'confirmations queued past the delivery timeout: raise maxConcurrentConfirmations (see the notifications guide)',
      meta: { waitedMs: 5_000, maxConcurrentConfirmations: 1, deliveryTimeoutMs: 5_000 },
    });
    clock.advance(5_000);
    held.open();
    expect(await Promise.all([first, second, third])).toEqual([200, 200, 200]);
    // The later turns waited longer still: not said again.
    expect(logger.messages('warn')).toHaveLength(1);
    const events = tracer.spans.flatMap((span) => span.events.filter((event) => event.name !== 'answered'));
    expect(events).toEqual([
      {
        name: 'confirmations queued past the delivery timeout: raise maxConcurrentConfirmations (see the notifications guide)',
        attributes: {
          'instant_payments.waited_ms': 5_000,
          'instant_payments.max_concurrent_confirmations': 1,
          'instant_payments.delivery_timeout_ms': 5_000,
        },
      },
    ]);
    // Every slot came back: the next deliveries, one after the other, are confirmed.
    expect(await deliver('E4')).toBe(200);
    expect(await deliver('E5')).toBe(200);
  });

  it('the warning needs no logger, nor its warn method', async () => {
    for (const logger of [undefined, { info: () => undefined }]) {
      // Six seconds pass between any two reads of the clock: every wait is overdue.
      const { held, deliver, holding } = oneSlot(logger, manualClock(6_000));
      const { answer: first } = await holding();
      const second = deliver('E2');
      const third = deliver('E3');
      held.open();
      expect(await Promise.all([first, second, third])).toEqual([200, 200, 200]);
    }
  });

  it('a waiting delivery given up (its request aborted, before or while waiting) frees its place: the next gets the slot', async () => {
    const logger = recordingLogger();
    const { clock, held, started, deliver, holding, queued } = oneSlot(logger);
    const { answer: first } = await holding();
    const abandoned = new AbortController();
    const second = deliver('E2', { signal: abandoned.signal });
    const third = deliver('E3');
    await queued(3);
    clock.advance(1_000);
    abandoned.abort();
    expect(await second).toBe(500);
    // One already given up when it arrives is answered at once and takes nobody's place.
    expect(await deliver('E4', { signal: AbortSignal.abort() })).toBe(500);
    held.open();
    expect(await Promise.all([first, third])).toEqual([200, 200]);
    expect(started).toEqual([1, 2]);
    // Waits of a second are not worth a warning.
    expect(logger.messages('warn')).toEqual([]);
  });

  it('a request aborted long after its turn came is no late warning', async () => {
    const logger = recordingLogger();
    const { clock, held, deliver, holding, queued } = oneSlot(logger);
    const { answer: first } = await holding();
    const later = new AbortController();
    const second = deliver('E2', { signal: later.signal });
    await queued(2);
    held.open();
    expect(await Promise.all([first, second])).toEqual([200, 200]);
    clock.advance(60_000);
    later.abort();
    expect(logger.messages('warn')).toEqual([]);
  });
});

const REFUND = {
  id: 'D1',
  rtrId: 'D12345678202611261200abcdefghijk',
  valor: '1.00',
  horario: { solicitacao: '2026-11-26T12:01:00Z' },
  status: 'DEVOLVIDO',
};
const REFUNDED: InstantPayment = { ...PAYMENT, devolucoes: [REFUND] } as InstantPayment;

describe('a delivery found running in another process', () => {
  it('is answered 200 at once, runs nothing there, and is not remembered: once the other fails, the next delivery runs it', async () => {
    const store = claimingStore();
    const held = gate();
    const running = gate();
    const first = handlerOf(service({ store, record: () => REFUNDED }), {
      onPayment: async () => {
        running.open();
        await held.wait();
        throw new Error('books unavailable');
      },
      onRefund: () => undefined,
    });
    const tracer = recordingTracer();
    const logger = recordingLogger();
    const onPayment = vi.fn();
    const onRefund = vi.fn();
    const second = handlerOf(service({ store, record: () => REFUNDED, logger, tracer }), { onPayment, onRefund });
    const firstAnswer = first(post({ instant: [REFUNDED] }));
    await running.wait();
    expect((await second(post({ instant: [REFUNDED] }))).status).toBe(200);
    expect(tracer.spans[0]!.attributes['instant_payments.outcome']).toBe('in-flight');
    expect(logger.messages('info')).toContain('payment duplicate: being handed to onPayment elsewhere');
    expect(logger.messages('info')).not.toContain('payment confirmed');
    expect(onPayment).not.toHaveBeenCalled();
    expect(onRefund).not.toHaveBeenCalled();
    // A logger with no methods says nothing and changes nothing.
    expect(
      (await handlerOf(service({ store, record: () => REFUNDED, logger: {} }))(post({ instant: [REFUNDED] }))).status,
    ).toBe(200);
    held.open();
    expect((await firstAnswer).status).toBe(500);
    // The service delivers again (here, to the second process): handed over there now.
    expect((await second(post({ instant: [REFUNDED] }))).status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(1);
    expect(onRefund).toHaveBeenCalledTimes(1);
    expect(tracer.spans[1]!.attributes['instant_payments.outcome']).toBe('confirmed');
  });

  it('a sweep that joins such a delivery in its own process rejects with ClaimBusyError: it moves on only past what is done', async () => {
    const shared = claimingStore();
    const held = gate();
    const running = gate();
    const first = handlerOf(service({ store: shared }), {
      onPayment: async () => {
        running.open();
        await held.wait();
      },
    });
    const claiming = gate();
    const claimHeld = gate();
    let listed = false;
    const store: Store = {
      ...shared,
      claim: async (...args) => {
        claiming.open();
        await claimHeld.wait();
        return shared.claim!(...args);
      },
    };
    const api = service({ store, listed: [PAYMENT] });
    const list = api.instant.list!;
    api.instant.list = (...args) => {
      listed = true;
      return list(...args);
    };
    const second = receivedPaymentsHandler(api, { onPayment: () => undefined });
    const firstAnswer = first(post(notify({})));
    await running.wait();
    const notified = second(post(notify({})));
    await claiming.wait();
    const swept = second.sweep({ from: '2026-11-26T00:00:00Z', until: '2026-11-27T00:00:00Z' });
    await vi.waitFor(() => expect(listed).toBe(true));
    await new Promise(setImmediate);
    claimHeld.open();
    expect((await notified).status).toBe(200);
    await expect(swept).rejects.toThrow(new ClaimBusyError('Another process is handling this record'));
    held.open();
    expect((await firstAnswer).status).toBe(200);
  });

  it('a sweep finding a record another process handed over counts it a duplicate, and says so', async () => {
    const store = sharedStore();
    const onPayment = vi.fn();
    const first = handlerOf(service({ store }), { onPayment });
    expect((await first(post(notify({})))).status).toBe(200);
    const logger = recordingLogger();
    const second = handlerOf(service({ store, logger, listed: [PAYMENT] }), { onPayment });
    const period = { from: '2026-11-26T00:00:00Z', until: '2026-11-27T00:00:00Z' };
    expect(await second.sweep(period)).toMatchObject({ seen: 1, handled: 0, duplicates: 1 });
    const silent = handlerOf(service({ store, logger: {}, listed: [PAYMENT] }), { onPayment });
    expect(await silent.sweep(period)).toMatchObject({ seen: 1, handled: 0, duplicates: 1 });
    expect(logger.messages('info')).toContain('payment duplicate: already handed to onPayment');
    expect(logger.messages('info')).not.toContain('payment confirmed');
    expect(onPayment).toHaveBeenCalledTimes(1);
  });
});

describe('what a handler remembers', () => {
  /** The service's record shows a refund the notification does not (not final): only the content memory spares a call. */
  const notified = { ...PAYMENT, devolucoes: [{ ...REFUND, status: 'EM_PROCESSAMENTO' }] };
  const record = () =>
    ({ ...notified, devolucoes: [...notified.devolucoes, { ...REFUND, id: 'D2' }] }) as InstantPayment;

  it('a notification with the same content (its fields in any order) is answered from memory; any other content is asked about', async () => {
    const api = service({ record });
    const onPayment = vi.fn();
    const handler = handlerOf(api, { onPayment });
    const pad = { b: 1, a: [{ d: 1, c: [2, { f: 'x', e: null }] }] };
    expect((await handler(post(notify({ ...notified, pad })))).status).toBe(200);
    expect(api.calls).toBe(1);
    const reordered = `{"instant":[{"pad":{"a":[{"c":[2,{"e":null,"f":"x"}],"d":1}],"b":1},${JSON.stringify(notified).slice(1)}]}`;
    expect((await handler(post(reordered))).status).toBe(200);
    expect(api.calls).toBe(1);
    // Content that differs only where a list's numbers split differently.
    expect((await handler(post(notify({ ...notified, pad: [12, 3] })))).status).toBe(200);
    expect((await handler(post(notify({ ...notified, pad: [1, 23] })))).status).toBe(200);
    expect(api.calls).toBe(3);
    expect((await handler(post(notify({ ...notified, pad: [12, 3] })))).status).toBe(200);
    expect(api.calls).toBe(3);
    expect(onPayment).toHaveBeenCalledTimes(1);
  });

  it('at most maxRemembered notifications and deliveries: the least recent is forgotten (without a store, handed over again)', async () => {
    const api = service();
    const onPayment = vi.fn();
    const handler = handlerOf(api, { onPayment, maxRemembered: 1 });
    for (const e2eid of [PAYMENT.endToEndId, OTHER, PAYMENT.endToEndId]) {
      expect((await handler(post(notify({ endToEndId: e2eid })))).status).toBe(200);
    }
    expect(api.calls).toBe(3);
    expect(onPayment).toHaveBeenCalledTimes(3);
  });

  it("onRefund gets the claim's signal and the payment as notified", async () => {
    const onRefund = vi.fn();
    const handler = handlerOf(service({ record: () => REFUNDED }), { onRefund });
    expect((await handler(post({ instant: [{ ...REFUNDED, pad: 'as notified' }] }))).status).toBe(200);
    expect(onRefund).toHaveBeenCalledTimes(1);
    const [, refund, context] = onRefund.mock.calls[0]!;
    expect(refund).toMatchObject({ id: 'D1', status: 'DEVOLVIDO' });
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context.notified).toMatchObject({ endToEndId: PAYMENT.endToEndId, pad: 'as notified' });
  });
});

describe('on Deno', () => {
  it("the request's signal is not read: a request whose signal Deno aborted is still confirmed and handed over", async () => {
    vi.stubGlobal('Deno', {});
    const onPayment = vi.fn();
    const handler = handlerOf(service(), { onPayment });
    expect((await handler(post(notify({}), { signal: AbortSignal.abort() }))).status).toBe(200);
    expect(onPayment).toHaveBeenCalledTimes(1);
  });
});

describe('items of a kind the handler has no callback for', () => {
  it('are set aside: 200, nothing asked (a recurring handler with onCobr only, told of a recurrence)', async () => {
    const get = vi.fn();
    const api = { rec: { get }, cobr: { get } } as unknown as RecurringNotificationsApi;
    const handler = recurringHandler(api, { onCobr: () => undefined });
    expect(
      (await handler(post({ recs: [{ idRec: 'RR1234567820261009confirmed01', status: 'APROVADA' }] }))).status,
    ).toBe(200);
    expect(get).not.toHaveBeenCalled();
  });
});
