/**
 * Payment intents in a shared store, over msw: recorded (sealed) before the POST, settled after;
 * `recover()` outcomes; the claim on transfer notifications; the shared token's waits; sealing.
 */
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  ConfigurationError,
  CashOutUnprocessableError,
  ClaimBusyError,
  IdempotencyKeyReusedError,
  createSealer,
  InsufficientBalanceError,
  PaymentOutcomeUnknownError,
  StoreError,
  TimeoutError,
  type Store,
} from '../../src/index.ts';
import { SharedTokenProvider } from '../../src/composition/shared-token.ts';
import {
  BALANCE_URL,
  BY_KEY_URL,
  CNPJ,
  CPF,
  DICT_URL,
  EVP,
  PHONE,
  cashOutClient,
  notification,
  providerError,
  sharedMemoryStore,
  wireTransfer,
} from './fixtures.ts';
import { useMsw } from '../support/msw.ts';

const net = useMsw();
const KEY_BYTES = new Uint8Array(32).fill(5);

/** A store that is not the in-memory default (so clients treat it as shared), with a sealer. */
function sharedStore(): Store & { snapshot(): Promise<Array<{ key: string; value: string }>> } {
  return { sealer: createSealer(KEY_BYTES), ...sharedMemoryStore() };
}

const params = { key: EVP, amount: '10.00', creditorDocument: CPF };

/** The wire body of `params`, as an intent records it. */
const body = { instantKey: EVP, creditorDocument: CPF, payment: { currency: 'BRL', amount: '10.00' } };

/** An open intent under `key` (by default for `params`), sealed as pay() writes it. */
async function openIntent(store: ReturnType<typeof sharedStore>, key: string, of: Record<string, unknown> = body) {
  const value = await store.sealer!.seal(
    JSON.stringify({ body: of, createdAt: '2026-01-01T00:00:00.000Z' }),
    `intent-open:${key}`,
  );
  await store.set(`intent-open:${key}`, value);
  return value;
}

function provider(options: { balance?: number; post?: 'ok' | 503 | 422; get?: 'orders' | 500 } = {}) {
  const orders = new Map<string, Record<string, unknown>>();
  const seenAtPost: Array<Array<{ key: string; value: string }>> = [];
  let snapshot: (() => Promise<Array<{ key: string; value: string }>>) | undefined;
  net.server.use(
    http.get(BALANCE_URL, () =>
      HttpResponse.json({
        data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: options.balance ?? 1000 } }],
      }),
    ),
    http.post(DICT_URL, async ({ request }) => {
      if (snapshot) seenAtPost.push(await snapshot());
      if (options.post === 503 || options.post === 422)
        return HttpResponse.json(providerError(options.post), { status: options.post });
      const key = request.headers.get('x-idempotency-key')!;
      orders.set(key, wireTransfer({ idempotencyKey: key, payment: { currency: 'BRL', amount: 10 } }));
      return HttpResponse.json({ data: orders.get(key) }, { status: 202 });
    }),
    http.get(BY_KEY_URL, ({ params: p }) => {
      if (options.get === 500) return HttpResponse.json(providerError(500), { status: 500 });
      const order = orders.get(String(p['key']));
      return order ? HttpResponse.json({ data: order }) : HttpResponse.json(providerError(404), { status: 404 });
    }),
  );
  return { orders, seenAtPost, watch: (s: ReturnType<typeof sharedStore>) => void (snapshot = s.snapshot) };
}

describe('pay() with a shared store', () => {
  it('records the intent, sealed, before the POST leaves and the outcome after', async () => {
    const store = sharedStore();
    const p = provider();
    p.watch(store);
    const cashOut = cashOutClient({ store, maxRetries: 0 });
    const { idempotencyKey } = await cashOut.pay({ ...params, idempotencyKey: 'intent1' });
    expect(idempotencyKey).toBe('intent1');
    const atPost = p.seenAtPost[0]!;
    expect(atPost.map((e) => e.key)).toContain('intent-open:intent1');
    expect(JSON.stringify(atPost)).not.toContain(CPF);
    expect(JSON.stringify(atPost)).not.toContain(EVP);
    const after = await store.snapshot();
    expect(after.map((e) => e.key)).toEqual(['intent:intent1']);
    expect(JSON.parse(await store.sealer!.open(after[0]!.value, 'intent:intent1'))).toMatchObject({
      state: 'placed',
      transfer: { idempotencyKey: 'intent1' },
    });
  });

  it('a payment refused before the order would leave (insufficient balance) leaves nothing in the store', async () => {
    const store = sharedStore();
    provider({ balance: 1 });
    await expect(cashOutClient({ store }).pay({ ...params, idempotencyKey: 'poor1' })).rejects.toBeInstanceOf(
      InsufficientBalanceError,
    );
    expect(await store.snapshot()).toEqual([]);
  });

  it('an order the provider refuses (422) is recorded as not placed and leaves no open intent', async () => {
    const store = sharedStore();
    provider({ post: 422 });
    await expect(cashOutClient({ store }).pay({ ...params, idempotencyKey: 'refused1' })).rejects.toBeInstanceOf(
      CashOutUnprocessableError,
    );
    const entries = await store.snapshot();
    expect(entries.map((e) => e.key)).toEqual(['intent:refused1']);
    expect(JSON.parse(await store.sealer!.open(entries[0]!.value, 'intent:refused1'))).toMatchObject({
      state: 'not-placed',
    });
  });

  it('an unknown outcome leaves the intent open; recover() marks it not placed by default, or places it with the same key', async () => {
    const store = sharedStore();
    provider({ post: 503 });
    const cashOut = cashOutClient({ store, maxRetries: 0, intents: { leaseMs: 100 } });
    await expect(cashOut.pay({ ...params, idempotencyKey: 'lost1' }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    await expect(cashOut.pay({ ...params, idempotencyKey: 'lost2' }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    expect((await store.list('intent-open:')).map((e) => e.key)).toEqual(['intent-open:lost1', 'intent-open:lost2']);

    const p = provider();
    // A live pay() holds lost2: recover() leaves it alone.
    await store.lease('intent:lost2', 'someone-alive', 10_000);
    expect(await cashOut.recover({ settleDelayMs: 10 })).toEqual([
      { idempotencyKey: 'lost1', outcome: 'not-placed' },
      { idempotencyKey: 'lost2', outcome: 'in-progress' },
    ]);
    expect(p.orders.size).toBe(0);
    await store.unlease('intent:lost2', 'someone-alive');
    const placed = await cashOut.recover({ settleDelayMs: 10, unknown: 'place' });
    expect(placed).toMatchObject([
      { idempotencyKey: 'lost2', outcome: 'placed', transfer: { idempotencyKey: 'lost2' } },
    ]);
    expect([...p.orders.keys()]).toEqual(['lost2']);
    expect(await cashOut.recover()).toEqual([]);
  });

  it('recover() leaves an intent open when the provider cannot be asked', async () => {
    const store = sharedStore();
    provider({ post: 503 });
    const cashOut = cashOutClient({ store, maxRetries: 0, intents: { leaseMs: 100 } });
    await expect(cashOut.pay({ ...params, idempotencyKey: 'dark1' }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    provider({ get: 500 });
    const [result] = await cashOut.recover({ settleDelayMs: 10 });
    expect(result).toMatchObject({ idempotencyKey: 'dark1', outcome: 'unsettled' });
    expect(result?.error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(result?.error).toMatchObject({ idempotencyKey: 'dark1', cause: { status: 500 } });
    expect((await store.list('intent-open:')).map((e) => e.key)).toEqual(['intent-open:dark1']);
  });

  it("recover({ unknown: 'place' }) aborted while its order is in flight rejects at once with PaymentOutcomeUnknownError carrying the key", async () => {
    const store = sharedStore();
    provider({ post: 503 });
    const cashOut = cashOutClient({ store, maxRetries: 0, intents: { leaseMs: 100 } });
    await expect(cashOut.pay({ ...params, idempotencyKey: 'abort1' })).rejects.toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    let posted!: () => void;
    const arrived = new Promise<void>((resolve) => (posted = resolve));
    net.server.use(
      http.get(BY_KEY_URL, () => HttpResponse.json(providerError(404), { status: 404 })),
      http.post(DICT_URL, async () => {
        posted();
        await new Promise(() => undefined);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const recovering = cashOut.recover({ unknown: 'place', settleDelayMs: 10, signal: controller.signal });
    await arrived;
    controller.abort(reason);
    const error = await recovering.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'abort1', cause: reason });
    expect((await store.list('intent-open:')).map((e) => e.key)).toEqual(['intent-open:abort1']);
  });

  it('a second pay() with a key held by a live one waits, then gives up with PaymentOutcomeUnknownError', async () => {
    const store = sharedStore();
    provider();
    await store.lease('intent:held1', 'someone-alive', 10_000);
    const error = await cashOutClient({ store })
      .pay({ ...params, idempotencyKey: 'held1' }, { totalTimeout: 150 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(net.requests).toHaveLength(0);
  });
});

describe('pay() and recover() at the edges', () => {
  it.each<[string, () => Promise<unknown>]>([
    ['intents.leaseMs', () => cashOutClient({ store: sharedStore(), intents: { leaseMs: 0 } }).pay(params)],
    ['intents.leaseMs', () => cashOutClient({ store: sharedStore(), intents: { leaseMs: Number.NaN } }).pay(params)],
    ['intents.leaseMs', () => cashOutClient({ store: sharedStore(), intents: { leaseMs: 3e9 } }).pay(params)],
    ['leaseMs', () => cashOutClient({ store: sharedStore() }).recover({ leaseMs: -1 })],
    ['settleDelayMs', () => cashOutClient({ store: sharedStore() }).recover({ settleDelayMs: Number.NaN })],
    ['settleDelayMs', () => cashOutClient({ store: sharedStore() }).recover({ settleDelayMs: -5 })],
  ])(
    '%s out of range is a ConfigurationError naming it, before the store or the provider is asked',
    async (option, call) => {
      // A zero or NaN lease would let a second pay() with the key run at once; a NaN settle delay would not wait.
      const error = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).option).toBe(option);
      expect(net.requests).toHaveLength(0);
    },
  );

  it('writing the intent fails: PaymentOutcomeUnknownError (the intent may be stored, so recover() could place it), and nothing was sent', async () => {
    const store = sharedStore();
    provider();
    const failing: Store = {
      ...store,
      set: (key, value, ttlMs) =>
        key.startsWith('intent-open:') ? Promise.reject(new StoreError('disk full')) : store.set(key, value, ttlMs),
    };
    const error = await cashOutClient({ store: failing })
      .pay({ ...params, idempotencyKey: 'nowrite1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'nowrite1', cause: { message: 'disk full' } });
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("a pay() that loses its key's lease before the order leaves sends nothing: PaymentOutcomeUnknownError", async () => {
    const store = sharedStore();
    provider();
    net.server.use(
      http.get(BALANCE_URL, async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return HttpResponse.json({ data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 1000 } }] });
      }),
    );
    let leases = 0;
    // Another owner takes the key after the first lease (its renewals are refused).
    const contested: Store = {
      ...store,
      lease: (name, owner, ttlMs) => (leases++ === 0 ? store.lease(name, owner, ttlMs) : Promise.resolve(false)),
    };
    const error = await cashOutClient({ store: contested, intents: { leaseMs: 100 } })
      .pay({ ...params, idempotencyKey: 'lost1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as PaymentOutcomeUnknownError).cause).toBeInstanceOf(ClaimBusyError);
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(await store.list('intent-open:')).toEqual([]);
  });

  it("recover(): the key names another payment at the provider: not placed (IdempotencyKeyReusedError), the intent closed, that payment's record untouched", async () => {
    const store = sharedStore();
    provider({ post: 503 });
    const cashOut = cashOutClient({ store, maxRetries: 0, intents: { leaseMs: 100 } });
    await expect(cashOut.pay({ ...params, idempotencyKey: 'other1' })).rejects.toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    await store.set('intent:other1', "the other payment's record");
    const p = provider();
    p.orders.set('other1', wireTransfer({ idempotencyKey: 'other1', payment: { currency: 'BRL', amount: 99 } }));
    const [result] = await cashOut.recover({ settleDelayMs: 10, unknown: 'place' });
    expect(result).toMatchObject({ idempotencyKey: 'other1', outcome: 'not-placed' });
    expect(result?.error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await store.list('intent-open:')).toEqual([]);
    expect(await store.get('intent:other1')).toBe("the other payment's record");
  });

  it("recover({ unknown: 'place' }) when the balance no longer covers the payment: not placed (InsufficientBalanceError), nothing sent", async () => {
    const store = sharedStore();
    provider({ post: 503 });
    const cashOut = cashOutClient({ store, maxRetries: 0, intents: { leaseMs: 100 } });
    await expect(cashOut.pay({ ...params, idempotencyKey: 'poor2' })).rejects.toBeInstanceOf(
      PaymentOutcomeUnknownError,
    );
    provider({ balance: 1 });
    net.requests.length = 0;
    const [result] = await cashOut.recover({ settleDelayMs: 10, unknown: 'place' });
    expect(result).toMatchObject({ idempotencyKey: 'poor2', outcome: 'not-placed' });
    expect(result?.error).toBeInstanceOf(InsufficientBalanceError);
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(await store.list('intent-open:')).toEqual([]);
    expect(JSON.parse(await store.sealer!.open((await store.get('intent:poor2'))!, 'intent:poor2'))).toMatchObject({
      state: 'not-placed',
    });
  });

  it('without a sealer, a row that does not read as an intent (or sits under no idempotency key) is tampered, logged, left alone', async () => {
    const { sealer: _sealer, ...plain } = sharedStore();
    const warnings: unknown[] = [];
    await plain.set('intent-open:junk1', JSON.stringify({ body: { instantKey: 1 } }));
    await plain.set('intent-open:not-a-key!', JSON.stringify({}));
    const results = await cashOutClient({
      store: plain,
      logger: { warn: (message, meta) => void warnings.push({ message, meta }) },
    }).recover();
    expect(results).toEqual([
      { idempotencyKey: 'junk1', outcome: 'tampered' },
      { idempotencyKey: 'not-a-key!', outcome: 'tampered' },
    ]);
    expect(warnings).toEqual([
      { message: 'payment intent ignored', meta: { reason: 'unreadable' } },
      { message: 'payment intent ignored', meta: { reason: 'not an idempotency key' } },
    ]);
    expect(net.requests).toHaveLength(0);
    expect((await plain.list('intent-open:')).map((e) => e.key)).toEqual([
      'intent-open:junk1',
      'intent-open:not-a-key!',
    ]);
  });
});

describe('transfer notifications with a shared store', () => {
  it('onConfirmed runs once per key and status; suspicious ones are not claimed', async () => {
    const store = sharedStore();
    net.server.use(http.get(BY_KEY_URL, () => HttpResponse.json({ data: wireTransfer({ status: 'LIQUIDATED' }) })));
    const confirmed: string[] = [];
    const handler = cashOutClient({ store }).notificationHandler({
      onConfirmed: (r) => void confirmed.push(r.actual.status),
      onSuspicious: () => undefined,
    });
    const post = () =>
      handler(
        new Request('https://hooks.example/webhook/transfer-confirmation', {
          method: 'POST',
          body: JSON.stringify(notification()),
        }),
      );
    const statuses = await Promise.all([post(), post(), post()].map((p) => p.then((r) => r.status)));
    expect(statuses).toEqual([200, 200, 200]);
    expect((await post()).status).toBe(200);
    expect(confirmed).toEqual(['LIQUIDATED']);
  });
});

describe('shared token', () => {
  const source = (value: string, calls: { n: number }) => ({
    getTokenInfo: async () => {
      calls.n++;
      return { value, refreshAt: Date.now() + 60_000, expiresAt: Date.now() + 70_000 };
    },
    invalidate: () => undefined,
  });

  it('a waiter gives up with AuthenticationError when the fetching process never delivers', async () => {
    const store = sharedStore();
    const calls = { n: 0 };
    const provider = new SharedTokenProvider(source('t1', calls), store, {
      identity: ['x'],
      pollMs: 10,
      requestTimeoutMs: 30,
    });
    // Another process holds the right to fetch and never writes a token.
    const { sha256Hex } = await import('../../src/store/crypto.ts');
    await store.lease(`token:${await sha256Hex(JSON.stringify(['x']))}:fetch`, 'stuck', 10_000);
    await expect(provider.getToken()).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls.n).toBe(0);
  });

  it('a caller aborts its own wait; a failing store is a StoreError', async () => {
    const store = sharedStore();
    const calls = { n: 0 };
    const provider = new SharedTokenProvider(source('t2', calls), store, { identity: ['y'], pollMs: 10 });
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(provider.getToken(controller.signal)).rejects.toThrow('caller gave up');
    const broken: Store = { ...store, get: () => Promise.reject(new StoreError('down')) };
    await expect(
      new SharedTokenProvider(source('t3', calls), broken, { identity: ['z'] }).getToken(),
    ).rejects.toBeInstanceOf(StoreError);
  });
});

describe('sealer', () => {
  it('opens only what it sealed for the same context; refuses keys that are not 32 bytes', async () => {
    const sealer = createSealer(KEY_BYTES);
    const sealed = await sealer.seal('secret-token', 'token:a');
    expect(sealed).not.toContain('secret-token');
    expect(await sealer.open(sealed, 'token:a')).toBe('secret-token');
    await expect(sealer.open(sealed, 'token:b')).rejects.toBeInstanceOf(StoreError);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    await expect(sealer.open(tampered, 'token:a')).rejects.toBeInstanceOf(StoreError);
    await expect(sealer.open('plain', 'token:a')).rejects.toBeInstanceOf(StoreError);
    await expect(createSealer(new Uint8Array(32).fill(6)).open(sealed, 'token:a')).rejects.toBeInstanceOf(StoreError);
    const cryptoKey = await crypto.subtle.importKey('raw', KEY_BYTES, 'AES-GCM', false, ['encrypt', 'decrypt']);
    expect(await createSealer(cryptoKey).open(sealed, 'token:a')).toBe('secret-token');
    expect(await createSealer(Buffer.from(KEY_BYTES).toString('base64')).open(sealed, 'token:a')).toBe('secret-token');
    expect(() => createSealer(new Uint8Array(16))).toThrow(ConfigurationError);
  });
});

describe("the idempotency key's lease", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a pay() with a key another pay() holds waits for it, then goes on', async () => {
    const store = sharedStore();
    provider();
    await store.lease('intent:held1', 'someone-alive', 10_000);
    let takes = 0;
    // The holder gives the key back while the second call waits for it.
    const releasing: Store = {
      ...store,
      lease: async (name, owner, ttlMs) => {
        if (name === 'intent:held1' && ++takes === 2) await store.unlease(name, 'someone-alive');
        return store.lease(name, owner, ttlMs);
      },
    };
    const result = await cashOutClient({ store: releasing }).pay({ ...params, idempotencyKey: 'held1' });
    expect(result.transfer.idempotencyKey).toBe('held1');
    expect(takes).toBe(2);
  });

  it('its time ending while another holds the key: PaymentOutcomeUnknownError (the holder decides), nothing sent', async () => {
    // Only Date is faked: the time left is exactly one poll (100 ms) when the second take fails.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-11-28T12:00:00Z');
    vi.setSystemTime(start);
    const store = sharedStore();
    provider();
    await store.lease('intent:held2', 'someone-alive', 10_000);
    const late: Store = {
      ...store,
      lease: async (name, owner, ttlMs) => {
        vi.setSystemTime(start + 900);
        return store.lease(name, owner, ttlMs);
      },
    };
    const error = await cashOutClient({ store: late })
      .pay({ ...params, idempotencyKey: 'held2' }, { totalTimeout: 1_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'held2' });
    const cause = (error as PaymentOutcomeUnknownError).cause;
    expect(cause).toBeInstanceOf(ClaimBusyError);
    expect((cause as Error).message).toMatch(/Another pay\(\) or recover\(\) holds this idempotency key/);
    expect(net.requests).toHaveLength(0);
  });

  it("a pay() whose lease was taken over before the order leaves says it lost the key's lease, sends nothing", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-11-28T12:00:00Z');
    vi.setSystemTime(start);
    const store = sharedStore();
    provider();
    net.server.use(
      http.get(BALANCE_URL, () => {
        // The balance read outlasts half of the lease: it is renewed before the order leaves.
        vi.setSystemTime(start + 20_000);
        return HttpResponse.json({ data: [{ eventDate: '2026-01-01T00:00:00Z', balanceAmount: { available: 1000 } }] });
      }),
    );
    let leases = 0;
    const contested: Store = {
      ...store,
      lease: (name, owner, ttlMs) => (leases++ === 0 ? store.lease(name, owner, ttlMs) : Promise.resolve(false)),
    };
    const error = await cashOutClient({ store: contested })
      .pay({ ...params, idempotencyKey: 'taken1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'taken1' });
    expect(((error as PaymentOutcomeUnknownError).cause as Error).message).toMatch(/lost its idempotency key's lease/);
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('recover(): the caller ends it between intents', () => {
  /** Two rows under no idempotency key (each only logged); `onFirst` runs as the first is logged. */
  const twoRows = async (onFirst: () => void) => {
    const { sealer: _sealer, ...plain } = sharedStore();
    await plain.set('intent-open:bad-key1!', '{}');
    await plain.set('intent-open:bad-key2!', '{}');
    const warnings: unknown[] = [];
    const logger = {
      warn: (message: string, meta?: Record<string, unknown>) => {
        if (warnings.push({ message, meta }) === 1) onFirst();
      },
    };
    return { cashOut: cashOutClient({ store: plain, logger }), warnings };
  };

  it('the signal aborting: recover() rejects with its reason and reads no further intent', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const { cashOut, warnings } = await twoRows(() => controller.abort(reason));
    await expect(cashOut.recover({ signal: controller.signal })).rejects.toBe(reason);
    expect(warnings).toHaveLength(1);
  });

  it('its time running out: recover() rejects with TimeoutError naming totalTimeout and reads no further intent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-28T12:00:00Z'));
    const { cashOut, warnings } = await twoRows(() => vi.setSystemTime(Date.parse('2026-11-28T12:05:00Z')));
    const error = await cashOut.recover({ totalTimeout: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/totalTimeout/);
    expect(warnings).toHaveLength(1);
  });
});

describe('pay() with a caller-given key: the earlier intent under it', () => {
  it('names another payment (amount, destination key or document): IdempotencyKeyReusedError, nothing sent, the intent untouched', async () => {
    const others = [
      { ...body, payment: { currency: 'BRL', amount: '10.01' } },
      { ...body, instantKey: PHONE },
      { ...body, creditorDocument: CNPJ },
    ];
    for (const [i, other] of others.entries()) {
      const store = sharedStore();
      provider();
      const key = `other${i}`;
      const open = await openIntent(store, key, other);
      const error = await cashOutClient({ store })
        .pay({ ...params, idempotencyKey: key })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(error).toMatchObject({ idempotencyKey: key, sentRequest: false });
      expect((error as IdempotencyKeyReusedError).violacoes).toEqual([
        {
          propriedade: 'idempotencyKey',
          razao: expect.stringMatching(/unsettled payment .*settle it with recover\(\)/),
        },
      ]);
      expect(net.requests).toHaveLength(0);
      expect(await store.get(`intent-open:${key}`)).toBe(open);
    }
  });

  it('the same payment: placed under the key, and the earlier intent closed', async () => {
    const store = sharedStore();
    const p = provider();
    await openIntent(store, 'same1');
    const result = await cashOutClient({ store }).pay({ ...params, idempotencyKey: 'same1' });
    expect(result.transfer.idempotencyKey).toBe('same1');
    expect(p.orders.size).toBe(1);
    expect(await store.list('intent-open:')).toEqual([]);
  });

  it('the provider has no order under the key and this call places none (balance): the earlier intent closed as not placed', async () => {
    const store = sharedStore();
    provider({ balance: 1 });
    await openIntent(store, 'poor3');
    await expect(cashOutClient({ store }).pay({ ...params, idempotencyKey: 'poor3' })).rejects.toBeInstanceOf(
      InsufficientBalanceError,
    );
    expect(await store.list('intent-open:')).toEqual([]);
    expect(JSON.parse(await store.sealer!.open((await store.get('intent:poor3'))!, 'intent:poor3'))).toMatchObject({
      state: 'not-placed',
    });
  });

  it('a row under the key this store did not write is left as it is when nothing is sent', async () => {
    const store = sharedStore();
    provider({ balance: 1 });
    await store.set('intent-open:forged1', 'not sealed');
    await expect(cashOutClient({ store }).pay({ ...params, idempotencyKey: 'forged1' })).rejects.toBeInstanceOf(
      InsufficientBalanceError,
    );
    expect(await store.get('intent-open:forged1')).toBe('not sealed');
  });

  it('a row under the key this store did not write is left as it is when the order is found at the provider', async () => {
    const store = sharedStore();
    const p = provider();
    p.orders.set('forged2', wireTransfer({ idempotencyKey: 'forged2', payment: { currency: 'BRL', amount: 10 } }));
    await store.set('intent-open:forged2', 'not sealed');
    const result = await cashOutClient({ store }).pay({ ...params, idempotencyKey: 'forged2' });
    expect(result.transfer.idempotencyKey).toBe('forged2');
    expect(await store.get('intent-open:forged2')).toBe('not sealed');
  });

  it('a fresh key: no intent to read, nothing logged about one', async () => {
    const store = sharedStore();
    provider();
    const warn = vi.fn();
    await cashOutClient({ store, logger: { warn } }).pay({ ...params, idempotencyKey: 'fresh1' });
    expect(warn).not.toHaveBeenCalled();
  });

  it('reading it fails: StoreError saying no order was sent (the failure as its cause), nothing sent', async () => {
    const store = sharedStore();
    provider();
    const down = new StoreError('down');
    const failing: Store = {
      ...store,
      get: (key) => (key.startsWith('intent-open:') ? Promise.reject(down) : store.get(key)),
    };
    const error = await cashOutClient({ store: failing })
      .pay({ ...params, idempotencyKey: 'unread1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/down; no payment order was sent/);
    expect((error as Error).cause).toBe(down);
    expect(net.requests).toHaveLength(0);
  });

  it("the caller's abort before the order leaves keeps the earlier intent open", async () => {
    const store = sharedStore();
    provider();
    const open = await openIntent(store, 'abort1');
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    // Aborted before the call: an abort while msw held the balance GET open made Node 24.21 abort
    // on the next test's first AES job (a native assertion) in about one run in four under load.
    controller.abort(reason);
    const error = await cashOutClient({ store })
      .pay({ ...params, idempotencyKey: 'abort1' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(await store.get('intent-open:abort1')).toBe(open);
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('pay() with a shared store: what it records', () => {
  it("the intent is stamped by the client's clock", async () => {
    const store = sharedStore();
    const p = provider();
    p.watch(store);
    const now = () => new Date('2030-01-02T03:04:05.000Z');
    await cashOutClient({ store, now }).pay({ ...params, idempotencyKey: 'clock1' });
    const atPost = p.seenAtPost[0]!.find((e) => e.key === 'intent-open:clock1')!;
    expect(JSON.parse(await store.sealer!.open(atPost.value, 'intent-open:clock1'))).toMatchObject({
      createdAt: '2030-01-02T03:04:05.000Z',
    });
  });

  it('closing the intent fails after the order was placed: the caller still gets the order, and the log says so', async () => {
    for (const logger of [{}, { warn: vi.fn() }]) {
      const store = sharedStore();
      provider();
      const failing: Store = { ...store, delete: () => Promise.reject(new StoreError('down')) };
      const result = await cashOutClient({ store: failing, logger }).pay({ ...params, idempotencyKey: 'close1' });
      expect(result.transfer.idempotencyKey).toBe('close1');
      if ('warn' in logger) {
        expect(logger.warn).toHaveBeenCalledWith('payment intent left open', { reason: 'StoreError' });
      }
    }
  });

  it('the store never answering the lease: TimeoutError saying no order was sent, its cause the time running out', async () => {
    const store = sharedStore();
    provider();
    const stalled: Store = { ...store, lease: () => new Promise<boolean>(() => undefined) };
    const error = await cashOutClient({ store: stalled })
      .pay({ ...params, idempotencyKey: 'stall1' }, { totalTimeout: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/no payment order was sent/);
    expect((error as Error).cause).toBeInstanceOf(TimeoutError);
    expect(net.requests).toHaveLength(0);
  });
});

describe('recover(): each intent under its lease', () => {
  it("records the outcome by the client's clock, under a lease of leaseMs", async () => {
    const store = sharedStore();
    const p = provider();
    p.orders.set('found1', wireTransfer({ idempotencyKey: 'found1', payment: { currency: 'BRL', amount: 10 } }));
    await openIntent(store, 'found1');
    const leases: number[] = [];
    const watched: Store = {
      ...store,
      lease: (name, owner, ttlMs) => (leases.push(ttlMs), store.lease(name, owner, ttlMs)),
    };
    const now = () => new Date('2030-01-02T03:04:05.000Z');
    const [result] = await cashOutClient({ store: watched, now }).recover({ leaseMs: 1_234 });
    expect(result).toMatchObject({ idempotencyKey: 'found1', outcome: 'found' });
    // Found at the first look: no second one.
    expect(net.requests.map((r) => r.method)).toEqual(['GET']);
    expect(leases[0]).toBe(1_234);
    expect(JSON.parse(await store.sealer!.open((await store.get('intent:found1'))!, 'intent:found1'))).toMatchObject({
      state: 'placed',
      settledAt: '2030-01-02T03:04:05.000Z',
    });
  });

  it('an intent settled between the listing and its lease is passed over, nothing logged', async () => {
    const store = sharedStore();
    provider();
    await openIntent(store, 'gone1');
    const warn = vi.fn();
    const settledMeanwhile: Store = {
      ...store,
      get: (key) => (key === 'intent-open:gone1' ? Promise.resolve(undefined) : store.get(key)),
    };
    expect(await cashOutClient({ store: settledMeanwhile, logger: { warn } }).recover()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    expect(net.requests).toHaveLength(0);
  });

  it("unknown: 'place' asks the provider twice (before and after the safe wait), then places it", async () => {
    const store = sharedStore();
    provider();
    await openIntent(store, 'late1');
    const [result] = await cashOutClient({ store }).recover({ settleDelayMs: 10, unknown: 'place' });
    expect(result).toMatchObject({ idempotencyKey: 'late1', outcome: 'placed' });
    expect(JSON.parse(await store.sealer!.open((await store.get('intent:late1'))!, 'intent:late1'))).toMatchObject({
      state: 'placed',
      transfer: { idempotencyKey: 'late1' },
    });
    expect(net.requests.map((r) => `${r.method} ${new URL(r.url).pathname.split('/').at(-2)}`)).toEqual([
      'GET idempotencyKey',
      'GET idempotencyKey',
      'GET balances',
      'POST payments',
    ]);
  });

  it("unknown: 'place' whose lease is lost during the safe wait sends nothing: unsettled, the intent left open", async () => {
    const store = sharedStore();
    provider();
    await openIntent(store, 'lost3');
    let leases = 0;
    // Taken once; every renewal after it is refused (another process took the key).
    const contested: Store = {
      ...store,
      lease: (name, owner, ttlMs) => (leases++ === 0 ? store.lease(name, owner, ttlMs) : Promise.resolve(false)),
    };
    const [result] = await cashOutClient({ store: contested }).recover({
      leaseMs: 100,
      settleDelayMs: 60,
      unknown: 'place',
    });
    expect(result).toMatchObject({ idempotencyKey: 'lost3', outcome: 'unsettled' });
    expect(result?.error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(result?.error).toMatchObject({ cause: expect.any(ClaimBusyError) });
    expect(net.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect((await store.list('intent-open:')).map((e) => e.key)).toEqual(['intent-open:lost3']);
  });

  it('found, but the intent cannot be closed: unsettled with the transfer, the store failure as the cause', async () => {
    const store = sharedStore();
    const p = provider();
    p.orders.set('stuck1', wireTransfer({ idempotencyKey: 'stuck1', payment: { currency: 'BRL', amount: 10 } }));
    await openIntent(store, 'stuck1');
    const down = new StoreError('down');
    const failing: Store = { ...store, delete: () => Promise.reject(down) };
    const [result] = await cashOutClient({ store: failing }).recover();
    expect(result).toMatchObject({
      idempotencyKey: 'stuck1',
      outcome: 'unsettled',
      transfer: { idempotencyKey: 'stuck1' },
    });
    expect(result?.error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect(result?.error).toMatchObject({ idempotencyKey: 'stuck1', cause: down });
  });

  it('the key names another payment: the IdempotencyKeyReusedError says nothing was sent', async () => {
    const store = sharedStore();
    const p = provider();
    p.orders.set('other2', wireTransfer({ idempotencyKey: 'other2', payment: { currency: 'BRL', amount: 99 } }));
    await openIntent(store, 'other2');
    const [result] = await cashOutClient({ store }).recover();
    expect(result).toMatchObject({ idempotencyKey: 'other2', outcome: 'not-placed' });
    expect(result?.error).toMatchObject({ name: 'IdempotencyKeyReusedError', sentRequest: false });
  });
});

describe('intents in a store without a sealer', () => {
  it('only a whole order is acted on: a row missing a field, or with an amount that is not two-decimal reais, is tampered', async () => {
    const { sealer: _sealer, ...plain } = sharedStore();
    const rows: Record<string, unknown> = {
      whole1: { body },
      nodoc1: { body: { ...body, creditorDocument: undefined } },
      numkey1: { body: { ...body, instantKey: 11 } },
      numamount1: { body: { ...body, payment: { currency: 'BRL', amount: 10.25 } } },
      rawamount1: { body: { ...body, payment: { currency: 'BRL', amount: '10' } } },
      nopayment1: { body: { ...body, payment: undefined } },
      nobody1: { createdAt: '2026-01-01T00:00:00.000Z' },
    };
    for (const [key, row] of Object.entries(rows)) await plain.set(`intent-open:${key}`, JSON.stringify(row));
    const p = provider();
    const results = await cashOutClient({ store: plain, logger: {} }).recover({ settleDelayMs: 1, unknown: 'place' });
    expect(Object.fromEntries(results.map((r) => [r.idempotencyKey, r.outcome]))).toEqual({
      whole1: 'placed',
      nodoc1: 'tampered',
      numkey1: 'tampered',
      numamount1: 'tampered',
      rawamount1: 'tampered',
      nopayment1: 'tampered',
      nobody1: 'tampered',
    });
    expect([...p.orders.keys()]).toEqual(['whole1']);
  });

  it("the outcome record failing after the order was placed: the caller gets the order, the log names the failure's kind", async () => {
    const failures: Array<[unknown, string]> = [
      [new StoreError('down'), 'StoreError'],
      [new Error('down'), 'Error'],
      ['down', 'string'],
    ];
    for (const [i, [failure, reason]] of failures.entries()) {
      const { sealer: _sealer, ...plain } = sharedStore();
      provider();
      const failing: Store = {
        ...plain,
        set: (key, value, ttl) => (key.startsWith('intent:') ? Promise.reject(failure) : plain.set(key, value, ttl)),
      };
      const warn = vi.fn();
      const result = await cashOutClient({ store: failing, logger: { warn } }).pay({
        ...params,
        idempotencyKey: `norecord${i}`,
      });
      expect(result.transfer.idempotencyKey).toBe(`norecord${i}`);
      expect(warn).toHaveBeenCalledWith('payment outcome not recorded', { reason });
    }
    const { sealer: _sealer, ...plain } = sharedStore();
    provider();
    const failing: Store = {
      ...plain,
      set: (key, value, ttl) =>
        key.startsWith('intent:') ? Promise.reject(new Error('down')) : plain.set(key, value, ttl),
    };
    expect(
      (await cashOutClient({ store: failing, logger: {} }).pay({ ...params, idempotencyKey: 'nowarn1' }))
        .idempotencyKey,
    ).toBe('nowarn1');
  });
});

describe('recover(): what it logs and records', () => {
  it('a row the store key does not open is tampered, and the log says why', async () => {
    const store = sharedStore();
    provider();
    await store.set('intent-open:plain1', JSON.stringify({ body }));
    const warn = vi.fn();
    expect(await cashOutClient({ store, logger: { warn } }).recover()).toEqual([
      { idempotencyKey: 'plain1', outcome: 'tampered' },
    ]);
    expect(warn).toHaveBeenCalledWith('payment intent ignored', { reason: 'not sealed with the store key' });
  });

  it('the outcome record failing, with no logger or one without warn: still found', async () => {
    for (const logger of [{}, undefined]) {
      const store = sharedStore();
      const p = provider();
      p.orders.set('norec2', wireTransfer({ idempotencyKey: 'norec2', payment: { currency: 'BRL', amount: 10 } }));
      await openIntent(store, 'norec2');
      const failing: Store = {
        ...store,
        set: (key, value, ttl) =>
          key === 'intent:norec2' ? Promise.reject(new StoreError('down')) : store.set(key, value, ttl),
      };
      const [result] = await cashOutClient({ store: failing, ...(logger && { logger }) }).recover();
      expect(result).toMatchObject({ idempotencyKey: 'norec2', outcome: 'found' });
      expect(await store.list('intent-open:')).toEqual([]);
    }
  });
});

describe('recover(): what it records and how long it takes', () => {
  it('an intent the provider does not know after the safe wait is recorded as not placed', async () => {
    const store = sharedStore();
    provider();
    await openIntent(store, 'none1');
    expect(await cashOutClient({ store }).recover({ settleDelayMs: 1 })).toEqual([
      { idempotencyKey: 'none1', outcome: 'not-placed' },
    ]);
    expect(JSON.parse(await store.sealer!.open((await store.get('intent:none1'))!, 'intent:none1'))).toMatchObject({
      state: 'not-placed',
    });
  });

  it('requestOptions.totalTimeout bounds the provider calls: a lookup that never answers ends, the intent left open', async () => {
    const store = sharedStore();
    provider();
    net.server.use(http.get(BY_KEY_URL, () => new Promise<Response>(() => undefined)));
    await openIntent(store, 'hang1');
    const started = Date.now();
    const [result] = await cashOutClient({ store }).recover({ requestOptions: { totalTimeout: 200 } });
    expect(result).toMatchObject({ idempotencyKey: 'hang1', outcome: 'unsettled' });
    expect(result?.error).toMatchObject({ cause: expect.any(TimeoutError) });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect((await store.list('intent-open:')).map((e) => e.key)).toEqual(['intent-open:hang1']);
  });
});
