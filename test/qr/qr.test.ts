/**
 * The QR round trip: what `qrPng` and `qrSvg` draw is read back by decoders that share nothing
 * with the encoder (fast-png reads the PNG, resvg rasterises the SVG, jsQR reads the QR code), and
 * the text must come back exactly, for the BR Codes the SDK builds.
 */
import { Resvg } from '@resvg/resvg-js';
import fc from 'fast-check';
import { inflateSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { encodeQR } from 'qr';
import QRCode from 'qrcode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { brcode } from '../../src/lib/brcode.ts';
import { MAX_CENTS, fromCents } from '../../src/lib/money.ts';
import { ConfigurationError, qrPng, qrSvg, type QrOptions } from '../../src/qr.ts';
import { zlibRows } from '../../src/qr/deflate.ts';
import { keyArb } from '../lib/arbitraries.ts';
import { type Pixels, readPng, readQr } from '../support/qr-read.ts';
import { FUZZ_RUNS, FUZZ_TIMEOUT } from '../fuzz/settings.ts';

const STATIC = brcode.build({
  key: '+5561912345678',
  amount: '10.00',
  txid: 'ORDER123',
  merchantName: 'Loja',
  merchantCity: 'Brasilia',
});
const DYNAMIC = brcode.build({
  url: 'psp.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
  merchantName: 'Empresa de Serviços SA',
  merchantCity: 'São Paulo',
});
/** The longest code `brcode.build` makes: a 99-character account template, the largest amount, every field at its maximum. */
const LONGEST = brcode.build({
  key: '123e4567-e12b-12d1-a456-426655440000',
  infoAdicional: 'x'.repeat(99 - 18 - 4 - 36 - 4),
  amount: fromCents(MAX_CENTS),
  txid: 'A'.repeat(25),
  merchantName: 'N'.repeat(30),
  merchantCity: 'C'.repeat(20),
});

const CODES = { static: STATIC, dynamic: DYNAMIC, longest: LONGEST };

/** The SVG rasterised by resvg at its own width and height. */
function rasteriseSvg(svg: string): Pixels {
  const image = new Resvg(svg, { background: 'rgba(0,0,0,0)' }).render();
  return { width: image.width, height: image.height, rgba: new Uint8ClampedArray(image.pixels) };
}

const dark = (image: Pixels, x: number, y: number) => image.rgba[(y * image.width + x) * 4]! < 128;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('qrPng', () => {
  it('is the longest BR Code the SDK builds', () => {
    expect(LONGEST).toHaveLength(236);
    expect(brcode.parse(LONGEST).amount).toBe('9999999999.99');
  });

  it.each(Object.entries(CODES))(
    'gives the %s BR Code back, exactly, through an independent PNG reader and QR decoder',
    async (_, text) => {
      const png = await qrPng(text);
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(readQr(readPng(png))).toBe(text);
    },
  );

  // Versions 8, 9, 12 and 14 for the 236 characters in mixed segments (byte mode alone needs 10, 11, 13, 16).
  it.each(['L', 'M', 'Q', 'H'] as const)(
    'reads back at error correction %s; higher levels make a larger symbol',
    async (level) => {
      const image = readPng(await qrPng(LONGEST, { errorCorrection: level, scale: 2 }));
      expect(readQr(image)).toBe(LONGEST);
      const modules = image.width / 2 - 8;
      expect(modules).toBe({ L: 49, M: 53, Q: 65, H: 73 }[level]);
    },
  );

  it('draws margin modules of white around the symbol, scale pixels per module', async () => {
    const image = readPng(await qrPng(STATIC, { margin: 4, scale: 8 }));
    const side = image.width / 8 - 8; // modules of the symbol
    expect(image.height).toBe(image.width);
    expect(Number.isInteger(side) && (side - 17) % 4 === 0).toBe(true);
    for (let i = 0; i < image.width; i++) {
      // the quiet zone: the first and last 32 pixels of every edge are white
      for (const edge of [0, 31, image.width - 32, image.width - 1]) {
        expect(dark(image, i, edge)).toBe(false);
        expect(dark(image, edge, i)).toBe(false);
      }
    }
    // the top-left finder pattern starts right after the quiet zone: dark, light ring, dark core
    expect(dark(image, 32, 32)).toBe(true);
    expect(dark(image, 32 + 8, 32 + 8)).toBe(false);
    expect(dark(image, 32 + 3 * 8, 32 + 3 * 8)).toBe(true);
  });

  it('draws no quiet zone with margin 0 (the page supplies it)', async () => {
    const image = readPng(await qrPng(DYNAMIC, { margin: 0, scale: 1 }));
    expect(dark(image, 0, 0)).toBe(true);
    expect(dark(image, image.width - 1, 0)).toBe(true);
    expect(dark(image, 0, image.height - 1)).toBe(true);
  });

  it('compresses the same way with or without CompressionStream (React Native and edge-runtime have none)', async () => {
    const withStream = await qrPng(LONGEST, { scale: 4 });
    vi.stubGlobal('CompressionStream', undefined);
    const png = await qrPng(LONGEST, { scale: 4 });
    expect(readQr(readPng(png))).toBe(LONGEST);
    expect(png).toEqual(withStream);
    // Stored, its scanlines (1 bit per pixel, 61 modules at scale 4) would be 32 bytes × 244 rows = 7,808 bytes.
    expect(png.length).toBeLessThan(1500);
  });

  it('deflates without CompressionStream into zlib that inflates to the same bytes, whatever the bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        (bytes, row, repeat) => {
          // Repeated rows and runs, as in an image, or arbitrary bytes.
          const data = repeat
            ? Uint8Array.from({ length: bytes.length * 3 }, (_, i) => bytes[i % Math.max(1, bytes.length)] ?? 0)
            : bytes;
          expect(new Uint8Array(inflateSync(zlibRows(data, row)))).toEqual(data);
        },
      ),
      { numRuns: Math.min(FUZZ_RUNS, 200) },
    );
    const long = Uint8Array.from({ length: 100_000 }, (_, i) => (i % 40_000 < 20_000 ? 0xff : i & 0xff));
    expect(new Uint8Array(inflateSync(zlibRows(long, 40_000)))).toEqual(long);
  });

  it(
    'gives back every static BR Code built from arbitrary keys, amounts and txids',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          keyArb,
          fc.option(fc.integer({ min: 1, max: MAX_CENTS }), { nil: undefined }),
          fc.option(fc.stringMatching(/^[a-zA-Z0-9]{1,25}$/), { nil: undefined }),
          async (key, cents, txid) => {
            const text = brcode.build({
              key,
              merchantName: 'Loja',
              merchantCity: 'Recife',
              ...(cents === undefined ? {} : { amount: fromCents(cents) }),
              ...(txid === undefined ? {} : { txid }),
            });
            expect(readQr(readPng(await qrPng(text, { scale: 2 })))).toBe(text);
          },
        ),
        { numRuns: Math.min(FUZZ_RUNS, 100) },
      );
    },
    FUZZ_TIMEOUT,
  );
});

describe('qrSvg', () => {
  it.each(Object.entries(CODES))('gives the %s BR Code back, exactly, once rasterised by resvg', (_, text) => {
    const svg = qrSvg(text);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(readQr(rasteriseSvg(svg))).toBe(text);
  });

  it('draws the same modules as the PNG', async () => {
    for (const options of [
      {},
      { margin: 0, scale: 3 },
      { margin: 2, scale: 5, errorCorrection: 'H' },
    ] satisfies QrOptions[]) {
      const svg = rasteriseSvg(qrSvg(DYNAMIC, options));
      const png = readPng(await qrPng(DYNAMIC, options));
      expect([svg.width, svg.height]).toEqual([png.width, png.height]);
      const rows = (image: Pixels) =>
        Array.from({ length: image.height }, (_, y) =>
          Array.from({ length: image.width }, (_, x) => (dark(image, x, y) ? '#' : '.')).join(''),
        );
      expect(rows(svg)).toEqual(rows(png));
    }
  });

  it('is a square of scale pixels per module with a viewBox in modules', () => {
    const svg = qrSvg(STATIC, { margin: 4, scale: 3 });
    const [, width, height, box] = /width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) \d+"/.exec(svg) ?? [];
    expect(width).toBe(height);
    expect(Number(width)).toBe(Number(box) * 3);
  });
});

/** Every code of the corpus of published BR Codes, the ones parse refuses too: they are real texts to draw. */
const CORPUS = (
  JSON.parse(readFileSync(new URL('../fixtures/brcode-corpus.json', import.meta.url), 'utf8')) as {
    codes: Array<{ code: string }>;
  }
).codes.map((c) => c.code);

/** Modules per side of the symbol in an SVG (its viewBox less the default 4-module margins). */
const svgModules = (svg: string): number => Number(/viewBox="0 0 (\d+)/.exec(svg)?.[1]) - 8;
const version = (modules: number): number => (modules - 17) / 4;

describe('QR symbols in mixed segments', () => {
  it.each(['L', 'M', 'Q', 'H'] as const)(
    'are never a larger version than a mixed-segment reference encoder makes, for every corpus code (level %s)',
    (level) => {
      const wins: number[] = [];
      for (const code of CORPUS) {
        const ours = version(svgModules(qrSvg(code, { errorCorrection: level })));
        const reference = QRCode.create(code, { errorCorrectionLevel: level }).version;
        expect(ours, code).toBeLessThanOrEqual(reference);
        wins.push(reference - ours);
      }
      expect(wins.length).toBe(CORPUS.length);
    },
  );

  it('decode back to each corpus code, exactly', async () => {
    for (const code of CORPUS) expect(readQr(readPng(await qrPng(code, { scale: 2 }))), code).toBe(code);
  });

  it('are smaller than one segment makes (all the encoder does alone) for nearly every corpus code, never larger', () => {
    let smaller = 0;
    for (const code of CORPUS) {
      const single = version(encodeQR(code, 'raw', { ecc: 'medium', border: 1 }).length - 2);
      const ours = version(svgModules(qrSvg(code)));
      expect(ours, code).toBeLessThanOrEqual(single);
      if (ours < single) smaller++;
    }
    expect(smaller / CORPUS.length).toBeGreaterThan(0.9);
  });

  it.each([
    ['digits only', '0123456789012345678901234567890'],
    ['alphanumeric only', 'HTTPS://INSTANT.EXAMPLE.COM/QR/V2/ABC123'],
    ['bytes only', 'fulano@example.com, pagamento de teste'],
    ['a terminator that crosses a byte', '12345678901234567'],
  ])('match the encoder exactly where one segment is best (%s)', (_, text) => {
    const theirs = encodeQR(text, 'svg', { ecc: 'medium', border: 4 });
    const theirModules = Number(/viewBox="0 0 (\d+)/.exec(theirs)?.[1]) - 8;
    expect(svgModules(qrSvg(text))).toBe(theirModules);
    const reference = encodeQR(text, 'raw', { ecc: 'medium', border: 4 });
    const image = rasteriseSvg(qrSvg(text, { scale: 1 }));
    for (let y = 0; y < reference.length; y++)
      for (let x = 0; x < reference.length; x++) expect(dark(image, x, y), `${x},${y}`).toBe(reference[y]![x]);
  });
});

describe('bad input', () => {
  const tooLong = 'A'.repeat(5000);
  it.each([
    ['text', '', {}],
    ['text', 42 as unknown as string, {}],
    ['text', tooLong, {}],
    ['margin', STATIC, { margin: -1 }],
    ['margin', STATIC, { margin: 1.5 }],
    ['margin', STATIC, { margin: 41 }],
    ['scale', STATIC, { scale: 0 }],
    ['scale', STATIC, { scale: 65 }],
    ['scale', STATIC, { scale: Number.NaN }],
    ['errorCorrection', STATIC, { errorCorrection: 'X' as 'L' }],
    ['options', STATIC, null as unknown as QrOptions],
  ] as const)('gives ConfigurationError naming %s (qrSvg throws, qrPng rejects)', async (option, text, options) => {
    const thrown = (() => {
      try {
        qrSvg(text, options);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as ConfigurationError).option).toBe(option);
    const pending = qrPng(text, options);
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toMatchObject({ name: 'ConfigurationError', option });
  });

  it('says the text does not fit, at which level', () => {
    expect(() => qrSvg('A'.repeat(3000), { errorCorrection: 'H' })).toThrow(
      /longer than a QR code holds at error correction H/,
    );
    // The same text fits at L: the limit is the encoder's, not ours.
    expect(() => qrSvg('A'.repeat(3000), { errorCorrection: 'L' })).not.toThrow();
  });
});
