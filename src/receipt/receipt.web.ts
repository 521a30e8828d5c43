/**
 * The web build's `receipt()` (Workers, edge functions, browsers): it rejects, so that the PDF
 * library and the font never reach a bundle of the backend entry (bundlers follow `import()` too).
 */
import type { InstantPayment } from '../collection/instant.ts';
import { ConfigurationError } from '../errors/failures.ts';
import type { ReceiptOptions } from './fields.ts';

/** Rejects with `ConfigurationError`: receipts are made on Node, which reads the font from the installed package. */
export async function receipt(_payment: InstantPayment, _options?: ReceiptOptions): Promise<Uint8Array> {
  throw new ConfigurationError('receipt', 'receipt() runs on Node: the web build of the SDK makes no PDF');
}
