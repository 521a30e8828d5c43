/**
 * Recurrences, their locations and payloads, and the composite codes of GET /rec/{idRec}, over
 * real HTTP: each success of recurring spec section 4 for these resources, each error of section
 * 7 with its class and `violacoes`, the state table of 3.2, and the journeys of 4.3/4.4.
 */
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { brcode } from '../../../src/lib/brcode.ts';
import { generateTxid } from '../../../src/lib/ids.ts';
import {
  CNPJ,
  CPF,
  approvedRec,
  createRec,
  day,
  expectProblem,
  range,
  recBody,
  useRecSandbox,
  type Json,
} from './support.ts';

const h = useRecSandbox();

const idRecPattern = (policy: 'R' | 'N') =>
  new RegExp(`^R${policy}99999999${day().replaceAll('-', '')}[a-zA-Z0-9]{11}$`);
const tokenOf = (location: string) => location.slice(location.lastIndexOf('/') + 1);

async function newLocation(): Promise<Json> {
  const created = await h.call('POST', '/locrec');
  expect(created.status).toBe(201);
  return created.body;
}

async function immediateCharge(): Promise<Json> {
  const txid = generateTxid();
  const created = await h.call('PUT', `/cob/${txid}`, {
    calendario: { expiracao: 3600 },
    valor: { original: '15.00' },
    chave: h.sandbox.ownKeys[0],
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function dueDateCharge(): Promise<Json> {
  const txid = generateTxid();
  const created = await h.call('PUT', `/cobv/${txid}`, {
    calendario: { dataDeVencimento: day(5) },
    devedor: { cpf: CPF, nome: 'Fulano de Tal' },
    valor: { original: '15.00' },
    chave: h.sandbox.ownKeys[0],
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('routing', () => {
  it('asks for a token on every route of the part but the payload, and 404s what it does not serve', async () => {
    for (const path of ['/rec', '/solicrec/x', '/cobr', '/locrec', '/webhookrec', '/webhookcobr']) {
      expect((await h.raw('GET', `/v2${path}`)).status, path).toBe(401);
    }
    expectProblem(await h.call('GET', '/rec/a/b'), 404, 'NaoEncontrado');
    expectProblem(await h.call('DELETE', '/rec'), 404, 'NaoEncontrado');
    expectProblem(await h.call('GET', '/cobr/a/retentativa/2030-01-01'), 404, 'NaoEncontrado');
    expectProblem(await h.call('GET', '/locrec/1/txid'), 404, 'NaoEncontrado');
    expectProblem(await h.raw('POST', '/qr/v2/rec/abc'), 404, 'NaoEncontrado');
  });
});

describe('POST /rec', () => {
  it('creates a recurrence CRIADA awaiting its journey, with an idRec formed as A.2 says', async () => {
    const created = await h.call('POST', '/rec', recBody({ recebedor: { convenio: 'Plano A' } }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      vinculo: { contrato: 'CTR-1', devedor: { cpf: CPF } },
      calendario: { dataInicial: day(10), periodicidade: 'MENSAL' },
      valor: { valorRec: '29.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      recebedor: { cnpj: expect.any(String), nome: expect.any(String), convenio: 'Plano A' },
      status: 'CRIADA',
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
      atualizacao: [{ status: 'CRIADA', data: expect.any(String) }],
    });
    expect(created.body.idRec).toMatch(idRecPattern('R'));
    const refusing = await createRec(h, {
      politicaRetentativa: 'NAO_PERMITE',
      valor: { valorMinimoRecebedor: '5.00' },
    });
    expect(refusing.idRec).toMatch(idRecPattern('N'));
    expect(refusing.idRec).not.toBe(created.body.idRec);
  });

  it('accepts a company debtor, a fixed term and no amount at all', async () => {
    const rec = await createRec(h, {
      vinculo: { contrato: 'X', devedor: { cnpj: CNPJ, nome: 'Empresa SA' } },
      calendario: { dataInicial: day(0), dataFinal: day(0), periodicidade: 'ANUAL' },
      valor: undefined,
    });
    expect(rec.valor).toBeUndefined();
  });

  it.each<[string, Json, string[]]>([
    ['vinculo without devedor', { vinculo: { contrato: 'X' } }, ['rec.vinculo']],
    [
      'vinculo with cpf and cnpj',
      { vinculo: { contrato: 'X', devedor: { cpf: CPF, cnpj: CNPJ, nome: 'A' } } },
      ['rec.vinculo'],
    ],
    ['contrato over 35', { vinculo: { contrato: 'x'.repeat(36), devedor: { cpf: CPF, nome: 'A' } } }, ['rec.vinculo']],
    [
      'devedor nome over 140',
      { vinculo: { contrato: 'X', devedor: { cpf: CPF, nome: 'n'.repeat(141) } } },
      ['rec.vinculo'],
    ],
    [
      'dataInicial not a date',
      { calendario: { dataInicial: '2030-02-30', periodicidade: 'MENSAL' } },
      ['rec.calendario.dataInicial'],
    ],
    [
      'dataInicial before today',
      { calendario: { dataInicial: day(-1), periodicidade: 'MENSAL' } },
      ['rec.calendario.dataInicial'],
    ],
    [
      'dataFinal before dataInicial',
      { calendario: { dataInicial: day(5), dataFinal: day(4), periodicidade: 'MENSAL' } },
      ['rec.calendario.dataFinal'],
    ],
    [
      'periodicidade unknown',
      { calendario: { dataInicial: day(5), periodicidade: 'DIARIA' } },
      ['rec.calendario.periodicidade'],
    ],
    ['no calendario', { calendario: undefined }, ['rec.calendario.dataInicial', 'rec.calendario.periodicidade']],
    ['valor not an object', { valor: '10.00' }, ['rec.valor']],
    ['valorRec out of schema', { valor: { valorRec: '10' } }, ['rec.valor.valorRec']],
    ['valorMinimoRecebedor out of schema', { valor: { valorMinimoRecebedor: 5 } }, ['rec.valor.valorMinimoRecebedor']],
    ['both amounts', { valor: { valorRec: '1.00', valorMinimoRecebedor: '1.00' } }, ['rec.valor.valorMinimoRecebedor']],
    ['an idRec given out of its schema', { idRec: 'RR12' }, ['rec.idRec']],
    ['convenio over 60', { recebedor: { convenio: 'c'.repeat(61) } }, ['rec.recebedor']],
    ['politicaRetentativa unknown', { politicaRetentativa: 'PERMITE_SEMPRE' }, ['rec.politicaRetentativa']],
    ['loc not an integer', { loc: '1' }, ['rec.loc']],
    ['loc that does not exist', { loc: 987654 }, ['rec.loc']],
    [
      'dadosJornada.txid too short',
      { ativacao: { dadosJornada: { txid: 'abc' } } },
      ['rec.ativacao.dadosJornada.txid'],
    ],
  ])('refuses %s with RecOperacaoInvalida', async (_name, overrides, properties) => {
    expectProblem(await h.call('POST', '/rec', recBody(overrides)), 400, 'RecOperacaoInvalida', properties);
  });

  it('refuses a location already serving another recurrence', async () => {
    const loc = await newLocation();
    await createRec(h, { loc: loc.id });
    expectProblem(await h.call('POST', '/rec', recBody({ loc: loc.id })), 400, 'RecOperacaoInvalida', ['rec.loc']);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    expectProblem(await h.call('POST', '/rec', '{'), 400, 'RecOperacaoInvalida');
    expectProblem(await h.call('POST', '/rec', [1]), 400, 'RecOperacaoInvalida', ['rec']);
  });
});

describe('GET /rec/{idRec} and GET /rec', () => {
  it('answers the complete recurrence, its requests included, and 404 RecNaoEncontrada for an unknown id', async () => {
    const { idRec } = await createRec(h);
    const got = await h.call('GET', `/rec/${idRec}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ idRec, status: 'CRIADA', solicitacao: [] });
    expect(got.body.dadosQR).toBeUndefined(); // no location: no composite code
    expectProblem(
      await h.call('GET', `/rec/RN99999999${day().replaceAll('-', '')}00000000000`),
      404,
      'RecNaoEncontrada',
    );
    expectProblem(await h.call('GET', '/rec/short'), 400, 'RecConsultaInvalida', ['idRec']);
  });

  it('lists by creation range with filters, pages and the convenio echoed under parametros.recebedor', async () => {
    const mine = await createRec(h, {
      vinculo: { contrato: 'L', devedor: { cnpj: CNPJ, nome: 'Filtro SA' } },
      recebedor: { convenio: 'lista' },
    });
    await createRec(h, { recebedor: { convenio: 'lista' } });
    const listed = await h.call(
      'GET',
      `/rec?${range()}&cnpj=${CNPJ}&convenio=lista&status=CRIADA&locationPresente=false`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.recs.map((r: Json) => r.idRec)).toEqual([mine.idRec]);
    expect(listed.body.parametros).toMatchObject({
      cnpj: CNPJ,
      status: 'CRIADA',
      locationPresente: false,
      recebedor: { convenio: 'lista' },
    });
    const paged = await h.call(
      'GET',
      `/rec?${range()}&convenio=lista&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`,
    );
    expect(paged.body.recs).toHaveLength(1);
    expect(paged.body.parametros.paginacao).toMatchObject({
      paginaAtual: 1,
      itensPorPagina: 1,
      quantidadeDePaginas: 2,
      quantidadeTotalDeItens: 2,
    });
    expect(paged.body.recs[0].dadosQR).toBeUndefined();
  });

  it.each<[string, string, string[]]>([
    ['without inicio', `fim=${new Date().toISOString()}`, ['inicio']],
    ['fim before inicio', 'inicio=2030-01-02T00:00:00Z&fim=2030-01-01T00:00:00Z', ['fim']],
    ['cpf and cnpj', `${range()}&cpf=${CPF}&cnpj=${CNPJ}`, ['cpf']],
    ['a negative page', `${range()}&paginacao.paginaAtual=-1`, ['paginacao.paginaAtual']],
    ['a negative page size', `${range()}&paginacao.itensPorPagina=-1`, ['paginacao.itensPorPagina']],
    ['locationPresente not a boolean', `${range()}&locationPresente=yes`, ['locationPresente']],
    ['convenio over 60', `${range()}&convenio=${'c'.repeat(61)}`, ['convenio']],
  ])('refuses a list query %s with RecConsultaInvalida', async (_name, query, properties) => {
    expectProblem(await h.call('GET', `/rec?${query}`), 400, 'RecConsultaInvalida', properties);
  });
});

describe('PATCH /rec/{idRec} (section 3.2)', () => {
  it('changes loc, dataInicial, the debtor name and dadosJornada.txid while CRIADA', async () => {
    const { idRec } = await createRec(h);
    const loc = await newLocation();
    const txid = generateTxid();
    const patched = await h.call('PATCH', `/rec/${idRec}`, {
      loc: loc.id,
      calendario: { dataInicial: day(20) },
      vinculo: { devedor: { nome: 'Fulano Revisado' } },
      ativacao: { dadosJornada: { txid } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      loc: { id: loc.id, idRec },
      calendario: { dataInicial: day(20) },
      vinculo: { devedor: { cpf: CPF, nome: 'Fulano Revisado' } },
      ativacao: { dadosJornada: { txid } },
    });
    const other = await newLocation();
    await h.call('PATCH', `/rec/${idRec}`, { loc: other.id });
    // The first location is free again.
    expect((await h.call('GET', `/locrec/${loc.id}`)).body.idRec).toBeUndefined();
    expect((await h.call('GET', `/locrec/${other.id}`)).body.idRec).toBe(idRec);
  });

  it('refuses loc and dataInicial once APROVADA, and still takes dadosJornada.txid', async () => {
    const idRec = await approvedRec(h);
    const loc = await newLocation();
    expectProblem(await h.call('PATCH', `/rec/${idRec}`, { loc: loc.id }), 400, 'RecOperacaoInvalida', ['rec.loc']);
    expectProblem(
      await h.call('PATCH', `/rec/${idRec}`, { calendario: { dataInicial: day(30) } }),
      400,
      'RecOperacaoInvalida',
      ['rec.calendario.dataInicial'],
    );
    const txid = generateTxid();
    expect(
      (await h.call('PATCH', `/rec/${idRec}`, { ativacao: { dadosJornada: { txid } } })).body.ativacao.dadosJornada,
    ).toEqual({ txid });
  });

  it('cancels (USUARIO_RECEBEDOR, SLCR) from CRIADA or APROVADA; after that, nothing changes', async () => {
    for (const idRec of [(await createRec(h)).idRec, await approvedRec(h)]) {
      const cancelled = await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        status: 'CANCELADA',
        encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } },
      });
      expect(cancelled.body.atualizacao.at(-1).status).toBe('CANCELADA');
      expectProblem(await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' }), 400, 'RecOperacaoInvalida', [
        'rec.status',
      ]);
      expectProblem(
        await h.call('PATCH', `/rec/${idRec}`, { ativacao: { dadosJornada: { txid: generateTxid() } } }),
        400,
        'RecOperacaoInvalida',
        ['rec.status'],
      );
    }
    const rejected = (await createRec(h)).idRec;
    await h.sandbox.rejectRec(rejected);
    expectProblem(
      await h.call('PATCH', `/rec/${rejected}`, { vinculo: { devedor: { nome: 'X' } } }),
      400,
      'RecOperacaoInvalida',
      ['rec.status'],
    );
  });

  it.each<[string, Json, string[]]>([
    ['a status other than CANCELADA', { status: 'APROVADA' }, ['rec.status']],
    ['dataInicial before the creation date', { calendario: { dataInicial: day(-1) } }, ['rec.calendario.dataInicial']],
    ['dataInicial not a date', { calendario: { dataInicial: 'amanhã' } }, ['rec.calendario.dataInicial']],
    ['a location that does not exist', { loc: 987654 }, ['rec.loc']],
    ['a debtor without nome', { vinculo: { devedor: {} } }, ['rec.vinculo']],
    ['a bad dadosJornada.txid', { ativacao: { dadosJornada: { txid: 'x' } } }, ['rec.ativacao.dadosJornada.txid']],
  ])('refuses %s with RecOperacaoInvalida', async (_name, patch, properties) => {
    const { idRec } = await createRec(h);
    expectProblem(await h.call('PATCH', `/rec/${idRec}`, patch), 400, 'RecOperacaoInvalida', properties);
  });

  it('refuses a location used by another recurrence, and answers 404 for an unknown id', async () => {
    const loc = await newLocation();
    await createRec(h, { loc: loc.id });
    const { idRec } = await createRec(h);
    expectProblem(await h.call('PATCH', `/rec/${idRec}`, { loc: loc.id }), 400, 'RecOperacaoInvalida', ['rec.loc']);
    expectProblem(
      await h.call('PATCH', `/rec/RR99999999${day().replaceAll('-', '')}00000000000`, {}),
      404,
      'RecNaoEncontrada',
    );
    expectProblem(await h.call('PATCH', '/rec/x', {}), 400, 'RecOperacaoInvalida', ['idRec']);
  });
});

describe('/locrec', () => {
  it('creates a location (201, location header), fetches, lists and unlinks it', async () => {
    const created = await h.call('POST', '/locrec');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      location: expect.stringMatching(/^127\.0\.0\.1:\d+\/qr\/v2\/rec\/[0-9a-f]{32}$/),
      criacao: expect.any(String),
    });
    expect(created.headers.get('location')).toBe(created.body.location);
    const { idRec } = await createRec(h, { loc: created.body.id });
    expect((await h.call('GET', `/locrec/${created.body.id}`)).body).toMatchObject({ id: created.body.id, idRec });
    const linked = await h.call('GET', `/locrec?${range()}&idRecPresente=true`);
    expect(linked.body.loc.map((l: Json) => l.id)).toContain(created.body.id);
    expect(linked.body.loc.every((l: Json) => l.idRec !== undefined)).toBe(true);
    const unlinked = await h.call('DELETE', `/locrec/${created.body.id}/idRec`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.idRec).toBeUndefined();
    expect((await h.call('GET', `/rec/${idRec}`)).body.loc).toBeUndefined();
    expect((await h.call('GET', `/rec/${idRec}`)).body.status).toBe('CRIADA');
    // Free again: another recurrence may take it.
    await createRec(h, { loc: created.body.id });
  });

  it('answers PayloadLocationRecNaoEncontrado and PayloadLocationRecConsultaInvalida', async () => {
    expectProblem(await h.call('GET', '/locrec/999999'), 404, 'PayloadLocationRecNaoEncontrado');
    expectProblem(await h.call('DELETE', '/locrec/999999/idRec'), 404, 'PayloadLocationRecNaoEncontrado');
    expectProblem(await h.call('DELETE', '/locrec/abc/idRec'), 404, 'PayloadLocationRecNaoEncontrado');
    expectProblem(await h.call('GET', '/locrec/abc'), 400, 'PayloadLocationRecConsultaInvalida', ['id']);
    expectProblem(
      await h.call('GET', `/locrec?${range()}&idRecPresente=1`),
      400,
      'PayloadLocationRecConsultaInvalida',
      ['idRecPresente'],
    );
    expectProblem(
      await h.call('GET', '/locrec?inicio=2030-01-02T00:00:00Z&fim=2030-01-01T00:00:00Z'),
      400,
      'PayloadLocationRecConsultaInvalida',
      ['fim'],
    );
    expectProblem(
      await h.call('GET', `/locrec?${range()}&paginacao.paginaAtual=-1`),
      400,
      'PayloadLocationRecConsultaInvalida',
      ['paginacao.paginaAtual'],
    );
  });
});

describe('the recurrence payload on its location', () => {
  it('is a JWS (RS256) that verifies with the sandbox key set and carries RecPayload', async () => {
    const loc = await newLocation();
    const rec = await createRec(h, { loc: loc.id, recebedor: { convenio: 'c' } });
    const served = await h.raw('GET', `/qr/v2/rec/${tokenOf(loc.location)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/jose');
    const header = decodeProtectedHeader(served.body);
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String), jku: `${h.sandbox.origin}/qr/v2/jwks.json` });
    const jwks = await h.raw('GET', '/qr/v2/jwks.json');
    const { payload } = await compactVerify(served.body, createLocalJWKSet(jwks.body));
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      idRec: rec.idRec,
      vinculo: rec.vinculo,
      calendario: rec.calendario,
      valor: rec.valor,
      politicaRetentativa: 'PERMITE_3R_7D',
      recebedor: { cnpj: rec.recebedor.cnpj, nome: rec.recebedor.nome, ispbParticipante: '99999999' },
      atualizacao: rec.atualizacao,
    });
    // A tampered payload does not verify.
    const [h64, p64, s64] = (served.body as string).split('.');
    const forged = Buffer.from(JSON.stringify({ idRec: rec.idRec, valor: { valorRec: '0.01' } })).toString('base64url');
    await expect(compactVerify(`${h64}.${forged}.${s64}`, createLocalJWKSet(jwks.body))).rejects.toThrow();
    expect(p64).not.toBe(forged);
  });

  it('answers RecPayloadNaoEncontrado (404) without a recurrence, RecPayloadOperacaoInvalida (400) once it is closed', async () => {
    const loc = await newLocation();
    expectProblem(await h.raw('GET', `/qr/v2/rec/${tokenOf(loc.location)}`), 404, 'RecPayloadNaoEncontrado');
    expectProblem(await h.raw('GET', '/qr/v2/rec/0123456789abcdef0123456789abcdef'), 404, 'RecPayloadNaoEncontrado');
    const { idRec } = await createRec(h, { loc: loc.id });
    await h.call('PATCH', `/rec/${idRec}`, { status: 'CANCELADA' });
    expectProblem(await h.raw('GET', `/qr/v2/rec/${tokenOf(loc.location)}`), 400, 'RecPayloadOperacaoInvalida', [
      'recUrlAccessToken',
    ]);
  });
});

describe('composite codes (dadosQR) and the journeys that approve', () => {
  it('journey 2: the recurrence-only code, approved by reading it', async () => {
    const loc = await newLocation();
    const { idRec } = await createRec(h, { loc: loc.id });
    const { dadosQR } = (await h.call('GET', `/rec/${idRec}`)).body;
    expect(dadosQR.jornada).toBe('JORNADA_2');
    const code = brcode.parse(dadosQR.instantCopiaECola);
    expect(code).toMatchObject({ recurrenceUrl: loc.location });
    expect(code.url).toBeUndefined();
    expect(code.key).toBeUndefined();
    const approved = await h.sandbox.approveRec(idRec);
    expect(approved).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_2' },
      pagador: { cpf: CPF, ispbParticipante: '99999999', codMun: '5300108' },
    });
    // The code stays available (as the spec's example of an approved recurrence shows).
    expect((await h.call('GET', `/rec/${idRec}`)).body.dadosQR.jornada).toBe('JORNADA_2');
  });

  it('journey 3: the immediate charge plus the recurrence; paying the charge approves by JORNADA_3', async () => {
    const cob = await immediateCharge();
    const loc = await newLocation();
    const { idRec } = await createRec(h, { loc: loc.id, ativacao: { dadosJornada: { txid: cob.txid } } });
    const got = await h.call('GET', `/rec/${idRec}?txid=${cob.txid}`);
    expect(got.body.dadosQR.jornada).toBe('JORNADA_3');
    const code = brcode.parse(got.body.dadosQR.instantCopiaECola);
    expect(code).toMatchObject({ url: cob.location, recurrenceUrl: loc.location, pointOfInitiation: 'dynamic' });
    await h.sandbox.payCharge(cob.txid);
    const approved = (await h.call('GET', `/rec/${idRec}`)).body;
    expect(approved).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cob.txid } },
    });
    expect(approved.atualizacao.map((a: Json) => a.status)).toEqual(['CRIADA', 'APROVADA']);
  });

  it('journey 4: the due-date charge plus the recurrence; paying it approves by JORNADA_4 without dadosJornada', async () => {
    const cobv = await dueDateCharge();
    const loc = await newLocation();
    const { idRec } = await createRec(h, { loc: loc.id });
    const got = await h.call('GET', `/rec/${idRec}?txid=${cobv.txid}`);
    expect(got.body.dadosQR.jornada).toBe('JORNADA_4');
    expect(brcode.parse(got.body.dadosQR.instantCopiaECola)).toMatchObject({
      url: cobv.location,
      recurrenceUrl: loc.location,
    });
    expect(cobv.location).toContain('/cobv/');
    await h.sandbox.payCharge(cobv.txid);
    const approved = (await h.call('GET', `/rec/${idRec}`)).body;
    expect(approved.ativacao).toEqual({ tipoJornada: 'JORNADA_4' });
  });

  it('answers no dadosQR when a location it needs is missing', async () => {
    const cob = await immediateCharge();
    const { idRec } = await createRec(h, { ativacao: { dadosJornada: { txid: cob.txid } } });
    const got = await h.call('GET', `/rec/${idRec}?txid=${cob.txid}`);
    expect(got.status).toBe(200);
    expect(got.body.dadosQR).toBeUndefined();
  });

  it('refuses a txid that is no charge, another immediate charge, or a charge the journey excludes (RecConsultaInvalida)', async () => {
    const cob = await immediateCharge();
    const other = await immediateCharge();
    const cobv = await dueDateCharge();
    const loc = await newLocation();
    const { idRec } = await createRec(h, { loc: loc.id, ativacao: { dadosJornada: { txid: cob.txid } } });
    expectProblem(await h.call('GET', `/rec/${idRec}?txid=${generateTxid()}`), 400, 'RecConsultaInvalida', ['txid']);
    expectProblem(await h.call('GET', `/rec/${idRec}?txid=${other.txid}`), 400, 'RecConsultaInvalida', ['txid']);
    await h.sandbox.payCharge(cob.txid); // now JORNADA_3
    expectProblem(await h.call('GET', `/rec/${idRec}?txid=${cobv.txid}`), 400, 'RecConsultaInvalida', ['txid']);
    const byTwo = await approvedRec(h, {}, 'JORNADA_2');
    expectProblem(await h.call('GET', `/rec/${byTwo}?txid=${cob.txid}`), 400, 'RecConsultaInvalida', ['txid']);
  });

  it('approves or rejects only a CRIADA recurrence, journey 3 only with dadosJornada.txid', async () => {
    const { idRec } = await createRec(h);
    await expect(h.sandbox.approveRec(idRec, { jornada: 'JORNADA_3' })).rejects.toMatchObject({
      errorType: 'RecOperacaoInvalida',
    });
    const rejected = await h.sandbox.rejectRec(idRec, { codigo: 'AP14' });
    expect(rejected).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } } });
    await expect(h.sandbox.approveRec(idRec)).rejects.toMatchObject({ errorType: 'RecOperacaoInvalida' });
    await expect(h.sandbox.rejectRec(idRec)).rejects.toMatchObject({ errorType: 'RecOperacaoInvalida' });
    await expect(h.sandbox.approveRec('R'.repeat(29))).rejects.toMatchObject({ errorType: 'RecNaoEncontrada' });
  });
});
