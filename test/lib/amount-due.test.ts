import { describe, expect, it } from 'vitest';
import { amountDue, type AmountDueCharge } from '../../src/index.ts';
import * as payer from '../../src/payer.ts';
import { addDays } from '../../src/lib/dates.ts';
import { OFFICIAL_EXAMPLES } from '../support/due-dates.ts';

const charge = (due: string, valor: Partial<AmountDueCharge['valor']> = {}, validade = 30): AmountDueCharge => ({
  calendario: { dataDeVencimento: due, validadeAposVencimento: validade },
  valor: { original: '100.00', ...valor },
});

describe('amountDue: the official examples A–G', () => {
  it.each(OFFICIAL_EXAMPLES)(
    'example $name: every day listed accepted, the next refused',
    ({ due, validade, last, refused }) => {
      const cobv = charge(due, {}, validade);
      for (let day: string = due; day <= last; day = addDays(day, 1)) {
        expect(amountDue(cobv, day), day).toMatchObject({ payable: true, lastPayableDay: last });
      }
      if (refused) expect(amountDue(cobv, refused)).toMatchObject({ payable: false, lastPayableDay: last });
    },
  );
});

/**
 * Each modality on a due date that rolls: to the business day after a weekend, a national
 * holiday (Good Friday) and a local one (January 20 for one municipality). For each: the rolled
 * date, a late day with its calendar and business days late, an early day with its days early.
 */
const RIO = '3304557';
const local = { localHolidays: (codMun: string) => (codMun === RIO ? ['01-20'] : []), codMun: RIO };
const SCENARIOS = [
  {
    name: 'weekend',
    due: '2026-03-14',
    rolled: '2026-03-16',
    options: {},
    late: '2026-03-23', // 7 calendar, 5 business days
    juros: ['3.50', '7.00', '0.70', '0.23', '2.50', '5.00', '0.50', '0.50'],
    early: '2026-03-10', // 6 calendar, 4 business days
    desconto: ['0.60', '0.40', '3.00', '2.00'],
  },
  {
    name: 'national holiday (Good Friday)',
    due: '2026-04-03',
    rolled: '2026-04-06',
    options: {},
    late: '2026-04-22', // 16 calendar, 11 business days (Tiradentes on the 21st)
    juros: ['8.00', '16.00', '1.60', '0.53', '5.50', '11.00', '1.10', '1.10'],
    early: '2026-03-30', // 7 calendar, 4 business days
    desconto: ['0.70', '0.40', '3.50', '2.00'],
  },
  {
    name: 'local holiday',
    due: '2026-01-20',
    rolled: '2026-01-21',
    options: local,
    late: '2026-01-26', // 5 calendar, 3 business days
    juros: ['2.50', '5.00', '0.50', '0.16', '1.50', '3.00', '0.30', '0.30'],
    early: '2026-01-14', // 7 calendar, 4 business days (the 20th is the local holiday)
    desconto: ['0.70', '0.40', '3.50', '2.00'],
  },
] as const;

// Rates: amount per day 0.50, 1 % a day, 3 % a month, 12 % a year (calendar); 0.50, 1 %, 2.10 % a
// month, 25.20 % a year (business days).
const JUROS_RATES = ['0.50', '1.00', '3.00', '12.00', '0.50', '1.00', '2.10', '25.20'];

describe.each(SCENARIOS)(
  'amountDue on a due date rolled past a $name',
  ({ due, rolled, options, late, juros, early, desconto }) => {
    it('moves the due date and counts validity from it', () => {
      expect(amountDue(charge(due, {}, 0), rolled, options)).toMatchObject({
        payable: true,
        dueDate: rolled,
        lastPayableDay: rolled,
      });
      expect(amountDue(charge(due, {}, 0), addDays(rolled, 1), options).payable).toBe(false);
    });

    it.each([1, 2] as const)('multa %i: nothing through the rolled date, once after it', (modalidade) => {
      const cobv = charge(due, { multa: { modalidade, valorPerc: modalidade === 1 ? '3.00' : '2.50' } });
      expect(amountDue(cobv, due, options).valor).toEqual({ original: '100.00', multa: '0.00', final: '100.00' });
      expect(amountDue(cobv, rolled, options).valor).toEqual({ original: '100.00', multa: '0.00', final: '100.00' });
      const fine = modalidade === 1 ? '3.00' : '2.50';
      expect(amountDue(cobv, late, options).valor).toEqual({
        original: '100.00',
        multa: fine,
        final: (100 + Number(fine)).toFixed(2),
      });
    });

    it.each([1, 2, 3, 4, 5, 6, 7, 8] as const)(
      'juros %i: from the rolled date, in calendar or business days',
      (modalidade) => {
        const cobv = charge(due, { juros: { modalidade, valorPerc: JUROS_RATES[modalidade - 1]! } });
        expect(amountDue(cobv, rolled, options).valor.juros).toBe('0.00');
        const owed = juros[modalidade - 1]!;
        expect(amountDue(cobv, late, options).valor).toEqual({
          original: '100.00',
          juros: owed,
          final: (100 + Number(owed)).toFixed(2),
        });
      },
    );

    it.each([1, 2] as const)('abatimento %i: on any day', (modalidade) => {
      const cobv = charge(due, { abatimento: { modalidade, valorPerc: modalidade === 1 ? '5.00' : '10.00' } });
      for (const day of [early, rolled, late]) {
        expect(amountDue(cobv, day, options).valor).toEqual({
          original: '100.00',
          abatimento: modalidade === 1 ? '5.00' : '10.00',
          final: modalidade === 1 ? '95.00' : '90.00',
        });
      }
    });

    it.each([1, 2] as const)('desconto %i: a fixed date on the due date follows the roll', (modalidade) => {
      const cobv = charge(due, {
        desconto: { modalidade, descontoDataFixa: [{ data: due, valorPerc: modalidade === 1 ? '4.00' : '3.00' }] },
      });
      const off = modalidade === 1 ? '4.00' : '3.00';
      expect(amountDue(cobv, rolled, options).valor).toEqual({
        original: '100.00',
        desconto: off,
        final: (100 - Number(off)).toFixed(2),
      });
      expect(amountDue(cobv, addDays(rolled, 1), options).valor).toEqual({
        original: '100.00',
        desconto: '0.00',
        final: '100.00',
      });
    });

    it.each([3, 4, 5, 6] as const)(
      'desconto %i: per calendar or business day early, counted to the rolled date',
      (modalidade) => {
        const cobv = charge(due, { desconto: { modalidade, valorPerc: modalidade <= 4 ? '0.10' : '0.50' } });
        const off = desconto[modalidade - 3]!;
        expect(amountDue(cobv, early, options).valor).toEqual({
          original: '100.00',
          desconto: off,
          final: (100 - Number(off)).toFixed(2),
        });
        expect(amountDue(cobv, rolled, options).valor.desconto).toBe('0.00');
      },
    );
  },
);

describe('amountDue: tiers, rounding, limits', () => {
  it('takes the tier of the first fixed date on or after the day', () => {
    const cobv = charge('2026-03-20', {
      desconto: {
        modalidade: 1,
        descontoDataFixa: [
          { data: '2026-03-10', valorPerc: '4.00' },
          { data: '2026-03-05', valorPerc: '6.00' },
          { data: '2026-03-20', valorPerc: '2.00' },
        ],
      },
    });
    expect(amountDue(cobv, '2026-03-01').valor.desconto).toBe('6.00');
    expect(amountDue(cobv, '2026-03-06').valor.desconto).toBe('4.00');
    expect(amountDue(cobv, '2026-03-11').valor.desconto).toBe('2.00');
    expect(amountDue(cobv, '2026-03-21').valor.desconto).toBe('0.00');
  });

  it('rounds each component half up to the cent, once', () => {
    // 1 % of 0.50 is half a cent: 0.01. 12 % a year on 100.00 for 4 days is 13.15 cents: 0.13.
    expect(
      amountDue(
        {
          calendario: { dataDeVencimento: '2026-03-16' },
          valor: { original: '0.50', abatimento: { modalidade: 2, valorPerc: '1.00' } },
        },
        '2026-03-16',
      ).valor,
    ).toEqual({ original: '0.50', abatimento: '0.01', final: '0.49' });
    expect(
      amountDue(charge('2026-03-16', { juros: { modalidade: 4, valorPerc: '12.00' } }), '2026-03-20').valor.juros,
    ).toBe('0.13');
  });

  it('adds everything up, and a discount never takes the amount below 0.01', () => {
    const all = charge('2026-03-16', {
      multa: { modalidade: 2, valorPerc: '2.00' },
      juros: { modalidade: 6, valorPerc: '0.10' },
      abatimento: { modalidade: 1, valorPerc: '1.00' },
      desconto: { modalidade: 3, valorPerc: '1.00' },
    });
    expect(amountDue(all, '2026-03-20').valor).toEqual({
      original: '100.00',
      multa: '2.00',
      juros: '0.40',
      abatimento: '1.00',
      desconto: '0.00',
      final: '101.40',
    });
    expect(amountDue(all, '2026-03-06').valor).toEqual({
      original: '100.00',
      multa: '0.00',
      juros: '0.00',
      abatimento: '1.00',
      desconto: '10.00',
      final: '89.00',
    });
    expect(amountDue(all, '2025-01-01').valor).toMatchObject({ desconto: '98.99', final: '0.01' });
  });

  it('takes modalities written as strings (as the official examples send them), defaults validity to 30 days', () => {
    const cobv = {
      calendario: { dataDeVencimento: '2026-03-16' },
      valor: { original: '10.00', multa: { modalidade: '1', valorPerc: '1.00' } },
    };
    expect(amountDue(cobv, '2026-03-17').valor.final).toBe('11.00');
    expect(amountDue(cobv, '2026-03-17').lastPayableDay).toBe('2026-04-15');
  });

  it('refuses what it cannot read', () => {
    expect(() => amountDue(charge('2026-03-16'), '2026-3-16')).toThrow(RangeError);
    expect(() =>
      amountDue(charge('2026-03-16', { juros: { modalidade: 9, valorPerc: '1.00' } }), '2026-03-16'),
    ).toThrow(RangeError);
    expect(() => amountDue(charge('2026-03-16', { multa: { modalidade: 1, valorPerc: '1' } }), '2026-03-20')).toThrow(
      RangeError,
    );
    expect(() => amountDue(charge('2026-03-16', {}, -1), '2026-03-16')).toThrow(RangeError);
  });

  it('tells an amount from a percentage of `original` in every component (an original other than 100.00)', () => {
    // Due Monday 2026-03-16; paid 2026-03-10: 6 calendar, 4 business days early; 2026-03-23: 7 and 5 days late.
    const on = (valor: Partial<AmountDueCharge['valor']>, day: string) =>
      amountDue(charge('2026-03-16', { original: '250.00', ...valor }), day).valor;
    const fixed = (modalidade: number) => ({
      modalidade,
      descontoDataFixa: [{ data: '2026-03-16', valorPerc: '4.00' }],
    });
    expect(on({ abatimento: { modalidade: 1, valorPerc: '5.00' } }, '2026-03-16').abatimento).toBe('5.00');
    expect(on({ abatimento: { modalidade: 2, valorPerc: '5.00' } }, '2026-03-16').abatimento).toBe('12.50');
    expect(on({ desconto: fixed(1) }, '2026-03-16').desconto).toBe('4.00');
    expect(on({ desconto: fixed(2) }, '2026-03-16').desconto).toBe('10.00');
    const early = (modalidade: number) => on({ desconto: { modalidade, valorPerc: '0.10' } }, '2026-03-10').desconto;
    expect([3, 4, 5, 6].map(early)).toEqual(['0.60', '0.40', '1.50', '1.00']);
    expect(on({ multa: { modalidade: 1, valorPerc: '3.00' } }, '2026-03-23').multa).toBe('3.00');
    expect(on({ multa: { modalidade: 2, valorPerc: '3.00' } }, '2026-03-23').multa).toBe('7.50');
    const late = (modalidade: number) => on({ juros: { modalidade, valorPerc: '0.50' } }, '2026-03-23').juros;
    expect([1, 2, 5, 6].map(late)).toEqual(['3.50', '8.75', '2.50', '6.25']);
  });

  it('of fixed dates that roll to the same business day, the earliest counts, however they are listed', () => {
    // Saturday 2026-03-14 and Sunday 2026-03-15 both roll to Monday 2026-03-16.
    const tiers = [
      { data: '2026-03-15', valorPerc: '4.00' },
      { data: '2026-03-14', valorPerc: '5.00' },
    ];
    for (const descontoDataFixa of [tiers, [...tiers].reverse()]) {
      const cobv = charge('2026-03-20', { desconto: { modalidade: 1, descontoDataFixa } });
      expect(amountDue(cobv, '2026-03-16').valor.desconto).toBe('5.00');
      expect(amountDue(cobv, '2026-03-17').valor.desconto).toBe('0.00');
    }
  });

  it('a fixed-date discount without dates, or with a date that is no calendar date, takes nothing off', () => {
    expect(amountDue(charge('2026-03-16', { desconto: { modalidade: 1 } }), '2026-03-10').valor).toEqual({
      original: '100.00',
      desconto: '0.00',
      final: '100.00',
    });
    const cobv = charge('2026-03-16', {
      desconto: { modalidade: 2, descontoDataFixa: [{ data: 'soon', valorPerc: '5.00' }] },
    });
    expect(amountDue(cobv, '2026-03-10').valor.desconto).toBe('0.00');
  });

  it('refuses a modality out of its range, and says what it expects', () => {
    const at = (valor: Partial<AmountDueCharge['valor']>) => () => amountDue(charge('2026-03-16', valor), '2026-03-20');
    for (const modalidade of [0, 1.5, 'x', 3]) {
      expect(at({ multa: { modalidade, valorPerc: '1.00' } })).toThrow(new RangeError('modalidade must be 1 to 2'));
      expect(at({ abatimento: { modalidade, valorPerc: '1.00' } })).toThrow(
        new RangeError('modalidade must be 1 to 2'),
      );
    }
    expect(at({ desconto: { modalidade: 7, valorPerc: '1.00' } })).toThrow(new RangeError('modalidade must be 1 to 6'));
    expect(at({ juros: { modalidade: 9, valorPerc: '1.00' } })).toThrow(new RangeError('modalidade must be 1 to 8'));
    expect(at({ juros: { modalidade: 8, valorPerc: '1.00' } })).not.toThrow();
    expect(() => amountDue(charge('2026-03-16'), '16/03/2026')).toThrow(
      new RangeError('dates must be YYYY-MM-DD calendar dates'),
    );
    expect(() => amountDue(charge('2026-03-16', {}, 1.5), '2026-03-16')).toThrow(
      new RangeError('validadeAposVencimento must be a whole number of days'),
    );
  });

  it('is the same function from the payer entry', () => {
    expect(payer.amountDue).toBe(amountDue);
  });
});
