/**
 * Payer app: read a copy-and-paste code (or a scanned QR), fetch the charge payload at its
 * location, verify its signature, and show what would be paid. `summarize` and `explain` run in a
 * browser, React Native, Deno, Bun or Node: they only use `instant-payments/payer`.
 *
 * Run: `node examples/payer-app.ts '<copia e cola>' [codMun]` reads that code (a dynamic code's
 * location is fetched over HTTPS). With no code, the example first creates a charge (in an
 * in-process sandbox with no credentials in the environment, on your provider with them: see
 * examples/setup.ts) and reads its code.
 */
import {
  ApiError,
  CobPayloadNaoEncontrado,
  InvalidLocationError,
  PayloadVerificationError,
  brcode,
  generateTxid,
  todayInBrasilia,
  type PayerClient,
} from '../src/payer.ts';
import { connect, runMain, type Connection } from './setup.ts';

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
    return {
      kind: 'cobv',
      amount: payload.valor.final,
      txid: payload.txid,
      key: payload.chave,
      message: payload.solicitacaoPagador,
    };
  }
  const payload = await payer.cobPayload.getCob(parsed.url);
  return {
    kind: 'cob',
    amount: payload.valor.original,
    txid: payload.txid,
    key: payload.chave,
    message: payload.solicitacaoPagador,
  };
}

/** A message for the payer for each way it can fail. */
export function explain(error: unknown): string {
  if (error instanceof InvalidLocationError) return `This code points somewhere unsafe (${error.reason}).`;
  if (error instanceof PayloadVerificationError) return `The charge could not be verified (${error.reason}).`;
  if (error instanceof CobPayloadNaoEncontrado)
    return error.status === 410 ? 'This charge was removed.' : 'This charge does not exist.';
  if (error instanceof ApiError) return `The receiver's bank refused (${error.status}).`;
  return error instanceof Error ? error.message : 'Unknown error';
}

/** The receiving side of the demo: a fresh charge, and the code its QR would carry. */
async function demoCode({ api, receiverKey }: Connection): Promise<string> {
  const cob = await api.cob.create(generateTxid(), {
    calendario: { expiracao: 600 },
    valor: { original: '25.90' },
    chave: receiverKey,
    solicitacaoPagador: 'Order 42',
  });
  if (!cob.instantCopiaECola) throw new Error('the service returned no copy-and-paste code');
  return cob.instantCopiaECola;
}

export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const connection = await connect();
  try {
    const code = args[0] ?? (await demoCode(connection));
    const summary = await summarize(code, connection.payer, args[1]);
    console.log(summary);
  } catch (error) {
    console.error(explain(error));
    process.exitCode = 1;
  } finally {
    await connection.close();
  }
}

runMain(import.meta, main);
