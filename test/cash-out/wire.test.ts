/**
 * The provider's wire shapes as the caller receives them: money as exact decimal strings, the
 * two refund shapes as one, the `{ data }` envelope removed, the balance entry that counts.
 */
import { describe, expect, it } from 'vitest';
import { CashOutResponseError } from '../../src/cash-out/errors.ts';
import { balanceFrom, readTransfer, transferFrom } from '../../src/cash-out/wire.ts';
import { KEY, wireTransfer } from './fixtures.ts';

describe('balanceFrom', () => {
  it('the entry in SDK shape: decimal strings, name and date, every entry, the raw answer', () => {
    const body = {
      data: [
        {
          eventDate: '2026-01-01T10:00:00Z',
          balanceAmount: { name: 'main', available: 0.1, blocked: 2, overdraft: -1.5 },
        },
      ],
    };
    const entry = {
      eventDate: '2026-01-01T10:00:00Z',
      name: 'main',
      available: '0.10',
      blocked: '2.00',
      overdraft: '-1.50',
    };
    expect(balanceFrom(body)).toEqual({ ...entry, entries: [entry], raw: body });
  });

  it('a single entry without the list or without the balanceAmount envelope; figures it leaves out are undefined', () => {
    const balance = balanceFrom({ data: { available: 5 } });
    expect(balance).toMatchObject({ available: '5.00', eventDate: undefined, name: undefined });
    expect(balance.blocked).toBeUndefined();
    expect(balance.overdraft).toBeUndefined();
    const odd = balanceFrom({ data: { eventDate: 20260101, balanceAmount: { name: 7, available: 5 } } });
    expect(odd).toMatchObject({ available: '5.00', eventDate: undefined, name: undefined });
  });

  it('an entry without an available figure, or not an object, does not count', () => {
    const balance = balanceFrom({
      data: [{ balanceAmount: { blocked: 1 } }, 'junk', null, { balanceAmount: { available: 3 } }],
    });
    expect(balance.available).toBe('3.00');
    expect(balance.entries.map((e) => e.available)).toEqual(['3.00']);
  });

  it('the latest eventDate wins; a date that does not parse, or none, loses to any that does; the first wins a tie', () => {
    const at = (eventDate: string | undefined, available: number) => ({ eventDate, balanceAmount: { available } });
    const pick = (...data: unknown[]) => balanceFrom({ data }).available;
    expect(pick(at('2026-01-02T00:00:00Z', 2), at('2026-01-03T00:00:00Z', 3), at('bad', 4))).toBe('3.00');
    expect(pick(at(undefined, 1), at('2026-01-01T00:00:00Z', 2))).toBe('2.00');
    expect(pick(at('bad', 1), at('2026-01-01T00:00:00Z', 2))).toBe('2.00');
    expect(pick(at('2026-01-03T00:00:00Z', 5), at('2026-01-03T00:00:00Z', 6))).toBe('5.00');
    expect(pick(at('2026-01-03T00:00:00Z', 7), at('2026-01-01T00:00:00Z', 8))).toBe('7.00');
    expect(pick(at(undefined, 9), at('bad', 10))).toBe('9.00');
  });

  for (const [what, body] of [
    ['an empty list', { data: [] }],
    ['no data', {}],
    ['data that is neither a list nor an entry', { data: 'x' }],
    ['not an object', 'x'],
  ] as const) {
    it(`${what}: CashOutResponseError saying there is no readable balance`, () => {
      expect(() => balanceFrom(body)).toThrow(CashOutResponseError);
      expect(() => balanceFrom(body)).toThrow(/without a readable balance/);
    });
  }

  it('an amount out of range is a CashOutResponseError saying so, with the reason as its cause', () => {
    const error = (() => {
      try {
        return balanceFrom({ data: [{ balanceAmount: { available: 1e20 } }] });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CashOutResponseError);
    expect((error as Error).message).toMatch(/amount out of range/);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('transferFrom and readTransfer', () => {
  it('unwraps { data }, converts money, keeps unknown fields, and reads no refunds as []', () => {
    const transfer = transferFrom({ data: wireTransfer({ refunds: undefined, extra: { kept: true } }) }, {});
    expect(transfer).toMatchObject({
      idempotencyKey: KEY,
      status: 'PROCESSING',
      payment: { currency: 'BRL', amount: '10.50' },
      extra: { kept: true },
      refunds: [],
    });
    expect(transferFrom(wireTransfer({ refunds: undefined, extra: { kept: true } }), {})).toEqual(transfer);
  });

  it("a body's data that is not an object is the body itself", () => {
    expect(transferFrom({ ...wireTransfer(), data: 'x' }, {})).toMatchObject({ idempotencyKey: KEY, data: 'x' });
  });

  it('the status and key the record gives win over the defaults; the defaults fill what it leaves out', () => {
    const record = wireTransfer({ status: 'LIQUIDATED' });
    expect(readTransfer(record, { idempotencyKey: 'other', status: 'PROCESSING' })).toMatchObject({
      idempotencyKey: KEY,
      status: 'LIQUIDATED',
    });
    expect(readTransfer({ status: 3, idempotencyKey: 4 }, { idempotencyKey: KEY, status: 'PROCESSING' })).toMatchObject(
      { idempotencyKey: KEY, status: 'PROCESSING' },
    );
  });

  it('without a status or a key, and no default for it, there is no transfer', () => {
    expect(readTransfer({ idempotencyKey: KEY })).toBeUndefined();
    expect(readTransfer({ status: 'PROCESSING' })).toBeUndefined();
    expect(readTransfer({ status: 'PROCESSING' }, { idempotencyKey: KEY })).toMatchObject({ idempotencyKey: KEY });
    expect(readTransfer({ idempotencyKey: KEY }, { status: 'PROCESSING' })).toMatchObject({ status: 'PROCESSING' });
    for (const body of [{}, 'x', null, { data: { status: 'PROCESSING' } }]) {
      expect(() => transferFrom(body, {})).toThrow(CashOutResponseError);
      expect(() => transferFrom(body, {})).toThrow(/without a readable transfer/);
    }
  });

  it('money: the currency kept (BRL when absent); a payment without an amount, or not an object, left as sent', () => {
    const read = (payment: unknown) => readTransfer({ status: 'PROCESSING', idempotencyKey: KEY, payment })?.payment;
    expect(read({ currency: 'USD', amount: 1, note: 'n' })).toEqual({ currency: 'USD', amount: '1.00', note: 'n' });
    expect(read({ amount: 1 })).toEqual({ currency: 'BRL', amount: '1.00' });
    expect(read({ currency: 7, amount: 1 })).toEqual({ currency: 'BRL', amount: '1.00' });
    expect(read({ currency: 'BRL' })).toEqual({ currency: 'BRL' });
    expect(read({})).toEqual({});
    expect(read(null)).toBeNull();
    expect(read(5)).toBe(5);
  });

  it('refunds: bare numbers (the 202) and refund objects read alike; anything else kept', () => {
    const refunds = readTransfer({
      status: 'PARTIALLY_REFUNDED',
      idempotencyKey: KEY,
      refunds: [
        0.7,
        { endToEndId: 'D1', instantRefundAmount: { currency: 'BRL', amount: 1.5 } },
        { endToEndId: 'D2' },
        'x',
      ],
    })?.refunds;
    expect(refunds).toEqual([
      { instantRefundAmount: { amount: '0.70' } },
      { endToEndId: 'D1', instantRefundAmount: { currency: 'BRL', amount: '1.50' } },
      { endToEndId: 'D2' },
      { value: 'x' },
    ]);
    expect(readTransfer({ status: 'PROCESSING', idempotencyKey: KEY, refunds: 'none' })?.refunds).toEqual([]);
  });
});
