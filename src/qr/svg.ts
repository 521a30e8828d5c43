/** A QR matrix as SVG text: one path of the dark modules over a light square, crisp at any size. */
import { isDark, type QrMatrix } from './matrix.ts';

export function renderSvg({ symbol, margin, scale }: QrMatrix): string {
  const { size } = symbol;
  let path = '';
  for (let y = 0; y < size; y++) {
    // Each horizontal run of dark modules is one rectangle of height 1.
    for (let x = 0; x < size; x++) {
      if (!isDark(symbol, x, y)) continue;
      const start = x;
      while (x + 1 < size && isDark(symbol, x + 1, y)) x++;
      const run = x - start + 1;
      path += `M${start + margin} ${y + margin}h${run}v1h-${run}z`;
    }
  }
  const side = size + 2 * margin;
  const pixels = side * scale;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}
