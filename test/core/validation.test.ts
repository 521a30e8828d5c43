import { describe, expect, it } from 'vitest';
import { CobOperacaoInvalida } from '../../src/errors/catalogue.ts';
import { refuse, violation } from '../../src/core/validation.ts';

describe('violation', () => {
  it('keeps a string value and the JSON of any other', () => {
    expect(violation('cob.valor.original', 'bad', '1,00')).toEqual({
      propriedade: 'cob.valor.original',
      razao: 'bad',
      valor: '1,00',
    });
    expect(violation('cob.calendario.expiracao', 'bad', -1).valor).toBe('-1');
    expect(violation('cob.loc', 'bad', { id: 'x' }).valor).toBe('{"id":"x"}');
  });

  it('names a value JSON cannot carry instead of throwing (found by fuzzing)', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(violation('cob.valor.original', 'bad', 10n).valor).toBe('[unserializable bigint]');
    expect(violation('cob.valor', 'bad', { original: [0n] }).valor).toBe('[unserializable object]');
    expect(violation('cob.loc', 'bad', cycle).valor).toBe('[unserializable object]');
    expect(violation('cob.chave', 'bad', Symbol('k')).valor).toBe('symbol');
    expect(() => refuse(CobOperacaoInvalida, [violation('cob.revisao', 'bad', [1n])])).toThrow(CobOperacaoInvalida);
  });
});
