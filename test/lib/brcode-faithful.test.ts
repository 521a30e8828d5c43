/**
 * Parse reads everything the standard allows and build writes it back: each case below was
 * refused or changed by the SDK before this file existed.
 */
import { describe, expect, it } from 'vitest';
import { brcode, crc16, type BrCode } from '../../src/lib/brcode.ts';

/** A payload up to and including `6304`, closed with its CRC. */
const withCrc = (payload: string): string => payload + crc16(payload);
/** One TLV field (ASCII values). */
const f = (id: string, value: string): string => id + String(value.length).padStart(2, '0') + value;
const ACCOUNT = '26330014br.gov.bcb.pix011152998224725';
const TAIL = '5802BR5904LOJA6008BRASILIA62070503***6304';

describe('parse reads what the standard allows', () => {
  it('reads an amount with a trailing dot ("98." is valid in EMV QRCPS) and writes it back as written', () => {
    const code = withCrc(`000201${ACCOUNT}5204000053039865403${'98.'}${TAIL}`);
    expect(brcode.parse(code).amount).toBe('98.00');
    expect(brcode.build(brcode.parse(code))).toBe(code);
  });

  it.each([
    ['30', '30.00'],
    ['0', '0.00'],
    ['0.50', '0.50'],
    ['05.00', '5.00'],
    ['007', '7.00'],
    ['10.5', '10.50'],
    ['1234567890.99', '1234567890.99'],
  ])('reads the amount %s as %s and writes it back as written', (written, amount) => {
    const code = withCrc(`000201${ACCOUNT}520400005303986${f('54', written)}${TAIL}`);
    expect(brcode.parse(code).amount).toBe(amount);
    expect(brcode.build(brcode.parse(code))).toBe(code);
  });

  it('counts a character outside the BMP once, and reads the fields after it', () => {
    const code = withCrc(`000201${ACCOUNT}52040000530398654041.005802BR5906LOJA😀X6008BRASILIA62070503***6304`);
    const parsed = brcode.parse(code);
    expect(parsed.merchantName).toBe('LOJA😀X');
    expect(parsed.merchantCity).toBe('BRASILIA');
    expect(parsed.txid).toBeUndefined();
    expect(brcode.build(parsed)).toBe(code);
  });

  it('reads fields in any order the standard permits (00 first, 63 last) and keeps that order', () => {
    const code = withCrc(`0002015802BR5904LOJA6008BRASILIA${ACCOUNT}53039865204000062070503***6304`);
    const parsed = brcode.parse(code);
    expect(parsed).toMatchObject({
      key: '52998224725',
      merchantName: 'LOJA',
      currency: '986',
      mcc: '0000',
      country: 'BR',
    });
    expect(brcode.build(parsed)).toBe(code);
  });
});

describe('build writes back what parse read, byte for byte', () => {
  it('keeps 01 = 12 on a static code meant for one payment', () => {
    const code = withCrc(`000201010212${ACCOUNT}520400005303986540510.00${TAIL}`);
    const parsed = brcode.parse(code);
    expect(parsed.key).toBe('52998224725');
    expect(brcode.build(parsed)).toBe(code);
  });

  it('keeps the postal code (61), an uppercase GUI and the name as written', () => {
    const code = withCrc(
      '00020101021126510014BR.GOV.BCB.PIX0114+55619123456780211Pedido 12345204000053039865406123.455802BR5914Loja do Bairro6009SAO PAULO61080131010062140510PEDIDO12346304',
    );
    const parsed = brcode.parse(code);
    expect(parsed.postalCode).toBe('01310100');
    expect(brcode.build(parsed)).toBe(code);
  });

  it('keeps the withdrawal/change facilitator (26-03)', () => {
    const account = f(
      '26',
      f('00', 'br.gov.bcb.pix') + f('01', '52998224725') + f('03', '12345678') + f('02', 'SAQUE TROCO'),
    );
    const code = withCrc(`000201${account}52040000530398654045.00${TAIL}`);
    expect(
      brcode
        .parse(code)
        .fields.find((f) => f.id === '26')
        ?.children?.map((c) => c.id),
    ).toEqual(['00', '01', '03', '02']);
    expect(brcode.build(brcode.parse(code))).toBe(code);
  });

  it('keeps templates and sub-fields it does not know (27, 62-50)', () => {
    const other = f('27', f('00', 'br.com.outro') + f('01', '0123456789'));
    const extra = f('62', f('05', '***') + f('50', f('00', 'br.com.outro') + f('01', '1')));
    const code = withCrc(`000201${ACCOUNT}${other}52040000530398654045.005802BR5904LOJA6008BRASILIA${extra}6304`);
    const parsed = brcode.parse(code);
    expect(parsed.fields.map((f) => f.id)).toContain('27');
    expect(brcode.build(parsed)).toBe(code);
  });

  it('writes what the user changed in the parsed code, and keeps the rest', () => {
    const code = withCrc(`000201010212${ACCOUNT}520400005303986540510.00${TAIL}`);
    const edited: BrCode = { ...brcode.parse(code), amount: '20.00', txid: 'PEDIDO1', postalCode: '01310100' };
    const again = brcode.parse(brcode.build(edited));
    expect(again).toMatchObject({
      amount: '20.00',
      txid: 'PEDIDO1',
      postalCode: '01310100',
      pointOfInitiation: 'dynamic',
      key: '52998224725',
    });
    const { postalCode: _, ...withoutPostal } = again;
    const { amount: __, ...bare } = withoutPostal;
    expect(brcode.parse(brcode.build(bare as BrCode))).not.toHaveProperty('postalCode');
    expect(brcode.parse(brcode.build(bare as BrCode))).not.toHaveProperty('amount');
  });
});
