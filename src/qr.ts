/**
 * instant-payments/qr: QR images of a BR Code (`instantCopiaECola`, or `brcode.build`'s text), as
 * SVG text or PNG bytes. No Node built-ins: browsers, React Native, Deno, Bun, edge and Node.
 *
 * ```ts
 * const svg = qrSvg(cob.instantCopiaECola, { margin: 4 });   // SVG text, sync
 * const png = await qrPng(cob.instantCopiaECola, { scale: 8 }); // Uint8Array (PNG)
 * ```
 *
 * @module instant-payments/qr
 */
import { qrMatrix, type QrOptions } from './qr/matrix.ts';
import { renderPng } from './qr/png.ts';
import { renderSvg } from './qr/svg.ts';

export type { QrOptions, QrErrorCorrection } from './qr/matrix.ts';
export { ConfigurationError } from './errors/failures.ts';
export { InstantError } from './errors/base.ts';

/**
 * The QR code of `text` as SVG text (`<svg …>`): black modules on a white square, `width` and
 * `height` of `scale` pixels per module, a `viewBox` in modules so it scales crisply. Throws
 * `ConfigurationError` (`option`: `text`, `margin`, `scale` or `errorCorrection`) for an empty
 * text, a text longer than a QR code holds, or an option out of range.
 */
export function qrSvg(text: string, options?: QrOptions): string {
  return renderSvg(qrMatrix(text, options));
}

/**
 * The QR code of `text` as a PNG file: 1-bit greyscale, black on white, `scale` pixels per
 * module. Rejects with `ConfigurationError` where `qrSvg` throws it.
 */
export async function qrPng(text: string, options?: QrOptions): Promise<Uint8Array<ArrayBuffer>> {
  return renderPng(qrMatrix(text, options));
}
