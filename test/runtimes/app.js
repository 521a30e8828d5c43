/**
 * The app each runtime test runs (test/runtimes/runtimes.test.ts), written once as a worker
 * module (`export default { fetch(request, env) }`): Workers call it as it is, Bun and Deno
 * through their own servers (serve-bun.js, serve-deno.js). Plain JavaScript importing the
 * package by its name, as a user's app does: the runtime (or its bundler) picks the build
 * through the exports map. `env.SANDBOX` is the listening sandbox, as JSON
 * `{ origin, client }` (`client`: `sandbox.clientOptions()`).
 *
 * POST /run `{ self }` (the app's own origin): the backend entry without tls (a charge created,
 * read and listed, a recurrence created and read, the webhook registered at `self`/hook, the
 * charge paid through the sandbox's control), the payer entry (BR Codes parsed and built, the
 * charge's signed payload fetched and verified, a recurrence payload) and the qr entry (SVG,
 * PNG as base64). GET /paid?txid=: whether the handler confirmed that payment. Anything
 * else: the received-payments handler.
 */
import { InstantClient, generateTxid, receivedPaymentsHandler } from 'instant-payments';
import { PayerClient, brcode } from 'instant-payments/payer';
import { qrPng, qrSvg } from 'instant-payments/qr';

const paid = new Set();
let app;

function setup(env) {
  const { origin, client } = JSON.parse(env.SANDBOX);
  const api = new InstantClient(client);
  // Locations carry no scheme and a payer fetches them over https: this one reaches the
  // plain-HTTP sandbox (what `sandbox.payerOptions()` gives in Node).
  const httpsOrigin = origin.replace(/^http:/, 'https:');
  const payer = new PayerClient({
    allowPrivateHosts: true,
    fetch: (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return fetch(url.startsWith(httpsOrigin) ? origin + url.slice(httpsOrigin.length) : url, init);
    },
  });
  const handler = receivedPaymentsHandler(api, { onPayment: (payment) => void paid.add(payment.txid) });
  return { origin, client, api, payer, handler, key: client.ownKeys[0] };
}

async function run(env, self) {
  const { origin, api, payer, key } = (app ??= setup(env));
  const hour = {
    inicio: new Date(Date.now() - 3_600_000).toISOString(),
    fim: new Date(Date.now() + 3_600_000).toISOString(),
  };

  // Backend: a charge created, read, listed; a recurrence; the webhook; the payment.
  const txid = generateTxid();
  await api.cob.create(txid, { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: key });
  const cob = await api.cob.get(txid);
  const listed = [];
  for await (const item of api.cob.list(hour)) listed.push(item.txid);
  const loc = await api.locrec.create();
  const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
  const { idRec } = await api.rec.create({
    vinculo: { contrato: 'C-1', objeto: 'Plano', devedor: { cpf: '12345678909', nome: 'Fulano de Tal' } },
    calendario: { dataInicial: addDays(today, 3), periodicidade: 'MENSAL' },
    valor: { valorRec: '29.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
    loc: loc.id,
  });
  const rec = await api.rec.get(idRec);

  // Payer: the charge's BR Code, its signed payload, the recurrence's payload.
  const parsed = brcode.parse(cob.instantCopiaECola);
  const built = brcode.build({ key, amount: '1.50', merchantName: 'Loja', merchantCity: 'Brasilia', txid: 'RT1' });
  const payload = await payer.cobPayload.getCob(parsed.url);
  const recPayload = await payer.recPayload.get(loc.location);

  // QR: SVG and PNG of the BR Code.
  const svg = qrSvg(cob.instantCopiaECola);
  const png = await qrPng(cob.instantCopiaECola);

  await api.webhook.put(key, `${self}/hook`);
  const pay = await fetch(`${origin}/sandbox/charges/${txid}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!pay.ok) throw new Error(`pay: ${pay.status} ${await pay.text()}`);

  return {
    txid,
    cob: { status: cob.status, original: cob.valor.original },
    listed: listed.includes(txid),
    rec: { idRec: rec.idRec, status: rec.status },
    brcode: { url: parsed.url, built: brcode.parse(built).txid },
    payload: { txid: payload.txid, original: payload.valor.original },
    recPayload: { idRec: recPayload.idRec },
    svg: svg.slice(0, 200),
    png: btoa(String.fromCharCode(...png)),
    compression: typeof CompressionStream === 'function',
  };
}

function addDays(date, days) {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/run') return Response.json(await run(env, (await request.json()).self));
      if (url.pathname === '/paid') return Response.json({ paid: paid.has(url.searchParams.get('txid')) });
      app ??= setup(env);
      return await app.handler(request);
    } catch (error) {
      return Response.json({ error: `${error?.name}: ${error?.message}`, stack: error?.stack }, { status: 500 });
    }
  },
};
