import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InstantError } from '../../src/errors/base.ts';
import {
  BR_CODE_GUI,
  BrCodeError,
  brcode,
  buildBrCode,
  crc16,
  parseBrCode,
  type BrCodeBuildInput,
  type BrCodeStaticInput,
} from '../../src/lib/brcode.ts';
import { amountArb, anyStringArb, keyArb } from './arbitraries.ts';

// Fixtures. Each CRC below was also checked outside this code base, with Python's
// binascii.crc_hqx(utf8_bytes, 0xFFFF) (CRC16/CCITT-FALSE).

/** The static example of the payment initiation manual (CRC 1D3D, as the spec facts record). */
const MANUAL_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** The official OpenAPI's dynamic "QR Composto" example, host made neutral, lengths and CRC redone. */
const DYNAMIC_COMPOSITE =
  '00020101021226800014br.gov.bcb.pix2558instant.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80840014br.gov.bcb.pix2562instant.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa3531948906304D655';

/** Journey 2 (recurrence only): the GUI alone in 26, no 01 and no 54, 62-05 `***`, then 80. */
const RECURRENCE_ONLY =
  '00020126180014br.gov.bcb.pix5204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***80840014br.gov.bcb.pix2562instant.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac1200026304FABB';

/** Journey 4's static variant: key, free text, amount and a 25-character txid, then 80. */
const STATIC_COMPOSITE =
  '00020126730014br.gov.bcb.pix01365b1e2c7a-93d4-4f0e-8a61-2d7c9e4b3f100211Contrato 425204000053039865406650.345802BR5904LOJA6008BRASILIA62290525CONTRATO42VIGENTE2026ABCD80840014br.gov.bcb.pix2562instant.example.com/qr/v2/rec/6f0c2a9e4b7d41c8a3e5f19d2b8c7a0463040605';

/** A due-date charge's dynamic code, same construction. */
const DYNAMIC_COBV =
  '00020101021226850014br.gov.bcb.pix2563instant.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e75204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304E5D4';

/** Static: uppercase GUI, 01 = 11, phone key, infoAdicional, amount, postal code, txid. */
const STATIC_FULL =
  '00020101021126510014BR.GOV.BCB.PIX0114+55619123456780211Pedido 12345204000053039865406123.455802BR5914LOJA DO BAIRRO6009SAO PAULO61080131010062140510PEDIDO12346304BFAF';

/** Another scheme's template in 26, the GUI in 27, an EMV short amount `10.5`. */
const GUI_IN_27 =
  '00020126280017com.example.other0103abc27400014br.gov.bcb.pix0118fulano@example.com520400005303986540410.55802BR5906FULANO6006RECIFE62070503***6304E4A8';

/** Non-ASCII merchant name and city: the CRC runs over UTF-8 bytes, lengths count characters. */
const UTF8_TEXT =
  '00020126330014br.gov.bcb.pix0111529982247255204000053039865802BR5904José6009São Paulo62070503***6304D31D';

/** Independent CRC16/CCITT-FALSE: table-driven, over TextEncoder bytes. */
const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
  return c & 0xffff;
});
function referenceCrc(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text))
    crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function expectBrCodeError(fn: () => unknown, field?: string): BrCodeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BrCodeError);
    expect(error).toBeInstanceOf(InstantError);
    if (field !== undefined) expect((error as BrCodeError).field).toBe(field);
    return error as BrCodeError;
  }
  throw new Error('expected a BrCodeError');
}

/** Rewrites the CRC of a payload so that only the defect under test remains. */
const withCrc = (payloadUpTo6304: string): string => payloadUpTo6304 + crc16(payloadUpTo6304);

describe('crc16', () => {
  it('gives the CRC16/CCITT-FALSE check value', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
  });

  it.each([
    MANUAL_STATIC,
    DYNAMIC_COMPOSITE,
    DYNAMIC_COBV,
    STATIC_FULL,
    GUI_IN_27,
    UTF8_TEXT,
    RECURRENCE_ONLY,
    STATIC_COMPOSITE,
  ])('matches the fixture %#', (code) => {
    expect(crc16(code.slice(0, -4))).toBe(code.slice(-4));
  });

  it('works on UTF-8 bytes, not UTF-16 code units or Latin-1', () => {
    expect(crc16('São')).toBe(referenceCrc('São'));
    expect(crc16('São')).not.toBe(crc16('S\u00e3o'.normalize('NFD')));
    expect(crc16('😀')).toBe(referenceCrc('😀'));
    expect(crc16('\ud800x')).toBe(referenceCrc('\ud800x')); // lone surrogate → U+FFFD
    expect(crc16('x\udc00')).toBe(referenceCrc('x\udc00'));
  });

  it('agrees with a table-driven implementation on any string', () => {
    fc.assert(fc.property(anyStringArb, (s) => crc16(s) === referenceCrc(s)));
  });

  it('agrees on every prefix, a character other than ASCII at an odd or even place (two bytes a step)', () => {
    const text = `0002012658${'a'.repeat(9)}é${'b'.repeat(4)}😀c\ud800d`;
    for (let end = 0; end <= text.length; end++)
      expect(crc16(text.slice(0, end))).toBe(referenceCrc(text.slice(0, end)));
  });
});

describe('parseBrCode', () => {
  it('reads the manual static example', () => {
    expect(parseBrCode(MANUAL_STATIC)).toEqual({
      payloadFormat: '01',
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      mcc: '0000',
      currency: '986',
      country: 'BR',
      crc: '1D3D',
      fields: [
        { id: '00', value: '01' },
        {
          id: '26',
          value: '0014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000',
          children: [
            { id: '00', value: BR_CODE_GUI },
            { id: '01', value: '123e4567-e12b-12d1-a456-426655440000' },
          ],
        },
        { id: '52', value: '0000' },
        { id: '53', value: '986' },
        { id: '58', value: 'BR' },
        { id: '59', value: 'Fulano de Tal' },
        { id: '60', value: 'BRASILIA' },
        { id: '62', value: '0503***', children: [{ id: '05', value: '***' }] },
        { id: '63', value: '1D3D' },
      ],
    });
  });

  it('reads a dynamic composite code, unreserved template 80 included', () => {
    const code = parseBrCode(DYNAMIC_COMPOSITE);
    expect(code.pointOfInitiation).toBe('dynamic');
    expect(code.url).toBe('instant.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441');
    expect(code.recurrenceUrl).toBe('instant.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890');
    expect(code.key).toBeUndefined();
    expect(code.txid).toBeUndefined();
    expect(code.amount).toBeUndefined();
    expect(code.crc).toBe('D655');
    expect(code.fields.find((f) => f.id === '80')?.children).toEqual([
      { id: '00', value: BR_CODE_GUI },
      { id: '25', value: 'instant.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890' },
    ]);
  });

  it('reads a due-date dynamic code', () => {
    expect(parseBrCode(DYNAMIC_COBV).url).toBe('instant.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e7');
    expect(parseBrCode(DYNAMIC_COBV).recurrenceUrl).toBeUndefined();
  });

  it('reads a recurrence-only composite code (journey 2): neither key nor url', () => {
    const code = parseBrCode(RECURRENCE_ONLY);
    expect(code).toMatchObject({
      recurrenceUrl: 'instant.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002',
      crc: 'FABB',
    });
    expect(code.key).toBeUndefined();
    expect(code.url).toBeUndefined();
    expect(code.amount).toBeUndefined();
    expect(code.txid).toBeUndefined();
    expect(code.pointOfInitiation).toBeUndefined();
  });

  it('reads the static composite variant (journey 4): key, amount and txid beside the recurrence', () => {
    expect(parseBrCode(STATIC_COMPOSITE)).toMatchObject({
      key: '5b1e2c7a-93d4-4f0e-8a61-2d7c9e4b3f10',
      infoAdicional: 'Contrato 42',
      amount: '650.34',
      txid: 'CONTRATO42VIGENTE2026ABCD',
      recurrenceUrl: 'instant.example.com/qr/v2/rec/6f0c2a9e4b7d41c8a3e5f19d2b8c7a04',
      crc: '0605',
    });
  });

  it('reads the recurrence only from a template with the GUI and a 25, in 80 to 99', () => {
    const tail = (template: string) =>
      withCrc(`${RECURRENCE_ONLY.slice(0, RECURRENCE_ONLY.indexOf('8084')) + template}6304`);
    const other = '0017com.example.other2509example/x';
    const gui = `0014${BR_CODE_GUI}`;
    expect(parseBrCode(tail(`80${other.length}${other}`)).recurrenceUrl).toBeUndefined();
    expect(parseBrCode(tail(`80${gui.length}${gui}`)).recurrenceUrl).toBeUndefined();
    const in81 = `${gui}2509example/r`;
    expect(parseBrCode(tail(`81${in81.length}${in81}`)).recurrenceUrl).toBe('example/r');
    const both = `80${other.length}${other}81${in81.length}${in81}`;
    expect(parseBrCode(tail(both)).recurrenceUrl).toBe('example/r');
    const twice = `${gui}2509example/r2509example/s`;
    expectBrCodeError(() => parseBrCode(tail(`80${twice.length}${twice}`)), '80-25');
  });

  it('reads every optional field of a static code, with the GUI in uppercase', () => {
    const code = parseBrCode(STATIC_FULL);
    expect(code).toMatchObject({
      pointOfInitiation: 'static',
      key: '+5561912345678',
      infoAdicional: 'Pedido 1234',
      amount: '123.45',
      merchantName: 'LOJA DO BAIRRO',
      merchantCity: 'SAO PAULO',
      postalCode: '01310100',
      txid: 'PEDIDO1234',
      crc: 'BFAF',
    });
    expect(code.url).toBeUndefined();
  });

  it('finds the GUI in any merchant account template and normalises EMV amounts', () => {
    const code = parseBrCode(GUI_IN_27);
    expect(code.key).toBe('fulano@example.com');
    expect(code.amount).toBe('10.50');
    expect(code.fields.find((f) => f.id === '26')?.children).toEqual([
      { id: '00', value: 'com.example.other' },
      { id: '01', value: 'abc' },
    ]);
  });

  it('counts characters for lengths and UTF-8 bytes for the CRC', () => {
    const code = parseBrCode(UTF8_TEXT);
    expect(code.merchantName).toBe('José');
    expect(code.merchantCity).toBe('São Paulo');
    expect(code.key).toBe('52998224725');
  });

  it('keeps other point-of-initiation values as they are', () => {
    const code = parseBrCode(withCrc(`000201010213${MANUAL_STATIC.slice(6, -4)}`));
    expect(code.pointOfInitiation).toBe('13');
  });

  it('ignores surrounding whitespace and accepts a lowercase CRC', () => {
    expect(parseBrCode(`  ${MANUAL_STATIC}\n`).crc).toBe('1D3D');
    expect(parseBrCode(`${MANUAL_STATIC.slice(0, -4)}1d3d`).crc).toBe('1D3D');
  });

  it('rejects a wrong CRC', () => {
    const error = expectBrCodeError(() => parseBrCode(`${MANUAL_STATIC.slice(0, -4)}1D3E`), '63');
    expect(error.message).toContain('1D3D');
    expectBrCodeError(() => parseBrCode(MANUAL_STATIC.replace('Fulano', 'Fulana')), '63');
  });

  it.each([
    ['an empty string', ''],
    ['plain text', 'hello world'],
    ['a truncated code', MANUAL_STATIC.slice(0, -1)],
    ['a length running past the end', '000201265'],
    ['a non-digit length', withCrc('0002012x0000')],
  ])('rejects malformed TLV: %s', (_, text) => {
    expectBrCodeError(() => parseBrCode(text));
  });

  it('rejects a code that does not start with 00 = 01', () => {
    expectBrCodeError(() => parseBrCode(withCrc(`${MANUAL_STATIC.slice(6, -4)}`)), '00');
    expectBrCodeError(() => parseBrCode(withCrc(`000202${MANUAL_STATIC.slice(6, -4)}`)), '00');
  });

  it('rejects a code without the CRC field at the end', () => {
    expectBrCodeError(() => parseBrCode(MANUAL_STATIC.slice(0, -8)), '63');
    expectBrCodeError(() => parseBrCode(`${MANUAL_STATIC.slice(0, -8)}6303ABC`), '63');
    expectBrCodeError(() => parseBrCode(`${MANUAL_STATIC}5802BR`), '63');
    for (const notHex of ['1D 3', ' 1D3', '+1D3', '0x1D', '1D3G', '1.D3'])
      expect(expectBrCodeError(() => parseBrCode(`${MANUAL_STATIC.slice(0, -4)}${notHex}`), '63').message).toMatch(
        /4 hex digits/,
      );
  });

  it('rejects a code without a merchant account template carrying the GUI', () => {
    const noGui = MANUAL_STATIC.slice(0, -4).replace('0014br.gov.bcb.pix', '0014br.gov.bcb.xyz');
    expectBrCodeError(() => parseBrCode(withCrc(noGui)), '26');
    const without26 = `000201${MANUAL_STATIC.slice(6 + 4 + 58, -4)}`;
    expectBrCodeError(() => parseBrCode(withCrc(without26)), '26');
  });

  it.each([
    ['52', '52040000'],
    ['53', '5303986'],
    ['58', '5802BR'],
    ['59', '5913Fulano de Tal'],
    ['60', '6008BRASILIA'],
  ])('rejects a code without field %s', (field, tlv) => {
    expectBrCodeError(() => parseBrCode(withCrc(MANUAL_STATIC.slice(0, -4).replace(tlv, ''))), field);
  });

  it('rejects repeated fields', () => {
    expectBrCodeError(() => parseBrCode(withCrc(MANUAL_STATIC.slice(0, -4).replace('5802BR', '5802BR5802BR'))), '58');
    expectBrCodeError(
      () => parseBrCode(withCrc(MANUAL_STATIC.slice(0, -4).replace('62070503***', '621405030010503***'))),
      '62-05',
    );
    const twoKeys = MANUAL_STATIC.slice(0, -4).replace('2658', '2665').replace('426655440000', '4266554400000103abc');
    expectBrCodeError(() => parseBrCode(withCrc(twoKeys)), '26-01');
  });

  it('rejects a malformed additional data template or amount', () => {
    expectBrCodeError(
      () => parseBrCode(withCrc(MANUAL_STATIC.slice(0, -4).replace('62070503***', '62070599***'))),
      '62',
    );
    expectBrCodeError(() => parseBrCode(withCrc(MANUAL_STATIC.slice(0, -4).replace('5802BR', '54041,005802BR'))), '54');
  });

  it('rejects a non-string', () => {
    expectBrCodeError(() => parseBrCode(42 as never));
  });

  it('throws only BrCodeError on arbitrary strings', () => {
    fc.assert(
      fc.property(anyStringArb, (s) => {
        try {
          parseBrCode(s);
        } catch (error) {
          return error instanceof BrCodeError;
        }
        return true;
      }),
    );
  });

  it('detects any single changed character', () => {
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.constantFrom(MANUAL_STATIC, STATIC_FULL, DYNAMIC_COMPOSITE), fc.nat(), printable, (code, n, c) => {
        const i = n % (code.length - 4);
        fc.pre(code[i] !== c);
        expectBrCodeError(() => parseBrCode(code.slice(0, i) + c + code.slice(i + 1)));
      }),
    );
  });
});

describe('buildBrCode', () => {
  it('builds the manual static example up to the merchant name case', () => {
    const code = buildBrCode({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect(code).toBe(withCrc(MANUAL_STATIC.slice(0, -4).replace('Fulano de Tal', 'FULANO DE TAL')));
  });

  it('builds a dynamic code: 01 = 12, url, txid ***, no amount', () => {
    const code = buildBrCode({
      url: 'instant.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e7',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect(code).toBe(withCrc(DYNAMIC_COBV.slice(0, -4).replace('Fulano de Tal', 'FULANO DE TAL')));
    expect(parseBrCode(code)).toMatchObject({ pointOfInitiation: 'dynamic', url: expect.any(String) });
  });

  it('writes every static field in order', () => {
    const code = buildBrCode({
      key: '+5561912345678',
      amount: '123.45',
      txid: 'PEDIDO1234',
      merchantName: 'Loja do Bairro',
      merchantCity: 'São Paulo',
      infoAdicional: 'Pedido 1234',
    });
    expect(code).toBe(
      withCrc(
        '000201' +
          '26510014br.gov.bcb.pix0114+55619123456780211Pedido 1234' +
          '52040000' +
          '5303986' +
          '5406123.45' +
          '5802BR' +
          '5914LOJA DO BAIRRO' +
          '6009SAO PAULO' +
          '62140510PEDIDO1234' +
          '6304',
      ),
    );
  });

  it('reduces merchant name and city to plain uppercase ASCII and truncates them', () => {
    const code = parseBrCode(
      buildBrCode({
        key: '52998224725',
        merchantName: '  José\tda Conceição — Açaí & Cia. Ltda  ',
        merchantCity: 'São José dos Campos',
      }),
    );
    expect(code.merchantName).toBe('JOSE DA CONCEICAO ACAI &'); // 25 chars, then the trailing space trimmed
    expect(code.merchantCity).toBe('SAO JOSE DOS CA');
  });

  it('reduces infoAdicional to plain ASCII, keeping its case, and drops it when empty', () => {
    expect(
      parseBrCode(buildBrCode({ key: '52998224725', merchantName: 'A', merchantCity: 'B', infoAdicional: 'Ação nº 5' }))
        .infoAdicional,
    ).toBe('Acao n 5');
    expect(
      parseBrCode(buildBrCode({ key: '52998224725', merchantName: 'A', merchantCity: 'B', infoAdicional: '😀' }))
        .infoAdicional,
    ).toBeUndefined();
  });

  it.each<[string, BrCodeBuildInput, string]>([
    ['an invalid key', { key: '52998224724', merchantName: 'A', merchantCity: 'B' }, '26-01'],
    ['a punctuated CPF key', { key: '529.982.247-25', merchantName: 'A', merchantCity: 'B' }, '26-01'],
    ['an amount with one decimal', { key: '52998224725', amount: '10.5', merchantName: 'A', merchantCity: 'B' }, '54'],
    ['a zero amount', { key: '52998224725', amount: '0.00', merchantName: 'A', merchantCity: 'B' }, '54'],
    [
      'a 26-character txid',
      { key: '52998224725', txid: 'a'.repeat(26), merchantName: 'A', merchantCity: 'B' },
      '62-05',
    ],
    ['a txid with a hyphen', { key: '52998224725', txid: 'RP-1', merchantName: 'A', merchantCity: 'B' }, '62-05'],
    ['an empty txid', { key: '52998224725', txid: '', merchantName: 'A', merchantCity: 'B' }, '62-05'],
    [
      'a 73-character infoAdicional',
      { key: '52998224725', infoAdicional: 'x'.repeat(73), merchantName: 'A', merchantCity: 'B' },
      '26-02',
    ],
    ['a merchant name with no ASCII left', { key: '52998224725', merchantName: '日本', merchantCity: 'B' }, '59'],
    ['an empty merchant city', { key: '52998224725', merchantName: 'A', merchantCity: '  ' }, '60'],
    [
      'a url with a scheme',
      { url: 'https://instant.example.com/qr/v2/abc', merchantName: 'A', merchantCity: 'B' },
      '26-25',
    ],
    ['a url with spaces', { url: 'instant.example.com/qr v2', merchantName: 'A', merchantCity: 'B' }, '26-25'],
    ['an empty url', { url: '', merchantName: 'A', merchantCity: 'B' }, '26-25'],
    [
      'a 78-character url',
      { url: `instant.example.com/${'a'.repeat(58)}`, merchantName: 'A', merchantCity: 'B' },
      '26-25',
    ],
  ])('rejects %s', (_, input, field) => {
    expectBrCodeError(() => buildBrCode(input), field);
  });

  it('accepts a url of 77 characters and a host with a port', () => {
    expect(
      parseBrCode(buildBrCode({ url: `instant.example.com/${'a'.repeat(57)}`, merchantName: 'A', merchantCity: 'B' }))
        .url,
    ).toHaveLength(77);
    expect(
      parseBrCode(buildBrCode({ url: 'localhost:8443/qr/v2/abc', merchantName: 'A', merchantCity: 'B' })).url,
    ).toBe('localhost:8443/qr/v2/abc');
  });

  it('rejects what the types forbid, for plain JavaScript callers', () => {
    const url = 'instant.example.com/qr/v2/abc';
    expectBrCodeError(() => buildBrCode({ url, amount: '10.00', merchantName: 'A', merchantCity: 'B' } as never), '54');
    expectBrCodeError(() => buildBrCode({ url, txid: 'ABC', merchantName: 'A', merchantCity: 'B' } as never), '62-05');
    expectBrCodeError(
      () => buildBrCode({ url, infoAdicional: 'x', merchantName: 'A', merchantCity: 'B' } as never),
      '26-02',
    );
    expectBrCodeError(
      () => buildBrCode({ url, key: '52998224725', merchantName: 'A', merchantCity: 'B' } as never),
      '26',
    );
    expectBrCodeError(() => buildBrCode({ merchantName: 'A', merchantCity: 'B' } as never), '26');
    expectBrCodeError(() => buildBrCode({ key: '52998224725', merchantName: 1, merchantCity: 'B' } as never), '59');
    expectBrCodeError(() => buildBrCode(null as never));
    expect(
      parseBrCode(buildBrCode({ url, txid: '***', merchantName: 'A', merchantCity: 'B' } as never)).txid,
    ).toBeUndefined();
  });

  it('builds the composite codes: recurrence only, dynamic and static with field 80 after 62', () => {
    const recurrenceUrl = 'instant.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002';
    expect(buildBrCode({ recurrenceUrl, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })).toBe(
      RECURRENCE_ONLY,
    );
    const dynamic = parseBrCode(DYNAMIC_COMPOSITE);
    expect(
      buildBrCode({
        url: dynamic.url!,
        recurrenceUrl: dynamic.recurrenceUrl!,
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
      }),
    ).toBe(withCrc(DYNAMIC_COMPOSITE.slice(0, -4).replace('Fulano de Tal', 'FULANO DE TAL')));
    const built = buildBrCode({
      key: '5b1e2c7a-93d4-4f0e-8a61-2d7c9e4b3f10',
      infoAdicional: 'Contrato 42',
      amount: '650.34',
      txid: 'CONTRATO42VIGENTE2026ABCD',
      recurrenceUrl: 'instant.example.com/qr/v2/rec/6f0c2a9e4b7d41c8a3e5f19d2b8c7a04',
      merchantName: 'Loja',
      merchantCity: 'Brasília',
    });
    expect(built).toBe(STATIC_COMPOSITE);
  });

  it('refuses a composite input out of rule, naming the field', () => {
    const recurrenceUrl = 'instant.example.com/qr/v2/rec/abc';
    const names = { merchantName: 'A', merchantCity: 'B' };
    expectBrCodeError(() => buildBrCode({ recurrenceUrl: `https://${recurrenceUrl}`, ...names }), '80-25');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl: `example.com/${'r'.repeat(66)}`, ...names }), '80-25');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl: '', ...names }), '80-25');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl: 'a b', ...names }), '80-25');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl: 42, ...names } as never), '80-25');
    expectBrCodeError(() => buildBrCode({ url: 'x.example/1', recurrenceUrl: 'ftp://x', ...names }), '80-25');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl, amount: '1.00', ...names } as never), '54');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl, txid: 'ABC', ...names } as never), '62-05');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl, infoAdicional: 'x', ...names } as never), '26-02');
    expectBrCodeError(() => buildBrCode({ recurrenceUrl, key: 'not a key', ...names } as never), '26-01');
    expectBrCodeError(
      () => buildBrCode({ recurrenceUrl, key: '52998224725', url: 'x.example/1', ...names } as never),
      '26',
    );
    // 77 characters is the longest location; the template then holds exactly 99.
    const longest = `example.com/${'r'.repeat(65)}`;
    expect(parseBrCode(buildBrCode({ recurrenceUrl: longest, ...names })).recurrenceUrl).toBe(longest);
  });

  it('keeps the merchant account template within 99 characters', () => {
    const key = `${'a'.repeat(65)}@example.com`; // 77 characters: the template is full
    expect(parseBrCode(buildBrCode({ key, merchantName: 'A', merchantCity: 'B' })).key).toBe(key);
    const error = expectBrCodeError(
      () => buildBrCode({ key, infoAdicional: 'x', merchantName: 'A', merchantCity: 'B' }),
      '26',
    );
    expect(error.message).toContain('99');
    // key 11 + info 62 = 73 fits exactly; one more character does not.
    expect(() =>
      buildBrCode({ key: '52998224725', infoAdicional: 'x'.repeat(62), merchantName: 'A', merchantCity: 'B' }),
    ).not.toThrow();
    expectBrCodeError(
      () => buildBrCode({ key: '52998224725', infoAdicional: 'x'.repeat(63), merchantName: 'A', merchantCity: 'B' }),
      '26',
    );
  });

  it('round-trips random static inputs through parse', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', 'é', 'ç', 'Ã', ' ', '-', '.', '&', '9', '日'),
      minLength: 1,
      maxLength: 40,
    });
    const txid = fc.oneof(fc.constant(undefined), fc.constant('***'), fc.stringMatching(/^[a-zA-Z0-9]{1,25}$/));
    const amount = fc.option(
      amountArb.filter((a) => /[1-9]/.test(a)),
      { nil: undefined },
    );
    fc.assert(
      fc.property(keyArb, amount, txid, text, text, (key, amountValue, txidValue, name, city) => {
        const plain = (s: string) =>
          s
            .normalize('NFD')
            .replace(/[^\x20-\x7E]/g, '')
            .replace(/ {2,}/g, ' ')
            .trim()
            .toUpperCase();
        fc.pre(plain(name) !== '' && plain(city) !== '');
        const input: BrCodeStaticInput = { key, merchantName: name, merchantCity: city };
        if (amountValue !== undefined) input.amount = amountValue;
        if (txidValue !== undefined) input.txid = txidValue;
        const code = parseBrCode(buildBrCode(input));
        expect(code.key).toBe(key);
        expect(code.amount).toBe(amountValue === undefined ? undefined : amountValue.replace(/^0+(?=\d)/, ''));
        expect(code.txid).toBe(txidValue === '***' ? undefined : txidValue);
        expect(code.pointOfInitiation).toBeUndefined();
        expect(code.url).toBeUndefined();
        expect(code.merchantName).toBe(plain(name).slice(0, 25).trimEnd());
        expect(code.merchantCity).toBe(plain(city).slice(0, 15).trimEnd());
        expect(code.merchantName).toMatch(/^[\x20-\x7E]{1,25}$/);
      }),
    );
  });

  it('round-trips random dynamic inputs through parse', () => {
    const url = fc.stringMatching(/^[a-z0-9.-]{1,30}\/[a-zA-Z0-9/_-]{1,45}$/);
    fc.assert(
      fc.property(url, (location) => {
        const code = parseBrCode(buildBrCode({ url: location, merchantName: 'Fulano', merchantCity: 'Recife' }));
        expect(code).toMatchObject({
          url: location,
          pointOfInitiation: 'dynamic',
          merchantName: 'FULANO',
          merchantCity: 'RECIFE',
        });
        expect(code.amount).toBeUndefined();
        expect(code.txid).toBeUndefined();
      }),
    );
  });

  it('round-trips random composite inputs through parse', () => {
    const location = fc.stringMatching(/^[a-z0-9.-]{1,30}\/[a-zA-Z0-9/_-]{1,45}$/);
    const charge = fc.oneof(
      fc.constant({}),
      location.map((url) => ({ url })),
      fc.record(
        {
          key: keyArb,
          amount: fc.option(
            amountArb.filter((a) => /[1-9]/.test(a)),
            { nil: undefined },
          ),
        },
        { requiredKeys: ['key'] },
      ),
    );
    fc.assert(
      fc.property(location, charge, (recurrenceUrl, part) => {
        const input = { ...part, recurrenceUrl, merchantName: 'Fulano', merchantCity: 'Recife' } as BrCodeBuildInput;
        const text = buildBrCode(input);
        const code = parseBrCode(text);
        expect(code.recurrenceUrl).toBe(recurrenceUrl);
        expect(code.url).toBe('url' in part ? part.url : undefined);
        expect(code.key).toBe('key' in part ? part.key : undefined);
        expect(code.fields.map((f) => f.id).slice(-3)).toEqual(['62', '80', '63']);
        expect(code.pointOfInitiation).toBe('url' in part ? 'dynamic' : undefined);
      }),
    );
  });
});

describe('brcode', () => {
  it('groups parse, build and crc16', () => {
    expect(brcode.parse).toBe(parseBrCode);
    expect(brcode.build).toBe(buildBrCode);
    expect(brcode.crc16).toBe(crc16);
  });

  it('has a BrCodeError that serialises its field and a literal name', () => {
    const error = expectBrCodeError(() => brcode.parse(`${MANUAL_STATIC.slice(0, -4)}0000`), '63');
    expect(error.name).toBe('BrCodeError');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'BrCodeError', field: '63' });
  });
});

// The official OpenAPI carries three complete codes. They are read from the reference copy at
// test time rather than copied here, byte for byte, CRCs included.
const REFERENCE_DIR = fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
const officialYaml = existsSync(REFERENCE_DIR)
  ? readdirSync(REFERENCE_DIR).find((name) => /^bcb-[a-z]+-openapi-2\.9\.0\.yaml$/.test(name))
  : undefined;

describe.skipIf(officialYaml === undefined)('codes from the official OpenAPI 2.9.0 in ../shared/reference', () => {
  const yaml = officialYaml === undefined ? '' : readFileSync(REFERENCE_DIR + officialYaml, 'utf8');
  const codes = [...yaml.matchAll(/000201.*6304[0-9A-F]{4}(?=\s*$)/gm)].map((m) => m[0]);

  it('contains the three documented examples', () => {
    expect(codes.map((code) => code.slice(-4)).sort()).toEqual(['62C9', '7741', 'A441']);
  });

  it('parses each of them with a valid CRC', () => {
    for (const code of codes) {
      const parsed = parseBrCode(code);
      expect(parsed.crc).toBe(code.slice(-4));
      expect(crc16(code.slice(0, -4))).toBe(parsed.crc);
      expect(parsed).toMatchObject({
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
        mcc: '0000',
        currency: '986',
        country: 'BR',
      });
      expect(parsed.txid).toBeUndefined();
      const recurrence = parsed.fields.find((f) => f.id === '80');
      expect(recurrence?.children?.[0]?.value).toBe(BR_CODE_GUI);
    }
  });

  it('reads the dynamic ones as dynamic, with a location URL', () => {
    const dynamic = codes.map(parseBrCode).filter((c) => c.url !== undefined);
    expect(dynamic).toHaveLength(2);
    for (const code of dynamic) {
      expect(code.pointOfInitiation).toBe('dynamic');
      expect(code.url).toMatch(/^[a-z.]+\/qr\/v2\/(cobv\/)?[0-9a-f]{32}$/);
    }
  });

  it('reads the recurrence-only one: GUI template with neither key nor url', () => {
    const composite = parseBrCode(codes.find((code) => code.endsWith('62C9')) ?? '');
    expect(composite.key).toBeUndefined();
    expect(composite.url).toBeUndefined();
    expect(composite.pointOfInitiation).toBeUndefined();
  });

  it('reads the recurrence location of each journey (2: 62C9, 3: 7741, 4: A441)', () => {
    const byCrc = new Map(codes.map((code) => [code.slice(-4), parseBrCode(code)]));
    for (const code of byCrc.values()) expect(code.recurrenceUrl).toMatch(/^[a-z.]+\/qr\/v2\/rec\/[0-9a-f]{32}$/);
    expect(byCrc.get('62C9')?.url).toBeUndefined();
    expect(byCrc.get('7741')?.url).toMatch(/\/qr\/v2\/[0-9a-f]{32}$/);
    expect(byCrc.get('A441')?.url).toMatch(/\/qr\/v2\/cobv\/[0-9a-f]{32}$/);
  });

  it('builds each of them again from its parts, byte for byte but the merchant name case', () => {
    for (const code of codes) {
      const { url, recurrenceUrl } = parseBrCode(code);
      const names = { merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' };
      const built = buildBrCode(
        url === undefined
          ? { recurrenceUrl: recurrenceUrl!, ...names }
          : { url, recurrenceUrl: recurrenceUrl!, ...names },
      );
      expect(built).toBe(withCrc(code.slice(0, -4).replace('Fulano de Tal', 'FULANO DE TAL')));
    }
  });
});

// The recurring spec's appendix A.5 writes the journey-3 code out field by field (host as
// <host>, GUI as <GUI>): rebuilt from that notation, with the example host taken from the
// OpenAPI's own code, it is a valid code whose CRC is the one the appendix names.
const recurringSpec = fileURLToPath(new URL('../../../shared/spec/recurring-spec.md', import.meta.url));
describe.skipIf(officialYaml === undefined || !existsSync(recurringSpec))(
  'the decoded journey-3 code of the recurring spec, appendix A.5',
  () => {
    it('parses with CRC 7741, its location in 26-25 and its recurrence in 80-25', () => {
      const spec = readFileSync(recurringSpec, 'utf8');
      const block = /Decoded \[API\] L3669[^`]*```\n([\s\S]*?)```/.exec(spec)?.[1] ?? '';
      const yaml = readFileSync(REFERENCE_DIR + officialYaml, 'utf8');
      const official = [...yaml.matchAll(/000201.*63047741(?=\s*$)/gm)][0]?.[0] ?? '';
      const host = parseBrCode(official).url!.split('/')[0]!;
      // Each segment is "ID LEN VALUE"; a template's header is "ID LEN" before its "[".
      const text = block
        .replace(/\[/g, '|')
        .replace(/\]/g, '')
        .split(/\s*\|\s*|\n/)
        .filter((segment) => segment.trim() !== '')
        .map((segment) => {
          const [, id, length, value = ''] = /^(\d\d) (\d\d) ?(.*)$/.exec(segment.trim()) ?? [];
          return `${id}${length}${value.replaceAll('<GUI>', BR_CODE_GUI).replaceAll('<host>', host)}`;
        })
        .join('');
      expect(text).toBe(official);
      const code = parseBrCode(text);
      expect(code.crc).toBe('7741');
      expect(code.url).toBe(`${host}/qr/v2/8b3da2f39a4140d1a91abd93113bd441`);
      expect(code.recurrenceUrl).toBe(`${host}/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890`);
    });
  },
);

it.runIf(officialYaml === undefined)(
  'skips the official OpenAPI codes: no bcb-*-openapi-2.9.0.yaml in ../shared/reference',
  () => {
    expect(officialYaml).toBeUndefined();
  },
);
