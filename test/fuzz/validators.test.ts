/**
 * Every exported helper under arbitrary input: strings of every kind (Unicode, lone surrogates,
 * near-misses of valid values, long repetitive strings that would expose a backtracking regex)
 * and, where a helper promises never to throw, values of any type. Nothing escapes but the
 * answer's type or the error class the helper documents, and no call takes long.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as helpers from '../../src/payer.ts';
import * as payer from '../../src/payer.ts';
import { alphanumericCnpjArb, amountArb, anyStringArb, cpfArb, keyArb, numericCnpjArb } from '../lib/arbitraries.ts';
import { FUZZ_RUNS, FUZZ_TIMEOUT } from './settings.ts';
import type { BrCodeBuildInput } from '../../src/payer.ts';

const {
  BrCodeError,
  KEY_TYPES,
  MONEY_PATTERN,
  addDays,
  brcode,
  buildBrCode,
  compareCivilDates,
  cpfOrCnpj,
  crc16,
  detectKeyType,
  isCivilDate,
  isValidCnpj,
  isValidCpf,
  isValidIdempotencyKey,
  isValidTxid,
  parseBrCode,
  toCents,
} = helpers;

/** A call slower than this on a short input is a hang in the making (a backtracking regex). */
const SLOW_MS = 250;

const civilDateArb = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const validStrings = fc.oneof(
  cpfArb,
  numericCnpjArb,
  alphanumericCnpjArb,
  keyArb,
  amountArb,
  civilDateArb,
  fc.constantFrom('3550308', '2611606', '5300108'),
  fc.stringMatching(/^[a-zA-Z0-9]{26,35}$/),
  fc
    .date({ noInvalidDate: true, min: new Date('1970-01-01Z'), max: new Date('2100-01-01Z') })
    .map((d) => d.toISOString()),
);

/** A valid value with one small edit: a character changed, inserted, removed, or doubled. */
const nearMissArb = fc
  .tuple(
    validStrings,
    fc.nat(),
    fc.constantFrom('replace', 'insert', 'delete', 'double', 'case', 'pad'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  )
  .map(([s, n, edit, c]) => {
    const i = s.length === 0 ? 0 : n % s.length;
    switch (edit) {
      case 'replace':
        return s.slice(0, i) + c + s.slice(i + 1);
      case 'insert':
        return s.slice(0, i) + c + s.slice(i);
      case 'delete':
        return s.slice(0, i) + s.slice(i + 1);
      case 'double':
        return s.slice(0, i + 1) + s.slice(i);
      case 'case':
        return s === s.toUpperCase() ? s.toLowerCase() : s.toUpperCase();
      default:
        return ` ${s}\n`;
    }
  });

/** Thousands of characters of a short pattern, then a tail that breaks the match at the end. */
const longArb = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('0', 'a', 'A1', '@', '.', '-', '+5', '0.', '1-', 'a@a.', '00'),
      fc.string({ minLength: 1, maxLength: 3 }),
    ),
    fc.integer({ min: 200, max: 5_000 }),
    fc.string({ maxLength: 3 }),
  )
  .map(([unit, n, tail]) => unit.repeat(n) + tail);

const stringArb = fc.oneof(
  { weight: 3, arbitrary: anyStringArb },
  { weight: 3, arbitrary: nearMissArb },
  { weight: 3, arbitrary: validStrings },
  { weight: 1, arbitrary: longArb },
);

/** Any JavaScript value a careless caller could pass where a string is typed. */
const anyValueArb = fc.oneof(
  stringArb,
  fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    maxDepth: 2,
  }),
  fc.constantFrom(undefined, null, Symbol('s'), () => '12345678909', Number.NaN, -0, Infinity),
);

type Contract = {
  /** Arguments to try. */
  args: fc.Arbitrary<unknown[]>;
  /** Holds for every answer. */
  answer: (value: unknown) => boolean;
  /** Error classes the helper documents; anything else thrown fails. */
  throws?: readonly (abstract new (
    ...args: never[]
  ) => Error)[];
};

const isBoolean = (v: unknown) => typeof v === 'boolean';
const civil = (v: unknown) => typeof v === 'string' && isCivilDate(v);
const wireAmount = (v: unknown) => typeof v === 'string' && MONEY_PATTERN.test(v);
const one = (arb: fc.Arbitrary<unknown>) => arb.map((v) => [v]);
const integers = fc.oneof(
  fc.integer(),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(0, -0, 26, 35, 36, 1e21),
);

/** Calendar options: none, local holidays as dates or days of the year (some malformed), or a function of codMun. */
const holidaysArb = fc.oneof(
  fc.constant(undefined),
  fc.record({
    localHolidays: fc.array(
      fc.oneof(
        civilDateArb,
        civilDateArb.map((d) => d.slice(5)),
        stringArb,
      ),
      { maxLength: 4 },
    ),
  }),
  fc.record({
    localHolidays: fc.constant((codMun: string) => [codMun.slice(0, 5)]),
    codMun: fc.constantFrom('3304557', '01-20'),
  }),
);
const percentArb = fc.oneof(amountArb, stringArb);
/** Due-date charges: every modality (and some out of range), amounts well formed or not. */
const dueChargeArb = fc.record({
  calendario: fc.record(
    { dataDeVencimento: fc.oneof(civilDateArb, stringArb), validadeAposVencimento: fc.oneof(fc.nat(60), integers) },
    { requiredKeys: ['dataDeVencimento'] },
  ),
  valor: fc.record(
    {
      original: percentArb,
      multa: fc.record({ modalidade: fc.integer({ min: 0, max: 3 }), valorPerc: percentArb }),
      juros: fc.record({
        modalidade: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('5', 'x')),
        valorPerc: percentArb,
      }),
      abatimento: fc.record({ modalidade: fc.integer({ min: 0, max: 3 }), valorPerc: percentArb }),
      desconto: fc.oneof(
        fc.record({
          modalidade: fc.integer({ min: 1, max: 2 }),
          descontoDataFixa: fc.array(fc.record({ data: fc.oneof(civilDateArb, stringArb), valorPerc: percentArb }), {
            maxLength: 3,
          }),
        }),
        fc.record({ modalidade: fc.integer({ min: 0, max: 7 }), valorPerc: percentArb }),
      ),
    },
    { requiredKeys: ['original'] },
  ),
});

/** One entry per function the helpers barrel exports: the test below fails when one is missing. */
const CONTRACTS: Record<string, Contract> = {
  isValidCpf: { args: one(anyValueArb), answer: isBoolean },
  isValidCnpj: { args: one(anyValueArb), answer: isBoolean },
  cpfOrCnpj: { args: one(anyValueArb), answer: (v) => v === undefined || v === 'cpf' || v === 'cnpj' },
  detectKeyType: {
    args: one(anyValueArb),
    answer: (v) => v === undefined || (KEY_TYPES as readonly unknown[]).includes(v),
  },
  isValidKey: {
    args: fc.tuple(anyValueArb, fc.oneof(fc.constantFrom(undefined, ...KEY_TYPES), anyValueArb)),
    answer: isBoolean,
  },
  isValidTxid: { args: one(anyValueArb), answer: isBoolean },
  isValidE2eid: { args: one(anyValueArb), answer: isBoolean },
  isValidRefundId: { args: one(anyValueArb), answer: isBoolean },
  isValidIdRec: { args: one(anyValueArb), answer: isBoolean },
  isValidIdSolicRec: { args: one(anyValueArb), answer: isBoolean },
  isValidIdempotencyKey: { args: one(anyValueArb), answer: isBoolean },
  isValidAmount: { args: one(anyValueArb), answer: isBoolean },
  isCivilDate: { args: one(anyValueArb), answer: isBoolean },
  isRfc3339: { args: one(anyValueArb), answer: isBoolean },
  isValidMunicipalityCode: { args: one(anyValueArb), answer: isBoolean },
  generateTxid: {
    args: one(fc.oneof(fc.constant(undefined), integers)),
    answer: (v) => typeof v === 'string' && isValidTxid(v),
    throws: [RangeError],
  },
  generateIdempotencyKey: { args: fc.constant([]), answer: (v) => typeof v === 'string' && isValidIdempotencyKey(v) },
  toCents: { args: one(stringArb), answer: (v) => Number.isSafeInteger(v) && (v as number) >= 0, throws: [RangeError] },
  fromCents: { args: one(integers), answer: wireAmount, throws: [RangeError] },
  parseAmount: { args: one(fc.oneof(stringArb, integers)), answer: wireAmount, throws: [RangeError, TypeError] },
  fromProviderNumber: {
    args: one(fc.oneof(fc.double(), integers, fc.double({ min: -1e10, max: 1e10 }))),
    answer: (v) => typeof v === 'string' && /^-?\d{1,10}\.\d{2}$/.test(v),
    throws: [RangeError],
  },
  todayInBrasilia: {
    args: fc.oneof(fc.constant([] as unknown[]), one(fc.date()), one(fc.date({ noInvalidDate: true }))),
    answer: civil,
    throws: [RangeError],
  },
  compareCivilDates: {
    args: fc.tuple(fc.oneof(civilDateArb, stringArb), fc.oneof(civilDateArb, stringArb)),
    answer: (v) => v === -1 || v === 0 || v === 1,
    throws: [RangeError],
  },
  addDays: { args: fc.tuple(fc.oneof(civilDateArb, stringArb), integers), answer: civil, throws: [RangeError] },
  addMonths: { args: fc.tuple(fc.oneof(civilDateArb, stringArb), integers), answer: civil, throws: [RangeError] },
  crc16: { args: one(stringArb), answer: (v) => typeof v === 'string' && /^[0-9A-F]{4}$/.test(v) },
  isBusinessDay: {
    args: fc.tuple(fc.oneof(civilDateArb, stringArb), holidaysArb),
    answer: isBoolean,
    throws: [RangeError],
  },
  nextBusinessDay: {
    args: fc.tuple(fc.oneof(civilDateArb, stringArb), holidaysArb),
    answer: civil,
    throws: [RangeError],
  },
  addBusinessDays: {
    args: fc.tuple(
      fc.oneof(civilDateArb, stringArb),
      fc.oneof(integers, fc.integer({ min: -2000, max: 2000 })),
      holidaysArb,
    ),
    answer: civil,
    throws: [RangeError],
  },
  amountDue: {
    args: fc.tuple(dueChargeArb, fc.oneof(civilDateArb, stringArb), holidaysArb),
    answer: (v) => {
      const { payable, dueDate, lastPayableDay, valor } = v as {
        payable: unknown;
        dueDate: unknown;
        lastPayableDay: unknown;
        valor: Record<string, unknown>;
      };
      return (
        typeof payable === 'boolean' &&
        civil(dueDate) &&
        civil(lastPayableDay) &&
        Object.values(valor).every(wireAmount)
      );
    },
    throws: [RangeError],
  },
  parseBrCode: { args: one(fc.oneof(stringArb, brCodeNearMiss())), answer: isBrCode, throws: [BrCodeError] },
  buildBrCode: {
    args: one(brCodeInputArb()),
    answer: (v) => typeof v === 'string' && isBrCode(parseBrCode(v)),
    throws: [BrCodeError],
  },
};

function isBrCode(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Array.isArray((v as { fields?: unknown }).fields);
}

/** Inputs of buildBrCode: each field valid, missing, or anything at all. */
function brCodeInputArb(): fc.Arbitrary<unknown> {
  const maybe = (arb: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: anyValueArb });
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record(
        {
          key: maybe(keyArb),
          url: maybe(fc.stringMatching(/^[a-z0-9.]{3,20}\/[a-zA-Z0-9/]{1,50}$/)),
          recurrenceUrl: maybe(fc.stringMatching(/^[a-z0-9.]{3,20}\/rec\/[a-zA-Z0-9]{1,50}$/)),
          amount: maybe(amountArb),
          txid: maybe(fc.stringMatching(/^[a-zA-Z0-9]{1,25}$/)),
          infoAdicional: maybe(fc.string({ maxLength: 80 })),
          merchantName: maybe(fc.string({ minLength: 1, maxLength: 40 })),
          merchantCity: maybe(fc.string({ minLength: 1, maxLength: 20 })),
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 1, arbitrary: anyValueArb },
  );
}

/**
 * Built codes (static, dynamic, and the composite ones with a recurrence in field 80) with one
 * edit inside, the CRC then recomputed so the parser has to judge the content.
 */
function brCodeNearMiss(): fc.Arbitrary<string> {
  const names = { merchantName: fc.constant('LOJA'), merchantCity: fc.constant('RECIFE') };
  const location = fc.stringMatching(/^[a-z0-9.]{3,20}\/[a-zA-Z0-9/]{1,40}$/);
  const recurrenceUrl = fc.option(
    location.map((l) => `${l}/rec`),
    { nil: undefined },
  );
  const input = fc.oneof(
    fc.record(
      { key: keyArb, amount: amountArb.filter((a) => toCents(a) > 0), recurrenceUrl, ...names },
      { requiredKeys: ['key', 'merchantName', 'merchantCity'] },
    ),
    fc.record({ url: location, recurrenceUrl, ...names }, { requiredKeys: ['url', 'merchantName', 'merchantCity'] }),
    fc.record({ recurrenceUrl: location, ...names }),
  );
  const code = input.map((value) => buildBrCode(value as BrCodeBuildInput));
  return fc
    .tuple(code, fc.nat(), fc.string({ maxLength: 3, unit: 'binary' }), fc.nat({ max: 3 }))
    .map(([text, n, insert, cut]) => {
      const body = text.slice(0, -4);
      const i = n % (body.length - 4);
      const edited = `${body.slice(0, i) + insert + body.slice(i + cut, -4)}6304`;
      return edited + crc16(edited);
    });
}

function check(name: string, contract: Contract, args: unknown[]): void {
  const fn = (helpers as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
  if (typeof fn !== 'function') throw new Error(`${name} is not exported`);
  const started = performance.now();
  let answer: unknown;
  try {
    answer = fn(...args);
  } catch (error) {
    const allowed = contract.throws ?? [];
    if (!allowed.some((Class) => error instanceof Class)) {
      throw new Error(`${name} threw ${(error as Error)?.name ?? typeof error}: ${(error as Error)?.message}`, {
        cause: error,
      });
    }
    return;
  } finally {
    const ms = performance.now() - started;
    // biome-ignore lint/correctness/noUnsafeFinally: a slow call fails the case whatever it answered.
    if (ms > SLOW_MS) throw new Error(`${name} took ${ms.toFixed(0)} ms`);
  }
  if (!contract.answer(answer)) throw new Error(`${name} answered ${String(answer)}`);
}

describe('fuzz: exported helpers', () => {
  it('has a contract for every function the helpers barrel exports (both entry points)', () => {
    const functions = Object.entries(helpers)
      .filter(([, value]) => typeof value === 'function' && !/^[A-Z]/.test(value.name))
      .map(([name]) => name);
    expect(functions.toSorted()).toEqual(Object.keys(CONTRACTS).toSorted());
    // The payer entry re-exports the same functions.
    for (const name of functions)
      expect((payer as Record<string, unknown>)[name], name).toBe((helpers as Record<string, unknown>)[name]);
    expect(brcode.parse).toBe(parseBrCode);
    expect(brcode.build).toBe(buildBrCode);
    expect(brcode.crc16).toBe(crc16);
  });

  for (const [name, contract] of Object.entries(CONTRACTS)) {
    it(
      `${name}: only its answer type or its documented errors, never slow`,
      () => {
        fc.assert(
          fc.property(contract.args, (args) => check(name, contract, args)),
          { numRuns: FUZZ_RUNS },
        );
      },
      FUZZ_TIMEOUT,
    );
  }

  it('the near-miss BR Codes reach the parser past the CRC check', () => {
    // Guards the generator above: most edited codes must fail on their content, not their CRC.
    const samples = fc.sample(brCodeNearMiss(), 200);
    const crcFailures = samples.filter((s) => {
      try {
        parseBrCode(s);
        return false;
      } catch (error) {
        return error instanceof BrCodeError && error.field === '63';
      }
    });
    expect(crcFailures.length).toBeLessThan(samples.length / 4);
    // The composite codes are among them: the recurrence template is fuzzed too.
    const composite = fc.sample(brCodeNearMiss(), 200).filter((s) => /80\d\d0014/.test(s));
    expect(composite.length).toBeGreaterThan(50);
  });

  it('valid strings of each kind are recognised (the generators produce real values)', () => {
    fc.assert(
      fc.property(cpfArb, (cpf) => cpfOrCnpj(cpf) === 'cpf' && detectKeyType(cpf) === 'cpf' && isValidCpf(cpf)),
    );
    fc.assert(fc.property(alphanumericCnpjArb, (cnpj) => isValidCnpj(cnpj)));
    fc.assert(
      fc.property(civilDateArb, (d) => isCivilDate(d) && compareCivilDates(d, d) === 0 && civil(addDays(d, 0))),
    );
  });
});
