/**
 * The corpus: BR Codes other projects and public issue threads published (test/fixtures/
 * brcode-corpus.json, each with its source). Every one is linted (never a throw), parsed, and
 * written back byte for byte; the few the SDK refuses are refused for the recorded reason, and
 * that reason is checked here on the code itself (a CRC that does not match, a length that
 * overruns), so the corpus says which published codes are themselves wrong.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BrCodeError, brcode } from '../../src/lib/brcode.ts';

interface Entry {
  code: string;
  source: { repository: string; path?: string; line?: number; commit?: string; url?: string };
  states: string;
  verdict: string;
  parseError?: string;
  lint: string[];
}

const corpus = JSON.parse(readFileSync(new URL('../fixtures/brcode-corpus.json', import.meta.url), 'utf8')) as {
  codes: Entry[];
};
const parsed = corpus.codes.filter((c) => c.parseError === undefined);
const refused = corpus.codes.filter((c) => c.parseError !== undefined);

describe('the corpus of published BR Codes', () => {
  it('holds at least 100 codes from at least 20 sources, each cited', () => {
    expect(corpus.codes.length).toBeGreaterThanOrEqual(100);
    expect(new Set(corpus.codes.map((c) => c.source.repository)).size).toBeGreaterThanOrEqual(20);
    for (const { source } of corpus.codes) {
      expect(source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      if (source.url === undefined) {
        expect(source.path).toBeTruthy();
        expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
      } else {
        expect(source.url).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/(issues|pull)\/\d+$/);
      }
    }
    expect(new Set(corpus.codes.map((c) => c.code)).size).toBe(corpus.codes.length);
  });

  it('parses every code but the few recorded as wrong, and writes each back byte for byte', () => {
    expect(parsed.length).toBeGreaterThanOrEqual(95);
    for (const { code } of parsed) expect(brcode.build(brcode.parse(code))).toBe(code.trim());
  });

  it('lints every code without throwing, finding what the corpus records', () => {
    for (const { code, lint } of corpus.codes) {
      const result = brcode.lint(code);
      expect(result.findings.map((f) => `${f.severity} ${f.code} ${f.field}`)).toEqual(lint);
    }
  });

  it('agrees with parse: a code parse refuses has an error finding; one it reads errs only on its key or amount', () => {
    for (const { code, parseError } of corpus.codes) {
      const { ok, findings } = brcode.lint(code);
      if (parseError !== undefined) expect(ok, code).toBe(false);
      // parse reads the key and the amount as written; lint also checks the key is a key (test keys like
      // 11111111111 are not) and that a present amount is not zero (two "free amount" fixtures write 0.00).
      else
        for (const f of findings.filter((f) => f.severity === 'error'))
          expect(['invalid-key', 'zero-amount'], code).toContain(f.code);
    }
  });

  it('refuses the published codes that are themselves wrong, for the reason recorded, with evidence', () => {
    for (const { code, parseError } of refused) {
      expect(() => brcode.parse(code)).toThrow(BrCodeError);
      expect(() => brcode.parse(code)).toThrow(parseError);
      const crc = /the code says ([0-9A-F]{4}), its content gives ([0-9A-F]{4})/.exec(parseError ?? '');
      if (crc !== null) {
        // Evidence: the CRC over everything up to 6304 is not the one printed.
        expect(code.slice(-4).toUpperCase()).toBe(crc[1]);
        expect(brcode.crc16(code.slice(0, -4))).toBe(crc[2]);
      }
    }
    // The ones their own sources call wrong are among them (a CRC test case, an "invalid" fixture).
    for (const entry of corpus.codes.filter((c) => c.verdict.startsWith('invalid')))
      expect(entry.parseError).toBeDefined();
  });
});
