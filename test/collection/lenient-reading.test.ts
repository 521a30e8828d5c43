/**
 * Answers read leniently: a value a service sends outside the spec's enums (a new status, a new
 * `modalidadeAgente`, an unknown refund `natureza`...) is read as the string it is, never an
 * error, and typed as an open union (`'ATIVA' | 'CONCLUIDA' | (string & {})`): one test per
 * field family. Requests still use only the spec's values.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  CobRStatus,
  CobStatus,
  DevolucaoNatureza,
  DevolucaoStatus,
  LoteCobVCobStatus,
  ModalidadeAgente,
  RecStatus,
  SolicRecStatus,
  TentativaStatus,
  TentativaTipo,
  TipoCob,
  TipoJornada,
  Solicitante,
  CobRCompleta,
  RecCompleta,
} from '../../src/index.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const api = () => testClient({ maxRetries: 0 });

const TXID = 'abcdefghijklmnopqrstuvwxyz1';
const E2E = 'E12345678202601011200abcdefghijk';
const ID_REC = 'RR1234567820260101abcdefghijk';
const ID_SOLIC = 'SC1234567820260101abcdefghijk';
const NEW = 'VALOR_NOVO_2027';

type Same<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;
/** An open union: any string fits, yet it is not plain `string` (the spec's values complete). */
type IsOpenUnion<T> = [string] extends [T] ? (Same<T, string> extends true ? false : true) : false;

/** Compiles only for an open union (checked by the type-check of `npm test`). */
function open<T>(..._proof: IsOpenUnion<T> extends true ? [] : ['not an open union']): void {}

// The check can fail: a closed union and plain `string` are refused.
// @ts-expect-error a closed union
open<'ATIVA' | 'CONCLUIDA'>();
// @ts-expect-error plain string
open<string>();
expectTypeOf<IsOpenUnion<'A' | (string & {})>>().toEqualTypeOf<true>();

const answer = (url: string, body: Record<string, unknown>) =>
  net.server.use(http.get(`${BASE_URL}${url}`, () => HttpResponse.json(body as never)));

describe('values outside the spec enums are read as strings', () => {
  it('cob status', async () => {
    open<CobStatus>();
    answer(`/cob/${TXID}`, { txid: TXID, status: NEW, valor: { original: '1.00' }, calendario: {} });
    expect((await api().cob.get(TXID)).status).toBe(NEW);
  });

  it('cobv status', async () => {
    answer(`/cobv/${TXID}`, {
      txid: TXID,
      status: NEW,
      valor: { original: '1.00' },
      calendario: { dataDeVencimento: '2026-12-01' },
    });
    expect((await api().cobv.get(TXID)).status).toBe(NEW);
  });

  it("lotecobv: a charge's status in the batch", async () => {
    open<LoteCobVCobStatus>();
    answer('/lotecobv/1', {
      descricao: 'lote',
      criacao: '2026-01-01T00:00:00Z',
      cobsv: [{ txid: TXID, status: NEW, criacao: '2026-01-01T00:00:00Z' }],
    });
    const lote = await api().lotecobv.get(1);
    expect((lote['cobsv'] as Array<{ status: string }>)[0]!.status).toBe(NEW);
  });

  it('modalidadeAgente of a withdrawal (charge) and of an amount component (payment)', async () => {
    open<ModalidadeAgente>();
    answer(`/cob/${TXID}`, {
      txid: TXID,
      status: 'ATIVA',
      calendario: {},
      valor: {
        original: '0.00',
        retirada: { saque: { valor: '5.00', modalidadeAgente: 'AGSAQ', prestadorDoServicoDeSaque: '12345678' } },
      },
    });
    const cob = await api().cob.get(TXID);
    expect(
      cob.valor.retirada && 'saque' in cob.valor.retirada ? cob.valor.retirada.saque?.modalidadeAgente : undefined,
    ).toBe('AGSAQ');
    answer(`/instant/${E2E}`, {
      endToEndId: E2E,
      valor: '5.00',
      horario: '2026-01-01T00:00:00Z',
      componentesValor: {
        original: { valor: '0.00' },
        saque: { valor: '5.00', modalidadeAgente: 'AGSAQ', prestadorDoServicoDeSaque: '12345678' },
      },
    });
    const payment = await api().instant.get(E2E);
    expect((payment.componentesValor?.['saque'] as { modalidadeAgente?: string } | undefined)?.modalidadeAgente).toBe(
      'AGSAQ',
    );
  });

  it('refund status and natureza', async () => {
    open<DevolucaoStatus>();
    open<DevolucaoNatureza>();
    answer(`/instant/${E2E}/devolucao/D1`, {
      id: 'D1',
      rtrId: 'D12345678202601011200abcdefghijk',
      valor: '1.00',
      natureza: 'MED_NOVA',
      status: NEW,
      horario: {},
    });
    const refund = await api().instant.getRefund(E2E, 'D1');
    expect([refund.status, refund.natureza]).toEqual([NEW, 'MED_NOVA']);
  });

  it("a location's tipoCob", async () => {
    open<TipoCob>();
    answer('/loc/7', {
      id: 7,
      location: 'instant.psp.example/qr/v2/abc',
      tipoCob: 'cobx',
      criacao: '2026-01-01T00:00:00Z',
    });
    expect((await api().loc.get(7)).tipoCob).toBe('cobx');
  });

  it('rec status, periodicidade, politicaRetentativa and tipoJornada', async () => {
    open<RecStatus>();
    open<TipoJornada>();
    open<RecCompleta['calendario']['periodicidade']>();
    answer(`/rec/${ID_REC}`, {
      idRec: ID_REC,
      status: NEW,
      politicaRetentativa: 'PERMITE_9R',
      tipoJornada: 'JORNADA_9',
      vinculo: { objeto: 'x', devedor: { nome: 'x' } },
      calendario: { dataInicial: '2026-01-01', periodicidade: 'QUINZENAL' },
      recebedor: { cnpj: '12345678000195', nome: 'x', ispbParticipante: '12345678' },
      atualizacao: [],
    });
    const rec = await api().rec.get(ID_REC);
    expect([rec.status, rec.calendario.periodicidade, rec.politicaRetentativa, rec.tipoJornada]).toEqual([
      NEW,
      'QUINZENAL',
      'PERMITE_9R',
      'JORNADA_9',
    ]);
  });

  it('solicrec status', async () => {
    open<SolicRecStatus>();
    answer(`/solicrec/${ID_SOLIC}`, {
      idSolicRec: ID_SOLIC,
      idRec: ID_REC,
      status: NEW,
      calendario: { dataExpiracaoSolicitacao: '2026-02-01T00:00:00Z' },
      atualizacao: [],
    });
    expect((await api().solicrec.get(ID_SOLIC)).status).toBe(NEW);
  });

  it("cobr status, its receiving account's tipoConta, and an update's solicitante", async () => {
    open<CobRStatus>();
    open<Solicitante>();
    open<Exclude<CobRCompleta['recebedor']['tipoConta'], undefined>>();
    answer(`/cobr/${TXID}`, {
      idRec: ID_REC,
      txid: TXID,
      status: NEW,
      calendario: { criacao: '2026-01-01', dataDeVencimento: '2026-02-01' },
      valor: { original: '1.00' },
      recebedor: { conta: '123', tipoConta: 'DIGITAL', agencia: '1' },
      encerramento: { cancelamento: { solicitante: 'PSP_NOVO', codigo: 'NOVO', descricao: 'x' } },
    });
    const cobr = await api().cobr.get(TXID);
    expect([
      cobr.status,
      cobr.recebedor.tipoConta,
      cobr.encerramento?.cancelamento?.solicitante,
      cobr.encerramento?.cancelamento?.codigo,
    ]).toEqual([NEW, 'DIGITAL', 'PSP_NOVO', 'NOVO']);
  });

  it("a cobr settlement attempt's tipo and status", async () => {
    open<TentativaTipo>();
    open<TentativaStatus>();
    answer(`/cobr/${TXID}`, {
      idRec: ID_REC,
      txid: TXID,
      status: 'ATIVA',
      calendario: { criacao: '2026-01-01', dataDeVencimento: '2026-02-01' },
      valor: { original: '1.00' },
      recebedor: {},
      tentativas: [{ dataLiquidacao: '2026-02-01', tipo: 'NOVA', status: NEW, endToEndId: E2E }],
    });
    const attempt = (await api().cobr.get(TXID)).tentativas?.[0];
    expect([attempt?.tipo, attempt?.status]).toEqual(['NOVA', NEW]);
  });
});

describe('requests still use only the spec values', () => {
  it('a withdrawal with an unknown modalidadeAgente and a refund with an unknown natureza are refused before sending', async () => {
    const client = api();
    await expect(
      client.cob.create(TXID, {
        chave: 'a@b.example',
        valor: {
          original: '0.00',
          retirada: { saque: { valor: '5.00', modalidadeAgente: 'AGSAQ', prestadorDoServicoDeSaque: '12345678' } },
        },
      }),
    ).rejects.toMatchObject({ name: expect.any(String) });
    // @ts-expect-error the request type takes only ORIGINAL or RETIRADA
    await expect(client.instant.refund(E2E, 'D1', { valor: '1.00', natureza: 'MED_FRAUDE' })).rejects.toThrow(
      /natureza/,
    );
    expect(net.requests).toHaveLength(0);
  });
});
