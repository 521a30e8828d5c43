/**
 * `brcode.lint`: every rule has a code that triggers it and a clean code that does not; lint
 * never throws, never echoes a key in full, and finds nothing in a code `build` makes.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINT_RULES, brcode, crc16, type BrCodeBuildInput } from '../../src/lib/brcode.ts';
import { DOC, withRulesTable } from '../../scripts/brcode-rules.ts';
import { FUZZ_RUNS, FUZZ_TIMEOUT } from '../fuzz/settings.ts';
import { amountArb, anyStringArb, keyArb } from './arbitraries.ts';

const withCrc = (payload: string): string => payload + crc16(payload);
const f = (id: string, value: string): string => id + String([...value].length).padStart(2, '0') + value;
const KEY = 'fulano@example.com';

interface Parts {
  head?: string;
  gui?: string;
  account?: string;
  mcc?: string;
  currency?: string;
  amount?: string;
  country?: string;
  name?: string;
  city?: string;
  extra?: string;
  more?: string;
}

/** A static code from parts; every part has a clean default, `''` leaves a field out. */
function code(p: Parts = {}): string {
  const account = p.account ?? f('01', KEY);
  return withCrc(
    (p.head ?? '000201') +
      f('26', f('00', p.gui ?? 'br.gov.bcb.pix') + account) +
      (p.mcc ?? '52040000') +
      (p.currency ?? '5303986') +
      (p.amount === undefined ? '540510.00' : p.amount === '' ? '' : f('54', p.amount)) +
      (p.country ?? '5802BR') +
      (p.name ?? '5906FULANO') +
      (p.city ?? '6008BRASILIA') +
      (p.more ?? '') +
      (p.extra ?? '62070503***') +
      '6304',
  );
}

const CLEAN = code();

/** A clean code whose CRC has a letter, written in lower case. */
function lowercaseCrc(): string {
  for (let n = 1; ; n++) {
    const c = code({ amount: `${n}.00` });
    if (/[A-F]/.test(c.slice(-4))) return c.slice(0, -4) + c.slice(-4).toLowerCase();
  }
}

/** For each rule: a code that triggers it. */
const TRIGGERS: Record<(typeof LINT_RULES)[number]['code'], string> = {
  'malformed-tlv': CLEAN.replace('5906FULANO', '5909FULANO'),
  'payload-format': code({ head: '000202' }),
  'crc-missing': CLEAN.slice(0, -8),
  'crc-mismatch': CLEAN.slice(0, -4) + (CLEAN.endsWith('0000') ? '0001' : '0000'),
  'duplicate-field': code({ more: '61080131010061080131010' + '0' }),
  'missing-field': code({ mcc: '' }),
  'missing-gui-template': code({ gui: 'br.com.outro' }),
  'missing-key-or-url': code({ account: f('02', 'SO TEXTO') }),
  'invalid-key': code({ account: f('01', '11111111111') }),
  'field-too-long': code({ account: f('02', 'X'.repeat(73)) }),
  'bad-point-of-initiation': code({ head: '000201010213' }),
  'bad-mcc': code({ mcc: '5204ABCD' }),
  'currency-not-brl': code({ currency: '5303840' }),
  'bad-amount': code({ amount: '10,00' }),
  'country-not-br': code({ country: '5802US' }),
  'zero-amount': code({ amount: '0.00' }),
  'empty-field': code({ name: '5900' }),
  'merchant-name-too-long': code({ name: f('59', 'FULANO DE TAL COMERCIO LTDA') }),
  'merchant-city-too-long': code({ city: f('60', 'SAO JOSE DOS CAMPOS') }),
  'non-ascii': code({ city: f('60', 'SÃO PAULO') }),
  'missing-reference-label': code({ extra: '' }),
  'reference-label-format': code({ extra: f('62', f('05', 'PEDIDO-123')) }),
  'gui-case': code({ gui: 'BR.GOV.BCB.PIX' }),
  'location-scheme': code({ account: f('25', 'https://instant.example.com/qr/v2/abc') }),
  'amount-decimals': code({ amount: '10.' }),
  'crc-lowercase': lowercaseCrc(),
  'postal-code-format': code({ more: f('61', '01310-100') }),
  'code-too-long': code({
    extra:
      f('62', f('05', '***') + f('50', 'x'.repeat(80))) +
      ['80', '81', '82', '83', '84'].map((id) => f(id, f('00', 'br.com.outro') + f('01', 'y'.repeat(70)))).join(''),
  }),
};

describe('brcode.lint', () => {
  it('finds nothing in a clean code', () => {
    expect(brcode.lint(CLEAN)).toEqual({ ok: true, findings: [] });
  });

  it.each(LINT_RULES.map((r) => [r.code, r] as const))(
    '%s: triggers on its code, not on the clean one',
    (name, rule) => {
      const triggered = brcode.lint(TRIGGERS[name]);
      const finding = triggered.findings.find((x) => x.code === name);
      expect(finding, JSON.stringify(triggered.findings)).toMatchObject({ code: name, severity: rule.severity });
      expect(typeof finding?.message).toBe('string');
      expect(
        rule.field === 'any' || rule.field.split(' ').includes(finding!.field) || rule.field === finding!.field,
      ).toBe(true);
      expect(triggered.ok).toBe(!triggered.findings.some((x) => x.severity === 'error'));
      expect(brcode.lint(CLEAN).findings.some((x) => x.code === name)).toBe(false);
    },
  );

  it('refuses an empty merchant name or city: an error at 59 or 60, the code not ok', () => {
    for (const [parts, field] of [
      [{ name: '5900' }, '59'],
      [{ city: '6000' }, '60'],
    ] as const) {
      const result = brcode.lint(code(parts));
      expect(result.ok).toBe(false);
      expect(result.findings).toContainEqual(
        expect.objectContaining({ code: 'empty-field', field, severity: 'error' }),
      );
    }
  });

  it.each(['0.00', '0', '0.', '000.00'])('refuses an amount of zero (%s): an error at 54', (amount) => {
    const result = brcode.lint(code({ amount }));
    expect(result.ok).toBe(false);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ code: 'zero-amount', field: '54', severity: 'error' }),
    );
  });

  it.each(['0.01', '10.00', '100'])('accepts an amount above zero (%s)', (amount) => {
    expect(brcode.lint(code({ amount })).findings.some((x) => x.code === 'zero-amount')).toBe(false);
  });

  it('every rule cites its source', () => {
    for (const rule of LINT_RULES) expect(rule.source, rule.code).toMatch(/\[(MAN|EMV|API|REP)\]/);
    expect(new Set(LINT_RULES.map((r) => r.code)).size).toBe(LINT_RULES.length);
  });

  it('has its rules table in docs/brcodes-and-qr.md (run `node scripts/brcode-rules.ts` after changing a rule)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toBe(withRulesTable(doc));
    for (const rule of LINT_RULES) expect(doc).toContain(`| \`${rule.code}\` | ${rule.severity} |`);
  });

  it('never echoes a key in full', () => {
    for (const key of ['11111111111', 'fulano@@example', '+5561912345678x', 'a'.repeat(78)]) {
      const { findings } = brcode.lint(code({ account: f('01', key) }));
      expect(findings.length).toBeGreaterThan(0);
      for (const finding of findings) expect(JSON.stringify(finding)).not.toContain(key);
    }
  });

  it('never throws on any string or value, and is ok only without errors', { timeout: FUZZ_TIMEOUT }, () => {
    const mutated = fc
      .tuple(fc.constantFrom(CLEAN, ...Object.values(TRIGGERS)), fc.nat(), anyStringArb)
      .map(([c, at, s]) => c.slice(0, at % c.length) + s + c.slice(at % c.length));
    fc.assert(
      fc.property(fc.oneof(anyStringArb, mutated, fc.anything()), (input) => {
        const result = brcode.lint(input);
        expect(result.ok).toBe(!result.findings.some((x) => x.severity === 'error'));
        for (const finding of result.findings) expect(LINT_RULES.some((r) => r.code === finding.code)).toBe(true);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('finds nothing in any code build makes from fields', { timeout: FUZZ_TIMEOUT }, () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', 'é', 'ç', 'Ã', ' ', '-', '.', '&', '9', '日', '😀'),
      minLength: 1,
      maxLength: 40,
    });
    const plain = (s: string) =>
      s
        .normalize('NFD')
        .replace(/[^\x20-\x7E]/g, '')
        .trim();
    const location = fc.stringMatching(/^[a-z0-9.-]{1,30}\/[a-zA-Z0-9/_-]{1,45}$/);
    const staticPart = fc.record(
      {
        key: keyArb,
        amount: amountArb.filter((a) => /[1-9]/.test(a)),
        txid: fc.oneof(fc.constant('***'), fc.stringMatching(/^[a-zA-Z0-9]{1,25}$/)),
        infoAdicional: fc.string({ unit: fc.constantFrom('a', 'B', ' ', 'ç', '1', '/'), maxLength: 20 }),
      },
      { requiredKeys: ['key'] },
    );
    const part = fc.oneof(
      staticPart,
      location.map((url) => ({ url })),
      fc.constant({}),
    );
    fc.assert(
      fc.property(part, fc.option(location, { nil: undefined }), text, text, (chosen, recurrenceUrl, name, city) => {
        fc.pre(plain(name) !== '' && plain(city) !== '');
        fc.pre('key' in chosen || 'url' in chosen || recurrenceUrl !== undefined);
        const input = {
          ...chosen,
          merchantName: name,
          merchantCity: city,
          ...(recurrenceUrl === undefined ? {} : { recurrenceUrl }),
        } as BrCodeBuildInput;
        let built: string;
        try {
          built = brcode.build(input);
        } catch {
          return; // key plus infoAdicional over the template's 99 characters: build refuses, nothing to lint
        }
        expect(brcode.lint(built)).toEqual({ ok: true, findings: [] });
      }),
      { numRuns: FUZZ_RUNS },
    );
  });
});

describe('lint rule sources', () => {
  const reports = (
    JSON.parse(readFileSync(new URL('../fixtures/brcode-lint-sources.json', import.meta.url), 'utf8')) as {
      reports: Record<string, string[]>;
    }
  ).reports;

  it('lists the issue threads of every rule whose source says [REP], and of no other', () => {
    const cited = LINT_RULES.filter((r) => r.source.includes('[REP]'))
      .map((r) => r.code)
      .sort();
    expect(Object.keys(reports).sort()).toEqual(cited);
    for (const code of cited) expect(reports[code]!.length, code).toBeGreaterThan(0);
  });
});
