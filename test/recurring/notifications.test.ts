/**
 * `recurringHandler` against msw: each notified recurrence or recurring charge is confirmed with
 * the service's own record before its callback (a forged item never reaches one), the callback
 * gets that record once per id and state, duplicates and concurrent deliveries run it once, and a
 * throwing callback or a failed confirmation answers 500 so that the service sends again.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  ConfigurationError,
  InvalidNotificationError,
  createMemoryStore,
  parseRecurringNotifications,
  recurringHandler,
  type CobRCompleta,
  type CobRNotification,
  type RecCompleta,
  type RecNotification,
  type UnconfirmedRecurring,
} from '../../src/index.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';
import { ID_REC, TXID, recGerada } from './fixtures.ts';

const net = useMsw();
const api = testClient({ maxRetries: 0 });
const E2E_1 = 'E12345678202610091221abcdef00001';
const E2E_2 = 'E12345678202610091221abcdef00002';
const at = (minute: number) => `2026-10-09T12:${String(minute).padStart(2, '0')}:00.000Z`;

/** The service's recurrence, with its history up to `status`. */
function rec(...history: string[]): RecCompleta {
  return {
    ...recGerada(),
    status: history.at(-1)!,
    atualizacao: history.map((status, i) => ({ status, data: at(i) })),
    ativacao: { tipoJornada: 'JORNADA_1' },
  } as RecCompleta;
}

/** The service's recurring charge, with its history and attempts `[e2eid, ...statuses]`. */
function cobr(history: string[], ...attempts: Array<[string, ...string[]]>): CobRCompleta {
  return {
    idRec: ID_REC,
    txid: TXID,
    calendario: { criacao: '2026-10-09', dataDeVencimento: '2026-11-10' },
    valor: { original: '29.90' },
    recebedor: { conta: '012682', tipoConta: 'CORRENTE' },
    status: history.at(-1)!,
    atualizacao: history.map((status, i) => ({ status, data: at(i) })),
    tentativas: attempts.map(([endToEndId, ...statuses]) => ({
      endToEndId,
      tipo: 'AGND',
      dataLiquidacao: '2026-11-10',
      status: statuses.at(-1)!,
      atualizacao: statuses.map((status, i) => ({ status, data: at(i) })),
    })),
  };
}

/** The notified item of a record: what the service posts (a subset of its fields). */
const recItem = (record: RecCompleta, patch: Partial<RecNotification> = {}): RecNotification => ({
  idRec: record.idRec,
  status: record.status,
  atualizacao: record.atualizacao,
  ativacao: record.ativacao!,
  ...patch,
});
const cobrItem = (record: CobRCompleta, patch: Partial<CobRNotification> = {}): CobRNotification => ({
  idRec: record.idRec,
  txid: record.txid,
  status: record.status,
  atualizacao: record.atualizacao!,
  tentativas: record.tentativas!,
  ...patch,
});

const post = (body: unknown, path = 'rec') =>
  new Request(`https://hooks.example.com/instant/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The service's records, answered by GET /rec/{idRec} and GET /cobr/{txid}; counts the queries. */
function service(records: { rec?: RecCompleta | number; cobr?: CobRCompleta | number }) {
  const queried: string[] = [];
  const answer = (record: object | number | undefined) =>
    record === undefined
      ? new HttpResponse(null, { status: 404 })
      : typeof record === 'number'
        ? new HttpResponse(null, { status: record })
        : HttpResponse.json(record);
  net.server.use(
    http.get(`${BASE_URL}/rec/:idRec`, ({ params }) => {
      queried.push(`rec:${String(params['idRec'])}`);
      return answer(typeof records.rec === 'object' && records.rec.idRec !== params['idRec'] ? undefined : records.rec);
    }),
    http.get(`${BASE_URL}/cobr/:txid`, ({ params }) => {
      queried.push(`cobr:${String(params['txid'])}`);
      return answer(
        typeof records.cobr === 'object' && records.cobr.txid !== params['txid'] ? undefined : records.cobr,
      );
    }),
  );
  return queried;
}

describe('parseRecurringNotifications', () => {
  it('reads recs, cobsr or both, passing unknown fields through', () => {
    const r = recItem(rec('CRIADA', 'APROVADA'), { extra: 1 });
    const c = cobrItem(cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']));
    expect(parseRecurringNotifications(JSON.stringify({ recs: [r] }))).toEqual({ recs: [r], cobsr: [] });
    expect(parseRecurringNotifications({ cobsr: [c] })).toEqual({ recs: [], cobsr: [c] });
    expect(parseRecurringNotifications(new TextEncoder().encode(JSON.stringify({ recs: [r], cobsr: [c] })))).toEqual({
      recs: [r],
      cobsr: [c],
    });
    expect(parseRecurringNotifications({ recs: [] })).toEqual({ recs: [], cobsr: [] });
  });

  it.each([
    ['not json', '{'],
    ['null', 'null'],
    ['an array', '[]'],
    ['neither list', '{"payments":[]}'],
    ['recs not a list', '{"recs":{}}'],
    ['a rec without status', JSON.stringify({ recs: [{ idRec: ID_REC }] })],
    ['a rec with a numeric idRec', JSON.stringify({ recs: [{ idRec: 1, status: 'APROVADA' }] })],
    ['a cobr without txid', JSON.stringify({ cobsr: [{ idRec: ID_REC, status: 'ATIVA' }] })],
    ['a cobr without idRec', JSON.stringify({ cobsr: [{ txid: TXID, status: 'ATIVA' }] })],
  ])('throws InvalidNotificationError for %s', (_what, body) => {
    expect(() => parseRecurringNotifications(body)).toThrow(InvalidNotificationError);
  });
});

describe('recurringHandler', () => {
  it('confirms a recurrence with GET /rec/{idRec} and hands the service record to onRec', async () => {
    const record = {
      ...rec('CRIADA', 'APROVADA'),
      pagador: { ispbParticipante: '12345678', codMun: '5300108', cpf: '12345678909' },
    };
    const queried = service({ rec: record });
    const onRec = vi.fn();
    const response = await recurringHandler(api, { onRec })(post({ recs: [recItem(record)] }));
    expect(response.status).toBe(200);
    expect(queried).toEqual([`rec:${ID_REC}`]);
    expect(onRec).toHaveBeenCalledTimes(1);
    expect(onRec.mock.calls[0]?.[0]).toEqual(record);
    expect(onRec.mock.calls[0]?.[1]).toEqual({ notified: recItem(record), signal: expect.any(AbortSignal) });
  });

  it('confirms a recurring charge with GET /cobr/{txid} and hands the service record to onCobr', async () => {
    const record = cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']);
    const queried = service({ cobr: record });
    const onCobr = vi.fn();
    expect((await recurringHandler(api, { onCobr })(post({ cobsr: [cobrItem(record)] }, 'cobr'))).status).toBe(200);
    expect(queried).toEqual([`cobr:${TXID}`]);
    expect(onCobr.mock.calls.map((c) => c[0])).toEqual([record]);
  });

  describe('forged items never reach a callback', () => {
    const cases: Array<[string, { rec?: RecCompleta; cobr?: CobRCompleta }, object, UnconfirmedRecurring['reason']]> = [
      ['a recurrence the service does not know', {}, { recs: [recItem(rec('CRIADA', 'APROVADA'))] }, 'not-found'],
      [
        'a recurrence never in the notified status',
        { rec: rec('CRIADA', 'APROVADA') },
        { recs: [recItem(rec('CRIADA', 'APROVADA'), { status: 'CANCELADA' })] },
        'mismatch',
      ],
      [
        'a recurring charge the service does not know',
        {},
        { cobsr: [cobrItem(cobr(['CRIADA', 'ATIVA']))] },
        'not-found',
      ],
      [
        'a charge under another recurrence',
        { cobr: cobr(['CRIADA', 'ATIVA']) },
        { cobsr: [cobrItem(cobr(['CRIADA', 'ATIVA']), { idRec: `RN${ID_REC.slice(2)}` })] },
        'mismatch',
      ],
      [
        'a charge never in the notified status',
        { cobr: cobr(['CRIADA', 'ATIVA']) },
        { cobsr: [cobrItem(cobr(['CRIADA', 'ATIVA']), { status: 'CONCLUIDA' })] },
        'mismatch',
      ],
      [
        'an attempt never in the notified status',
        { cobr: cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']) },
        { cobsr: [cobrItem(cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA', 'PAGA']))] },
        'mismatch',
      ],
      [
        'an attempt the service does not have',
        { cobr: cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']) },
        { cobsr: [cobrItem(cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA'], [E2E_2, 'SOLICITADA']))] },
        'mismatch',
      ],
    ];

    it.each(cases)('%s: onUnconfirmed, answered 200', async (_name, records, body, reason) => {
      service(records);
      const onRec = vi.fn();
      const onCobr = vi.fn();
      const unconfirmed: UnconfirmedRecurring[] = [];
      const response = await recurringHandler(api, { onRec, onCobr, onUnconfirmed: (e) => void unconfirmed.push(e) })(
        post(body),
      );
      expect(response.status).toBe(200);
      expect(onRec).not.toHaveBeenCalled();
      expect(onCobr).not.toHaveBeenCalled();
      expect(unconfirmed.map((u) => u.reason)).toEqual([reason]);
      expect(unconfirmed[0]?.notified).toEqual(Object.values(body)[0][0]);
      if (reason === 'mismatch') expect(unconfirmed[0]?.actual).toEqual(records.rec ?? records.cobr);
    });

    it('an id the client refuses (path-breaking, with validate: false too) is not found, without querying', async () => {
      for (const client of [api, testClient({ validate: false })]) {
        const unconfirmed: UnconfirmedRecurring[] = [];
        const handler = recurringHandler(client, {
          onRec: vi.fn(),
          onCobr: vi.fn(),
          onUnconfirmed: (e) => void unconfirmed.push(e),
        });
        const response = await handler(
          post({
            recs: [{ idRec: '..', status: 'APROVADA' }],
            cobsr: [{ idRec: ID_REC, txid: '..', status: 'ATIVA' }],
          }),
        );
        expect(response.status).toBe(200);
        expect(unconfirmed.map((u) => `${u.kind}:${u.reason}`)).toEqual(['rec:not-found', 'cobr:not-found']);
      }
      expect(net.requests).toHaveLength(0);
    });

    it('a forged item naming a real id, arriving while the genuine one is checked, does not answer for it', async () => {
      const record = rec('CRIADA', 'APROVADA');
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      net.server.use(http.get(`${BASE_URL}/rec/:idRec`, async () => (await gate, HttpResponse.json(record))));
      const onRec = vi.fn();
      const onUnconfirmed = vi.fn();
      const handler = recurringHandler(api, { onRec, onUnconfirmed });
      const forged = handler(post({ recs: [recItem(record, { status: 'REJEITADA' })] }));
      const genuine = handler(post({ recs: [recItem(record)] }));
      await vi.waitFor(() => expect(net.requests).toHaveLength(2));
      release();
      expect([(await forged).status, (await genuine).status]).toEqual([200, 200]);
      expect(onUnconfirmed).toHaveBeenCalledTimes(1);
      expect(onRec).toHaveBeenCalledTimes(1);
    });
  });

  it('drops a duplicate delivery without asking the service again', async () => {
    const record = cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']);
    const queried = service({ cobr: record });
    const onCobr = vi.fn();
    const handler = recurringHandler(api, { onCobr });
    for (let i = 0; i < 3; i++) expect((await handler(post({ cobsr: [cobrItem(record)] }))).status).toBe(200);
    expect(onCobr).toHaveBeenCalledTimes(1);
    expect(queried).toHaveLength(1);
  });

  it('runs the callback once for concurrent deliveries of one state, even of different content', async () => {
    const record = rec('CRIADA', 'APROVADA');
    service({ rec: record });
    const onRec = vi.fn(async () => new Promise<void>((resolve) => setTimeout(resolve, 20)));
    const handler = recurringHandler(api, { onRec });
    // The same state notified twice with different content (one carries fewer fields).
    const statuses = await Promise.all([
      handler(post({ recs: [recItem(record)] })),
      handler(post({ recs: [recItem(record)] })),
      handler(post({ recs: [{ idRec: record.idRec, status: 'APROVADA' }] })),
    ]);
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(onRec).toHaveBeenCalledTimes(1);
  });

  it('delivers each state once: a new status, a new attempt status', async () => {
    const onRec = vi.fn();
    const onCobr = vi.fn((_cobr: CobRCompleta) => undefined);
    const handler = recurringHandler(api, { onRec, onCobr });
    const steps = [
      cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']),
      cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA', 'REJEITADA']),
      cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA', 'REJEITADA'], [E2E_2, 'SOLICITADA', 'AGENDADA']),
      cobr(
        ['CRIADA', 'ATIVA', 'CONCLUIDA'],
        [E2E_1, 'SOLICITADA', 'AGENDADA', 'REJEITADA'],
        [E2E_2, 'SOLICITADA', 'AGENDADA', 'PAGA'],
      ),
    ];
    for (const step of steps) {
      service({ cobr: step });
      expect((await handler(post({ cobsr: [cobrItem(step)] }))).status).toBe(200);
      expect((await handler(post({ cobsr: [cobrItem(step)] }))).status).toBe(200);
    }
    expect(onCobr.mock.calls.map(([c]) => `${c.status}:${c.tentativas!.map((t) => t.status).join('+')}`)).toEqual([
      'ATIVA:AGENDADA',
      'ATIVA:REJEITADA',
      'ATIVA:REJEITADA+AGENDADA',
      'CONCLUIDA:REJEITADA+PAGA',
    ]);
    expect(onRec).not.toHaveBeenCalled();
  });

  it('a late notification of an earlier state delivers the current record once; the notification of that state is then a duplicate', async () => {
    const current = rec('CRIADA', 'APROVADA', 'CANCELADA');
    service({ rec: current });
    const onRec = vi.fn();
    const handler = recurringHandler(api, { onRec });
    expect((await handler(post({ recs: [recItem(rec('CRIADA', 'APROVADA'))] }))).status).toBe(200);
    expect((await handler(post({ recs: [recItem(current)] }))).status).toBe(200);
    expect(onRec.mock.calls.map(([r]) => r.status)).toEqual(['CANCELADA']);
  });

  it('answers 500 when the callback throws, and delivers on the next attempt', async () => {
    const record = rec('CRIADA', 'APROVADA');
    service({ rec: record });
    let fail = true;
    const onRec = vi.fn(() => {
      if (fail) throw new Error('database down');
    });
    const onError = vi.fn();
    const handler = recurringHandler(api, { onRec, onError });
    expect((await handler(post({ recs: [recItem(record)] }))).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database down' }), 500);
    fail = false;
    expect((await handler(post({ recs: [recItem(record)] }))).status).toBe(200);
    expect(onRec).toHaveBeenCalledTimes(2);
  });

  it('answers 500 when the confirming query fails (503), and when onUnconfirmed throws', async () => {
    service({ cobr: 503 });
    const onCobr = vi.fn();
    expect((await recurringHandler(api, { onCobr })(post({ cobsr: [cobrItem(cobr(['CRIADA']))] }))).status).toBe(500);
    expect(onCobr).not.toHaveBeenCalled();
    service({});
    const alerting = () => {
      throw new Error('alerting down');
    };
    expect(
      (await recurringHandler(api, { onCobr, onUnconfirmed: alerting })(post({ cobsr: [cobrItem(cobr(['CRIADA']))] })))
        .status,
    ).toBe(500);
  });

  it('handles both lists of one body, each with its own callback; a list without a callback is answered unread', async () => {
    const r = rec('CRIADA', 'APROVADA');
    const c = cobr(['CRIADA', 'ATIVA']);
    const queried = service({ rec: r, cobr: c });
    const onRec = vi.fn();
    const onCobr = vi.fn();
    expect(
      (await recurringHandler(api, { onRec, onCobr })(post({ recs: [recItem(r)], cobsr: [cobrItem(c)] }))).status,
    ).toBe(200);
    expect([onRec.mock.calls.length, onCobr.mock.calls.length]).toEqual([1, 1]);
    queried.length = 0;
    expect((await recurringHandler(api, { onRec })(post({ cobsr: [cobrItem(c)] }))).status).toBe(200);
    expect(queried).toEqual([]);
  });

  it('with the in-memory store, concurrent deliveries to two handlers (two processes) run the callback once', async () => {
    const record = cobr(['CRIADA', 'ATIVA'], [E2E_1, 'SOLICITADA', 'AGENDADA']);
    service({ cobr: record });
    const store = createMemoryStore();
    let running = 0;
    let most = 0;
    const onCobr = vi.fn(async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
    });
    const [a, b] = [recurringHandler(api, { store, onCobr }), recurringHandler(api, { store, onCobr })];
    const deliveries = [a, b, a, b].map((handler) => handler(post({ cobsr: [cobrItem(record)] })));
    expect((await Promise.all(deliveries)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect([onCobr.mock.calls.length, most]).toEqual([1, 1]);
  });

  it('with a store, a second handler (another process) finds the state done', async () => {
    const record = rec('CRIADA', 'APROVADA');
    service({ rec: record });
    const store = createMemoryStore();
    const onRec = vi.fn();
    const other = vi.fn();
    expect((await recurringHandler(api, { store, onRec })(post({ recs: [recItem(record)] }))).status).toBe(200);
    expect((await recurringHandler(api, { store, onRec: other })(post({ recs: [recItem(record)] }))).status).toBe(200);
    expect([onRec.mock.calls.length, other.mock.calls.length]).toEqual([1, 0]);
  });

  it('answers 400 to a body that is not a recurring notification and 405 to another method, asking nothing', async () => {
    const onRec = vi.fn();
    const onError = vi.fn();
    const handler = recurringHandler(api, { onRec, onError });
    for (const body of ['{', '[]', '{"recebidos":[]}', JSON.stringify({ recs: [{ status: 'APROVADA' }] })]) {
      expect((await handler(new Request('https://hooks.example.com/rec', { method: 'POST', body }))).status).toBe(400);
    }
    expect((await handler(new Request('https://hooks.example.com/rec'))).status).toBe(405);
    expect(onError.mock.calls.map(([error, status]) => [error instanceof InvalidNotificationError, status])).toEqual([
      [true, 400],
      [true, 400],
      [true, 400],
      [true, 400],
      [true, 405],
    ]);
    expect(onRec).not.toHaveBeenCalled();
    expect(net.requests).toHaveLength(0);
  });

  it('refuses to be built without a callback, or with one that is not a function (ConfigurationError)', () => {
    expect(() => recurringHandler(api, {})).toThrow(ConfigurationError);
    expect(() => recurringHandler(api, { onRec: 'x' } as never)).toThrow(expect.objectContaining({ option: 'onRec' }));
    expect(() => recurringHandler(api, { onCobr: vi.fn(), claim: { leaseMs: 1 } })).toThrow(ConfigurationError);
  });
});
