import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDigit, extractCodes, renderModule } from '../../scripts/generate-municipalities.ts';
import { MUNICIPALITY_COUNT, isValidMunicipalityCode, municipalityCodes } from '../../src/lib/municipalities.ts';
import { anyStringArb } from './arbitraries.ts';

const CSV = fileURLToPath(new URL('../../../shared/reference/ibge-municipios.csv', import.meta.url));
const MODULE = fileURLToPath(new URL('../../src/lib/municipalities.ts', import.meta.url));
const csvPresent = existsSync(CSV);

describe('isValidMunicipalityCode', () => {
  it.each([
    ['5300108', 'Brasília'],
    ['3550308', 'São Paulo'],
    ['3304557', 'Rio de Janeiro'],
    ['1100015', "Alta Floresta D'Oeste (first code)"],
    ['2605459', 'Fernando de Noronha'],
    ['2201919', 'Bom Princípio do Piauí (its last digit breaks the check-digit rule)'],
  ])('accepts %s (%s)', (code) => {
    expect(isValidMunicipalityCode(code)).toBe(true);
  });

  it.each([
    ['a code with a wrong check digit', '5300109'],
    ['an unassigned code', '5399999'],
    ['a state prefix alone', '5300000'],
    ['6 digits', '530010'],
    ['8 digits', '53001080'],
    ['a number-like string', '5.30e6'],
    ['padded', ' 5300108'],
    ['full-width digits', '５３００１０８'],
    ['empty', ''],
  ])('rejects %s', (_, code) => {
    expect(isValidMunicipalityCode(code)).toBe(false);
  });

  it('rejects the rule-following check digit where the real code breaks the rule', () => {
    const ruleDigit = checkDigit(220191);
    expect(ruleDigit).not.toBe(9);
    expect(isValidMunicipalityCode(`220191${ruleDigit}`)).toBe(false);
  });

  it('decodes to a strictly ascending list of 7-digit codes', () => {
    const codes = municipalityCodes();
    expect(codes).toHaveLength(MUNICIPALITY_COUNT);
    expect(
      codes.every((code, i) => code >= 1_000_000 && code <= 9_999_999 && (i === 0 || code > (codes[i - 1] ?? 0))),
    ).toBe(true);
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(anyStringArb, (s) => typeof isValidMunicipalityCode(s) === 'boolean'));
  });

  it('checkDigit follows the IBGE rule', () => {
    expect(checkDigit(530010)).toBe(8);
    expect(checkDigit(355030)).toBe(8);
    expect(checkDigit(110001)).toBe(5);
  });
});

describe.skipIf(!csvPresent)('the committed table against ../shared/reference/ibge-municipios.csv', () => {
  const csv = csvPresent ? readFileSync(CSV, 'utf8') : '';

  it('holds exactly the CSV codes', () => {
    const codes = extractCodes(csv);
    expect(municipalityCodes()).toEqual(codes);
    for (const code of codes) expect(isValidMunicipalityCode(String(code))).toBe(true);
  });

  it('is byte for byte what the generator writes (regenerate with node scripts/generate-municipalities.ts)', () => {
    expect(readFileSync(MODULE, 'utf8')).toBe(renderModule(extractCodes(csv)));
  });

  it('rejects other 7-digit codes (every third one, and the neighbours of each code)', () => {
    const known = new Set(extractCodes(csv));
    const wrong: number[] = [];
    for (let code = 1_000_000; code < 6_000_000; code += 3) {
      if (isValidMunicipalityCode(String(code)) !== known.has(code)) wrong.push(code);
    }
    for (const code of known) {
      for (const near of [code - 1, code + 1]) {
        if (isValidMunicipalityCode(String(near)) !== known.has(near)) wrong.push(near);
      }
    }
    expect(wrong).toEqual([]);
  });
});

it.runIf(!csvPresent)('skips the CSV comparison: ../shared/reference/ibge-municipios.csv is absent', () => {
  expect(csvPresent).toBe(false);
});
