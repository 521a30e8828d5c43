/** A QR matrix as SVG text: one path of the dark modules over a light square, crisp at any size. */
import type { QrMatrix } from './matrix.ts';

export function renderSvg({ size, dark, scale }: QrMatrix): string {
  let path = '';
  dark.forEach((row, y) => {
    // Each horizontal run of dark modules is one rectangle of height 1.
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      const start = x;
      while (row[x + 1]) x++;
      const run = x - start + 1;
      path += `M${start} ${y}h${run}v1h-${run}z`;
    }
  });
  const pixels = size * scale;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}
