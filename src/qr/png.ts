/**
 * A QR matrix as a PNG file: 1-bit greyscale, black on white. Web-standard only (no Node
 * built-ins): the pixels are compressed by deflate.ts in every runtime. `CompressionStream`
 * makes a PNG about 40% smaller (a few hundred bytes), but its stream costs twice the whole image.
 */
import { zlibRows } from './deflate.ts';
import { isDark, type QrMatrix } from './matrix.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function renderPng({ symbol, margin, scale }: QrMatrix): Uint8Array<ArrayBuffer> {
  const { size } = symbol;
  const width = (size + 2 * margin) * scale;
  const rowBytes = Math.ceil(width / 8);
  const stride = rowBytes + 1;
  // Each scanline: filter type 0, then one bit per pixel, 1 for white. The quiet zone is white.
  const pixels = new Uint8Array(stride * width);
  const blank = new Uint8Array(stride).fill(0xff);
  blank[0] = 0;
  const line = new Uint8Array(stride);
  for (let y = -margin; y < size + margin; y++) {
    const top = (y + margin) * scale * stride;
    if (y < 0 || y >= size) {
      for (let copy = 0; copy < scale; copy++) pixels.set(blank, top + copy * stride);
      continue;
    }
    line.set(blank);
    for (let x = 0; x < size; x++) {
      if (!isDark(symbol, x, y)) continue;
      for (let px = (x + margin) * scale, end = px + scale; px < end; px++) line[1 + (px >> 3)]! &= ~(0x80 >> (px & 7));
    }
    for (let copy = 0; copy < scale; copy++) pixels.set(line, top + copy * stride);
  }
  if (width % 8 !== 0) {
    // Bits past the last pixel of a row: zero, as before (white is 1 only inside the image).
    const spare = 0xff >> (width % 8);
    for (let row = 0; row < width; row++) pixels[row * stride + rowBytes]! &= ~spare;
  }

  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, width);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale; compression, filter and interlace methods stay 0
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', zlibRows(pixels, stride)),
    chunk('IEND', new Uint8Array()),
  ];
  return concat(parts);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
