/**
 * Logging: every failure kind is driven through the clients and the notification handlers with a
 * logger that captures every line at every level; the captured text must carry the events
 * (route templates, statuses, reasons, timings) and never the client secret, a token, a
 * document, an id from a path or any body content.
 */
import { inspect } from 'node:util';
import { http, HttpResponse, delay } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnvLogger, type Logger } from '../../src/core/log.ts';
import {
  CashOutClient,
  InstantClient,
  receivedPaymentsHandler,
  recurringHandler,
  type InstantClientOptions,
  type InstantPayment,
} from '../../src/index.ts';
import { PayerClient } from '../../src/payer.ts';
import { BASE_URL, useMsw } from '../support/msw.ts';
import {
  BY_KEY_URL,
  CASH_OUT_URL,
  TOKEN_URL as CASH_OUT_TOKEN_URL,
  notification as transferNotification,
  wireTransfer,
} from '../cash-out/fixtures.ts';

const net = useMsw();

const SECRET = 'S3cr3t-client-Qz81';
const TOKEN_1 = 'tok-first-8f2a91c7';
const TOKEN_2 = 'tok-second-41d9be03';
const CPF = '52998224725';
const CPF_FORMATTED = '529.982.247-25';
const CNPJ = '11222333000181';
const TXID = 'txidLogging0000000000000000001';
const E2E = 'E12345678202610091221abcdef00001';
const E2E_2 = 'E12345678202610091221abcdef00002';
const E2E_3 = 'E12345678202610091221abcdef00003';
const MARKER = 'BODY-MARKER-7Hq';
const TOKEN_URL = 'https://auth.psp.example/oauth/token';
const FORBIDDEN = [SECRET, TOKEN_1, TOKEN_2, CPF, CPF_FORMATTED, CNPJ, TXID, E2E, E2E_2, MARKER, 'Bearer'];

/** A logger with all four levels, keeping each line as JSON and as `util.inspect` sees it. */
function capture(): { logger: Required<Logger>; lines: string[]; messages: () => string[]; text: () => string } {
  const lines: string[] = [];
  const record = (level: string) => (message: string, meta?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(meta)} ${inspect(meta, { depth: 10 })}`);
  };
  return {
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    lines,
    messages: () => lines.map((line) => line.split(' ').slice(0, 2).join(' ')),
    text: () => lines.join('\n'),
  };
}

function expectClean(text: string): void {
  for (const secret of FORBIDDEN) expect(text, `log leaks ${secret}`).not.toContain(secret);
}

/** The token endpoint: TOKEN_1, then TOKEN_2. */
function tokenEndpoint() {
  let issued = 0;
  net.server.use(
    http.post(TOKEN_URL, () => {
      issued++;
      return HttpResponse.json({
        access_token: issued === 1 ? TOKEN_1 : TOKEN_2,
        token_type: 'Bearer',
        expires_in: 300,
      });
    }),
  );
}

function client(logger: Logger, options: Partial<InstantClientOptions> = {}): InstantClient {
  return new InstantClient({
    baseUrl: BASE_URL,
    auth: { tokenUrl: TOKEN_URL, clientId: 'client-1', clientSecret: SECRET },
    logger,
    maxRetries: 1,
    ...options,
  });
}

const cobBody = { txid: TXID, status: 'ATIVA', devedor: { cpf: CPF, nome: MARKER }, valor: { original: '10.00' } };
const problemWithCpf = {
  type: 'https://errors.example/cob/RequisicaoInvalida',
  title: 'Invalid',
  status: 400,
  detail: `devedor.cpf ${CPF_FORMATTED} (${CPF}) does not match ${MARKER}`,
  violacoes: [{ razao: `cpf ${CPF} invalid`, propriedade: 'devedor.cpf' }],
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetEnvLogger();
});

describe('logging, InstantClient', () => {
  it('logs a request with its route template, status and time, and the token fetch, nothing else', async () => {
    tokenEndpoint();
    net.server.use(http.get(`${BASE_URL}/cob/:txid`, () => HttpResponse.json(cobBody)));
    const log = capture();
    await client(log.logger).cob.get(TXID);
    expect(log.messages()).toEqual(['info token', 'debug request']);
    expect(log.text()).toContain('"route":"/cob/{}"');
    expect(log.text()).toMatch(/"status":200,"ms":\d+/);
    expectClean(log.text());
  });

  it('401 then a refreshed token: logs the replay and the refresh, never either token', async () => {
    tokenEndpoint();
    let calls = 0;
    net.server.use(
      http.put(`${BASE_URL}/cob/:txid`, () =>
        ++calls === 1 ? new HttpResponse(null, { status: 401 }) : HttpResponse.json(cobBody, { status: 201 }),
      ),
    );
    const log = capture();
    await client(log.logger).cob.create(TXID, {
      calendario: { expiracao: 3600 },
      valor: { original: '10.00' },
      chave: CPF,
      devedor: { cpf: CPF, nome: MARKER },
    });
    expect(log.text()).toContain('token fetched');
    expect(log.text()).toContain('401: token dropped, replaying once');
    expect(log.text()).toContain('token refreshed');
    expectClean(log.text());
  });

  it('a token endpoint echoing the secret (form and JSON): the failure is logged without it', async () => {
    const echo = {
      error: 'invalid_client',
      error_description: `client secret ${SECRET} for ${CPF} refused ${MARKER}`,
      title: `secret ${SECRET}`,
    };
    net.server.use(
      http.post(TOKEN_URL, () => HttpResponse.json(echo, { status: 401 })),
      http.post(CASH_OUT_TOKEN_URL, () => HttpResponse.json(echo, { status: 400 })),
    );
    const log = capture();
    await expect(client(log.logger).cob.get(TXID)).rejects.toMatchObject({ name: 'AuthenticationError' });
    const cashOut = new CashOutClient({
      baseUrl: CASH_OUT_URL,
      auth: { clientId: 'client-1', clientSecret: SECRET },
      logger: log.logger,
    });
    await expect(cashOut.balance.get()).rejects.toMatchObject({ name: 'AuthenticationError' });
    expect(log.lines.filter((line) => line.startsWith('error token request failed'))).toHaveLength(2);
    expectClean(log.text());
  });

  it('a 4xx problem document quoting CPFs: status and error name only', async () => {
    tokenEndpoint();
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, () =>
        HttpResponse.json(problemWithCpf, { status: 400, headers: { 'content-type': 'application/problem+json' } }),
      ),
    );
    const log = capture();
    await expect(client(log.logger).cob.get(TXID)).rejects.toMatchObject({ status: 400 });
    expect(log.text()).toMatch(/debug request .*"status":400,"error":"RequisicaoInvalida"/);
    expectClean(log.text());
  });

  it('retries: reason and wait logged, the 503 body never', async () => {
    tokenEndpoint();
    let calls = 0;
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, () =>
        ++calls === 1
          ? HttpResponse.json(problemWithCpf, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json(cobBody),
      ),
    );
    const log = capture();
    await client(log.logger).cob.get(TXID);
    expect(log.text()).toMatch(/warn retry .*"route":"\/cob\/\{\}","retry":1,"reason":"HTTP 503","waitedMs":\d+/);
    expectClean(log.text());
  });

  it('a network cut, retried then given up: logged as a failed request', async () => {
    tokenEndpoint();
    net.server.use(http.get(`${BASE_URL}/cob/:txid`, () => HttpResponse.error()));
    const log = capture();
    await expect(client(log.logger, { maxRetries: 1 }).cob.get(TXID)).rejects.toMatchObject({
      name: 'ConnectionError',
    });
    expect(log.text()).toContain('"reason":"network error"');
    expect(log.text()).toMatch(/warn request failed .*"error":"ConnectionError"/);
    expectClean(log.text());
  });

  it('a time-out: logged as a failed request', async () => {
    tokenEndpoint();
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, async () => {
        await delay(500);
        return HttpResponse.json(cobBody);
      }),
    );
    const log = capture();
    await expect(client(log.logger, { maxRetries: 0, timeout: 50 }).cob.get(TXID)).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(log.text()).toMatch(/warn request failed .*"error":"TimeoutError"/);
    expectClean(log.text());
  });

  it('a redirect pointing at a URL full of personal data: refused and logged without the target', async () => {
    tokenEndpoint();
    const target = `https://elsewhere.example/${CPF}?token=${TOKEN_1}&m=${MARKER}`;
    net.server.use(
      http.get(`${BASE_URL}/cob/:txid`, () => new HttpResponse(null, { status: 302, headers: { location: target } })),
    );
    const log = capture();
    await expect(client(log.logger).cob.get(TXID)).rejects.toMatchObject({ reason: 'redirect' });
    expect(log.text()).toMatch(/warn redirect refused .*"status":302/);
    expectClean(log.text());
    expect(log.text()).not.toContain('elsewhere.example');
  });

  it('a body that cannot be serialised: refused before sending, nothing of it logged', async () => {
    const log = capture();
    const api = client(log.logger);
    await expect(
      api.http.json({ method: 'POST', path: { url: '/x', route: '/x' }, body: { cpf: CPF, n: 1n } }),
    ).rejects.toMatchObject({ sentRequest: false });
    // Nothing was sent, so nothing is logged (like a request the client-side rules refuse).
    expect(log.lines).toEqual([]);
  });

  it('a logger with missing methods (or none of them) is tolerated', async () => {
    tokenEndpoint();
    net.server.use(http.get(`${BASE_URL}/cob/:txid`, () => HttpResponse.json(cobBody)));
    const warnings: string[] = [];
    await client({}).cob.get(TXID);
    await client({ warn: (m) => warnings.push(m) }).cob.get(TXID);
    expect(warnings).toEqual([]);
  });
});

describe('logging, notification handlers', () => {
  const LIST = 'recebidos';
  const pay = (valor: string, endToEndId = E2E): InstantPayment => ({
    endToEndId,
    txid: TXID,
    valor,
    horario: '2026-10-09T20:15:00.358Z',
    infoPagador: MARKER,
  });
  const post = (body: string) => new Request('https://hooks.example.com/webhook/recebidos', { method: 'POST', body });

  it('received payments: received, confirmed, duplicate, unconfirmed, malformed and failed, no payment data', async () => {
    const record = { ...pay('10.00'), pagador: { cpf: CPF, nome: MARKER } };
    net.server.use(http.get(`${BASE_URL}/instant/:e2eid`, () => HttpResponse.json(record)));
    const log = capture();
    const api = new InstantClient({
      baseUrl: BASE_URL,
      auth: { getToken: async () => TOKEN_1 },
      logger: log.logger,
      maxRetries: 0,
    });
    let fail = false;
    const handler = receivedPaymentsHandler(api, {
      onPayment: () => {
        if (fail) throw new Error(`cannot store ${CPF} ${MARKER}`);
      },
    });
    const good = JSON.stringify({ [LIST]: [pay('10.00')] });
    expect((await handler(post(good))).status).toBe(200);
    expect((await handler(post(good))).status).toBe(200);
    // Another amount under the handled e2eid is answered from its done mark (a duplicate): an
    // e2eid nobody handled, whose record the service answers with another amount, is unconfirmed.
    expect((await handler(post(JSON.stringify({ [LIST]: [pay('99.00', E2E_3)] })))).status).toBe(200);
    expect((await handler(post(`{"${MARKER}": "${CPF}"`))).status).toBe(400);
    fail = true;
    const other = { ...record, endToEndId: E2E_2 };
    net.server.use(http.get(`${BASE_URL}/instant/:e2eid`, () => HttpResponse.json(other)));
    expect((await handler(post(JSON.stringify({ [LIST]: [pay('10.00', E2E_2)] })))).status).toBe(500);
    const text = log.text();
    for (const event of [
      'info notification received',
      'info payment confirmed',
      'info payment duplicate',
      'warn payment unconfirmed',
      'warn notification refused',
      'error notification failed',
    ]) {
      expect(text).toContain(event);
    }
    expect(text).toContain('"reason":"mismatch"');
    expectClean(text);
  });

  it('recurring notifications: received, confirmed, duplicate, unconfirmed, refused and failed, no recurrence data', async () => {
    const ID_REC = 'RR1234567820261009logging0001';
    const rec = {
      idRec: ID_REC,
      status: 'APROVADA',
      atualizacao: [{ status: 'APROVADA', data: '2026-10-09T20:15:00.358Z' }],
      vinculo: { contrato: MARKER, devedor: { cpf: CPF, nome: MARKER } },
    };
    const cobr = {
      idRec: ID_REC,
      txid: TXID,
      status: 'ATIVA',
      atualizacao: [{ status: 'ATIVA', data: '2026-10-09T20:15:00.358Z' }],
      tentativas: [{ endToEndId: E2E, status: 'AGENDADA', tipo: 'AGND', dataLiquidacao: '2026-11-10' }],
    };
    net.server.use(
      http.get(`${BASE_URL}/rec/:idRec`, () => HttpResponse.json(rec)),
      http.get(`${BASE_URL}/cobr/:txid`, () => HttpResponse.json(cobr)),
    );
    const log = capture();
    const api = new InstantClient({
      baseUrl: BASE_URL,
      auth: { getToken: async () => TOKEN_1 },
      logger: log.logger,
      maxRetries: 0,
    });
    let fail = false;
    const handler = recurringHandler(api, {
      onRec: () => undefined,
      onCobr: () => {
        if (fail) throw new Error(`cannot store ${CPF} ${MARKER}`);
      },
    });
    const send = (body: unknown) =>
      handler(
        new Request('https://hooks.example.com/hooks/rec', {
          method: 'POST',
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      );
    expect((await send({ recs: [rec] })).status).toBe(200);
    expect((await send({ recs: [rec] })).status).toBe(200);
    expect((await send({ recs: [{ ...rec, status: 'CANCELADA' }] })).status).toBe(200);
    expect((await send(`{"${MARKER}": "${CPF}"`)).status).toBe(400);
    fail = true;
    expect((await send({ cobsr: [cobr] })).status).toBe(500);
    const text = log.text();
    for (const event of [
      'info notification received',
      'info recurrence confirmed',
      'info recurrence duplicate',
      'warn recurrence unconfirmed',
      'warn notification refused',
      'error notification failed',
    ]) {
      expect(text).toContain(event);
    }
    expect(text).toContain('"reason":"mismatch"');
    expectClean(text);
    expect(text).not.toContain(ID_REC);
  });

  it('transfer notifications: confirmed, suspicious and refused, no transfer data', async () => {
    const wire = wireTransfer({ status: 'LIQUIDATED', creditorAccount: { document: CPF, name: MARKER } });
    net.server.use(http.get(BY_KEY_URL, () => HttpResponse.json({ data: wire })));
    const log = capture();
    const cashOut = new CashOutClient({
      baseUrl: CASH_OUT_URL,
      auth: { getToken: async () => TOKEN_1 },
      logger: log.logger,
    });
    const handler = cashOut.notificationHandler({ onConfirmed: () => undefined, onSuspicious: () => undefined });
    const send = (body: unknown) =>
      handler(
        new Request('https://hooks.example.com/webhook/transfer-confirmation', {
          method: 'POST',
          body: JSON.stringify(body),
        }),
      );
    expect((await send(transferNotification({ creditorAccount: { document: CPF, name: MARKER } }))).status).toBe(200);
    expect((await send(transferNotification({ status: 'CANCELED', remittanceInformation: MARKER }))).status).toBe(200);
    expect((await send({ data: { cpf: CPF, note: MARKER } })).status).toBe(400);
    const text = log.text();
    expect(text).toContain('info notification confirmed');
    expect(text).toContain('warn notification suspicious');
    expect(text).toMatch(/warn notification refused .*"status":400,"error":"InvalidNotificationError"/);
    expectClean(text);
  });
});

describe('logging, PayerClient', () => {
  it('retries and a refused redirect: host, status and wait only', async () => {
    const location = `qr.psp.example/qr/v2/${TXID}`;
    let calls = 0;
    net.server.use(
      http.get(`https://qr.psp.example/qr/v2/:id`, () =>
        ++calls === 1
          ? HttpResponse.json({ detail: MARKER }, { status: 503, headers: { 'retry-after': '0' } })
          : new HttpResponse(null, { status: 302, headers: { location: `https://evil.example/${CPF}` } }),
      ),
    );
    const log = capture();
    await expect(
      new PayerClient({ logger: log.logger, maxRetries: 1 }).cobPayload.getCob(location),
    ).rejects.toMatchObject({ reason: 'redirect' });
    expect(log.text()).toMatch(/warn retry .*"reason":"HTTP 503","waitMs":0/);
    expect(log.text()).toContain('warn redirect refused');
    expectClean(log.text());
    expect(log.text()).not.toContain('evil.example');
  });
});

describe('INSTANT_PAYMENTS_LOG', () => {
  async function run(level: string | undefined): Promise<string[]> {
    if (level !== undefined) vi.stubEnv('INSTANT_PAYMENTS_LOG', level);
    resetEnvLogger();
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    tokenEndpoint();
    net.server.use(http.get(`${BASE_URL}/cob/:txid`, () => HttpResponse.json(cobBody)));
    await new InstantClient({
      baseUrl: BASE_URL,
      auth: { tokenUrl: TOKEN_URL, clientId: 'c', clientSecret: SECRET },
    }).cob.get(TXID);
    vi.restoreAllMocks();
    return lines;
  }

  it('debug logs every request to stderr; info leaves requests out; unset or unknown logs nothing', async () => {
    const debug = await run('debug');
    expect(debug).toEqual([
      expect.stringMatching(/^\[instant-payments\] info token fetched \{"ms":\d+,"lifetimeS":300\}$/),
      expect.stringMatching(
        /^\[instant-payments\] debug request \{"method":"GET","route":"\/cob\/\{\}","status":200,"ms":\d+\}$/,
      ),
    ]);
    expectClean(debug.join('\n'));
    expect(await run('INFO')).toEqual([expect.stringContaining('info token fetched')]);
    expect(await run('warn')).toEqual([]);
    expect(await run('verbose')).toEqual([]);
    expect(await run(undefined)).toEqual([]);
  });
});
