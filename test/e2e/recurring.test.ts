/**
 * Every endpoint of the recurring spec's section 4 through the SDK against a sandbox over real
 * HTTP on 127.0.0.1: its success, then each error of section 7 it can answer, judged by the
 * sandbox (`validate: false` where the client would refuse first; the sandbox's verdict is what
 * is tested here: `test/recurring/parity.test.ts` shows the client refuses alike).
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CobRConsultaInvalida,
  CobRNaoEncontrado,
  CobROperacaoInvalida,
  NaoEncontrado,
  PayloadLocationRecConsultaInvalida,
  PayloadLocationRecNaoEncontrado,
  RecConsultaInvalida,
  RecNaoEncontrada,
  RecOperacaoInvalida,
  RecPayloadNaoEncontrado,
  RecPayloadOperacaoInvalida,
  SolicRecNaoEncontrada,
  SolicRecOperacaoInvalida,
  WebhookCobRConsultaInvalida,
  WebhookCobROperacaoInvalida,
  WebhookRecConsultaInvalida,
  WebhookRecOperacaoInvalida,
  addDays,
  brcode,
  generateTxid,
  path,
  todayInBrasilia,
  type ApiErrorClass,
  type CobRSolicitada,
  type RecSolicitada,
  type SolicRecSolicitada,
} from '../../src/index.ts';
import { aroundNow, useSandbox } from './harness.ts';

const s = useSandbox();
const off = { validate: false } as const;
const day = (n: number) => addDays(todayInBrasilia(), n);
const CPF = '12345678909';
const UNKNOWN_ID = 'RR1234567820240115abcdefghijk';

const recBody = (patch: Partial<RecSolicitada> = {}): RecSolicitada => ({
  vinculo: { contrato: 'C-7', objeto: 'Plano mensal', devedor: { cpf: CPF, nome: 'Fulano de Tal' } },
  calendario: { dataInicial: day(3), periodicidade: 'MENSAL' },
  valor: { valorRec: '29.90' },
  politicaRetentativa: 'PERMITE_3R_7D',
  ...patch,
});
const cobrBody = (idRec: string, due = day(10), patch: Partial<CobRSolicitada> = {}): CobRSolicitada => ({
  idRec,
  calendario: { dataDeVencimento: due },
  valor: { original: '29.90' },
  recebedor: { ...s.sandbox.ownAccounts[0]! },
  ...patch,
});
const solicRecBody = (idRec: string): SolicRecSolicitada => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 86_400_000).toISOString() },
  destinatario: { conta: '550689', agencia: '2569', cpf: CPF, ispbParticipante: '91193552' },
});

const newRec = async (patch: Partial<RecSolicitada> = {}) => (await s.api.rec.create(recBody(patch))).idRec;
/** A recurrence the payer approved (journey 1). */
async function approvedRec(patch: Partial<RecSolicitada> = {}): Promise<string> {
  const idRec = await newRec(patch);
  await s.sandbox.approveRec(idRec);
  return idRec;
}
/** A recurring charge (ATIVA, its first attempt scheduled) under a new approved recurrence. */
async function newCharge(
  recPatch: Partial<RecSolicitada> = {},
  due = day(10),
): Promise<{ idRec: string; txid: string }> {
  const idRec = await approvedRec(recPatch);
  const txid = generateTxid();
  await s.api.cobr.create(txid, cobrBody(idRec, due, { ajusteDiaUtil: false }));
  return { idRec, txid };
}

/** The error `promise` rejects with, after the sandbox answered it (never a client-side refusal). */
async function answered(promise: PromiseLike<unknown>): Promise<ApiError> {
  const error: unknown = await Promise.resolve(promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).sentRequest).toBe(true);
  return error as ApiError;
}

type ErrorRow = [
  endpoint: string,
  why: string,
  run: () => PromiseLike<unknown>,
  ErrorClass: ApiErrorClass,
  status: number,
  propriedades: string[],
];

describe('recurrences: POST /rec, GET /rec/{idRec}, PATCH /rec/{idRec}, GET /rec', () => {
  it('creates (201, CRIADA, idRec of the formation rule), fetches with dadosQR, revises, cancels and lists', async () => {
    const loc = await s.api.locrec.create();
    const created = await s.api.rec.create(recBody({ loc: loc.id, recebedor: { convenio: 'conv-7' } })).withResponse();
    expect(created.response.status).toBe(201);
    const { idRec } = created.data;
    expect(created.data).toMatchObject({
      status: 'CRIADA',
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
      loc: { id: loc.id },
    });
    expect(idRec).toMatch(/^RR[0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/);

    const fetched = await s.api.rec.get(idRec);
    expect(fetched.dadosQR?.jornada).toBe('JORNADA_2');
    expect(brcode.parse(fetched.dadosQR?.instantCopiaECola ?? '').recurrenceUrl).toBe(loc.location);

    const revised = await s.api.rec
      .update(idRec, { calendario: { dataInicial: day(4) }, vinculo: { devedor: { nome: 'Fulana de Tal' } } })
      .withResponse();
    expect(revised.response.status).toBe(200);
    expect(revised.data).toMatchObject({
      calendario: { dataInicial: day(4) },
      vinculo: { devedor: { nome: 'Fulana de Tal' } },
    });

    const listed = [];
    for await (const rec of s.api.rec.list({ ...aroundNow(), cpf: CPF, convenio: 'conv-7', locationPresente: true }))
      listed.push(rec.idRec);
    expect(listed).toEqual([idRec]);

    expect((await s.api.rec.cancel(idRec)).status).toBe('CANCELADA');
    expect((await s.api.rec.get(idRec)).encerramento?.cancelamento).toMatchObject({
      solicitante: 'USUARIO_RECEBEDOR',
      codigo: 'SLCR',
    });
  });

  it('GET /rec/{idRec}?txid gives the composite code of journeys 3 and 4', async () => {
    const cobTxid = generateTxid();
    const cob = await s.api.cob.create(cobTxid, {
      calendario: { expiracao: 3600 },
      valor: { original: '9.90' },
      chave: s.receiverKey,
    });
    const cobvTxid = generateTxid();
    const cobv = await s.api.cobv.create(cobvTxid, {
      calendario: { dataDeVencimento: day(5) },
      devedor: { cpf: CPF, nome: 'Fulano de Tal' },
      valor: { original: '99.00' },
      chave: s.receiverKey,
    });
    const loc = await s.api.locrec.create();
    const idRec = await newRec({ loc: loc.id, ativacao: { dadosJornada: { txid: cobTxid } } });
    const three = (await s.api.rec.get(idRec, { txid: cobTxid })).dadosQR!;
    expect(three.jornada).toBe('JORNADA_3');
    expect(brcode.parse(three.instantCopiaECola)).toMatchObject({ url: cob.location, recurrenceUrl: loc.location });
    const four = (await s.api.rec.get(idRec, { txid: cobvTxid })).dadosQR!;
    expect(four.jornada).toBe('JORNADA_4');
    expect(brcode.parse(four.instantCopiaECola)).toMatchObject({ url: cobv.location, recurrenceUrl: loc.location });
  });

  const rows: ErrorRow[] = [
    [
      'POST /rec',
      'a vinculo out of schema',
      () => s.api.rec.create(recBody({ vinculo: { contrato: 'x'.repeat(36), devedor: { cpf: CPF, nome: 'A' } } }), off),
      RecOperacaoInvalida,
      400,
      ['rec.vinculo'],
    ],
    [
      'POST /rec',
      'dataInicial before the creation date',
      () => s.api.rec.create(recBody({ calendario: { dataInicial: day(-3), periodicidade: 'MENSAL' } }), off),
      RecOperacaoInvalida,
      400,
      ['rec.calendario.dataInicial'],
    ],
    [
      'POST /rec',
      'dataFinal before dataInicial',
      () =>
        s.api.rec.create(
          recBody({ calendario: { dataInicial: day(3), dataFinal: day(2), periodicidade: 'MENSAL' } }),
          off,
        ),
      RecOperacaoInvalida,
      400,
      ['rec.calendario.dataFinal'],
    ],
    [
      'POST /rec',
      'periodicidade out of schema',
      () => s.api.rec.create(recBody({ calendario: { dataInicial: day(3), periodicidade: 'DIARIA' as never } }), off),
      RecOperacaoInvalida,
      400,
      ['rec.calendario.periodicidade'],
    ],
    [
      'POST /rec',
      'valor out of schema',
      () => s.api.rec.create(recBody({ valor: 'x' as never }), off),
      RecOperacaoInvalida,
      400,
      ['rec.valor'],
    ],
    [
      'POST /rec',
      'valorRec out of schema',
      () => s.api.rec.create(recBody({ valor: { valorRec: '1' } }), off),
      RecOperacaoInvalida,
      400,
      ['rec.valor.valorRec'],
    ],
    [
      'POST /rec',
      'valorMinimoRecebedor out of schema',
      () => s.api.rec.create(recBody({ valor: { valorMinimoRecebedor: '1' } }), off),
      RecOperacaoInvalida,
      400,
      ['rec.valor.valorMinimoRecebedor'],
    ],
    [
      'POST /rec',
      'both amounts filled',
      () => s.api.rec.create(recBody({ valor: { valorRec: '1.00', valorMinimoRecebedor: '1.00' } as never }), off),
      RecOperacaoInvalida,
      400,
      ['rec.valor.valorMinimoRecebedor'],
    ],
    [
      'POST /rec',
      'recebedor out of schema',
      () => s.api.rec.create(recBody({ recebedor: { convenio: 'x'.repeat(61) } }), off),
      RecOperacaoInvalida,
      400,
      ['rec.recebedor'],
    ],
    [
      'POST /rec',
      'politicaRetentativa out of schema',
      () => s.api.rec.create(recBody({ politicaRetentativa: 'SEMPRE' as never }), off),
      RecOperacaoInvalida,
      400,
      ['rec.politicaRetentativa'],
    ],
    [
      'POST /rec',
      'a location that does not exist',
      () => s.api.rec.create(recBody({ loc: 987_654 })),
      RecOperacaoInvalida,
      400,
      ['rec.loc'],
    ],
    [
      'POST /rec',
      'a location used by another recurrence',
      async () => {
        const { id } = await s.api.locrec.create();
        await newRec({ loc: id });
        return s.api.rec.create(recBody({ loc: id }));
      },
      RecOperacaoInvalida,
      400,
      ['rec.loc'],
    ],
    ['GET /rec/{idRec}', 'no recurrence', () => s.api.rec.get(UNKNOWN_ID), RecNaoEncontrada, 404, []],
    [
      'GET /rec/{idRec}',
      'a due-date charge for a journey-3 recurrence',
      async () => {
        const cobTxid = generateTxid();
        await s.api.cob.create(cobTxid, {
          calendario: { expiracao: 3600 },
          valor: { original: '9.90' },
          chave: s.receiverKey,
        });
        const idRec = await newRec({ ativacao: { dadosJornada: { txid: cobTxid } } });
        await s.sandbox.approveRec(idRec, { jornada: 'JORNADA_3' });
        const cobvTxid = generateTxid();
        await s.api.cobv.create(cobvTxid, {
          calendario: { dataDeVencimento: day(5) },
          devedor: { cpf: CPF, nome: 'A B' },
          valor: { original: '9.90' },
          chave: s.receiverKey,
        });
        return s.api.rec.get(idRec, { txid: cobvTxid });
      },
      RecConsultaInvalida,
      400,
      ['txid'],
    ],
    [
      'GET /rec/{idRec}',
      'an immediate charge other than dadosJornada.txid',
      async () => {
        const [named, other] = [generateTxid(), generateTxid()];
        for (const txid of [named, other])
          await s.api.cob.create(txid, {
            calendario: { expiracao: 3600 },
            valor: { original: '9.90' },
            chave: s.receiverKey,
          });
        return s.api.rec.get(await newRec({ ativacao: { dadosJornada: { txid: named } } }), { txid: other });
      },
      RecConsultaInvalida,
      400,
      ['txid'],
    ],
    ['PATCH /rec/{idRec}', 'no recurrence', () => s.api.rec.cancel(UNKNOWN_ID), RecNaoEncontrada, 404, []],
    [
      'PATCH /rec/{idRec}',
      'a status other than CANCELADA',
      async () => s.api.rec.update(await newRec(), { status: 'APROVADA' as never }, off),
      RecOperacaoInvalida,
      400,
      ['rec.status'],
    ],
    [
      'PATCH /rec/{idRec}',
      'dataInicial before the creation date',
      async () => s.api.rec.update(await newRec(), { calendario: { dataInicial: day(-1) } }),
      RecOperacaoInvalida,
      400,
      ['rec.calendario.dataInicial'],
    ],
    [
      'PATCH /rec/{idRec}',
      'a location that does not exist',
      async () => s.api.rec.update(await newRec(), { loc: 987_654 }),
      RecOperacaoInvalida,
      400,
      ['rec.loc'],
    ],
    [
      'PATCH /rec/{idRec}',
      'a cancelled recurrence',
      async () => {
        const idRec = await newRec();
        await s.api.rec.cancel(idRec);
        return s.api.rec.update(idRec, { vinculo: { devedor: { nome: 'Outro Nome' } } });
      },
      RecOperacaoInvalida,
      400,
      ['rec.status'],
    ],
    [
      'PATCH /rec/{idRec}',
      'loc changed while APROVADA',
      async () => s.api.rec.update(await approvedRec(), { loc: (await s.api.locrec.create()).id }),
      RecOperacaoInvalida,
      400,
      ['rec.loc'],
    ],
    [
      'PATCH /rec/{idRec}',
      'dataInicial changed while APROVADA',
      async () => s.api.rec.update(await approvedRec(), { calendario: { dataInicial: day(20) } }),
      RecOperacaoInvalida,
      400,
      ['rec.calendario.dataInicial'],
    ],
    [
      'PATCH /rec/{idRec}',
      'dadosJornada.txid changed while REJEITADA',
      async () => {
        const idRec = await newRec();
        await s.sandbox.rejectRec(idRec);
        return s.api.rec.update(idRec, { ativacao: { dadosJornada: { txid: generateTxid() } } });
      },
      RecOperacaoInvalida,
      400,
      ['rec.status'],
    ],
    [
      'GET /rec',
      'fim before inicio',
      () => s.api.rec.list({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, off),
      RecConsultaInvalida,
      400,
      ['fim'],
    ],
    [
      'GET /rec',
      'cpf and cnpj',
      () => s.api.rec.list({ ...aroundNow(), cpf: CPF, cnpj: '11222333000181' }, off),
      RecConsultaInvalida,
      400,
      ['cpf'],
    ],
    [
      'GET /rec',
      'a negative page',
      () => s.api.rec.list({ ...aroundNow(), paginacao: { paginaAtual: -1 } }, off),
      RecConsultaInvalida,
      400,
      ['paginacao.paginaAtual'],
    ],
    [
      'GET /rec',
      'a parameter out of schema',
      () => s.api.rec.list({ ...aroundNow(), paginacao: { itensPorPagina: -1 } }, off),
      RecConsultaInvalida,
      400,
      ['paginacao.itensPorPagina'],
    ],
  ];

  it.each(rows)('%s: %s', async (_endpoint, _why, run, ErrorClass, status, propriedades) => {
    const error = await answered(run());
    expect(error).toBeInstanceOf(ErrorClass);
    expect({
      status: error.status,
      propriedades: [...new Set(error.violacoes.map((v) => v.propriedade))].sort(),
    }).toEqual({ status, propriedades });
  });
});

describe('confirmation requests: POST /solicrec, GET and PATCH /solicrec/{idSolicRec}', () => {
  it('creates (201, with the recurrence payload), fetches, and cancels (201); an accepted one approves the recurrence', async () => {
    const idRec = await newRec();
    const created = await s.api.solicrec.create(solicRecBody(idRec)).withResponse();
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({
      idRec,
      status: 'CRIADA',
      recPayload: { idRec, recebedor: { ispbParticipante: expect.any(String) } },
    });
    expect(created.data.idSolicRec).toMatch(/^SC[0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/);
    expect((await s.api.solicrec.get(created.data.idSolicRec)).status).toBe('CRIADA');
    const cancelled = await s.api.solicrec.cancel(created.data.idSolicRec).withResponse();
    expect(cancelled.response.status).toBe(201);
    expect(cancelled.data.status).toBe('CANCELADA');

    const { idSolicRec } = await s.api.solicrec.create(solicRecBody(idRec));
    await s.sandbox.answerSolicRec(idSolicRec, 'ACEITA');
    expect(await s.api.rec.get(idRec)).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_1' },
      pagador: { cpf: CPF },
    });
  });

  const rows: ErrorRow[] = [
    [
      'POST /solicrec',
      'calendario out of schema',
      async () =>
        s.api.solicrec.create(
          { ...solicRecBody(await newRec()), calendario: { dataExpiracaoSolicitacao: 'amanhã' } },
          off,
        ),
      SolicRecOperacaoInvalida,
      400,
      ['solicrec.calendario'],
    ],
    [
      'POST /solicrec',
      'an expiry before the creation',
      async () =>
        s.api.solicrec.create(
          { ...solicRecBody(await newRec()), calendario: { dataExpiracaoSolicitacao: `${day(-2)}T12:00:00Z` } },
          off,
        ),
      SolicRecOperacaoInvalida,
      400,
      ['solicrec.calendario.dataExpiracaoSolicitacao'],
    ],
    [
      'POST /solicrec',
      'destinatario out of schema',
      async () =>
        s.api.solicrec.create(
          { ...solicRecBody(await newRec()), destinatario: { conta: '1', ispbParticipante: '1' } as never },
          off,
        ),
      SolicRecOperacaoInvalida,
      400,
      ['solicrec.destinatario'],
    ],
    [
      'POST /solicrec',
      'an active request for the same recurrence',
      async () => {
        const idRec = await newRec();
        await s.api.solicrec.create(solicRecBody(idRec));
        return s.api.solicrec.create(solicRecBody(idRec));
      },
      SolicRecOperacaoInvalida,
      400,
      ['solicrec.idRec'],
    ],
    [
      'POST /solicrec',
      'no such recurrence (the declared 404)',
      () => s.api.solicrec.create(solicRecBody(UNKNOWN_ID)),
      NaoEncontrado,
      404,
      [],
    ],
    [
      'GET /solicrec/{idSolicRec}',
      'no request',
      () => s.api.solicrec.get('SC123456782024011577825445612'),
      SolicRecNaoEncontrada,
      404,
      [],
    ],
    [
      'GET /solicrec/{idSolicRec}',
      'an id out of schema',
      () => s.api.solicrec.get('SC1', off),
      SolicRecNaoEncontrada,
      404,
      ['idSolicRec'],
    ],
    [
      'PATCH /solicrec/{idSolicRec}',
      'a request no longer CRIADA, ENVIADA or RECEBIDA',
      async () => {
        const { idSolicRec } = await s.api.solicrec.create(solicRecBody(await newRec()));
        await s.sandbox.answerSolicRec(idSolicRec, 'REJEITADA');
        return s.api.solicrec.cancel(idSolicRec);
      },
      SolicRecOperacaoInvalida,
      400,
      ['solicrec.status'],
    ],
    [
      'PATCH /solicrec/{idSolicRec}',
      'no request',
      () => s.api.solicrec.cancel('SC123456782024011577825445612'),
      SolicRecNaoEncontrada,
      404,
      [],
    ],
  ];

  it.each(rows)('%s: %s', async (_endpoint, _why, run, ErrorClass, status, propriedades) => {
    const error = await answered(run());
    expect(error).toBeInstanceOf(ErrorClass);
    expect({
      status: error.status,
      propriedades: [...new Set(error.violacoes.map((v) => v.propriedade))].sort(),
    }).toEqual({ status, propriedades });
  });
});

describe('recurring charges: PUT and POST /cobr, PATCH and GET /cobr/{txid}, GET /cobr, POST /cobr/{txid}/retentativa/{data}', () => {
  it('creates by PUT and by POST (201, CRIADA), fetches with its attempt, lists, cancels, and retries after a rejected attempt', async () => {
    const idRec = await approvedRec();
    const txid = generateTxid();
    const put = await s.api.cobr
      .create(
        txid,
        cobrBody(idRec, day(10), {
          infoAdicional: 'Plano, mês 1',
          devedor: { email: 'fulano@example.com', cep: '89256-140' },
        }),
      )
      .withResponse();
    expect(put.response.status).toBe(201);
    expect(put.data).toMatchObject({
      txid,
      idRec,
      status: 'CRIADA',
      ajusteDiaUtil: true,
      devedor: { cep: '89256140' },
      calendario: { criacao: todayInBrasilia() },
    });
    const posted = await s.api.cobr.create(cobrBody(idRec, addDays(day(10), 31))).withResponse();
    expect(posted.response.status).toBe(201);
    expect(posted.data.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);

    const fetched = await s.api.cobr.get(txid);
    expect(fetched).toMatchObject({
      status: 'ATIVA',
      politicaRetentativa: 'PERMITE_3R_7D',
      tentativas: [{ tipo: 'AGND', status: 'AGENDADA' }],
    });
    const listed = [];
    for await (const charge of s.api.cobr.list({
      ...aroundNow(),
      idRec,
      status: 'ATIVA',
      paginacao: { itensPorPagina: 1 },
    }))
      listed.push(charge.txid);
    expect(listed.sort()).toEqual([txid, posted.data.txid].sort());

    const cancelled = await s.api.cobr.cancel(posted.data.txid).withResponse();
    expect(cancelled.response.status).toBe(200);
    expect(cancelled.data.status).toBe('CANCELADA');

    await s.sandbox.settleCobr(txid, 'REJEITADA');
    const retried = await s.api.cobr.retry(txid, addDays(day(10), 2)).withResponse();
    expect(retried.response.status).toBe(201);
    expect(retried.data.tentativas?.map((t) => `${t.tipo}:${t.status}`)).toEqual(['AGND:REJEITADA', 'NTAG:AGENDADA']);
  });

  const rows: ErrorRow[] = [
    [
      'PUT /cobr/{txid}',
      'infoAdicional out of schema',
      async () =>
        s.api.cobr.create(
          generateTxid(),
          cobrBody(await approvedRec(), day(10), { infoAdicional: 'x'.repeat(141) }),
          off,
        ),
      CobROperacaoInvalida,
      400,
      ['cobr.infoAdicional'],
    ],
    [
      'PUT /cobr/{txid}',
      'status out of schema',
      async () => s.api.cobr.create(generateTxid(), { ...cobrBody(await approvedRec()), status: 'PAGA' } as never, off),
      CobROperacaoInvalida,
      400,
      ['cobr.status'],
    ],
    [
      'PUT /cobr/{txid}',
      'calendario out of schema',
      async () => s.api.cobr.create(generateTxid(), cobrBody(await approvedRec(), '10/10/2030'), off),
      CobROperacaoInvalida,
      400,
      ['cobr.calendario'],
    ],
    [
      'PUT /cobr/{txid}',
      'a due date before the creation date',
      async () => s.api.cobr.create(generateTxid(), cobrBody(await approvedRec(), day(-1)), off),
      CobROperacaoInvalida,
      400,
      ['cobr.calendario.dataDeVencimento'],
    ],
    [
      'PUT /cobr/{txid}',
      'valor out of schema',
      async () =>
        s.api.cobr.create(generateTxid(), cobrBody(await approvedRec(), day(10), { valor: { original: '1' } }), off),
      CobROperacaoInvalida,
      400,
      ['cobr.valor'],
    ],
    [
      'PUT /cobr/{txid}',
      'recebedor out of schema',
      async () =>
        s.api.cobr.create(
          generateTxid(),
          cobrBody(await approvedRec(), day(10), { recebedor: { conta: '1', tipoConta: 'POUPANÇA' as never } }),
          off,
        ),
      CobROperacaoInvalida,
      400,
      ['cobr.recebedor'],
    ],
    [
      'PUT /cobr/{txid}',
      'an account not of this receiving user',
      async () =>
        s.api.cobr.create(
          generateTxid(),
          cobrBody(await approvedRec(), day(10), {
            recebedor: { conta: '99999999', agencia: '0001', tipoConta: 'CORRENTE' },
          }),
          off,
        ),
      CobROperacaoInvalida,
      400,
      ['cobr.recebedor.conta'],
    ],
    [
      'PUT /cobr/{txid}',
      'devedor out of schema',
      async () =>
        s.api.cobr.create(generateTxid(), cobrBody(await approvedRec(), day(10), { devedor: { uf: 'DFX' } }), off),
      CobROperacaoInvalida,
      400,
      ['cobr.devedor'],
    ],
    [
      'PUT /cobr/{txid}',
      'a txid in use',
      async () => {
        const { txid } = await newCharge();
        return s.api.cobr.create(txid, cobrBody(await approvedRec()));
      },
      CobROperacaoInvalida,
      400,
      ['cobr.txid'],
    ],
    [
      'PUT /cobr/{txid}',
      'another live charge in the same cycle',
      async () => s.api.cobr.create(generateTxid(), cobrBody((await newCharge()).idRec, day(12))),
      CobROperacaoInvalida,
      400,
      ['cobr.calendario.dataDeVencimento'],
    ],
    [
      'PUT /cobr/{txid}',
      'no such recurrence (the declared 404)',
      () => s.api.cobr.create(generateTxid(), cobrBody(UNKNOWN_ID)),
      NaoEncontrado,
      404,
      [],
    ],
    [
      'POST /cobr',
      'another live charge in the same cycle',
      async () => s.api.cobr.create(cobrBody((await newCharge()).idRec, day(11))),
      CobROperacaoInvalida,
      400,
      ['cobr.calendario.dataDeVencimento'],
    ],
    [
      'POST /cobr',
      'an account not of this receiving user',
      async () =>
        s.api.cobr.create(
          cobrBody(await approvedRec(), day(10), { recebedor: { conta: '1', tipoConta: 'CORRENTE' } }),
          off,
        ),
      CobROperacaoInvalida,
      400,
      ['cobr.recebedor.conta'],
    ],
    [
      'PATCH /cobr/{txid}',
      'on the date of the first attempt',
      async () =>
        s.api.cobr.cancel(
          (await newCharge({ calendario: { dataInicial: day(0), periodicidade: 'MENSAL' } }, day(0))).txid,
        ),
      CobROperacaoInvalida,
      400,
      ['cobr.status'],
    ],
    ['PATCH /cobr/{txid}', 'no charge', () => s.api.cobr.cancel(generateTxid()), CobRNaoEncontrado, 404, []],
    ['GET /cobr/{txid}', 'no charge', () => s.api.cobr.get(generateTxid()), CobRNaoEncontrado, 404, []],
    [
      'GET /cobr/{txid}',
      'a txid out of schema',
      () => s.api.cobr.get('curto', off),
      CobRConsultaInvalida,
      400,
      ['txid'],
    ],
    [
      'GET /cobr',
      'fim before inicio',
      () => s.api.cobr.list({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, off),
      CobRConsultaInvalida,
      400,
      ['fim'],
    ],
    [
      'GET /cobr',
      'cpf and cnpj',
      () => s.api.cobr.list({ ...aroundNow(), cpf: CPF, cnpj: '11222333000181' }, off),
      CobRConsultaInvalida,
      400,
      ['cpf'],
    ],
    [
      'GET /cobr',
      'a parameter out of schema',
      () => s.api.cobr.list({ ...aroundNow(), idRec: 'R1' }, off),
      CobRConsultaInvalida,
      400,
      ['idRec'],
    ],
    [
      'POST /cobr/{txid}/retentativa/{data}',
      'an attempt SOLICITADA or AGENDADA',
      async () => s.api.cobr.retry((await newCharge()).txid, day(12)),
      CobROperacaoInvalida,
      400,
      ['cobr.tentativas'],
    ],
    [
      'POST /cobr/{txid}/retentativa/{data}',
      'an attempt in force for the date (paid: the charge is concluded too)',
      async () => {
        const { txid } = await newCharge();
        await s.sandbox.settleCobr(txid, 'PAGA');
        return s.api.cobr.retry(txid, day(10));
      },
      CobROperacaoInvalida,
      400,
      ['cobr.status', 'data'],
    ],
    [
      'POST /cobr/{txid}/retentativa/{data}',
      'a date that is not in the future',
      async () => s.api.cobr.retry((await newCharge()).txid, day(0), off),
      CobROperacaoInvalida,
      400,
      ['data'],
    ],
    [
      'POST /cobr/{txid}/retentativa/{data}',
      'a recurrence whose policy allows no retry',
      async () => {
        const { txid } = await newCharge({ politicaRetentativa: 'NAO_PERMITE' });
        await s.sandbox.settleCobr(txid, 'REJEITADA');
        return s.api.cobr.retry(txid, day(12));
      },
      CobROperacaoInvalida,
      400,
      ['cobr.politicaRetentativa', 'cobr.status'],
    ],
    [
      'POST /cobr/{txid}/retentativa/{data}',
      'no charge',
      () => s.api.cobr.retry(generateTxid(), day(12)),
      CobRNaoEncontrado,
      404,
      [],
    ],
  ];

  it.each(rows)('%s: %s', async (_endpoint, _why, run, ErrorClass, status, propriedades) => {
    const error = await answered(run());
    expect(error).toBeInstanceOf(ErrorClass);
    expect({
      status: error.status,
      propriedades: [...new Set(error.violacoes.map((v) => v.propriedade))].sort(),
    }).toEqual({ status, propriedades });
  });
});

describe('recurrence locations: POST /locrec, GET /locrec/{id}, GET /locrec, DELETE /locrec/{id}/idRec, and the payload', () => {
  it('creates (201 with a location header), fetches, lists, serves the signed payload, unlinks', async () => {
    const created = await s.api.locrec.create().withResponse();
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe(created.data.location);
    const { id, location } = created.data;
    expect(location).toMatch(/\/qr\/v2\/rec\/[0-9a-f]{32}$/);
    const idRec = await newRec({ loc: id });
    expect(await s.api.locrec.get(id)).toMatchObject({ id, location, idRec });
    const listed = [];
    for await (const loc of s.api.locrec.list({ ...aroundNow(), idRecPresente: true })) listed.push(loc.id);
    expect(listed).toContain(id);

    expect(await s.payer.recPayload.get(location)).toMatchObject({
      idRec,
      politicaRetentativa: 'PERMITE_3R_7D',
      valor: { valorRec: '29.90' },
    });

    const unlinked = await s.api.locrec.unlink(id).withResponse();
    expect(unlinked.response.status).toBe(200);
    expect(unlinked.data).not.toHaveProperty('idRec');
    expect((await s.api.rec.get(idRec)).loc).toBeUndefined();
  });

  const rows: ErrorRow[] = [
    ['GET /locrec/{id}', 'no location', () => s.api.locrec.get(987_654), PayloadLocationRecNaoEncontrado, 404, []],
    [
      'GET /locrec/{id}',
      'an id out of schema',
      () => s.api.locrec.get('abc', off),
      PayloadLocationRecConsultaInvalida,
      400,
      ['id'],
    ],
    [
      'GET /locrec',
      'fim before inicio',
      () => s.api.locrec.list({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }, off),
      PayloadLocationRecConsultaInvalida,
      400,
      ['fim'],
    ],
    [
      'GET /locrec',
      'a negative page',
      () => s.api.locrec.list({ ...aroundNow(), paginacao: { paginaAtual: -1 } }, off),
      PayloadLocationRecConsultaInvalida,
      400,
      ['paginacao.paginaAtual'],
    ],
    [
      'DELETE /locrec/{id}/idRec',
      'no location',
      () => s.api.locrec.unlink(987_654),
      PayloadLocationRecNaoEncontrado,
      404,
      [],
    ],
    [
      'GET {payload_base}/rec/{token}',
      'a location that shows no recurrence',
      async () => s.payer.recPayload.get((await s.api.locrec.create()).location),
      RecPayloadNaoEncontrado,
      404,
      [],
    ],
    [
      'GET {payload_base}/rec/{token}',
      'a cancelled recurrence',
      async () => {
        const { id, location } = await s.api.locrec.create();
        await s.api.rec.cancel(await newRec({ loc: id }));
        return s.payer.recPayload.get(location);
      },
      RecPayloadOperacaoInvalida,
      400,
      ['recUrlAccessToken'],
    ],
  ];

  it.each(rows)('%s: %s', async (_endpoint, _why, run, ErrorClass, status, propriedades) => {
    const error = await answered(run());
    expect(error).toBeInstanceOf(ErrorClass);
    expect({
      status: error.status,
      propriedades: [...new Set(error.violacoes.map((v) => v.propriedade))].sort(),
    }).toEqual({ status, propriedades });
  });
});

describe.each([
  ['webhookrec', WebhookRecOperacaoInvalida, WebhookRecConsultaInvalida],
  ['webhookcobr', WebhookCobROperacaoInvalida, WebhookCobRConsultaInvalida],
] as const)('/%s: PUT, GET, DELETE', (resource, Invalid, BadQuery) => {
  it('registers (200, no body), reads, deletes (204); then the declared 404', async () => {
    const hooks = s.api[resource];
    const put = await hooks.put('http://127.0.0.1:9/hooks').withResponse();
    expect([put.response.status, put.data]).toEqual([200, undefined]);
    expect(await hooks.get()).toEqual({ webhookUrl: 'http://127.0.0.1:9/hooks', criacao: expect.any(String) });
    const deleted = await hooks.delete().withResponse();
    expect(deleted.response.status).toBe(204);
    expect(await answered(hooks.get())).toBeInstanceOf(NaoEncontrado);
    expect(await answered(hooks.delete())).toBeInstanceOf(NaoEncontrado);
  });

  it(`a webhookUrl out of schema is ${Invalid.name}; a query out of rule is ${BadQuery.name}`, async () => {
    const invalid = await answered(s.api[resource].put('http://merchant.example/hooks', off));
    expect(invalid).toBeInstanceOf(Invalid);
    expect(invalid.violacoes.map((v) => v.propriedade)).toEqual(['webhookUrl']);
    // These GETs take no parameters, yet the catalogue lists the list-query violations for them.
    const route = resource === 'webhookrec' ? path`/webhookrec` : path`/webhookcobr`;
    const badQuery = await answered(
      s.api.request({ method: 'GET', path: route, query: { 'paginacao.paginaAtual': -1 } }),
    );
    expect(badQuery).toBeInstanceOf(BadQuery);
  });
});
