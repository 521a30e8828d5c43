import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_CENTS,
  MONEY_PATTERN,
  amountRefusal,
  fromCents,
  fromProviderNumber,
  amountForNumber,
  isValidAmount,
  isZeroAmount,
  parseAmount,
  sameAmount,
  toCents,
  wireAmount,
} from '../../src/lib/money.ts';
import { amountArb, anyStringArb } from './arbitraries.ts';

describe('isValidAmount', () => {
  it.each(['0.00', '0.01', '10.00', '9999999999.99', '0010.50'])('accepts %s', (s) => {
    expect(isValidAmount(s)).toBe(true);
  });

  it.each([
    '10',
    '10.0',
    '10.000',
    '10,00',
    '-1.00',
    '+1.00',
    ' 1.00',
    '1.00 ',
    '1e3.00',
    '99999999999.00',
    '.50',
    '1_000.00',
    '',
  ])('rejects %j', (s) => {
    expect(isValidAmount(s)).toBe(false);
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(anyStringArb, (s) => isValidAmount(s) === MONEY_PATTERN.test(s)));
  });
});

describe('toCents / fromCents', () => {
  it('converts exactly', () => {
    expect(toCents('0.10')).toBe(10);
    expect(toCents('19.99')).toBe(1999);
    expect(toCents('9999999999.99')).toBe(MAX_CENTS);
    expect(fromCents(0)).toBe('0.00');
    expect(fromCents(5)).toBe('0.05');
    expect(fromCents(1000)).toBe('10.00');
    expect(fromCents(MAX_CENTS)).toBe('9999999999.99');
  });

  it.each(['10', '1.5', '-1.00', 'abc', ''])('toCents throws RangeError for %j', (s) => {
    expect(() => toCents(s)).toThrow(RangeError);
  });

  it.each([-1, 1.5, MAX_CENTS + 1, Number.NaN, Number.POSITIVE_INFINITY])('fromCents throws RangeError for %s', (n) => {
    expect(() => fromCents(n)).toThrow(RangeError);
  });

  it('round-trips every valid canonical amount', () => {
    const canonical = amountArb.map((s) => s.replace(/^0+(?=\d)/, ''));
    fc.assert(fc.property(canonical, (s) => fromCents(toCents(s)) === s));
  });

  it('round-trips every cents value', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_CENTS }), (c) => toCents(fromCents(c)) === c));
  });

  it('agrees with BigInt arithmetic on the digits', () => {
    fc.assert(fc.property(amountArb, (s) => BigInt(toCents(s)) === BigInt(s.replace('.', ''))));
  });
});

describe('isZeroAmount', () => {
  it.each(['0.00', '00.00', '0000000000.00'])('%s is zero', (s) => expect(isZeroAmount(s)).toBe(true));
  it.each(['0.01', '0.10', '1.00', '10.00', '9000000000.00'])('%s is not', (s) => expect(isZeroAmount(s)).toBe(false));

  it('agrees with toCents on every wire amount', () => {
    fc.assert(fc.property(amountArb, (s) => isZeroAmount(s) === (toCents(s) === 0)));
  });
});

describe('parseAmount', () => {
  it.each([
    ['10', '10.00'],
    ['10.5', '10.50'],
    ['10.50', '10.50'],
    ['0010.50', '10.50'],
    ['0', '0.00'],
    ['9999999999.99', '9999999999.99'],
  ])('reads the string %j as %j', (input, out) => {
    expect(parseAmount(input)).toBe(out);
  });

  it('reads a number as integer cents', () => {
    expect(parseAmount(1050)).toBe('10.50');
    expect(parseAmount(0)).toBe('0.00');
  });

  it.each(['10.505', '10,50', '-1', '1e3', '', ' 1', '1.', '.5', '12345678901'])(
    'rejects the string %j with RangeError',
    (s) => {
      expect(() => parseAmount(s)).toThrow(RangeError);
    },
  );

  it('rejects fractional or negative numbers with RangeError (no float reais)', () => {
    expect(() => parseAmount(10.5)).toThrow(RangeError);
    expect(() => parseAmount(-100)).toThrow(RangeError);
  });

  it('rejects other types with TypeError', () => {
    expect(() => parseAmount(null as never)).toThrow(TypeError);
    expect(() => parseAmount(10n as never)).toThrow(TypeError);
  });
});

describe('fromProviderNumber', () => {
  it.each([
    [0.1, '0.10'],
    [1234.5, '1234.50'],
    [19.99, '19.99'],
    [0, '0.00'],
    [-0, '0.00'],
    [100, '100.00'],
    [0.1 + 0.2, '0.30'],
    [1.005, '1.01'],
    [2.675, '2.68'],
    [1.004999, '1.00'],
    [0.125, '0.13'],
    [0.005, '0.01'],
    [0.0049, '0.00'],
    [1e-7, '0.00'],
    [-12.3, '-12.30'],
    [-1.005, '-1.01'],
    [-0.001, '0.00'],
    [9999999999.99, '9999999999.99'],
    [9999999999.994, '9999999999.99'],
  ])('%s gives %s', (n, out) => {
    expect(fromProviderNumber(n)).toBe(out);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e10, 9999999999.995, 1e21, -1e300])(
    'throws RangeError for %s',
    (n) => {
      expect(() => fromProviderNumber(n)).toThrow(RangeError);
    },
  );

  it('throws RangeError for a non-number', () => {
    expect(() => fromProviderNumber('1.00' as never)).toThrow(RangeError);
  });

  it('is exact for every 2-decimal amount the provider can send', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_CENTS, max: MAX_CENTS }), (cents) => {
        const n = cents / 100; // what the provider's JSON turns into
        const out = fromProviderNumber(n);
        return out === (cents < 0 ? '-' : '') + fromCents(Math.abs(cents));
      }),
    );
  });
});

describe('amountRefusal: the refusal says what to pass instead', () => {
  it('a string short of two decimals: the string to write', () => {
    expect(amountRefusal('valor.original', '10.5')).toBe(
      'valor.original needs two decimals: write "10.50", not "10.5"',
    );
    expect(amountRefusal('valor.original', '10')).toBe('valor.original needs two decimals: write "10.00", not "10"');
  });

  it('a number in reais: the string to pass; a number no string can hold: money is never a number', () => {
    expect(amountRefusal('valor', 59.9)).toBe(
      'valor must be a decimal string: got the number 59.9; pass the string "59.90"',
    );
    expect(amountRefusal('valor', 0.001)).toBe(
      'valor must be a decimal string: got the number 0.001 (money is never a number)',
    );
  });

  it('anything else: the form expected', () => {
    for (const value of ['10,50', '-1.00', '10.505', null, undefined, {}]) {
      expect(amountRefusal('valor', value)).toBe('valor must be a decimal string with two decimals, such as "10.00"');
    }
  });
});

describe('sameAmount', () => {
  it('two wire amounts are compared as sums; anything else only as the same text', () => {
    expect(sameAmount('10.00', '10.00')).toBe(true);
    expect(sameAmount('0010.00', '10.00')).toBe(true);
    expect(sameAmount('10.00', '10.01')).toBe(false);
    expect(sameAmount('10,00', '10,00')).toBe(true);
    expect(sameAmount('10,00', '10.00')).toBe(false);
    expect(sameAmount(10, '10.00')).toBe(false);
    expect(sameAmount('10.00', 1000)).toBe(false);
  });
});

describe('wireAmount: an amount as a service sent it', () => {
  it('a decimal comma becomes a dot, padded to two decimals; spaces around it are dropped', () => {
    expect(wireAmount('140,45')).toBe('140.45');
    expect(wireAmount(' 140,5 ')).toBe('140.50');
  });

  it('a number is converted exactly; other strings are kept as sent; anything else is undefined', () => {
    expect(wireAmount(19.99)).toBe('19.99');
    expect(wireAmount('140.45')).toBe('140.45');
    expect(wireAmount('1,234,56')).toBe('1,234,56');
    expect(wireAmount(null)).toBeUndefined();
  });
});

describe('what a refusal of an amount says', () => {
  it('each error names what was wrong with the amount', () => {
    expect(() => toCents('10')).toThrow(/^amount must match/);
    expect(() => fromCents(-1)).toThrow(`cents must be an integer from 0 to ${MAX_CENTS}`);
    expect(() => parseAmount({} as never)).toThrow('amount must be a string or integer cents');
    expect(() => parseAmount('1,50')).toThrow('amount must be a decimal string with a dot and at most 2 decimals');
  });

  it("a provider's amount that is no finite number, or too large, is refused as such (not as cents)", () => {
    for (const n of [Number.NaN, Infinity, '10' as never]) {
      expect(() => fromProviderNumber(n)).toThrow('provider amount must be a finite number');
    }
    // Too large in exponent form, by its digits, or by one cent once rounded.
    for (const n of [1e21, 12345678901.5, 9999999999.995])
      expect(() => fromProviderNumber(n)).toThrow('provider amount is out of range');
  });

  it('a number with two decimals gets its string suggested', () => {
    expect(amountForNumber(59.99)).toBe('59.99');
    expect(amountRefusal('valor', 59.99)).toBe(
      'valor must be a decimal string: got the number 59.99; pass the string "59.99"',
    );
  });

  it('a value that only prints as an amount is not one; two missing amounts are not the same amount', () => {
    expect(isValidAmount(['10.00'])).toBe(false);
    expect(isValidAmount({ toString: () => '10.00' })).toBe(false);
    expect(sameAmount(undefined, undefined)).toBe(false);
    const list = ['10.00'];
    expect(sameAmount(list, list)).toBe(false);
  });
});
