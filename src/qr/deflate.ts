/**
 * zlib (RFC 1950) with one fixed-Huffman deflate block (RFC 1951), the same in every runtime
 * (React Native and edge-runtime have no `CompressionStream`). Made for PNG scanlines: it tries a match at
 * distance 1 (runs of one byte), at the previous scanline (`row` bytes back) and at the last
 * place the next three bytes were seen, which is where a QR image repeats itself; any other
 * byte is a literal. Any input stays correct.
 */
const MAX_MATCH = 258;
const MAX_DISTANCE = 32_768;

/** Base and extra bits of length codes 257-285 and of distance codes 0-29 (RFC 1951, 3.2.5). */
const LENGTH_BASE: number[] = [];
const LENGTH_EXTRA: number[] = [];
const DISTANCE_BASE: number[] = [];
const DISTANCE_EXTRA: number[] = [];
for (let k = 0, base = 3; k < 28; k++) {
  LENGTH_BASE.push(base);
  LENGTH_EXTRA.push(k < 8 ? 0 : (k >> 2) - 1);
  base += 1 << LENGTH_EXTRA[k]!;
}
LENGTH_BASE.push(MAX_MATCH);
LENGTH_EXTRA.push(0);
for (let k = 0, base = 1; k < 30; k++) {
  DISTANCE_BASE.push(base);
  DISTANCE_EXTRA.push(k < 4 ? 0 : (k >> 1) - 1);
  base += 1 << DISTANCE_EXTRA[k]!;
}

export function zlibRows(data: Uint8Array, row: number): Uint8Array {
  const out: number[] = [0x78, 0x01];
  let buffer = 0;
  let count = 0;
  const bits = (value: number, n: number) => {
    buffer |= value << count;
    count += n;
    for (; count >= 8; count -= 8, buffer >>>= 8) out.push(buffer & 0xff);
  };
  // Huffman codes are packed most significant bit first.
  const code = (value: number, n: number) => {
    let reversed = 0;
    for (let i = 0; i < n; i++) reversed |= ((value >> i) & 1) << (n - 1 - i);
    bits(reversed, n);
  };
  const symbol = (s: number) =>
    s < 144
      ? code(0x30 + s, 8)
      : s < 256
        ? code(0x190 + s - 144, 9)
        : s < 280
          ? code(s - 256, 7)
          : code(0xc0 + s - 280, 8);
  const last = (table: number[], value: number) => {
    let k = table.length - 1;
    while (table[k]! > value) k--;
    return k;
  };

  bits(1, 1); // the final block
  bits(1, 2); // fixed Huffman codes
  const seen = new Map<number, number>();
  const key = (i: number) => (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
  const remember = (from: number, to: number) => {
    for (let j = from; j < to && j + 2 < data.length; j++) seen.set(key(j), j);
  };
  for (let i = 0; i < data.length; ) {
    let length = 0;
    let distance = 0;
    const before = i + 2 < data.length ? seen.get(key(i)) : undefined;
    for (const d of [1, row, before === undefined ? 0 : i - before]) {
      if (d < 1 || d > i || d > MAX_DISTANCE) continue;
      let n = 0;
      while (n < MAX_MATCH && i + n < data.length && data[i + n] === data[i + n - d]) n++;
      if (n > length) [length, distance] = [n, d];
    }
    if (length < 3) {
      symbol(data[i]!);
      remember(i, i + 1);
      i++;
      continue;
    }
    const l = last(LENGTH_BASE, length);
    symbol(257 + l);
    bits(length - LENGTH_BASE[l]!, LENGTH_EXTRA[l]!);
    const d = last(DISTANCE_BASE, distance);
    code(d, 5);
    bits(distance - DISTANCE_BASE[d]!, DISTANCE_EXTRA[d]!);
    // Positions inside a match are not remembered: the row and run matches find a QR image's
    // repeats, and hashing every byte of them cost more than the rest of the image.
    remember(i, i + 1);
    i += length;
  }
  symbol(256);
  if (count > 0) out.push(buffer & 0xff);

  let a = 1;
  let b = 0;
  // Adler-32, reduced every 5,552 bytes (the most that cannot overflow before the modulo).
  for (let start = 0; start < data.length; start += 5552) {
    for (let i = start, end = Math.min(start + 5552, data.length); i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  out.push(b >>> 8, b & 0xff, a >>> 8, a & 0xff);
  return Uint8Array.from(out);
}
