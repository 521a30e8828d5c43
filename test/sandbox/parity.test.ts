/**
 * The sandbox's own verdict equals the client-side refusal: each bad request is sent once with
 * the client's checks on (refused before sending) and once with them off (judged by the sandbox
 * over HTTP); both must be the same error class with the same `violacoes` properties.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { InstantClient } from '../../src/index.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import { CPF, cobBody, cobvBody, properties, range, refusal, useSandbox } from './support.ts';

const s = useSandbox();
const TXID = 'parityCob000000000000000000001';
const TXIDV = 'parityCobV00000000000000000001';
let e2eid = '';

beforeAll(async () => {
  await s.api.cob.create(TXID, cobBody(s.key));
  await s.api.cobv.create(TXIDV, cobvBody(s.key));
  const paid = 'parityPaid0000000000000000001';
  await s.api.cob.create(paid, cobBody(s.key, '50.00'));
  e2eid = (await s.sandbox.payCharge(paid)).endToEndId;
});

type Call = (client: InstantClient) => PromiseLike<unknown>;
const yesterday = () => addDays(todayInBrasilia(), -1);
const cob = () => cobBody(s.key);
const cobv = () => cobvBody(s.key);
const NEW = 'parityNew00000000000000000001';

const cases: Array<[string, Call]> = [
  // cob, PUT and POST
  ['cob expiracao zero', (c) => c.cob.create(NEW, { ...cob(), calendario: { expiracao: 0 } })],
  ['cob expiracao not an integer', (c) => c.cob.create(NEW, { ...cob(), calendario: { expiracao: 1.5 } })],
  ['cob original out of schema', (c) => c.cob.create(NEW, { ...cob(), valor: { original: '10' } })],
  ['cob original zero', (c) => c.cob.create(NEW, { ...cob(), valor: { original: '0.00' } })],
  ['cob valor missing', (c) => c.cob.create(NEW, { ...cob(), valor: undefined } as never)],
  [
    'cob modalidadeAlteracao 2',
    (c) => c.cob.create(NEW, { ...cob(), valor: { original: '1.00', modalidadeAlteracao: 2 } } as never),
  ],
  [
    'cob retirada with both',
    (c) => c.cob.create(NEW, { ...cob(), valor: { original: '1.00', retirada: { saque: {}, troco: {} } } } as never),
  ],
  [
    'cob saque with a non-zero original',
    (c) =>
      c.cob.create(NEW, {
        ...cob(),
        valor: {
          original: '1.00',
          retirada: { saque: { valor: '5.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '12345678' } },
        },
      }),
  ],
  [
    'cob saque with a bad agent',
    (c) =>
      c.cob.create(NEW, {
        ...cob(),
        valor: {
          original: '0.00',
          retirada: { saque: { valor: '5.00', modalidadeAgente: 'X', prestadorDoServicoDeSaque: '1' } },
        },
      } as never),
  ],
  [
    'cob devedor with cpf and cnpj',
    (c) => c.cob.create(NEW, { ...cob(), devedor: { cpf: CPF, cnpj: '11222333000181', nome: 'A' } } as never),
  ],
  ['cob devedor with a bad cpf', (c) => c.cob.create(NEW, { ...cob(), devedor: { cpf: '12345678900', nome: 'A' } })],
  ['cob devedor without nome', (c) => c.cob.create(NEW, { ...cob(), devedor: { cpf: CPF } } as never)],
  ['cob chave not a key', (c) => c.cob.create(NEW, { ...cob(), chave: 'not a key' })],
  ['cob chave not own', (c) => c.cob.create(NEW, { ...cob(), chave: CPF })],
  ['cob chave missing', (c) => c.cob.create(NEW, { ...cob(), chave: undefined } as never)],
  ['cob solicitacaoPagador too long', (c) => c.cob.create(NEW, { ...cob(), solicitacaoPagador: 'x'.repeat(141) })],
  [
    'cob 51 infoAdicionais',
    (c) =>
      c.cob.create(NEW, { ...cob(), infoAdicionais: Array.from({ length: 51 }, () => ({ nome: 'a', valor: 'b' })) }),
  ],
  [
    'cob infoAdicionais item without nome',
    (c) => c.cob.create(NEW, { ...cob(), infoAdicionais: [{ valor: 'b' }] } as never),
  ],
  ['cob loc.id zero', (c) => c.cob.create(NEW, { ...cob(), loc: { id: 0 } })],
  ['cob loc not an object', (c) => c.cob.create(NEW, { ...cob(), loc: 5 } as never)],
  ['cob txid too short', (c) => c.cob.create('short', cob())],
  [
    'cob by POST, several at once',
    (c) => c.cob.create({ calendario: { expiracao: -1 }, valor: { original: 'x' }, chave: 'no' }),
  ],
  // cob, PATCH
  ['cob PATCH status other than removal', (c) => c.cob.update(TXID, { status: 'CONCLUIDA' } as never)],
  [
    'cob PATCH removal with another change',
    (c) => c.cob.update(TXID, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '2.00' } } as never),
  ],
  ['cob PATCH expiracao zero', (c) => c.cob.update(TXID, { calendario: { expiracao: 0 } })],
  ['cob PATCH chave not own', (c) => c.cob.update(TXID, { chave: CPF })],
  // cob, GET
  ['cob GET bad txid', (c) => c.cob.get('bad')],
  ['cob GET negative revisao', (c) => c.cob.get(TXID, { revisao: -1 })],
  // cobv, PUT
  [
    'cobv due date not a date',
    (c) => c.cobv.create(NEW, { ...cobv(), calendario: { dataDeVencimento: '2026-02-30' } }),
  ],
  [
    'cobv validade negative',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        calendario: { dataDeVencimento: addDays(todayInBrasilia(), 3), validadeAposVencimento: -1 },
      }),
  ],
  ['cobv calendario missing', (c) => c.cobv.create(NEW, { ...cobv(), calendario: undefined } as never)],
  ['cobv devedor missing', (c) => c.cobv.create(NEW, { ...cobv(), devedor: undefined } as never)],
  ['cobv devedor uf too long', (c) => c.cobv.create(NEW, { ...cobv(), devedor: { cpf: CPF, nome: 'A', uf: 'DFX' } })],
  ['cobv original zero', (c) => c.cobv.create(NEW, { ...cobv(), valor: { original: '0.00' } })],
  [
    'cobv multa modalidade 3',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        valor: { original: '10.00', multa: { modalidade: 3, valorPerc: '1.00' } },
      } as never),
  ],
  [
    'cobv juros modalidade 9',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        valor: { original: '10.00', juros: { modalidade: 9, valorPerc: '1.00' } },
      } as never),
  ],
  [
    'cobv abatimento not below original',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        valor: { original: '10.00', abatimento: { modalidade: 1, valorPerc: '10.00' } },
      }),
  ],
  [
    'cobv abatimento 100%',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        valor: { original: '10.00', abatimento: { modalidade: 2, valorPerc: '100.00' } },
      }),
  ],
  [
    'cobv desconto 1 with valorPerc',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        valor: { original: '10.00', desconto: { modalidade: 1, valorPerc: '1.00' } },
      } as never),
  ],
  [
    'cobv desconto date after the due date',
    (c) =>
      c.cobv.create(NEW, {
        ...cobv(),
        valor: {
          original: '10.00',
          desconto: { modalidade: 1, descontoDataFixa: [{ data: addDays(todayInBrasilia(), 40), valorPerc: '1.00' }] },
        },
      }),
  ],
  [
    'cobv desconto 3 without valorPerc',
    (c) => c.cobv.create(NEW, { ...cobv(), valor: { original: '10.00', desconto: { modalidade: 3 } } } as never),
  ],
  ['cobv chave not own', (c) => c.cobv.create(NEW, { ...cobv(), chave: CPF })],
  // cobv, PATCH and GET
  ['cobv PATCH validade negative', (c) => c.cobv.update(TXIDV, { calendario: { validadeAposVencimento: -1 } })],
  [
    'cobv PATCH removal with another change',
    (c) => c.cobv.update(TXIDV, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', chave: s.key } as never),
  ],
  ['cobv GET bad txid', (c) => c.cobv.get('bad')],
  // lists
  ['cob list fim before inicio', (c) => c.cob.list({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' })],
  ['cob list cpf and cnpj', (c) => c.cob.list({ ...range(), cpf: CPF, cnpj: '11222333000181' })],
  ['cob list negative page', (c) => c.cob.list({ ...range(), paginacao: { paginaAtual: -1 } })],
  ['cob list page size 0', (c) => c.cob.list({ ...range(), paginacao: { itensPorPagina: 0 } })],
  ['cob list without inicio', (c) => c.cob.list({ fim: range().fim } as never)],
  ['cob list inicio not RFC 3339', (c) => c.cob.list({ inicio: 'yesterday', fim: range().fim })],
  ['cobv list cpf malformed', (c) => c.cobv.list({ ...range(), cpf: '123' })],
  [
    'lotecobv list fim before inicio',
    (c) => c.lotecobv.list({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }),
  ],
  ['loc list tipoCob unknown', (c) => c.loc.list({ ...range(), tipoCob: 'x' } as never)],
  ['instant list without fim', (c) => c.instant.list({ inicio: range().inicio } as never)],
  [
    'webhook list fim before inicio',
    (c) => c.webhook.list({ inicio: '2026-01-02T00:00:00Z', fim: '2026-01-01T00:00:00Z' }),
  ],
  // locations, payments, webhooks
  ['loc create tipoCob unknown', (c) => c.loc.create({ tipoCob: 'x' } as never)],
  ['loc get id not a number', (c) => c.loc.get('abc')],
  ['instant get bad e2eid', (c) => c.instant.get('short')],
  ['refund valor zero', (c) => c.instant.refund(e2eid, 'r1', { valor: '0.00' })],
  ['refund natureza unknown', (c) => c.instant.refund(e2eid, 'r1', { valor: '1.00', natureza: 'MED_FRAUDE' } as never)],
  ['refund descricao too long', (c) => c.instant.refund(e2eid, 'r1', { valor: '1.00', descricao: 'x'.repeat(141) })],
  ['refund id too long', (c) => c.instant.refund(e2eid, 'r'.repeat(36), { valor: '1.00' })],
  ['webhook chave not a key', (c) => c.webhook.put('not-a-key', 'https://merchant.example/hook')],
  ['webhook chave not own', (c) => c.webhook.put(CPF, 'https://merchant.example/hook')],
  ['webhook url not https', (c) => c.webhook.put(s.key, 'ftp://merchant.example/hook')],
];

describe('the sandbox judges like the client', () => {
  it.each(cases)('%s', async (_name, call) => {
    const client = await refusal(call(s.checked));
    expect(client.sentRequest).toBe(false);
    const service = await refusal(call(s.api));
    expect(service.sentRequest).toBe(true);
    expect(service.type).toBe(`https://instant-sandbox.example/api/v2/error/${client.name}`);
    expect({ name: service.name, status: service.status, properties: properties(service) }).toEqual({
      name: client.name,
      status: client.status,
      properties: properties(client),
    });
    expect(service.title).toEqual(expect.any(String));
    expect(service.detail).toEqual(expect.any(String));
  });
});

describe('rules only the service can judge', () => {
  it('a new cobv due before today: the client sends it (a PUT may alter an older charge), the sandbox refuses it', async () => {
    const call: Call = (c) => c.cobv.create(NEW, { ...cobv(), calendario: { dataDeVencimento: yesterday() } });
    const service = await refusal(call(s.checked));
    expect(service.sentRequest).toBe(true);
    expect({ name: service.name, status: service.status, properties: properties(service) }).toEqual({
      name: 'CobVOperacaoInvalida',
      status: 400,
      properties: ['cobv.calendario.dataDeVencimento'],
    });
  });
});
