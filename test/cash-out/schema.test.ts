/** Why a payment order is refused before sending: each rule's property and the reason a caller reads. */
import { describe, expect, it } from 'vitest';
import { paymentRequestViolations } from '../../src/cash-out/schema.ts';
import { CNPJ, CPF, EVP } from './fixtures.ts';

const order = { instantKey: EVP, creditorDocument: CPF, payment: { currency: 'BRL', amount: '10.00' } };
const reasons = (change: Record<string, unknown>) => paymentRequestViolations({ ...order, ...change });

describe('paymentRequestViolations', () => {
  it('a valid order breaks no rule; unknown fields pass', () => {
    expect(
      reasons({ priority: 'NORM', description: 'x', expiration: 10_800, ispbDeny: ['1234567A'], extra: 1 }),
    ).toEqual([]);
    expect(reasons({ creditorDocument: CNPJ, expiration: 1, priority: 'HIGH' })).toEqual([]);
  });

  const keys: Array<[string, string]> = [
    [`${'a'.repeat(80)}@example.com`, 'key is longer than 77 characters'],
    ['52998224724', 'CPF key with invalid check digits (a phone key needs a leading +)'],
    ['11222333000182', 'CNPJ key with invalid check digits'],
    ['+55 11 98765-4321', 'phone key must be + country code and number, digits only (e.g. +5511987654321)'],
    ['Payee@Example.com', 'e-mail key must be a lowercase address'],
    ['something', 'not a CPF, CNPJ, phone (+...), e-mail or EVP (lowercase UUID) key'],
    ['A'.repeat(77), 'not a CPF, CNPJ, phone (+...), e-mail or EVP (lowercase UUID) key'],
    ['x11222333000182', 'not a CPF, CNPJ, phone (+...), e-mail or EVP (lowercase UUID) key'],
    ['11222333000182x', 'not a CPF, CNPJ, phone (+...), e-mail or EVP (lowercase UUID) key'],
  ];
  for (const [key, razao] of keys) {
    it(`the destination key ${JSON.stringify(key.slice(0, 20))}: ${razao}`, () => {
      expect(reasons({ instantKey: key })).toEqual([{ propriedade: 'instantKey', razao }]);
    });
  }

  it('each other rule names its property (dotted on the wire) and says what it needs', () => {
    expect(reasons({ creditorDocument: '52998224700' })).toEqual([
      {
        propriedade: 'creditorDocument',
        razao: 'must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits',
      },
    ]);
    expect(reasons({ expiration: 1.5 })).toEqual([
      { propriedade: 'expiration', razao: 'must be an integer number of seconds' },
    ]);
    expect(reasons({ expiration: 0 }).map((v) => v.propriedade)).toEqual(['expiration']);
    expect(reasons({ expiration: 10_801 }).map((v) => v.propriedade)).toEqual(['expiration']);
    expect(reasons({ payment: { currency: 'USD', amount: '10.00' } })).toEqual([
      { propriedade: 'payment.currency', razao: 'only BRL is supported' },
    ]);
    expect(reasons({ payment: { currency: 'BRL', amount: 10 } })).toEqual([
      { propriedade: 'payment.amount', razao: 'must be a decimal string such as "10.00"' },
    ]);
    expect(reasons({ payment: { currency: 'BRL', amount: '10.5' } })).toEqual([
      { propriedade: 'payment.amount', razao: 'must be a decimal string with exactly two decimals, such as "10.00"' },
    ]);
    expect(reasons({ payment: { currency: 'BRL', amount: '0.00' } })).toEqual([
      { propriedade: 'payment.amount', razao: 'must be at least 0.01' },
    ]);
    expect(reasons({ payment: { currency: 'BRL', amount: '0.01' } })).toEqual([]);
    expect(reasons({ ispbDeny: ['12345678', 'short', 'x12345678', '123456789'] })).toEqual([
      { propriedade: 'ispbDeny.1', razao: 'must be an 8-character ISPB' },
      { propriedade: 'ispbDeny.2', razao: 'must be an 8-character ISPB' },
      { propriedade: 'ispbDeny.3', razao: 'must be an 8-character ISPB' },
    ]);
    expect(reasons({ priority: 'LOW' }).map((v) => v.propriedade)).toEqual(['priority']);
  });

  it('a body that is not an object is refused as a whole', () => {
    expect(paymentRequestViolations('x').map((v) => v.propriedade)).toEqual(['body']);
  });
});
