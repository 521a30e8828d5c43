import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  TXID_PATTERN,
  generateIdempotencyKey,
  generateTxid,
  isValidE2eid,
  isValidIdRec,
  isValidIdSolicRec,
  isValidIdempotencyKey,
  isValidRefundId,
  isValidTxid,
} from '../../src/lib/ids.ts';
import { anyStringArb } from './arbitraries.ts';

describe('id predicates', () => {
  it('txid: 26 to 35 alphanumerics', () => {
    expect(isValidTxid('a'.repeat(26))).toBe(true);
    expect(isValidTxid(`${'Z9'.repeat(17)}x`)).toBe(true);
    expect(isValidTxid('a'.repeat(25))).toBe(false);
    expect(isValidTxid('a'.repeat(36))).toBe(false);
    expect(isValidTxid(`${'a'.repeat(30)}-`)).toBe(false);
    expect(isValidTxid(`${'a'.repeat(30)}\n`)).toBe(false);
  });

  it('e2eid: exactly 32 alphanumerics', () => {
    expect(isValidE2eid('E12345678202009091221abcdef12345')).toBe(true);
    // The spec's own 34-character examples are not valid e2eids.
    expect(isValidE2eid('E12345678202009091221ghijk78901234')).toBe(false);
    expect(isValidE2eid('E1234567820200909122_abcdef12345')).toBe(false);
  });

  it('refund id: 1 to 35 alphanumerics', () => {
    expect(isValidRefundId('1')).toBe(true);
    expect(isValidRefundId('D'.repeat(35))).toBe(true);
    expect(isValidRefundId('')).toBe(false);
    expect(isValidRefundId('D'.repeat(36))).toBe(false);
  });

  it('idempotency key: 1 to 50 alphanumerics', () => {
    expect(isValidIdempotencyKey('k'.repeat(50))).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(51))).toBe(false);
    expect(isValidIdempotencyKey('abc-123')).toBe(false);
  });

  it('idRec: R, R or N (retries after the due date or not), 8 of 0-9/A-Z, yyyyMMdd, 11 letters or digits', () => {
    expect(isValidIdRec('RR1234567820240115abcdefghijk')).toBe(true);
    expect(isValidIdRec('RN123456782024011577825445612')).toBe(true);
    expect(isValidIdRec('RRABCD123420240115abcdefghijk')).toBe(true);
    expect(isValidIdRec('RX1234567820240115abcdefghijk')).toBe(false);
    expect(isValidIdRec('NR1234567820240115abcdefghijk')).toBe(false);
    expect(isValidIdRec('RRabcd123420240115abcdefghijk')).toBe(false);
    expect(isValidIdRec('RR12345678202401A5abcdefghijk')).toBe(false);
    expect(isValidIdRec('RR1234567820240115abcdefghij')).toBe(false);
    expect(isValidIdRec('RR1234567820240115abcdefghijk\n')).toBe(false);
  });

  it('idSolicRec: SC, 8 of 0-9/A-Z, yyyyMMdd, 11 letters or digits', () => {
    expect(isValidIdSolicRec('SC876456782024021577825445312')).toBe(true);
    expect(isValidIdSolicRec('SR876456782024021577825445312')).toBe(false);
    expect(isValidIdSolicRec('SC87645678202402157782544531')).toBe(false);
    expect(isValidIdSolicRec('RN123456782024011577825445612')).toBe(false);
  });

  it('never throw on arbitrary strings', () => {
    fc.assert(
      fc.property(anyStringArb, (s) => {
        for (const check of [
          isValidTxid,
          isValidE2eid,
          isValidRefundId,
          isValidIdempotencyKey,
          isValidIdRec,
          isValidIdSolicRec,
        ]) {
          expect(typeof check(s)).toBe('boolean');
        }
      }),
    );
  });
});

describe('generateTxid', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('always matches the txid pattern, at every allowed length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 26, max: 35 }), (length) => {
        const txid = generateTxid(length);
        return txid.length === length && TXID_PATTERN.test(txid);
      }),
    );
    expect(generateTxid()).toHaveLength(35);
  });

  it.each([25, 36, 0, -1, 30.5, Number.NaN])('throws RangeError for length %s', (length) => {
    expect(() => generateTxid(length)).toThrow(RangeError);
  });

  it('is uniform over the 62 characters (chi-square, 62k draws)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const c of generateTxid(31)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    const expected = 62_000 / 62;
    let chi = 0;
    for (const n of counts.values()) chi += (n - expected) ** 2 / expected;
    // 61 degrees of freedom: the 99.99th percentile is about 115.
    expect(chi).toBeLessThan(115);
  });

  it('discards bytes from 248 up (no modulo bias) and draws again', () => {
    let call = 0;
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(
      <T extends ArrayBufferView | null>(array: T): T => {
        const bytes = array as unknown as Uint8Array;
        // First call: only rejectable bytes but one; later calls: byte 61 ('z').
        bytes.fill(call++ === 0 ? 255 : 61);
        if (call === 1) bytes[0] = 0;
        return array;
      },
    );
    expect(generateTxid(26)).toBe(`0${'z'.repeat(25)}`);
    expect(call).toBe(2);
  });
});

describe('generateIdempotencyKey', () => {
  it('gives 32 alphanumerics, different each time', () => {
    const a = generateIdempotencyKey();
    const b = generateIdempotencyKey();
    expect(isValidIdempotencyKey(a)).toBe(true);
    expect(a).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});
