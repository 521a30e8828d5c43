import { describe, expect, it } from 'vitest';
import { batchRequest, chargeRequest, normalizeCharge } from '../../src/collection/normalize.ts';

describe('normalizeCharge', () => {
  it('turns integers written as strings into numbers and leaves everything else alone', () => {
    const body = {
      revisao: '2',
      calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: '3600' },
      valor: { original: '10.00', modalidadeAlteracao: '1', multa: { modalidade: '2', valorPerc: '2.00' } },
      loc: { id: '789', tipoCob: 'cob' },
      status: 'NOVO_STATUS',
      extra: { expiracao: '1' },
    };
    expect(normalizeCharge(body)).toEqual({
      revisao: 2,
      calendario: { criacao: '2026-01-01T00:00:00Z', expiracao: 3600 },
      valor: { original: '10.00', modalidadeAlteracao: 1, multa: { modalidade: 2, valorPerc: '2.00' } },
      loc: { id: 789, tipoCob: 'cob' },
      status: 'NOVO_STATUS',
      extra: { expiracao: '1' },
    });
  });

  it('passes anything that is not an object through', () => {
    expect(normalizeCharge(undefined)).toBeUndefined();
    expect(normalizeCharge('text')).toBe('text');
  });
});

describe('chargeRequest and batchRequest (what is sent)', () => {
  it("send the integers the official examples write as strings as numbers, without touching the caller's object", () => {
    const body = {
      calendario: { dataDeVencimento: '2020-12-31', validadeAposVencimento: '30' },
      valor: {
        original: '123.45',
        multa: { modalidade: '2', valorPerc: '15.00' },
        retirada: { saque: { valor: '5.00', modalidadeAlteracao: '0' } },
      },
      chave: 'k',
    };
    const copy = structuredClone(body);
    const sent = chargeRequest(body);
    expect(sent).toEqual({
      calendario: { dataDeVencimento: '2020-12-31', validadeAposVencimento: 30 },
      valor: {
        original: '123.45',
        multa: { modalidade: 2, valorPerc: '15.00' },
        retirada: { saque: { valor: '5.00', modalidadeAlteracao: 0 } },
      },
      chave: 'k',
    });
    expect(body).toEqual(copy);
    const batch = { descricao: 'd', cobsv: [body, { txid: 't', valor: { original: '1.00' } }] };
    const sentBatch = batchRequest(batch);
    expect(sentBatch.cobsv[0]).toEqual(sent);
    expect(sentBatch.cobsv[1]).toBe(batch.cobsv[1]);
    expect(batch.cobsv[0]).toBe(body);
  });

  it('return a body already in the schema form as it is (no copy), and leave money and other strings alone', () => {
    const body = {
      calendario: { expiracao: 3600 },
      valor: { original: '10', modalidadeAlteracao: 1 },
      solicitacaoPagador: '42',
    };
    expect(chargeRequest(body)).toBe(body);
    const batch = { descricao: 'd', cobsv: [body] };
    expect(batchRequest(batch)).toBe(batch);
    expect(chargeRequest(undefined)).toBeUndefined();
  });
});
