/**
 * Every create the SDK sends, against a real server on 127.0.0.1 that takes the create and then
 * cuts its answer mid-body: a create under a key of ours resolves with the record the service
 * holds (read before anything is sent again), never "in use" for its own landed attempt; a
 * create or replace is sent again harmlessly; a create the service keys itself is never sent
 * twice. The service here refuses a second create under a key it holds, as the real one does.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, InstantClient, InstantError, type RequestOptions } from '../../src/index.ts';
import { rejection, settles } from '../support/settles.ts';
import { type LoopbackServer, type RecordedRequest, sendJson, startServer } from '../support/loopback.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import { cobRBody, recBody, solicRecBody } from '../recurring/fixtures.ts';

const TXID = 'k3Jd8s0Qw2Lm5Nb7Vc9Xz1Ty4Ru6Io8P';
const E2EID = 'E1234567820261128120000abcdefghi';
const EVP = '7c084cd4-54af-4172-a516-a7d1a12b75cc';
const due = addDays(todayInBrasilia(), 30);

const cob = { calendario: { expiracao: 3600 }, valor: { original: '37.00' }, chave: EVP, solicitacaoPagador: 'Lunch' };
const cobv = {
  calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
  devedor: { cpf: '12345678909', nome: 'Test Person' },
  valor: { original: '100.00' },
  chave: EVP,
};
const batch = { descricao: 'Fees', cobsv: [{ ...cobv, txid: TXID }] };

/** What the fake service holds, by path; `creates` counts the records it made, `writes` the writes it got. */
let held: Map<string, Record<string, unknown>>;
let creates: number;
let writes: number;
/** The first write is cut before it lands (else after). */
let cutBeforeLanding: boolean;
/** The service never answers a read (the look before a create is sent again); those reads' answers. */
let readsHang: boolean;
let unanswered: ServerResponse[];
let server: LoopbackServer;

/** Headers of a complete answer, then half its body, then the connection is destroyed. */
function cut(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body ?? { ok: true });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
  res.write(text.slice(0, text.length >> 1));
  setTimeout(() => res.socket?.destroy(), 10);
}

function inUse(res: ServerResponse): void {
  sendJson(res, 400, {
    type: 'https://instant.example.com/api/v2/error/CobOperacaoInvalida',
    title: 'Operação inválida',
    status: 400,
    detail: 'O identificador já está em uso.',
  });
}

/** The record the service makes of a request: what was sent, plus what it fills in (an immediate charge's default expiry). */
function record(path: string, sent: Record<string, unknown>): Record<string, unknown> {
  const calendario = sent['calendario'] as Record<string, unknown> | undefined;
  const expiry = path.startsWith('/cob/') && { expiracao: 86400 };
  return {
    ...sent,
    ...(calendario && { calendario: { criacao: '2026-11-28T12:00:00.000Z', ...expiry, ...calendario } }),
    id: path.split('/').pop(),
    status: 'ATIVA',
    revisao: 0,
  };
}

/** Keyed creates refuse a held key; create-or-replace routes replace; the service's own keys are new each time. */
const CREATE_OR_REPLACE = [/^\/lotecobv\//, /^\/webhook/];
const SERVICE_KEYED = /^\/(cob|cobr|rec|solicrec|loc|locrec)$|\/retentativa\//;

function serve(req: RecordedRequest, res: ServerResponse): void {
  const path = req.url.split('?')[0] ?? '';
  if (req.method === 'GET') {
    if (readsHang) return void unanswered.push(res);
    const found = held.get(path);
    if (found) return sendJson(res, 200, found);
    return sendJson(res, 404, {
      type: 'https://instant.example.com/api/v2/error/NaoEncontrado',
      title: 'x',
      status: 404,
    });
  }
  writes++;
  if (writes === 1 && cutBeforeLanding) return cut(res, 201, {});
  const sent = (req.body === '' ? {} : JSON.parse(req.body)) as Record<string, unknown>;
  const replaces = CREATE_OR_REPLACE.some((route) => route.test(path));
  if (held.has(path) && !replaces) return inUse(res);
  const key = SERVICE_KEYED.test(path) ? `${path}/${creates + 1}` : path;
  if (!held.has(key)) creates++;
  held.set(key, record(key, sent));
  // The first write lands and its answer is cut; any later one is answered whole.
  if (writes === 1) return cut(res, replaces ? 202 : 201, held.get(key));
  res.writeHead(replaces ? 202 : 201, { 'content-type': 'application/json' });
  res.end(replaces ? '' : JSON.stringify(held.get(key)));
}
const sends = (method: string): RecordedRequest[] => server.requests.filter((r) => r.method === method);

let api: InstantClient;

beforeAll(async () => {
  server = await startServer((req, res) => serve(req, res));
  api = new InstantClient({ baseUrl: server.url, auth: { getToken: async () => 'token' } });
});
afterAll(() => server.close());
beforeEach(() => {
  held = new Map();
  creates = 0;
  writes = 0;
  cutBeforeLanding = false;
  readsHang = false;
  unanswered = [];
  server.requests.length = 0;
});

describe('a create under a key of ours, its first attempt landed and its answer cut', () => {
  const cases: { route: string; create: () => Promise<unknown>; expected: object }[] = [
    { route: 'PUT /cob/{txid}', create: () => api.cob.create(TXID, cob), expected: { valor: cob.valor } },
    { route: 'PUT /cobv/{txid}', create: () => api.cobv.create(TXID, cobv), expected: { valor: cobv.valor } },
    {
      route: 'PUT /cobr/{txid}',
      create: () => api.cobr.create(TXID, cobRBody()),
      expected: { idRec: cobRBody().idRec, valor: cobRBody().valor },
    },
    {
      route: 'PUT /instant/{e2eid}/devolucao/{id}',
      create: () => api.instant.refund(E2EID, 'D1', { valor: '7.89' }),
      expected: { id: 'D1', valor: '7.89' },
    },
  ];
  for (const { route, create, expected } of cases) {
    it(`${route}: resolves with the record the service holds, the create sent once`, async () => {
      await expect(create()).resolves.toMatchObject(expected);
      expect(sends('PUT')).toHaveLength(1);
      expect(sends('GET')).toHaveLength(1);
      expect(creates).toBe(1);
    });
  }

  it('a create with a list (infoAdicionais): the record holding the same list is taken as the landed create', async () => {
    const infoAdicionais = [
      { nome: 'Order', valor: '42' },
      { nome: 'Table', valor: '7' },
    ];
    await expect(api.cob.create(TXID, { ...cob, infoAdicionais })).resolves.toMatchObject({ infoAdicionais });
    expect(server.requests.map((r) => r.method)).toEqual(['PUT', 'GET']);
    expect(creates).toBe(1);
  });

  it('a field left undefined, which the service fills with its default: still taken as the landed create', async () => {
    // A JavaScript caller's unset option: `{ expiracao: options.expiry }`.
    const withDefault = { ...cob, calendario: { expiracao: undefined } } as unknown as typeof cob;
    await expect(api.cob.create(TXID, withDefault)).resolves.toMatchObject({ calendario: { expiracao: 86400 } });
    expect(server.requests.map((r) => r.method)).toEqual(['PUT', 'GET']);
    expect(creates).toBe(1);
  });

  it('the record holds another list than the one sent (an item differs, or one more): not ours, "in use"', async () => {
    const infoAdicionais = [
      { nome: 'Order', valor: '42' },
      { nome: 'Table', valor: '7' },
    ];
    const others = [
      [infoAdicionais[0], { nome: 'Table', valor: '8' }],
      [...infoAdicionais, { nome: 'Extra', valor: '1' }],
    ];
    for (const other of others) {
      held.set(`/cob/${TXID}`, record(`/cob/${TXID}`, { ...cob, infoAdicionais: other }));
      cutBeforeLanding = true;
      writes = 0;
      server.requests.length = 0;
      const error = await api.cob.create(TXID, { ...cob, infoAdicionais }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'CobOperacaoInvalida', status: 400 });
      expect(server.requests.map((r) => r.method)).toEqual(['PUT', 'GET', 'PUT']);
    }
  });

  it('the record under the key is not what was sent: sent again, the service answers "in use"', async () => {
    // The cut attempt never landed: another charge already holds the txid.
    held.set(`/cob/${TXID}`, record(`/cob/${TXID}`, { ...cob, valor: { original: '99.00' } }));
    cutBeforeLanding = true;
    const error = await api.cob.create(TXID, cob).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CobOperacaoInvalida', status: 400 });
    expect(server.requests.map((r) => r.method)).toEqual(['PUT', 'GET', 'PUT']);
    expect(held.get(`/cob/${TXID}`)).toMatchObject({ valor: { original: '99.00' } });
  });

  it('nothing under the key (the cut attempt never landed): sent again, and created', async () => {
    cutBeforeLanding = true;
    await expect(api.cob.create(TXID, cob)).resolves.toMatchObject({ valor: cob.valor });
    expect(server.requests.map((r) => r.method)).toEqual(['PUT', 'GET', 'PUT']);
    expect(creates).toBe(1);
  });
});

describe('a create or replace, its first attempt landed and its answer cut', () => {
  const cases: { route: string; put: () => Promise<unknown> }[] = [
    { route: 'PUT /lotecobv/{id}', put: () => api.lotecobv.put(7, batch) },
    { route: 'PUT /webhook/{chave}', put: () => api.webhook.put(EVP, 'https://app.example.com/hooks') },
    { route: 'PUT /webhookrec', put: () => api.webhookrec.put('https://app.example.com/hooks') },
    { route: 'PUT /webhookcobr', put: () => api.webhookcobr.put('https://app.example.com/hooks') },
  ];
  for (const { route, put } of cases) {
    it(`${route}: sent again, it writes what is already there; one record made`, async () => {
      await expect(put()).resolves.toBeUndefined();
      expect(sends('PUT')).toHaveLength(2);
      expect(creates).toBe(1);
    });
  }
});

describe('a create the service keys itself, its first attempt landed and its answer cut', () => {
  const cases: { route: string; create: () => Promise<unknown> }[] = [
    { route: 'POST /cob', create: () => api.cob.create(cob) },
    { route: 'POST /cobr', create: () => api.cobr.create(cobRBody()) },
    { route: 'POST /rec', create: () => api.rec.create(recBody()) },
    { route: 'POST /solicrec', create: () => api.solicrec.create(solicRecBody()) },
    { route: 'POST /loc', create: () => api.loc.create({ tipoCob: 'cob' }) },
    { route: 'POST /locrec', create: () => api.locrec.create() },
    { route: 'POST /cobr/{txid}/retentativa/{data}', create: () => api.cobr.retry(TXID, addDays(due, 1)) },
  ];
  for (const { route, create } of cases) {
    it(`${route}: never sent again (a ConnectionError), one record made`, async () => {
      await expect(create()).rejects.toBeInstanceOf(ConnectionError);
      expect(sends('POST')).toHaveLength(1);
      expect(creates).toBe(1);
    });
  }
});

describe("the look before a create is sent again: the call's own limits bound it", () => {
  // The create lands and its answer is cut; the look that follows is never answered. Each limit
  // the caller gave must end it (the call, and the look's own request: none left running),
  // leaving the cut's failure standing and nothing sent again.
  const lookThatHangs = async (options: RequestOptions, abort?: AbortController) => {
    readsHang = true;
    const call = api.cob.create(TXID, cob, abort ? { ...options, signal: abort.signal } : options);
    await vi.waitFor(() => expect(sends('GET')).toHaveLength(1));
    abort?.abort(new Error('the caller gave up'));
    const error = await rejection(call, 'the create whose look hangs');
    expect(sends('PUT')).toHaveLength(1);
    const [look] = unanswered;
    if (!look?.socket?.destroyed)
      await settles(new Promise((closed) => look?.on('close', closed)), "the look's request ending");
    return error;
  };

  it('an abort of the call ends the look', async () => {
    await lookThatHangs({}, new AbortController());
  });

  it("the call's per-attempt timeout ends the look", async () => {
    expect(await lookThatHangs({ timeout: 400 })).toBeInstanceOf(ConnectionError);
  });

  it("what is left of the call's total budget ends the look", async () => {
    expect(await lookThatHangs({ totalTimeout: 1_500 })).toBeInstanceOf(InstantError);
  });
});
