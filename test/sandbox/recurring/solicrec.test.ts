/**
 * Confirmation requests over real HTTP (recurring spec 3.3): creation with the recurrence's
 * payload, the one-active-request rule, cancellation (answered 201) and its states, the payer's
 * answers and what they do to the recurrence, the idSolicRec formation rule.
 */
import { describe, expect, it } from 'vitest';
import { CNPJ, createRec, day, expectProblem, solicRecBody, useRecSandbox, type Json } from './support.ts';

const h = useRecSandbox();

async function request(idRec: string, overrides: Json = {}): Promise<Json> {
  const created = await h.call('POST', '/solicrec', solicRecBody(idRec, overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('POST /solicrec and GET /solicrec/{idSolicRec}', () => {
  it('creates a request CRIADA carrying the recurrence payload; fetches it; lists it on the recurrence', async () => {
    const rec = await createRec(h);
    const created = await request(rec.idRec);
    expect(created).toMatchObject({
      idRec: rec.idRec,
      status: 'CRIADA',
      destinatario: { conta: '550689', ispbParticipante: '91193552' },
      atualizacao: [{ status: 'CRIADA' }],
      recPayload: {
        idRec: rec.idRec,
        politicaRetentativa: 'PERMITE_3R_7D',
        recebedor: { ispbParticipante: '99999999' },
        vinculo: rec.vinculo,
      },
    });
    expect(created.idSolicRec).toMatch(new RegExp(`^SC99999999${day().replaceAll('-', '')}[a-zA-Z0-9]{11}$`));
    const got = await h.call('GET', `/solicrec/${created.idSolicRec}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);
    expect((await h.call('GET', `/rec/${rec.idRec}`)).body.solicitacao).toEqual([created]);
  });

  it('answers SolicRecNaoEncontrada for an unknown or malformed id, NaoEncontrado for an unknown recurrence', async () => {
    expectProblem(
      await h.call('GET', `/solicrec/SC99999999${day().replaceAll('-', '')}00000000000`),
      404,
      'SolicRecNaoEncontrada',
    );
    expectProblem(await h.call('GET', '/solicrec/x'), 404, 'SolicRecNaoEncontrada');
    expectProblem(
      await h.call('POST', '/solicrec', solicRecBody(`RR99999999${day().replaceAll('-', '')}00000000000`)),
      404,
      'NaoEncontrado',
    );
  });

  it.each<[string, (idRec: string) => Json, string[]]>([
    ['idRec out of shape', () => ({ idRec: 'R' }), ['solicrec.idRec']],
    ['no calendario', () => ({ calendario: undefined }), ['solicrec.calendario']],
    [
      'an expiry that is no date-time',
      () => ({ calendario: { dataExpiracaoSolicitacao: '2030-01-01' } }),
      ['solicrec.calendario'],
    ],
    [
      'an expiry before the creation',
      () => ({ calendario: { dataExpiracaoSolicitacao: new Date(Date.now() - 60_000).toISOString() } }),
      ['solicrec.calendario.dataExpiracaoSolicitacao'],
    ],
    ['no destinatario', () => ({ destinatario: undefined }), ['solicrec.destinatario']],
    [
      'cpf and cnpj',
      () => ({ destinatario: { conta: '1', ispbParticipante: '91193552', cpf: '12345678909', cnpj: CNPJ } }),
      ['solicrec.destinatario'],
    ],
    [
      'a bad ispbParticipante',
      () => ({ destinatario: { conta: '1', ispbParticipante: '9119', cpf: '12345678909' } }),
      ['solicrec.destinatario'],
    ],
    [
      'conta over 20',
      () => ({ destinatario: { conta: '1'.repeat(21), ispbParticipante: '91193552', cpf: '12345678909' } }),
      ['solicrec.destinatario'],
    ],
    [
      'agencia over 4',
      () => ({ destinatario: { conta: '1', agencia: '12345', ispbParticipante: '91193552', cpf: '12345678909' } }),
      ['solicrec.destinatario'],
    ],
  ])('refuses %s with SolicRecOperacaoInvalida', async (_name, overrides, properties) => {
    const { idRec } = await createRec(h);
    expectProblem(
      await h.call('POST', '/solicrec', solicRecBody(idRec, overrides(idRec))),
      400,
      'SolicRecOperacaoInvalida',
      properties,
    );
  });

  it('keeps one active request per recurrence; a cancelled one no longer counts', async () => {
    const { idRec } = await createRec(h);
    const first = await request(idRec);
    expectProblem(await h.call('POST', '/solicrec', solicRecBody(idRec)), 400, 'SolicRecOperacaoInvalida', [
      'solicrec.idRec',
    ]);
    await h.sandbox.answerSolicRec(first.idSolicRec, 'RECEBIDA');
    expectProblem(await h.call('POST', '/solicrec', solicRecBody(idRec)), 400, 'SolicRecOperacaoInvalida', [
      'solicrec.idRec',
    ]);
    await h.call('PATCH', `/solicrec/${first.idSolicRec}`, { status: 'CANCELADA' });
    await request(idRec);
  });

  it('refuses a request for a recurrence that is not CRIADA', async () => {
    const { idRec } = await createRec(h);
    await h.sandbox.approveRec(idRec);
    expectProblem(await h.call('POST', '/solicrec', solicRecBody(idRec)), 400, 'SolicRecOperacaoInvalida', [
      'solicrec.idRec',
    ]);
  });
});

describe('PATCH /solicrec/{idSolicRec}', () => {
  it('cancels a CRIADA, ENVIADA or RECEBIDA request, answering 201 with the request', async () => {
    const { idRec } = await createRec(h);
    const first = await request(idRec);
    const cancelled = await h.call('PATCH', `/solicrec/${first.idSolicRec}`, { status: 'CANCELADA' });
    expect(cancelled.status).toBe(201);
    expect(cancelled.body.status).toBe('CANCELADA');
    expect(cancelled.body.atualizacao.map((a: Json) => a.status)).toEqual(['CRIADA', 'CANCELADA']);
    const second = await request(idRec);
    await h.sandbox.answerSolicRec(second.idSolicRec, 'RECEBIDA');
    const fromReceived = await h.call('PATCH', `/solicrec/${second.idSolicRec}`, { status: 'CANCELADA' });
    expect(fromReceived.body.atualizacao.map((a: Json) => a.status)).toEqual([
      'CRIADA',
      'ENVIADA',
      'RECEBIDA',
      'CANCELADA',
    ]);
    // The recurrence is untouched.
    expect((await h.call('GET', `/rec/${idRec}`)).body.status).toBe('CRIADA');
  });

  it('refuses to cancel a request that is ACEITA, REJEITADA or CANCELADA, another status, and unknown ids', async () => {
    for (const answer of ['ACEITA', 'REJEITADA'] as const) {
      const { idRec } = await createRec(h);
      const { idSolicRec } = await request(idRec);
      await h.sandbox.answerSolicRec(idSolicRec, answer);
      expectProblem(
        await h.call('PATCH', `/solicrec/${idSolicRec}`, { status: 'CANCELADA' }),
        400,
        'SolicRecOperacaoInvalida',
        ['solicrec.status'],
      );
    }
    const { idRec } = await createRec(h);
    const { idSolicRec } = await request(idRec);
    expectProblem(
      await h.call('PATCH', `/solicrec/${idSolicRec}`, { status: 'ACEITA' }),
      400,
      'SolicRecOperacaoInvalida',
      ['solicrec.status'],
    );
    await h.call('PATCH', `/solicrec/${idSolicRec}`, { status: 'CANCELADA' });
    expectProblem(
      await h.call('PATCH', `/solicrec/${idSolicRec}`, { status: 'CANCELADA' }),
      400,
      'SolicRecOperacaoInvalida',
      ['solicrec.status'],
    );
    expectProblem(
      await h.call('PATCH', `/solicrec/SC99999999${day().replaceAll('-', '')}00000000000`, { status: 'CANCELADA' }),
      404,
      'SolicRecNaoEncontrada',
    );
    expectProblem(await h.call('PATCH', '/solicrec/bad', { status: 'CANCELADA' }), 400, 'SolicRecOperacaoInvalida', [
      'idSolicRec',
    ]);
  });

  it('cancelling the recurrence cancels its active request', async () => {
    const { idRec } = await createRec(h);
    const { idSolicRec } = await request(idRec);
    await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expect((await h.call('GET', `/solicrec/${idSolicRec}`)).body.status).toBe('CANCELADA');
  });
});

describe('the payer answers (answerSolicRec)', () => {
  it('ACEITA approves the recurrence by journey 1, the addressee as pagador', async () => {
    const { idRec } = await createRec(h);
    const { idSolicRec } = await request(idRec, {
      destinatario: { conta: '9', ispbParticipante: '12345678', cnpj: CNPJ },
    });
    const answered = await h.sandbox.answerSolicRec(idSolicRec, 'ACEITA');
    expect((answered.atualizacao as Json[]).map((a) => a.status)).toEqual(['CRIADA', 'ENVIADA', 'ACEITA']);
    const rec = (await h.call('GET', `/rec/${idRec}`)).body;
    expect(rec).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_1' },
      pagador: { ispbParticipante: '12345678', cnpj: CNPJ, codMun: '5300108' },
    });
    expect(rec.pagador.cpf).toBeUndefined();
  });

  it('REJEITADA rejects the recurrence (AP13)', async () => {
    const { idRec } = await createRec(h);
    const { idSolicRec } = await request(idRec);
    await h.sandbox.answerSolicRec(idSolicRec, 'REJEITADA');
    expect((await h.call('GET', `/rec/${idRec}`)).body).toMatchObject({
      status: 'REJEITADA',
      encerramento: { rejeicao: { codigo: 'AP13' } },
    });
  });

  it('answers only an active request', async () => {
    const { idRec } = await createRec(h);
    const { idSolicRec } = await request(idRec);
    await h.sandbox.answerSolicRec(idSolicRec, 'ACEITA');
    await expect(h.sandbox.answerSolicRec(idSolicRec, 'REJEITADA')).rejects.toMatchObject({
      errorType: 'SolicRecOperacaoInvalida',
    });
    await expect(h.sandbox.answerSolicRec('SC'.padEnd(29, '0'), 'ACEITA')).rejects.toMatchObject({
      errorType: 'SolicRecNaoEncontrada',
    });
    await expect(h.sandbox.answerSolicRec(idSolicRec, 'TALVEZ' as never)).rejects.toMatchObject({
      errorType: 'RequisicaoInvalida',
    });
  });
});
