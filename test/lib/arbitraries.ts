// fast-check arbitraries for valid identifiers. The check digits are computed here independently
// of src/lib/documents.ts (weights spelled out, mod 11), so the tests do not assume the code.
import fc from 'fast-check';

const mod11 = (values: readonly number[], weights: readonly number[]): number => {
  const r = values.reduce((sum, v, i) => sum + v * (weights[i] ?? 0), 0) % 11;
  return r < 2 ? 0 : 11 - r;
};

export function withCpfDigits(base9: string): string {
  const v = [...base9].map(Number);
  const d1 = mod11(v, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...v, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base9}${d1}${d2}`;
}

export function withCnpjDigits(base12: string): string {
  const v = [...base12].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11(v, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...v, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base12}${d1}${d2}`;
}

const notAllSame = (s: string): boolean => new Set(s).size > 1;

export const cpfArb = fc
  .stringMatching(/^\d{9}$/)
  .map(withCpfDigits)
  .filter(notAllSame);
export const numericCnpjArb = fc
  .stringMatching(/^\d{12}$/)
  .map(withCnpjDigits)
  .filter(notAllSame);
export const alphanumericCnpjArb = fc
  .stringMatching(/^[0-9A-Z]{12}$/)
  .map(withCnpjDigits)
  .filter(notAllSame);
export const phoneArb = fc.stringMatching(/^\+[1-9][0-9]\d{1,14}$/);
export const evpArb = fc.uuid().map((u) => u.toLowerCase());
// Kept well inside the directory's pattern: lowercase local part and labels, at most 77 chars.
export const emailArb = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9._+-]{1,20}$/),
    fc.array(fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }),
  )
  .map(([local, labels]) => `${local}@${labels.join('.')}`)
  .filter((email) => email.length <= 77);

export const keyArb = fc.oneof(cpfArb, numericCnpjArb, alphanumericCnpjArb, phoneArb, emailArb, evpArb);

/** A wire amount: 1 to 10 integer digits (leading zeros possible) and 2 decimals. */
export const amountArb = fc.stringMatching(/^\d{1,10}\.\d{2}$/);

/** Any string at all: ASCII, full Unicode (lone surrogates included) and near-misses. */
export const anyStringArb = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({
    unit: fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    ),
  }),
  fc.string({ unit: fc.constantFrom('0', '1', '9', 'A', 'a', '.', '-', '+', '@', '*', ' ', '\n') }),
);
