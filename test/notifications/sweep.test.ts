/**
 * A handler's `sweep()` in one process, against an in-memory list of the service's payments:
 * what it asks the service (the period, the pages, the handler's request options), how many
 * pages it holds at once, what it counts, where its cursor in the store moves (forward only,
 * once a whole period was handed over), how a signal stops it, and the options it refuses.
 * Against the sandbox and PostgreSQL: test/e2e/sweep.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  createMemoryStore,
  receivedPaymentsHandler,
  type InstantPayment,
  type ReceivedPaymentsApi,
  type ReceivedPaymentsHandlerOptions,
  type RequestOptions,
  type Store,
} from '../../src/index.ts';

const T0 = '2026-11-20T00:00:00.000Z';
const T1 = '2026-11-21T00:00:00.000Z';
const T2 = '2026-11-22T00:00:00.000Z';
const NOW = '2026-11-23T00:00:00.000Z';
const OVERLAP = 60_000;
const lessOverlap = (instant: string) => new Date(Date.parse(instant) - OVERLAP).toISOString();

function payment(i: number): InstantPayment {
  return {
    endToEndId: `E12345678202611201200${String(i).padStart(11, '0')}`,
    txid: `tx${String(i).padStart(26, '0')}`,
    valor: '10.00',
    horario: T0,
  };
}

interface Query {
  inicio: string;
  fim: string;
  paginaAtual: number;
  itensPorPagina: number;
  options: RequestOptions | undefined;
}

/**
 * A service holding `payments`, listed `pageSize` a page (whatever the sweep asks), each list
 * call recorded (and held until `release` when `held`), with the most calls in flight at once.
 */
function service(payments: InstantPayment[], { pageSize = 2, held = false } = {}) {
  const queries: Query[] = [];
  const waiting: Array<() => void> = [];
  const state = { inFlight: 0, maxInFlight: 0 };
  const pages = () => Math.ceil(payments.length / pageSize);
  const api: ReceivedPaymentsApi & { now: () => Date } = {
    now: () => new Date(NOW),
    instant: {
      get: async (e2eid) => payments.find((p) => p.endToEndId === e2eid)!,
      list: async (query, options) => {
        const { paginaAtual, itensPorPagina } = query.paginacao;
        queries.push({ inicio: query.inicio, fim: query.fim, paginaAtual, itensPorPagina, options });
        state.maxInFlight = Math.max(state.maxInFlight, ++state.inFlight);
        if (held) await new Promise<void>((resolve) => waiting.push(resolve));
        state.inFlight--;
        const items = payments.slice(paginaAtual * pageSize, (paginaAtual + 1) * pageSize);
        const parametros = {
          inicio: query.inicio,
          fim: query.fim,
          paginacao: {
            paginaAtual,
            itensPorPagina,
            quantidadeDePaginas: pages(),
            quantidadeTotalDeItens: payments.length,
          },
        };
        return { items, parametros, hasNextPage: () => false, getNextPage: () => Promise.reject(new RangeError()) };
      },
    },
  };
  /** Lets the held list calls answer, until every page was asked for and none is left waiting (or 1000 turns). */
  const release = async () => {
    for (let turn = 0; turn < 1000 && (queries.length < pages() || waiting.length > 0); turn++) {
      waiting.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { api, queries, state, release };
}

function handler(
  api: ReceivedPaymentsApi,
  options: Partial<ReceivedPaymentsHandlerOptions> & { store?: Store } = {},
  paid: string[] = [],
) {
  return receivedPaymentsHandler(api, {
    sweepOverlapMs: OVERLAP,
    onPayment: (p) => void paid.push(p.endToEndId),
    ...options,
  });
}

describe('what a sweep asks the service', () => {
  it('every page of the period once, with the page size, the period and the request options', async () => {
    const payments = [1, 2, 3, 4, 5].map(payment);
    const { api, queries } = service(payments);
    const paid: string[] = [];
    const sweeping = handler(api, { requestOptions: { timeout: 1234 } }, paid);
    const result = await sweeping.sweep({ from: T0, until: T1, pageSize: 2 });
    expect(result).toEqual({ seen: 5, handled: 5, duplicates: 0, until: T1 });
    expect(queries.map(({ options, ...query }) => query)).toEqual(
      [0, 1, 2].map((paginaAtual) => ({ inicio: T0, fim: T1, paginaAtual, itensPorPagina: 2 })),
    );
    for (const { options } of queries) {
      expect(options).toMatchObject({ timeout: 1234 });
      expect(options?.signal).toBeInstanceOf(AbortSignal);
    }
    expect(paid).toEqual(payments.map((p) => p.endToEndId));
  });

  it('without until, the period ends at the client clock; the default page size is 1000', async () => {
    const { api, queries } = service([payment(1)]);
    const result = await handler(api).sweep({ from: new Date(T0) });
    expect(result.until).toBe(NOW);
    expect(queries).toMatchObject([{ inicio: T0, fim: NOW, paginaAtual: 0, itensPorPagina: 1000 }]);
  });

  it('concurrency 1 holds one page at a time; concurrency 3 up to three; never a page past the last', async () => {
    for (const [concurrency, most] of [
      [1, 1],
      [3, 3],
      [8, 4],
    ] as const) {
      const payments = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(payment);
      const { api, queries, state, release } = service(payments, { held: true });
      const sweep = handler(api).sweep({ from: T0, until: T1, concurrency, pageSize: 2 });
      await release();
      expect(await sweep).toMatchObject({ seen: 10, handled: 10 });
      expect(state.maxInFlight, `concurrency ${concurrency}`).toBe(most);
      expect(queries.map((q) => q.paginaAtual).sort()).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it('counts a record already handed over as a duplicate', async () => {
    const { api } = service([1, 2, 3].map(payment));
    const sweeping = handler(api);
    expect(await sweeping.sweep({ from: T0, until: T1 })).toEqual({ seen: 3, handled: 3, duplicates: 0, until: T1 });
    expect(await sweeping.sweep({ from: T0, until: T1 })).toEqual({ seen: 3, handled: 0, duplicates: 3, until: T1 });
  });

  it('a client without the list method: the sweep rejects naming it', async () => {
    const sweeping = receivedPaymentsHandler({ instant: { get: async () => payment(1) } }, { onPayment: () => {} });
    await expect(sweeping.sweep({ from: T0, until: T1 })).rejects.toThrow('sweep() needs api.instant.list');
  });
});

describe('the cursor in the store', () => {
  it('a finished sweep moves it to its end: the next sweep() starts there less the overlap', async () => {
    const store = createMemoryStore();
    const { api, queries } = service([payment(1)]);
    const sweeping = handler(api, { store });
    await sweeping.sweep({ from: T0, until: T1 });
    expect(await store.get('sweep:receivedPayments')).toBe(T1);
    await sweeping.sweep({ until: T2 });
    expect(queries.at(-1)).toMatchObject({ inicio: lessOverlap(T1), fim: T2 });
    expect(await store.get('sweep:receivedPayments')).toBe(T2);
  });

  it('never moves back: a sweep of an earlier period, or one stopped halfway, leaves it where it was', async () => {
    const store = createMemoryStore();
    const payments = [1, 2, 3].map(payment);
    const { api, queries } = service(payments);
    const sweeping = handler(api, { store });
    await sweeping.sweep({ from: T1, until: T2 });
    await sweeping.sweep({ from: T0, until: T1 });
    expect(await store.get('sweep:receivedPayments')).toBe(T2);
    const failing = handler(api, {
      store,
      onPayment: () => {
        throw new Error('down');
      },
    });
    payments.push(payment(4));
    await expect(failing.sweep({ from: T0, until: NOW })).rejects.toThrow('down');
    expect(await store.get('sweep:receivedPayments')).toBe(T2);
    await sweeping.sweep();
    expect(queries.at(-1)).toMatchObject({ inicio: lessOverlap(T2), fim: NOW });
  });

  it('a first sweep stopped halfway: sweep() alone resumes from its start', async () => {
    const store = createMemoryStore();
    const { api, queries } = service([payment(1)]);
    const failing = handler(api, {
      store,
      onPayment: () => {
        throw new Error('down');
      },
    });
    await expect(failing.sweep({ from: T0, until: T1 })).rejects.toThrow('down');
    expect(await store.get('sweep:receivedPayments')).toBe(T0);
    await handler(api, { store }).sweep();
    expect(queries.at(-1)).toMatchObject({ inicio: lessOverlap(T0), fim: NOW });
  });

  it('each name its own cursor', async () => {
    const store = createMemoryStore();
    const { api } = service([payment(1)]);
    await handler(api, { store, name: 'shop-a' }).sweep({ from: T0, until: T1 });
    await handler(api, { store, name: 'shop-b' }).sweep({ from: T0, until: T2 });
    expect(await store.get('sweep:shop-a')).toBe(T1);
    expect(await store.get('sweep:shop-b')).toBe(T2);
    await expect(handler(api, { store, name: 'shop-c' }).sweep()).rejects.toThrow(
      expect.objectContaining({ option: 'from', message: 'sweep() needs from: no sweep named shop-c ended yet' }),
    );
  });

  it('sweep() without from: refused without a store, and before the first sweep of the name', async () => {
    const { api } = service([payment(1)]);
    await expect(handler(api).sweep()).rejects.toThrow(
      expect.objectContaining({ option: 'from', message: 'sweep() needs from without a store' }),
    );
    await expect(handler(api, { store: createMemoryStore() }).sweep()).rejects.toThrow(
      expect.objectContaining({ message: 'sweep() needs from: no sweep named receivedPayments ended yet' }),
    );
  });
});

describe('a signal stops a sweep', () => {
  it('already aborted: nothing is asked of the service', async () => {
    const { api, queries } = service([payment(1)]);
    await expect(handler(api).sweep({ from: T0, until: T1, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(queries).toEqual([]);
  });

  it('aborted while a page is handed over: no further record, no further page', async () => {
    const controller = new AbortController();
    const paid: string[] = [];
    const { api, queries } = service([1, 2, 3, 4].map(payment));
    const sweeping = handler(api, {
      onPayment: (p) => {
        paid.push(p.endToEndId);
        controller.abort();
      },
    });
    await expect(sweeping.sweep({ from: T0, until: T1, pageSize: 2, signal: controller.signal })).rejects.toThrow();
    expect(paid).toHaveLength(1);
    expect(queries).toHaveLength(1);
  });

  it('aborted after the last record of a page: the next page is not asked for', async () => {
    const controller = new AbortController();
    const { api, queries } = service([1, 2, 3, 4].map(payment));
    const sweeping = handler(api, {
      onPayment: (p) => {
        if (p.endToEndId === payment(2).endToEndId) controller.abort();
      },
    });
    await expect(sweeping.sweep({ from: T0, until: T1, pageSize: 2, signal: controller.signal })).rejects.toThrow();
    expect(queries).toHaveLength(1);
  });
});

describe('options a sweep refuses', () => {
  const { api } = service([payment(1)]);
  const sweeping = handler(api);
  const refused = async (options: Parameters<typeof sweeping.sweep>[0], option: string, message: string) => {
    const error = await sweeping.sweep(options).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error, JSON.stringify(options)).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option, message });
  };

  it('concurrency and pageSize out of range', async () => {
    for (const concurrency of [0, -1, 1.5, Number.NaN]) {
      await refused({ from: T0, concurrency }, 'concurrency', 'concurrency must be a positive integer');
    }
    for (const pageSize of [0, -1, 1001, 2.5]) {
      await refused({ from: T0, pageSize }, 'pageSize', 'pageSize must be an integer from 1 to 1000');
    }
    for (const pageSize of [1, 1000]) await expect(sweeping.sweep({ from: T0, pageSize })).resolves.toBeDefined();
  });

  it('a from or until that is not an instant', async () => {
    await refused({ from: 'yesterday' }, 'from', 'from must be an RFC 3339 instant or a Date');
    await refused({ from: T0, until: 'tomorrow' }, 'until', 'until must be an RFC 3339 instant or a Date');
    await refused({ from: new Date(Number.NaN) }, 'from', 'from must be an RFC 3339 instant or a Date');
  });
});
