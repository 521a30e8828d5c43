import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpfOrCnpj, isValidCnpj, isValidCpf } from '../../src/lib/documents.ts';
import { alphanumericCnpjArb, anyStringArb, cpfArb, numericCnpjArb } from './arbitraries.ts';

describe('isValidCpf', () => {
  it.each(['52998224725', '11144477735', '12345678909'])('accepts %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ['wrong first check digit', '52998224715'],
    ['wrong second check digit', '52998224724'],
    ['all zeros', '00000000000'],
    ['all ones', '11111111111'],
    ['all nines', '99999999999'],
    ['punctuated', '529.982.247-25'],
    ['10 digits', '5299822472'],
    ['12 digits', '529982247250'],
    ['surrounding space', ' 52998224725'],
    ['letters', '5299822472A'],
    ['full-width digits', '５２９９８２２４７２５'],
    ['empty', ''],
  ])('rejects %s', (_, cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it('accepts every CPF with computed check digits', () => {
    fc.assert(fc.property(cpfArb, (cpf) => isValidCpf(cpf)));
  });

  it('rejects a valid CPF with either check digit changed', () => {
    fc.assert(
      fc.property(cpfArb, fc.constantFrom(9, 10), fc.integer({ min: 1, max: 9 }), (cpf, i, shift) => {
        const digit = (Number(cpf[i]) + shift) % 10;
        return !isValidCpf(cpf.slice(0, i) + String(digit) + cpf.slice(i + 1));
      }),
    );
  });
});

describe('isValidCnpj', () => {
  it.each(['11222333000181', '11444777000161', '12ABC34501DE35'])('accepts %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    ['wrong check digits', '11222333000182'],
    ['alphanumeric with a wrong check digit', '12ABC34501DE36'],
    ['lowercase alphanumeric', '12abc34501de35'],
    ['letters in the check digits', '12ABC34501DEA5'],
    ['all zeros', '00000000000000'],
    ['all same digit', '77777777777777'],
    ['punctuated', '11.222.333/0001-81'],
    ['13 characters', '1122233300018'],
    ['a CPF', '52998224725'],
    ['empty', ''],
  ])('rejects %s', (_, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('accepts every numeric and alphanumeric CNPJ with computed check digits', () => {
    fc.assert(fc.property(fc.oneof(numericCnpjArb, alphanumericCnpjArb), (cnpj) => isValidCnpj(cnpj)));
  });
});

describe('cpfOrCnpj', () => {
  it('tells the two apart and rejects the rest', () => {
    expect(cpfOrCnpj('52998224725')).toBe('cpf');
    expect(cpfOrCnpj('12ABC34501DE35')).toBe('cnpj');
    expect(cpfOrCnpj('52998224724')).toBeUndefined();
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(anyStringArb, (s) => {
        const kind = cpfOrCnpj(s);
        return kind === undefined || kind === 'cpf' || kind === 'cnpj';
      }),
    );
  });
});
