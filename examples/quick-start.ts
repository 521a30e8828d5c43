/**
 * Quick start: a client (OAuth client credentials, and mTLS when a certificate is given), one
 * charge created and read back, and the typed errors.
 *
 * Run: `node examples/quick-start.ts`. With no credentials in the environment it runs against
 * an in-process sandbox; with INSTANT_BASE_URL, INSTANT_CLIENT_ID, INSTANT_CLIENT_SECRET,
 * INSTANT_RECEIVER_KEY (and INSTANT_CLIENT_CERT/INSTANT_CLIENT_KEY for mTLS) it talks to your
 * provider. See examples/setup.ts.
 */
import { ApiError, ConnectionError, TimeoutError, generateTxid } from '../src/index.ts';
import { connect, runMain } from './setup.ts';

export async function main(): Promise<void> {
  const { api, receiverKey, close } = await connect();
  try {
    const txid = generateTxid(); // your txid makes the create idempotent: retried safely
    await api.cob.create(txid, { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: receiverKey });
    const charge = await api.cob.get(txid);
    console.log(`charge ${charge.txid}: ${charge.status} ${charge.valor.original}`);
    console.log(`copy-and-paste code: ${charge.instantCopiaECola ?? '(none)'}`);
  } catch (error) {
    if (error instanceof ApiError) console.error(`service said ${error.status} ${error.errorType ?? ''}`);
    else if (error instanceof TimeoutError || error instanceof ConnectionError) console.error(error.message);
    else throw error;
    process.exitCode = 1;
  } finally {
    await close();
  }
}

runMain(import.meta, main);
