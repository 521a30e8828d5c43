/**
 * What time does in the recurring part: attempts past their date expire, charges that can no
 * longer be paid expire, recurrences past `dataFinal` and requests past their expiry expire, and
 * a charge cannot be cancelled once its first attempt's date has come. The clock is moved with
 * the sandbox's test clock (`sandbox.clock.advance`); tokens issued before the move are refused
 * with 401 and replaced by the harness.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, todayInBrasilia } from '../../../src/lib/dates.ts';
import { generateTxid } from '../../../src/lib/ids.ts';
import {
  approvedRec,
  cobrBody,
  createRec,
  day,
  expectProblem,
  solicRecBody,
  useRecSandbox,
  type Json,
} from './support.ts';

const h = useRecSandbox();
const DAY_MS = 86_400_000;

/** Moves the sandbox's test clock `days` ahead (what falls due on the way fires). */
async function travel(days: number): Promise<void> {
  await h.sandbox.clock.advance(days * DAY_MS);
}

/** The sandbox's day plus `n` days, and its instant plus `ms`, after a move. */
const sandboxDay = (n: number): string => addDays(todayInBrasilia(h.sandbox.clock.now()), n);
const sandboxInstant = (ms: number): string => new Date(h.sandbox.clock.now().getTime() + ms).toISOString();

// Each case starts on the machine's day, as its dates (`day(n)`) do.
afterEach(async () => {
  await h.sandbox.clock.set(new Date().toISOString());
});

async function charge(idRec: string, due: string): Promise<string> {
  const txid = generateTxid();
  const created = await h.call('PUT', `/cobr/${txid}`, cobrBody(idRec, h.account, due, { ajusteDiaUtil: false }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return txid;
}

const get = async (path: string): Promise<Json> => (await h.call('GET', path)).body;

describe('recurring charges over time', () => {
  it('PERMITE_3R_7D: an unpaid attempt expires, the charge waits for a retry, and expires once the window has passed', async () => {
    const due = day(1);
    const txid = await charge(await approvedRec(h, { calendario: { dataInicial: due, periodicidade: 'MENSAL' } }), due);
    await travel(2); // due + 1
    const waiting = await get(`/cobr/${txid}`);
    expect(waiting.status).toBe('ATIVA');
    expect(waiting.tentativas.map((t: Json) => t.status)).toEqual(['EXPIRADA']);
    const retried = await h.call('POST', `/cobr/${txid}/retentativa/${addDays(due, 3)}`);
    expect(retried.status).toBe(201);
    await travel(8); // due + 9: the retry's date and the window are both gone
    const expired = await get(`/cobr/${txid}`);
    expect(expired.status).toBe('EXPIRADA');
    expect(expired.tentativas.map((t: Json) => t.status)).toEqual(['EXPIRADA', 'EXPIRADA']);
    expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/${sandboxDay(1)}`), 400, 'CobROperacaoInvalida', [
      'cobr.status',
      'data',
    ]);
  });

  it('NAO_PERMITE: an unpaid attempt past its date expires the charge', async () => {
    const due = day(1);
    const txid = await charge(
      await approvedRec(h, {
        politicaRetentativa: 'NAO_PERMITE',
        calendario: { dataInicial: due, periodicidade: 'MENSAL' },
      }),
      due,
    );
    await travel(2);
    expect((await get(`/cobr/${txid}`)).status).toBe('EXPIRADA');
  });

  it('refuses the cancellation on the first attempt date', async () => {
    const due = day(2);
    const txid = await charge(await approvedRec(h, { calendario: { dataInicial: due, periodicidade: 'MENSAL' } }), due);
    await travel(1);
    expect((await get(`/cobr/${txid}`)).status).toBe('ATIVA');
    await travel(1); // the attempt's date
    expectProblem(await h.call('PATCH', `/cobr/${txid}`, { status: 'CANCELADA' }), 400, 'CobROperacaoInvalida', [
      'cobr.status',
    ]);
  });
});

describe('recurrences and requests over time', () => {
  it('a recurrence past dataFinal is EXPIRADA: its payload is refused, it cannot be revised', async () => {
    const { id, location } = (await h.call('POST', '/locrec')).body;
    const { idRec } = await createRec(h, {
      loc: id,
      calendario: { dataInicial: day(0), dataFinal: day(1), periodicidade: 'SEMANAL' },
    });
    await travel(2);
    const expired = await get(`/rec/${idRec}`);
    expect(expired.status).toBe('EXPIRADA');
    expect(expired.atualizacao.map((a: Json) => a.status)).toEqual(['CRIADA', 'EXPIRADA']);
    expectProblem(
      await h.raw('GET', `/qr/v2/rec/${(location as string).split('/').pop()}`),
      400,
      'RecPayloadOperacaoInvalida',
    );
    expectProblem(await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' }), 400, 'RecOperacaoInvalida', [
      'rec.status',
    ]);
  });

  it('a request past its expiry is EXPIRADA: no longer active, no longer cancellable', async () => {
    const { idRec } = await createRec(h);
    const { idSolicRec } = (
      await h.call(
        'POST',
        '/solicrec',
        solicRecBody(idRec, {
          calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 3_600_000).toISOString() },
        }),
      )
    ).body;
    await travel(1);
    expect((await get(`/solicrec/${idSolicRec}`)).status).toBe('EXPIRADA');
    expectProblem(
      await h.call('PATCH', `/solicrec/${idSolicRec}`, { status: 'CANCELADA' }),
      400,
      'SolicRecOperacaoInvalida',
      ['solicrec.status'],
    );
    const next = await h.call(
      'POST',
      '/solicrec',
      solicRecBody(idRec, { calendario: { dataExpiracaoSolicitacao: sandboxInstant(3_600_000) } }),
    );
    expect(next.status).toBe(201);
  });
});
