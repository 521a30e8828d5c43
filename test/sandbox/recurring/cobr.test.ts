/**
 * Recurring charges over real HTTP: creation by PUT and POST, the receiving user's accounts,
 * the one-charge-per-cycle rule, cancellation before the first attempt's date, settlement by the
 * payer's side, and retries under each policy (recurring spec 3.4, 3.5, 3.6, 4.2, 7.3).
 */
import { describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../../src/lib/dates.ts';
import { generateTxid } from '../../../src/lib/ids.ts';
import { nextBusinessDay } from '../../../src/lib/calendar.ts';
import {
  CNPJ,
  CPF,
  approvedRec,
  cobrBody,
  createRec,
  day,
  expectProblem,
  range,
  recBody,
  startRecSandbox,
  useRecSandbox,
  type Json,
} from './support.ts';

const h = useRecSandbox();

/** A charge created by PUT for `idRec`, due `due`; its GET answer. */
async function charge(idRec: string, due: string, overrides: Json = {}): Promise<Json> {
  const txid = generateTxid();
  const created = await h.call('PUT', `/cobr/${txid}`, cobrBody(idRec, h.account, due, overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (await h.call('GET', `/cobr/${txid}`)).body;
}

/** The first Saturday on or after `from`. */
function saturdayFrom(from: string): string {
  let date = from;
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 6) date = addDays(date, 1);
  return date;
}

describe('PUT /cobr/{txid} and POST /cobr', () => {
  it('answers CRIADA (201); the payer side schedules it at once: ATIVA with an AGND attempt AGENDADA', async () => {
    const idRec = await approvedRec(h);
    const txid = generateTxid();
    const due = saturdayFrom(day(10));
    const created = await h.call(
      'PUT',
      `/cobr/${txid}`,
      cobrBody(idRec, h.account, due, {
        infoAdicional: 'Fatura 1',
        devedor: { email: 'f@example.com', cep: '70000000', uf: 'DF' },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      idRec,
      txid,
      status: 'CRIADA',
      calendario: { criacao: day(), dataDeVencimento: due },
      valor: { original: '29.90' },
      ajusteDiaUtil: true,
      infoAdicional: 'Fatura 1',
      recebedor: { ...h.account, cnpj: expect.any(String), nome: expect.any(String) },
      devedor: { email: 'f@example.com' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });
    const got = await h.call('GET', `/cobr/${txid}`);
    expect(got.body.status).toBe('ATIVA');
    expect(got.body.atualizacao.map((a: Json) => a.status)).toEqual(['CRIADA', 'ATIVA']);
    expect(got.body.tentativas).toEqual([
      {
        dataLiquidacao: nextBusinessDay(due), // a Saturday moves to Monday
        tipo: 'AGND',
        status: 'AGENDADA',
        endToEndId: expect.stringMatching(/^E99999999\d{12}[a-zA-Z0-9]{11}$/),
        atualizacao: [
          expect.objectContaining({ status: 'SOLICITADA' }),
          expect.objectContaining({ status: 'AGENDADA' }),
        ],
      },
    ]);
    expect(got.body.tentativas[0].dataLiquidacao).not.toBe(due);
    expect(got.body.instant).toEqual([]);
  });

  it('keeps a weekend due date without ajusteDiaUtil, and defaults ajusteDiaUtil to true', async () => {
    const due = saturdayFrom(day(10));
    const kept = await charge(await approvedRec(h), due, { ajusteDiaUtil: false });
    expect(kept.tentativas[0].dataLiquidacao).toBe(due);
    const defaulted = await charge(await approvedRec(h), due, { ajusteDiaUtil: undefined });
    expect(defaulted.ajusteDiaUtil).toBe(true);
  });

  it('POST /cobr chooses the txid', async () => {
    const created = await h.call('POST', '/cobr', cobrBody(await approvedRec(h), h.account, day(10)));
    expect(created.status).toBe(201);
    expect(created.body.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect((await h.call('GET', `/cobr/${created.body.txid}`)).status).toBe(200);
  });

  it.each<[string, Json, string[]]>([
    ['idRec out of shape', { idRec: 'R1' }, ['cobr.idRec']],
    ['infoAdicional over 140', { infoAdicional: 'i'.repeat(141) }, ['cobr.infoAdicional']],
    ["a status that is none of a charge's", { status: 'PAGA' }, ['cobr.status']],
    ['no calendario', { calendario: undefined }, ['cobr.calendario']],
    ['dataDeVencimento not a date', { calendario: { dataDeVencimento: '15/04/2030' } }, ['cobr.calendario']],
    [
      'dataDeVencimento before today',
      { calendario: { dataDeVencimento: day(-1) } },
      ['cobr.calendario.dataDeVencimento'],
    ],
    ['valor.original out of schema', { valor: { original: '10,00' } }, ['cobr.valor']],
    ['no valor', { valor: undefined }, ['cobr.valor']],
    ['ajusteDiaUtil not a boolean', { ajusteDiaUtil: 'sim' }, ['cobr.ajusteDiaUtil']],
    ['no recebedor', { recebedor: undefined }, ['cobr.recebedor']],
    ['tipoConta unknown', { recebedor: { conta: '1', tipoConta: 'POUPANÇA' } }, ['cobr.recebedor']],
    ['agencia over 4', { recebedor: { conta: '1', agencia: '12345', tipoConta: 'CORRENTE' } }, ['cobr.recebedor']],
    ['an account of someone else', { recebedor: { conta: '1', tipoConta: 'CORRENTE' } }, ['cobr.recebedor.conta']],
    ['devedor cep over 8', { devedor: { cep: '89256-140' } }, ['cobr.devedor']],
    ['devedor uf over 2', { devedor: { uf: 'DFX' } }, ['cobr.devedor']],
  ])('refuses %s with CobROperacaoInvalida', async (_name, overrides, properties) => {
    const idRec = await approvedRec(h);
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(idRec, h.account, day(10), overrides)),
      400,
      'CobROperacaoInvalida',
      properties,
    );
  });

  it('refuses a txid in use or out of shape, and a recurrence not APROVADA', async () => {
    const idRec = await approvedRec(h);
    const { txid } = await charge(idRec, day(10));
    expectProblem(
      await h.call('PUT', `/cobr/${txid}`, cobrBody(idRec, h.account, addMonths(day(10), 1))),
      400,
      'CobROperacaoInvalida',
      ['cobr.txid'],
    );
    expectProblem(
      await h.call('PUT', '/cobr/short', cobrBody(idRec, h.account, addMonths(day(10), 1))),
      400,
      'CobROperacaoInvalida',
      ['txid'],
    );
    const { idRec: created } = await createRec(h);
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(created, h.account, day(10))),
      400,
      'CobROperacaoInvalida',
      ['cobr.idRec'],
    );
  });

  it('answers an unknown recurrence with 404 on PUT (declared) and 400 on POST (no 404 declared)', async () => {
    const unknown = `RR99999999${day().replaceAll('-', '')}00000000000`;
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(unknown, h.account, day(10))),
      404,
      'NaoEncontrado',
    );
    expectProblem(await h.call('POST', '/cobr', cobrBody(unknown, h.account, day(10))), 400, 'CobROperacaoInvalida', [
      'cobr.idRec',
    ]);
  });
});

describe('one live charge per recurrence and cycle (3.6)', () => {
  it('counts cycles from dataInicial by the periodicity; a rejected or cancelled charge frees its cycle', async () => {
    const idRec = await approvedRec(h, { calendario: { dataInicial: day(10), periodicidade: 'MENSAL' } });
    const first = await charge(idRec, day(12));
    const lastOfCycle = addDays(addMonths(day(10), 1), -1);
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(idRec, h.account, day(10))),
      400,
      'CobROperacaoInvalida',
      ['cobr.calendario.dataDeVencimento'],
    );
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(idRec, h.account, lastOfCycle)),
      400,
      'CobROperacaoInvalida',
      ['cobr.calendario.dataDeVencimento'],
    );
    await charge(idRec, addMonths(day(10), 1)); // the next cycle starts here
    await h.sandbox.settleCobr(first.txid, 'REJEITADA', { codigo: 'AC05' });
    await charge(idRec, day(11)); // first cycle free again
  });

  it('uses weeks for SEMANAL and years for ANUAL', async () => {
    const weekly = await approvedRec(h, { calendario: { dataInicial: day(1), periodicidade: 'SEMANAL' } });
    await charge(weekly, day(1));
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(weekly, h.account, day(7))),
      400,
      'CobROperacaoInvalida',
      ['cobr.calendario.dataDeVencimento'],
    );
    await charge(weekly, day(8));
    const yearly = await approvedRec(h, { calendario: { dataInicial: day(1), periodicidade: 'ANUAL' } });
    const { txid } = await charge(yearly, day(300));
    expectProblem(
      await h.call('PUT', `/cobr/${generateTxid()}`, cobrBody(yearly, h.account, day(2))),
      400,
      'CobROperacaoInvalida',
      ['cobr.calendario.dataDeVencimento'],
    );
    expect((await h.call('PATCH', `/cobr/${txid}`, { status: 'CANCELADA' })).status).toBe(200);
    await charge(yearly, day(2));
  });
});

describe('GET /cobr/{txid} and GET /cobr', () => {
  it('answers CobRNaoEncontrado and CobRConsultaInvalida', async () => {
    expectProblem(await h.call('GET', `/cobr/${generateTxid()}`), 404, 'CobRNaoEncontrado');
    expectProblem(await h.call('GET', '/cobr/bad'), 400, 'CobRConsultaInvalida', ['txid']);
  });

  it('lists with the filters of 2.8 and pages', async () => {
    const idRec = await approvedRec(h, {
      vinculo: { contrato: 'F', devedor: { cnpj: CNPJ, nome: 'Lista SA' } },
      recebedor: { convenio: 'cobr-list' },
    });
    const a = await charge(idRec, day(10));
    const listed = await h.call('GET', `/cobr?${range()}&idRec=${idRec}&cnpj=${CNPJ}&status=ATIVA&convenio=cobr-list`);
    expect(listed.status).toBe(200);
    expect(listed.body.cobsr.map((c: Json) => c.txid)).toEqual([a.txid]);
    expect(listed.body.cobsr[0].tentativas).toHaveLength(1);
    expect(listed.body.parametros).toMatchObject({
      idRec,
      cnpj: CNPJ,
      status: 'ATIVA',
      recebedor: { convenio: 'cobr-list' },
    });
    expect((await h.call('GET', `/cobr?${range()}&idRec=${idRec}&cpf=${CPF}`)).body.cobsr).toEqual([]);
  });

  it.each<[string, string, string[]]>([
    ['idRec out of shape', `${range()}&idRec=abc`, ['idRec']],
    ['fim before inicio', 'inicio=2030-01-02T00:00:00Z&fim=2030-01-01T00:00:00Z', ['fim']],
    ['cpf and cnpj', `${range()}&cpf=${CPF}&cnpj=${CNPJ}`, ['cpf']],
    ['a negative page', `${range()}&paginacao.paginaAtual=-2`, ['paginacao.paginaAtual']],
    ['a negative page size', `${range()}&paginacao.itensPorPagina=-5`, ['paginacao.itensPorPagina']],
  ])('refuses %s with CobRConsultaInvalida', async (_name, query, properties) => {
    expectProblem(await h.call('GET', `/cobr?${query}`), 400, 'CobRConsultaInvalida', properties);
  });
});

describe('PATCH /cobr/{txid}', () => {
  it('cancels before the first attempt date: the attempt is cancelled too; once is enough', async () => {
    const { txid } = await charge(await approvedRec(h), day(10));
    const cancelled = await h.call('PATCH', `/cobr/${txid}`, { status: 'CANCELADA' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'CANCELADA',
      encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } },
    });
    expect((await h.call('GET', `/cobr/${txid}`)).body.tentativas[0].status).toBe('CANCELADA');
    expectProblem(await h.call('PATCH', `/cobr/${txid}`, { status: 'CANCELADA' }), 400, 'CobROperacaoInvalida', [
      'cobr.status',
    ]);
  });

  it('refuses on or after the expected date of the first attempt, another status, an unknown or malformed txid', async () => {
    const { txid } = await charge(
      await approvedRec(h, { calendario: { dataInicial: day(0), periodicidade: 'MENSAL' } }),
      day(0),
      { ajusteDiaUtil: false },
    );
    expectProblem(await h.call('PATCH', `/cobr/${txid}`, { status: 'CANCELADA' }), 400, 'CobROperacaoInvalida', [
      'cobr.status',
    ]);
    expectProblem(await h.call('PATCH', `/cobr/${txid}`, { status: 'REMOVIDA' }), 400, 'CobROperacaoInvalida', [
      'cobr.status',
    ]);
    expectProblem(await h.call('PATCH', `/cobr/${generateTxid()}`, { status: 'CANCELADA' }), 404, 'CobRNaoEncontrado');
    expectProblem(await h.call('PATCH', '/cobr/x', { status: 'CANCELADA' }), 400, 'CobROperacaoInvalida', ['txid']);
  });

  it('cancelling the recurrence cancels its live charges, not the concluded ones', async () => {
    const idRec = await approvedRec(h);
    const paid = await charge(idRec, day(10));
    await h.sandbox.settleCobr(paid.txid, 'PAGA');
    const live = await charge(idRec, addMonths(day(10), 1));
    await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expect((await h.call('GET', `/cobr/${live.txid}`)).body.status).toBe('CANCELADA');
    expect((await h.call('GET', `/cobr/${paid.txid}`)).body.status).toBe('CONCLUIDA');
  });
});

describe('settlement and retries (3.5)', () => {
  it('PAGA concludes the charge with a received payment under the attempt e2eid', async () => {
    const { txid } = await charge(await approvedRec(h), day(10));
    const settled = await h.sandbox.settleCobr(txid, 'PAGA');
    expect(settled).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'PAGA' }] });
    const got = (await h.call('GET', `/cobr/${txid}`)).body;
    expect(got.instant).toEqual([
      { endToEndId: got.tentativas[0].endToEndId, txid, valor: '29.90', horario: expect.any(String) },
    ]);
    await expect(h.sandbox.settleCobr(txid, 'PAGA')).rejects.toMatchObject({ errorType: 'CobROperacaoInvalida' });
    await expect(h.sandbox.settleCobr(generateTxid(), 'PAGA')).rejects.toMatchObject({
      errorType: 'CobRNaoEncontrado',
    });
    await expect(h.sandbox.settleCobr(txid, 'REJEITADA', { codigo: 'XXXX' })).rejects.toMatchObject({
      errorType: 'RequisicaoInvalida',
    });
  });

  it('PERMITE_3R_7D: a rejected attempt leaves the charge ATIVA; up to 3 retries within 7 days of the due date', async () => {
    const due = day(10);
    const { txid } = await charge(await approvedRec(h), due, { ajusteDiaUtil: false });
    const rejected = await h.sandbox.settleCobr(txid, 'REJEITADA');
    expect(rejected).toMatchObject({
      status: 'ATIVA',
      tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AM02', descricao: expect.any(String) } }],
    });
    const retried = await h.call('POST', `/cobr/${txid}/retentativa/${day(11)}`);
    expect(retried.status).toBe(201);
    expect(retried.body.tentativas).toHaveLength(2);
    expect(retried.body.tentativas[1]).toMatchObject({ tipo: 'NTAG', status: 'AGENDADA', dataLiquidacao: day(11) });
    expect(retried.body.tentativas[1].endToEndId).not.toBe(retried.body.tentativas[0].endToEndId);
    // One attempt pending: no other.
    expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/${day(12)}`), 400, 'CobROperacaoInvalida', [
      'cobr.tentativas',
    ]);
    await h.sandbox.settleCobr(txid, 'REJEITADA', { codigo: 'AM02' });
    expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/${day(18)}`), 400, 'CobROperacaoInvalida', ['data']); // due + 8
    expect((await h.call('POST', `/cobr/${txid}/retentativa/${day(17)}`)).status).toBe(201); // due + 7
    await h.sandbox.settleCobr(txid, 'REJEITADA', { codigo: 'AB10' });
    expect((await h.call('POST', `/cobr/${txid}/retentativa/${day(13)}`)).status).toBe(201); // the third retry
    const lastRejected = await h.sandbox.settleCobr(txid, 'REJEITADA', { codigo: 'AB10' });
    // Retries exhausted: the charge can no longer be paid.
    expect(lastRejected.status).toBe('EXPIRADA');
    expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/${day(14)}`), 400, 'CobROperacaoInvalida', [
      'cobr.status',
      'cobr.tentativas',
    ]);
  });

  it('a retried attempt can be paid', async () => {
    const { txid } = await charge(await approvedRec(h), day(10));
    await h.sandbox.settleCobr(txid, 'REJEITADA');
    await h.call('POST', `/cobr/${txid}/retentativa/${day(12)}`);
    const paid = await h.sandbox.settleCobr(txid, 'PAGA');
    expect(paid.status).toBe('CONCLUIDA');
    expect((paid.tentativas as Json[]).map((t) => `${t.tipo}:${t.status}`)).toEqual(['AGND:REJEITADA', 'NTAG:PAGA']);
  });

  it('a code that rejects the charge makes it REJEITADA with encerramento.rejeicao; no retry then', async () => {
    for (const codigo of ['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09']) {
      const { txid } = await charge(await approvedRec(h), day(10));
      const rejected = await h.sandbox.settleCobr(txid, 'REJEITADA', { codigo });
      expect(rejected).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo } } });
      expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/${day(11)}`), 400, 'CobROperacaoInvalida', [
        'cobr.status',
      ]);
    }
  });

  it('NAO_PERMITE refuses every retry; after a rejected attempt the charge expires', async () => {
    const idRec = await approvedRec(h, { politicaRetentativa: 'NAO_PERMITE' });
    expect(idRec[1]).toBe('N');
    const { txid } = await charge(idRec, day(10));
    const rejected = await h.sandbox.settleCobr(txid, 'REJEITADA', { codigo: 'AM02' });
    expect(rejected.status).toBe('EXPIRADA');
    expect(rejected.politicaRetentativa).toBe('NAO_PERMITE');
    const refused = await h.call('POST', `/cobr/${txid}/retentativa/${day(11)}`);
    expectProblem(refused, 400, 'CobROperacaoInvalida', ['cobr.politicaRetentativa', 'cobr.status']);
  });

  it.each<[string, () => string, string[]]>([
    ['a date that is not future', () => day(0), ['data']],
    ['a date in the past', () => day(-3), ['data']],
    ['a date out of shape', () => '2030-13-01', ['data']],
  ])('refuses a retry on %s', async (_name, date, properties) => {
    const { txid } = await charge(await approvedRec(h), day(10));
    await h.sandbox.settleCobr(txid, 'REJEITADA');
    expectProblem(await h.call('POST', `/cobr/${txid}/retentativa/${date()}`), 400, 'CobROperacaoInvalida', properties);
  });

  it('answers CobRNaoEncontrado for a retry of an unknown charge, 400 for a malformed txid', async () => {
    expectProblem(await h.call('POST', `/cobr/${generateTxid()}/retentativa/${day(3)}`), 404, 'CobRNaoEncontrado');
    expectProblem(await h.call('POST', `/cobr/bad/retentativa/${day(3)}`), 400, 'CobROperacaoInvalida', ['txid']);
  });
});

describe('the receiving user accounts', () => {
  it('defaults to one generated account, exposed as sandbox.ownAccounts', () => {
    expect(h.sandbox.ownAccounts).toEqual([
      { conta: expect.stringMatching(/^\d{8}$/), agencia: '0001', tipoConta: 'CORRENTE' },
    ]);
  });

  it('takes the accounts given: conta and agencia must match one of them', async () => {
    const accounts = [
      { conta: '12345', agencia: '0001', tipoConta: 'CORRENTE' as const },
      { conta: '777', tipoConta: 'PAGAMENTO' as const },
    ];
    const own = await startRecSandbox({ ownAccounts: accounts });
    try {
      expect(own.sandbox.ownAccounts).toEqual(accounts);
      const { idRec } = (await own.call('POST', '/rec', recBody())).body;
      await own.sandbox.approveRec(idRec);
      const put = (recebedor: Json, due: string) =>
        own.call('PUT', `/cobr/${generateTxid()}`, cobrBody(idRec, accounts[0]!, due, { recebedor }));
      expectProblem(await put({ conta: '12345', tipoConta: 'CORRENTE' }, day(10)), 400, 'CobROperacaoInvalida', [
        'cobr.recebedor.conta',
      ]);
      expectProblem(
        await put({ conta: '777', agencia: '0001', tipoConta: 'PAGAMENTO' }, day(10)),
        400,
        'CobROperacaoInvalida',
        ['cobr.recebedor.conta'],
      );
      expect((await put({ conta: '777', tipoConta: 'PAGAMENTO' }, day(10))).status).toBe(201);
      expect(
        (await put({ conta: '12345', agencia: '0001', tipoConta: 'CORRENTE' }, addMonths(day(10), 1))).status,
      ).toBe(201);
    } finally {
      await own.sandbox.close();
    }
  });
});
