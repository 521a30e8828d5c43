/**
 * Injected faults over real HTTP: what each kind does to the answer and to the state, and that a
 * seed makes the same run meet the same faults.
 */
import { describe, expect, it } from 'vitest';
import {
  CobNaoEncontrado,
  ConnectionError,
  ServicoIndisponivel,
  IndisponibilidadePorTempoEsgotado,
} from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { cobBody, startSandbox, useSandbox } from './support.ts';

const s = useSandbox();

/** Runs `call` with faults of `kind` on every request, then stops them. */
async function underFault<T>(
  kind: Parameters<typeof s.sandbox.injectFaults>[0]['kinds'],
  call: () => Promise<T>,
): Promise<unknown> {
  s.sandbox.injectFaults({ rate: 1, kinds: kind!, retryAfter: 0, latencyMs: 150 });
  try {
    return await call().then(
      (value) => value,
      (error: unknown) => error,
    );
  } finally {
    s.sandbox.injectFaults({ rate: 0 });
  }
}

describe('fault kinds', () => {
  it('503 and 504: a problem document with Retry-After, nothing applied', async () => {
    await s.api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z' }); // token fetched outside the fault
    const txid = generateTxid();
    expect(await underFault(['503'], () => s.api.cob.create(txid, cobBody(s.key)))).toBeInstanceOf(ServicoIndisponivel);
    expect(await underFault(['504'], () => s.api.cob.create(txid, cobBody(s.key)))).toBeInstanceOf(
      IndisponibilidadePorTempoEsgotado,
    );
    await expect(s.api.cob.get(txid)).rejects.toBeInstanceOf(CobNaoEncontrado);
    s.sandbox.injectFaults({ rate: 1, kinds: ['503'], retryAfter: 7 });
    const raw = await fetch(`${s.sandbox.baseUrl}/cob/${txid}`);
    s.sandbox.injectFaults({ rate: 0 });
    expect(raw.status).toBe(503);
    expect(raw.headers.get('retry-after')).toBe('7');
    expect(await raw.json()).toMatchObject({
      type: expect.stringMatching(/\/ServicoIndisponivel$/),
      status: 503,
      title: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('drop-before: no answer and no change; drop-after and cut: no (whole) answer, the change applied', async () => {
    const before = generateTxid();
    expect(await underFault(['drop-before'], () => s.api.cob.create(before, cobBody(s.key)))).toBeInstanceOf(
      ConnectionError,
    );
    await expect(s.api.cob.get(before)).rejects.toBeInstanceOf(CobNaoEncontrado);

    const after = generateTxid();
    expect(await underFault(['drop-after'], () => s.api.cob.create(after, cobBody(s.key)))).toBeInstanceOf(
      ConnectionError,
    );
    await expect(s.api.cob.get(after)).resolves.toMatchObject({ txid: after, revisao: 0 });

    const cut = generateTxid();
    // A body cut midway is a ConnectionError too (the SDK once let the fetch TypeError through).
    const error = await underFault(['cut'], () => s.api.cob.create(cut, cobBody(s.key)));
    expect(error).toBeInstanceOf(ConnectionError);
    await expect(s.api.cob.get(cut)).resolves.toMatchObject({ txid: cut });
    // The raw answer: the full length announced, half of it sent, then the connection closed.
    s.sandbox.injectFaults({ rate: 1, kinds: ['cut'] });
    const token = await fetch(s.sandbox.credentials.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: s.sandbox.credentials.clientId,
        client_secret: s.sandbox.credentials.clientSecret,
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const response = await fetch(`${s.sandbox.baseUrl}/cob/${cut}`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    s.sandbox.injectFaults({ rate: 0 });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('latency: the answer is late but whole', async () => {
    const txid = generateTxid();
    const started = performance.now();
    const cob = await underFault(['latency'], () => s.api.cob.create(txid, cobBody(s.key)));
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(cob).toMatchObject({ txid });
  });
});

describe('seeded faults', () => {
  /** The outcome of 40 sequential GETs under a 50% mix of answerable faults. */
  async function run(seed: number): Promise<string[]> {
    const h = await startSandbox({ seed });
    try {
      await h.api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z' });
      h.sandbox.injectFaults({ rate: 0.5, kinds: ['503', '504', 'drop', 'cut'], retryAfter: 0 });
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i++) {
        const outcome = await h.api.cob.get(`seeded${String(i).padStart(22, '0')}`).then(
          () => 'ok',
          (error: unknown) => (error as Error).name,
        );
        outcomes.push(outcome);
      }
      expect(Object.values(h.sandbox.faultCounts()).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
      return outcomes;
    } finally {
      await h.sandbox.close();
    }
  }

  it('repeats the same faults in the same order for the same seed, and others for another seed', async () => {
    const first = await run(1234);
    expect(await run(1234)).toEqual(first);
    expect(await run(99)).not.toEqual(first);
    expect(new Set(first)).toEqual(
      new Set(['CobNaoEncontrado', 'ServicoIndisponivel', 'IndisponibilidadePorTempoEsgotado', 'ConnectionError']),
    );
  });
});
