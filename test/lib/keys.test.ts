import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_TYPES, detectKeyType, isValidKey } from '../../src/lib/keys.ts';
import {
  alphanumericCnpjArb,
  anyStringArb,
  cpfArb,
  emailArb,
  evpArb,
  numericCnpjArb,
  phoneArb,
} from './arbitraries.ts';

describe('detectKeyType', () => {
  it.each([
    ['52998224725', 'cpf'],
    ['11222333000181', 'cnpj'],
    ['12ABC34501DE35', 'cnpj'],
    ['+5510998765432', 'phone'],
    ['+5561912345678', 'phone'],
    ['+123', 'phone'],
    ['fulano@example.com', 'email'],
    ["a.b!#$&'*+/=?^_`{|}~-c@sub-domain.example.com", 'email'],
    // E-mails shaped like the other types at first sight: a leading +, 11, 14 and 36 characters.
    ['+fulano@example.com', 'email'],
    ['a@b.example', 'email'],
    ['abcd@e.example', 'email'],
    ['123e4567-e12b-12d1-a4567@example.com', 'email'],
    ['123e4567-e12b-12d1-a456-426655440000', 'evp'],
  ] as const)('%s is %s', (key, type) => {
    expect(detectKeyType(key)).toBe(type);
    expect(isValidKey(key)).toBe(true);
    expect(isValidKey(key, type)).toBe(true);
  });

  it.each([
    ['an 11-digit string with wrong check digits (no phone without +)', '52998224724'],
    ['a punctuated CPF', '529.982.247-25'],
    ['a lowercase alphanumeric CNPJ', '12abc34501de35'],
    ['a phone without +', '5510998765432'],
    ['a phone starting with +0', '+0510998765432'],
    ['a phone with 17 digits', '+12345678901234567'],
    ['a phone with spaces', '+55 10 998765432'],
    ['an uppercase e-mail', 'Fulano@example.com'],
    ['an e-mail with %', 'a%b@example.com'],
    ['an e-mail with an empty label', 'a@example..com'],
    ['an e-mail label starting with a hyphen', 'a@-example.com'],
    ['an e-mail without domain', 'a@'],
    ['an uppercase EVP', '123E4567-E12B-12D1-A456-426655440000'],
    ['an EVP without hyphens', '123e4567e12b12d1a456426655440000'],
    ['an EVP in braces', '{123e4567-e12b-12d1-a456-426655440000}'],
    ['empty', ''],
    ['whitespace around a valid key', ' 52998224725 '],
  ])('rejects %s', (_, key) => {
    expect(detectKeyType(key)).toBeUndefined();
    expect(isValidKey(key)).toBe(false);
  });

  it('caps every key at 77 characters, e-mails included', () => {
    const at77 = `${'a'.repeat(64)}@example.com`; // 64 + 12 = 76
    expect(detectKeyType(`${at77}`)).toBe('email');
    expect(detectKeyType(`a${at77}`)).toBe('email'); // 77
    expect(detectKeyType(`aa${at77}`)).toBeUndefined(); // 78
  });

  it('detects generated keys of every type', () => {
    const cases = [
      [cpfArb, 'cpf'],
      [numericCnpjArb, 'cnpj'],
      [alphanumericCnpjArb, 'cnpj'],
      [phoneArb, 'phone'],
      [emailArb, 'email'],
      [evpArb, 'evp'],
    ] as const;
    for (const [arb, type] of cases) {
      fc.assert(fc.property(arb, (key) => detectKeyType(key) === type && isValidKey(key, type)));
    }
  });

  it('isValidKey with a type accepts only keys of that type', () => {
    expect(isValidKey('52998224725', 'phone')).toBe(false);
    expect(isValidKey('+5510998765432', 'cpf')).toBe(false);
    expect(isValidKey('fulano@example.com', 'evp')).toBe(false);
    // A type outside the union, as plain JavaScript could pass it.
    expect(isValidKey('52998224725', 'toString' as never)).toBe(false);
    // Found by fuzzing: a type that cannot become a property key used to throw a TypeError.
    expect(isValidKey('52998224725', Object.create(null) as never)).toBe(false);
    expect(isValidKey('52998224725', Symbol('cpf') as never)).toBe(false);
  });

  it('never throws and answers consistently on arbitrary strings', () => {
    fc.assert(
      fc.property(anyStringArb, (s) => {
        const type = detectKeyType(s);
        if (type === undefined) return !isValidKey(s) && KEY_TYPES.every((t) => !isValidKey(s, t));
        return isValidKey(s) && isValidKey(s, type) && s.length <= 77;
      }),
    );
  });
});
