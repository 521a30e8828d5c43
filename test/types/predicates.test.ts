/**
 * The validity predicates narrow to a brand, not to `string`: the branch where the check fails
 * keeps a `string` variable a `string` (with `s is string` it became `never`). Checked by the
 * type-check of `npm test` (expectTypeOf fails to compile) and run as a test.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { isCivilDate, isValidAmount, isValidCpf, isValidKey, isValidTxid, type Checked } from '../../src/index.ts';

describe('validity predicates', () => {
  it('a failed check leaves a string a string; a passed one is still a string', () => {
    const inputs: string[] = ['12345678909', 'not a cpf'];
    const failed: string[] = [];
    for (const s of inputs) {
      if (!isValidCpf(s)) {
        expectTypeOf(s).toEqualTypeOf<string>();
        failed.push(s.trim());
      } else {
        expectTypeOf(s).toEqualTypeOf<Checked<'cpf'>>();
        expectTypeOf(s).toMatchTypeOf<string>();
      }
    }
    expect(failed).toEqual(['not a cpf']);
  });

  it('unknown input narrows to the brand', () => {
    const value: unknown = '2026-01-31';
    if (isCivilDate(value)) expectTypeOf(value).toEqualTypeOf<Checked<'civilDate'>>();
    const other: string = 'x';
    if (isValidTxid(other) || isValidAmount(other) || isValidKey(other)) expectTypeOf(other).toMatchTypeOf<string>();
    else expectTypeOf(other).toEqualTypeOf<string>();
    expect(isCivilDate(value)).toBe(true);
  });
});
