/**
 * Payer app: read a copy-and-paste code (or a scanned QR), fetch the charge payload at its
 * location, verify its signature, and show what would be paid. Runs in a browser, React
 * Native, Deno, Bun or Node: it only uses `instant-payments/payer`.
 *
 * Run: `node examples/payer-app.ts '<copia e cola>' [codMun]` (a dynamic code: its location is
 * fetched over HTTPS). The demo code below points at a host that does not exist.
 */
import {
  ApiError,
  CobPayloadNaoEncontrado,
  InvalidLocationError,
  PayerClient,
  PayloadVerificationError,
  brcode,
  todayInBrasilia,
} from '../src/payer.ts';

/** What the app shows the payer before confirming. */
export interface ChargeSummary {
  kind: 'static' | 'cob' | 'cobv';
  /** Decimal string, e.g. "10.00"; undefined when the payer types the amount. */
  amount: string | undefined;
  txid: string | undefined;
  key: string | undefined;
  message: string | undefined;
}

/**
 * Reads a BR Code and, for a dynamic one, its payload. The amount and txid of a dynamic code
 * come from the signed payload, never from the code itself.
 */
export async function summarize(code: string, payer: PayerClient, codMun?: string): Promise<ChargeSummary> {
  const parsed = brcode.parse(code); // throws BrCodeError on a bad CRC or layout
  if (parsed.url === undefined) {
    return { kind: 'static', amount: parsed.amount, txid: parsed.txid, key: parsed.key, message: parsed.infoAdicional };
  }
  if (parsed.url.includes('/cobv/')) {
    // Due-date charge: the amount depends on the day (and the municipality's holidays).
    const payload = await payer.cobPayload.getCobv(parsed.url, { DPP: todayInBrasilia(), ...(codMun && { codMun }) });
    return { kind: 'cobv', amount: payload.valor.final, txid: payload.txid, key: payload.chave, message: payload.solicitacaoPagador };
  }
  const payload = await payer.cobPayload.getCob(parsed.url);
  return { kind: 'cob', amount: payload.valor.original, txid: payload.txid, key: payload.chave, message: payload.solicitacaoPagador };
}

/** A message for the payer for each way it can fail. */
export function explain(error: unknown): string {
  if (error instanceof InvalidLocationError) return `This code points somewhere unsafe (${error.reason}).`;
  if (error instanceof PayloadVerificationError) return `The charge could not be verified (${error.reason}).`;
  if (error instanceof CobPayloadNaoEncontrado) return error.status === 410 ? 'This charge was removed.' : 'This charge does not exist.';
  if (error instanceof ApiError) return `The receiver's bank refused (${error.status}).`;
  return error instanceof Error ? error.message : 'Unknown error';
}

const DEMO_CODE = brcode.build({
  url: 'qr.psp.example/qr/v2/8b3da2f39a4140d1a91abd93113bd441',
  merchantName: 'LOJA EXEMPLO',
  merchantCity: 'BRASILIA',
});

export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const payer = new PayerClient({ timeout: 10_000 }); // payloads must be signed (the default)
  try {
    const summary = await summarize(args[0] ?? DEMO_CODE, payer, args[1]);
    console.log(summary);
  } catch (error) {
    console.error(explain(error));
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
