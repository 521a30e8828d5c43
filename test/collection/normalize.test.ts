import { describe, expect, it } from 'vitest';
import { normalizeCharge } from '../../src/collection/normalize.ts';

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
