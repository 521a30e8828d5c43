/**
 * `receipt(payment, options)`: a one-page PDF of a received payment or of one of its refunds.
 * The text is checked and composed here; the PDF library and the font load on the first call.
 */
import type { InstantPayment } from '../collection/instant.ts';
import { type ReceiptOptions, receiptText } from './fields.ts';

/**
 * A one-page PDF receipt (A4) of `payment`, or of one of its refunds with `{ refund }`: amount,
 * date and time in Brasília, end-to-end id, txid, payer and receiver as the records name them
 * (a CPF masked `***.456.789-**`), the refund's nature, and a QR code of the end-to-end id.
 * Its text is extractable (a reader's search finds the e2eid). Node only: it reads its font from
 * the installed package (the web build rejects). Rejects with `ConfigurationError` for a record it
 * cannot print.
 *
 * ```ts
 * const pdf = await receipt(await api.instant.get(e2eid), { merchant: { nome: 'Loja Exemplo', cnpj } });
 * ```
 */
export async function receipt(payment: InstantPayment, options?: ReceiptOptions): Promise<Uint8Array> {
  const text = receiptText(payment, options);
  const { renderReceipt } = await import('./pdf.ts');
  return renderReceipt(text);
}
