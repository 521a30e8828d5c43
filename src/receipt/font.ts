/**
 * Node only. The receipt's font: DejaVu Sans from the `dejavu-fonts-ttf`
 * package, embedded (subset) so accented names print and extract on any reader.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The regular and bold faces, as TrueType bytes. */
export async function receiptFonts(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  const require = createRequire(import.meta.url);
  const face = (file: string) => readFile(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  const [regular, bold] = await Promise.all([face('DejaVuSans.ttf'), face('DejaVuSans-Bold.ttf')]);
  return { regular, bold };
}
