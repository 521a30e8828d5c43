/** Reading QR images back in tests: a PNG's pixels through fast-png, the code through jsQR. */
import { decode } from 'fast-png';
import jsQRModule from 'jsqr';

// jsQR is CommonJS: its function is the module and its `default`.
const jsQR = jsQRModule.default;

export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** The PNG's pixels as RGBA, read by fast-png (1-bit greyscale unpacked here). */
export function readPng(png: Uint8Array): Pixels {
  const image = decode(png);
  const { width, height } = image;
  const rgba = new Uint8ClampedArray(width * height * 4);
  const rowBytes = Math.ceil((width * image.depth * image.channels) / 8);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let value: number;
      if (image.depth === 1 && image.channels === 1)
        value = (image.data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
      else value = image.data[(y * width + x) * image.channels]!;
      rgba.set([value, value, value, 255], (y * width + x) * 4);
    }
  }
  return { width, height, rgba };
}

/** The text of the QR code in the image, or `undefined` when none is read. */
export function readQr({ width, height, rgba }: Pixels): string | undefined {
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })?.data;
}
