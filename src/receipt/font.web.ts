/** The web build's stand-in for `font.ts`: a receipt reads its font file from the installed package. */
import { ConfigurationError } from '../errors/failures.ts';

export async function receiptFonts(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  throw new ConfigurationError('receipt', 'receipt() reads its font from node_modules: call it on Node, Deno or Bun');
}
