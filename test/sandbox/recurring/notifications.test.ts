/**
 * The two webhooks of the recurring part and the notifications they bring to a local receiver,
 * the control routes of the payer's side over HTTP, and a whole journey 3: an immediate charge
 * and a recurrence in one composite code, paid, then three monthly charges, one rejected and
 * retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brcode } from '../../../src/lib/brcode.ts';
import { addDays } from '../../../src/lib/dates.ts';
import { generateTxid } from '../../../src/lib/ids.ts';
import { addMonths } from '../../../src/lib/dates.ts';
import { sendJson, startServer, type LoopbackServer } from '../../support/loopback.ts';
import { approvedRec, cobrBody, createRec, day, expectProblem, useRecSandbox, type Json } from './support.ts';

const h = useRecSandbox();
let receiver: LoopbackServer;

beforeAll(async () => {
  receiver = await startServer((_req, res) => sendJson(res, 200, undefined));
});
afterAll(async () => {
  await receiver.close();
});

/** Notifications received so far for `idRec` (recs) or its charges (cobsr): `kind:id:status`. */
function received(idRec: string): string[] {
  return receiver.requests.flatMap((r) => {
    const body = JSON.parse(r.body) as Json;
    if (r.url === '/hooks/rec')
      return (body.recs as Json[]).filter((x) => x.idRec === idRec).map((x) => `rec:${x.status}`);
    if (r.url === '/hooks/cobr')
      return (body.cobsr as Json[])
        .filter((x) => x.idRec === idRec)
        .map(
          (x) => `cobr:${x.txid.slice(0, 4)}:${x.status}:${(x.tentativas as Json[]).map((t) => t.status).join('+')}`,
        );
    return [];
  });
}

async function settled<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200 && !done(read()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return read();
}

describe('/webhookrec and /webhookcobr', () => {
  it.each(['webhookrec', 'webhookcobr'])('%s: PUT 200 without body, GET, DELETE 204, then 404', async (resource) => {
    const url = `${receiver.url}/elsewhere/`;
    const put = await h.call('PUT', `/${resource}`, { webhookUrl: url });
    expect(put.status).toBe(200);
    expect(put.body).toBeUndefined();
    const got = await h.call('GET', `/${resource}`);
    expect(got.body).toEqual({ webhookUrl: url, criacao: expect.any(String) });
    await h.call('PUT', `/${resource}`, { webhookUrl: `${url}v2` });
    expect((await h.call('GET', `/${resource}`)).body).toEqual({ webhookUrl: `${url}v2`, criacao: got.body.criacao });
    expect((await h.call('DELETE', `/${resource}`)).status).toBe(204);
    expectProblem(await h.call('GET', `/${resource}`), 404, 'NaoEncontrado');
    expectProblem(await h.call('DELETE', `/${resource}`), 404, 'NaoEncontrado');
  });

  it.each([
    ['webhookrec', 'WebhookRecOperacaoInvalida', 'WebhookRecConsultaInvalida'],
    ['webhookcobr', 'WebhookCobROperacaoInvalida', 'WebhookCobRConsultaInvalida'],
  ])('%s: refuses a webhookUrl out of schema and a query out of rule', async (resource, invalid, badQuery) => {
    for (const webhookUrl of ['http://example.com/hook', 'not a url', 42, undefined]) {
      expectProblem(await h.call('PUT', `/${resource}`, { webhookUrl }), 400, invalid, ['webhookUrl']);
    }
    expectProblem(await h.call('GET', `/${resource}?inicio=ontem`), 400, badQuery, ['inicio']);
    expectProblem(await h.call('GET', `/${resource}?paginacao.paginaAtual=-1`), 400, badQuery, [
      'paginacao.paginaAtual',
    ]);
  });
});

describe('notifications', () => {
  beforeAll(async () => {
    await h.call('PUT', '/webhookrec', { webhookUrl: `${receiver.url}/hooks/` });
    await h.call('PUT', '/webhookcobr', { webhookUrl: `${receiver.url}/hooks` });
  });

  it('POSTs { recs } to {webhookUrl}/rec and { cobsr } to {webhookUrl}/cobr on each change after creation', async () => {
    const { idRec } = await createRec(h);
    await h.sandbox.approveRec(idRec);
    const txid = generateTxid();
    await h.call('PUT', `/cobr/${txid}`, cobrBody(idRec, h.account, day(10)));
    await h.sandbox.settleCobr(txid, 'PAGA');
    const seen = await settled(
      () => received(idRec),
      (list) => list.length >= 3,
    );
    const short = txid.slice(0, 4);
    expect(seen).toEqual(['rec:APROVADA', `cobr:${short}:ATIVA:AGENDADA`, `cobr:${short}:CONCLUIDA:PAGA`]);
    const rec = receiver.requests.find((r) => r.url === '/hooks/rec' && r.body.includes(idRec))!;
    expect(rec.method).toBe('POST');
    expect(rec.headers['content-type']).toBe('application/json');
    expect(JSON.parse(rec.body).recs[0]).toEqual({
      idRec,
      status: 'APROVADA',
      atualizacao: [expect.objectContaining({ status: 'CRIADA' }), expect.objectContaining({ status: 'APROVADA' })],
      ativacao: { tipoJornada: 'JORNADA_1' },
    });
    const paid = JSON.parse(
      receiver.requests.filter((r) => r.url === '/hooks/cobr' && r.body.includes(txid)).at(-1)!.body,
    ).cobsr[0];
    expect(paid).toMatchObject({ idRec, txid, status: 'CONCLUIDA', instant: [{ txid, valor: '29.90' }] });
  });

  it('notifies a cancellation, and nothing once the webhook is removed', async () => {
    const { idRec } = await createRec(h);
    await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expect(
      await settled(
        () => received(idRec),
        (list) => list.length >= 1,
      ),
    ).toEqual(['rec:CANCELADA']);
    await h.call('DELETE', '/webhookrec');
    const other = (await createRec(h)).idRec;
    await h.sandbox.approveRec(other);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received(other)).toEqual([]);
    await h.call('PUT', '/webhookrec', { webhookUrl: `${receiver.url}/hooks/` });
  });
});

describe('control routes (POST /sandbox/...)', () => {
  it('approve, reject, answer and settle over HTTP, with no credentials', async () => {
    const a = (await createRec(h)).idRec;
    const approved = await h.raw('POST', `/sandbox/recs/${a}/approve`, { jornada: 'JORNADA_4' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ idRec: a, status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_4' } });
    const b = (await createRec(h)).idRec;
    expect((await h.raw('POST', `/sandbox/recs/${b}/reject`, { codigo: 'AP14' })).body).toMatchObject({
      status: 'REJEITADA',
      encerramento: { rejeicao: { codigo: 'AP14' } },
    });
    const c = (await createRec(h)).idRec;
    const { idSolicRec } = (
      await h.call('POST', '/solicrec', {
        idRec: c,
        calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 60_000).toISOString() },
        destinatario: { conta: '1', ispbParticipante: '12345678', cpf: '12345678909' },
      })
    ).body;
    expect((await h.raw('POST', `/sandbox/solicrecs/${idSolicRec}/answer`, { status: 'ACEITA' })).body.status).toBe(
      'ACEITA',
    );
    const txid = generateTxid();
    await h.call('PUT', `/cobr/${txid}`, cobrBody(a, h.account, day(10)));
    const settledCharge = await h.raw('POST', `/sandbox/cobrs/${txid}/settle`, { status: 'REJEITADA', codigo: 'AC05' });
    expect(settledCharge.body).toMatchObject({
      txid,
      status: 'REJEITADA',
      tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AC05' } }],
    });
    // No body at all is an empty object: the defaults apply.
    const d = (await createRec(h)).idRec;
    expect((await h.raw('POST', `/sandbox/recs/${d}/approve`)).body.ativacao.tipoJornada).toBe('JORNADA_1');
  });

  it('answers problems: unknown ids, wrong states, bad bodies', async () => {
    expectProblem(await h.raw('POST', `/sandbox/recs/${'R'.repeat(29)}/approve`), 404, 'RecNaoEncontrada');
    expectProblem(
      await h.raw('POST', `/sandbox/solicrecs/${'S'.repeat(29)}/answer`, { status: 'ACEITA' }),
      404,
      'SolicRecNaoEncontrada',
    );
    expectProblem(
      await h.raw('POST', `/sandbox/cobrs/${generateTxid()}/settle`, { status: 'PAGA' }),
      404,
      'CobRNaoEncontrado',
    );
    const { idRec } = await createRec(h);
    expectProblem(
      await h.raw('POST', `/sandbox/recs/${idRec}/approve`, { jornada: 'JORNADA_9' }),
      400,
      'RequisicaoInvalida',
      ['jornada'],
    );
    expectProblem(await h.raw('POST', `/sandbox/recs/${idRec}/reject`, { codigo: 'XX' }), 400, 'RequisicaoInvalida', [
      'codigo',
    ]);
    expectProblem(await h.raw('POST', `/sandbox/recs/${idRec}/approve`, '{'), 400, 'RequisicaoInvalida');
    expectProblem(await h.raw('POST', `/sandbox/recs/${idRec}/approve`, '[]'), 400, 'RequisicaoInvalida');
    expectProblem(await h.raw('POST', `/sandbox/recs/%E0%A4%A/approve`), 400, 'RequisicaoInvalida');
    await h.sandbox.rejectRec(idRec);
    expectProblem(await h.raw('POST', `/sandbox/recs/${idRec}/approve`), 400, 'RecOperacaoInvalida', ['rec.status']);
    expect((await h.raw('GET', `/sandbox/recs/${idRec}/approve`)).status).toBe(405);
    const txid = generateTxid();
    await h.call('PUT', `/cobr/${txid}`, cobrBody(await approvedRec(h), h.account, day(10)));
    expectProblem(
      await h.raw('POST', `/sandbox/cobrs/${txid}/settle`, { status: 'TALVEZ' }),
      400,
      'RequisicaoInvalida',
      ['status'],
    );
  });
});

describe('a whole journey 3', () => {
  it('composite code, payment, approval; three monthly charges, one rejected and retried; every change notified once', async () => {
    // The receiving user: an immediate charge, a recurrence location, the recurrence naming the charge.
    const cobTxid = generateTxid();
    const cob = (
      await h.call('PUT', `/cob/${cobTxid}`, {
        calendario: { expiracao: 3600 },
        valor: { original: '9.90' },
        chave: h.sandbox.ownKeys[0],
      })
    ).body;
    const loc = (await h.call('POST', '/locrec')).body;
    const start = day(5);
    const { idRec } = await createRec(h, {
      loc: loc.id,
      calendario: { dataInicial: start, periodicidade: 'MENSAL' },
      ativacao: { dadosJornada: { txid: cobTxid } },
    });
    const code = brcode.parse((await h.call('GET', `/rec/${idRec}?txid=${cobTxid}`)).body.dadosQR.instantCopiaECola);
    expect(code).toMatchObject({ url: cob.location, recurrenceUrl: loc.location });

    // The payer reads the code and pays the immediate charge: the recurrence is approved by journey 3.
    await h.sandbox.payCharge(cobTxid);
    expect((await h.call('GET', `/rec/${idRec}`)).body.ativacao).toEqual({
      tipoJornada: 'JORNADA_3',
      dadosJornada: { txid: cobTxid },
    });

    // Three monthly charges; the second is rejected once, retried and paid.
    const txids: string[] = [];
    for (let month = 0; month < 3; month++) {
      const txid = generateTxid();
      const created = await h.call(
        'PUT',
        `/cobr/${txid}`,
        cobrBody(idRec, h.account, addMonths(start, month), { ajusteDiaUtil: false }),
      );
      expect(created.status).toBe(201);
      txids.push(txid);
    }
    await h.sandbox.settleCobr(txids[0]!, 'PAGA');
    await h.sandbox.settleCobr(txids[1]!, 'REJEITADA', { codigo: 'AM02' });
    const retry = await h.call('POST', `/cobr/${txids[1]}/retentativa/${addDays(addMonths(start, 1), 2)}`);
    expect(retry.status).toBe(201);
    await h.sandbox.settleCobr(txids[1]!, 'PAGA');
    await h.sandbox.settleCobr(txids[2]!, 'PAGA');
    const states = await Promise.all(txids.map(async (txid) => (await h.call('GET', `/cobr/${txid}`)).body as Json));
    expect(
      states.map((c) => `${c.status}:${(c.tentativas as Json[]).map((t) => `${t.tipo}-${t.status}`).join('+')}`),
    ).toEqual(['CONCLUIDA:AGND-PAGA', 'CONCLUIDA:AGND-REJEITADA+NTAG-PAGA', 'CONCLUIDA:AGND-PAGA']);

    // Every change reached the receiver once (creation notices travel on their own, so order aside).
    const [a, b, c] = txids.map((txid) => txid.slice(0, 4));
    const expected = [
      'rec:APROVADA',
      `cobr:${a}:ATIVA:AGENDADA`,
      `cobr:${b}:ATIVA:AGENDADA`,
      `cobr:${c}:ATIVA:AGENDADA`,
      `cobr:${a}:CONCLUIDA:PAGA`,
      `cobr:${b}:ATIVA:REJEITADA`,
      `cobr:${b}:ATIVA:REJEITADA+AGENDADA`,
      `cobr:${b}:CONCLUIDA:REJEITADA+PAGA`,
      `cobr:${c}:CONCLUIDA:PAGA`,
    ];
    await settled(
      () => received(idRec),
      (list) => list.length >= expected.length,
    );
    await new Promise((resolve) => setTimeout(resolve, 50)); // room for a duplicate to show up
    expect(received(idRec).toSorted()).toEqual(expected.toSorted());
  });
});
