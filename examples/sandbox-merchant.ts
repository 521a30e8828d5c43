// sandbox-merchant.ts: a merchant against the sandbox. Run: node sandbox-merchant.ts (Node 22.18+ runs TypeScript).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateTxid, InstantClient, receivedPaymentsHandler } from '../src/index.ts';
import { createSandbox } from '../src/sandbox.ts';

// 1. The service: a sandbox on 127.0.0.1, no credentials (later: your provider, see Configuration).
const sandbox = createSandbox();
await sandbox.listen({ port: 0 });
const api = new InstantClient(sandbox.clientOptions());
const [chave = ''] = sandbox.ownKeys; // your directory key

// 2. Your webhook: a payment reaches onPayment only once the service confirms it.
const handler = receivedPaymentsHandler(api, {
  onPayment: (payment) => console.log(`paid ${payment.valor} for charge ${payment.txid}`),
});
const server = createServer(handler.node).listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as AddressInfo;
await api.webhook.put(chave, `http://127.0.0.1:${port}/webhook`); // called back on /webhook/instant

// 3. A charge: its BR Code is what the payer scans or pastes.
const txid = generateTxid();
const cob = await api.cob.create(txid, { calendario: { expiracao: 3600 }, valor: { original: '59.90' }, chave });
console.log(cob.instantCopiaECola);

// 4. The sandbox pays it as a payer's bank would, and notifies your webhook.
await sandbox.payCharge(txid);
console.log((await api.cob.get(txid)).status); // CONCLUIDA

server.close();
await api.close();
await sandbox.close();
