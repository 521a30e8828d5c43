/**
 * The smallest merchant backend on Workers or an edge function: it creates charges and receives
 * payment notifications, and nothing else (no cash-out, no recurring). bundle.test.ts bundles
 * it for Workers (wrangler) and for `esbuild --platform=browser`; bench/bundle-size.ts weighs it.
 */
import { InstantClient, receivedPaymentsHandler } from 'instant-payments';

let api;
let handler;

export default {
  async fetch(request, env) {
    api ??= new InstantClient(JSON.parse(env.CLIENT));
    if (new URL(request.url).pathname === '/charge') {
      const { valor } = await request.json();
      return Response.json(
        await api.cob.create({ calendario: { expiracao: 3600 }, valor: { original: valor }, chave: env.KEY }),
      );
    }
    handler ??= receivedPaymentsHandler(api, { onPayment: (payment) => console.log('paid', payment.txid) });
    return handler(request);
  },
};
