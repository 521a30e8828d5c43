// sandbox-payer.ts: a payer reading a charge. Run: node sandbox-payer.ts (Node 22.18+ runs TypeScript).
import { generateTxid, InstantClient } from '../src/index.ts';
import { brcode, PayerClient } from '../src/payer.ts';
import { createSandbox } from '../src/sandbox.ts';

// A sandbox with one charge stands in for the merchant (your payer app does not have this part).
const sandbox = createSandbox();
await sandbox.listen({ port: 0 });
const merchant = new InstantClient(sandbox.clientOptions());
const created = await merchant.cob.create(generateTxid(), {
  calendario: { expiracao: 3600 },
  valor: { original: '10.00' },
  chave: sandbox.ownKeys[0] ?? '',
});
const copyAndPaste = created.instantCopiaECola ?? '';

// The payer's side: read the code, then fetch and verify the charge it points to.
const payer = new PayerClient(sandbox.payerOptions()); // in production: new PayerClient()
const code = brcode.parse(copyAndPaste); // the CRC checked
if (code.url === undefined) throw new Error('a static code: its amount and key are in `code`');
const charge = await payer.cobPayload.getCob(code.url); // a signed payload (JWS), verified
console.log(`pay ${charge.valor.original} to ${charge.chave} (charge ${charge.txid}, ${charge.status})`);

await merchant.close();
await sandbox.close();
