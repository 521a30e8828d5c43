/**
 * QR images: the time of `qrSvg` and `qrPng` (the built package's `instant-payments/qr`) against
 * the encoder they wrap doing the same job alone (`qr`: its own SVG, and its own raster image,
 * an uncompressed GIF, at the same scale), for a typical dynamic BR Code of 169 characters;
 * and the symbol's size beside the encoder's. Goals (api.md): SVG at most 1.5x, PNG at most 2x.
 * Each ratio is the median of rounds that alternate the two, so load on the machine hits both.
 *
 * Run alone: `node bench/qr.ts` (after `npm run build`).
 */
import { encodeQR } from 'qr';
import { fmt, loadSdk, median, type Row } from './support.ts';

const ROUNDS = 31;
const CALLS = 200;
export const SVG_GOAL = 1.5;
export const PNG_GOAL = 2;
const SCALE = 8;

/** µs per call of `fn`, one round. */
async function round(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return ((performance.now() - t0) * 1000) / CALLS;
}

/** Median µs per call of each, rounds alternating, and the median of the per-round ratios. */
async function paired(
  ours: () => unknown,
  theirs: () => unknown,
): Promise<{ ours: number; theirs: number; ratio: number }> {
  for (let i = 0; i < 3; i++) {
    await round(ours);
    await round(theirs);
  }
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const x = await round(ours);
    const y = await round(theirs);
    a.push(x);
    b.push(y);
    ratios.push(x / y);
  }
  return { ours: median(a), theirs: median(b), ratio: median(ratios) };
}

export async function measure(): Promise<Row[]> {
  const specifier = 'instant-payments/qr';
  const { qrSvg, qrPng } = (await import(specifier)) as typeof import('../src/qr.ts');
  const { brcode } = await loadSdk();
  // A dynamic code as a service returns it: a location of 62 characters, no amount, txid `***`.
  const code = brcode.build({
    url: 'instant.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
    merchantName: 'EMPRESA DE SERVICOS LTDA',
    merchantCity: 'SAO PAULO',
  });
  const svg = await paired(
    () => qrSvg(code),
    () => encodeQR(code, 'svg', { border: 4 }),
  );
  const png = await paired(
    () => qrPng(code, { scale: SCALE }),
    () => encodeQR(code, 'gif', { border: 4, scale: SCALE }),
  );
  const ours = (Number(/viewBox="0 0 (\d+)/.exec(qrSvg(code))?.[1]) - 8 - 17) / 4;
  const theirs = (encodeQR(code, 'raw', { border: 1 }).length - 2 - 17) / 4;
  const row = (what: string, t: typeof svg, baseline: string, goal: number): Row => ({
    measure: `${what}, ${code.length}-character dynamic code, µs per image (median of ${ROUNDS} paired rounds)`,
    value: `${fmt.fixed(t.ours, 1)} µs`,
    baseline: `${baseline} ${fmt.fixed(t.theirs, 1)} µs`,
    ratio: fmt.ratio(t.ratio),
    goal: `≤ ${goal}x`,
    holds: t.ratio <= goal,
  });
  return [
    row('qrSvg', svg, 'encoder alone, its SVG', SVG_GOAL),
    row(`qrPng, scale ${SCALE}`, png, `encoder alone, its GIF at scale ${SCALE}`, PNG_GOAL),
    {
      measure: `QR version of that code at level M, mixed segments (the encoder alone: one segment)`,
      value: `version ${ours}`,
      baseline: `encoder alone: version ${theirs}`,
      ratio: '-',
      goal: '≤ the encoder alone',
      holds: ours <= theirs,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await measure()) console.log(`${row.measure}: ${row.value} against ${row.baseline}: ${row.ratio}`);
}
