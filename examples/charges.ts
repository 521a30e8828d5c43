/**
 * Immediate charge lifecycle: create (with your own txid, so a retry cannot duplicate it),
 * revise, fetch, list, remove. Requests that break a rule of the service are refused before
 * they are sent, with the same error class the service would answer with.
 *
 * Run: `node examples/charges.ts` with BASE_URL, TOKEN_URL, CLIENT_ID, CLIENT_SECRET and
 * RECEIVER_KEY (one of your directory keys) in the environment; the defaults point at a
 * sandbox host that does not exist.
 */
import {
  ApiError,
  CobNaoEncontrado,
  CobOperacaoInvalida,
  InstantClient,
  fromCents,
  generateTxid,
  toCents,
} from '../src/index.ts';

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const baseUrl = env['BASE_URL'] ?? 'https://api.sandbox.psp.example/v2';
  const receiverKey = env['RECEIVER_KEY'] ?? '2f1c3b7e-8a4d-4c6e-9b1a-5d7e3f9c0a12';
  const api = new InstantClient({
    baseUrl,
    auth: {
      tokenUrl: env['TOKEN_URL'] ?? `${baseUrl}/oauth/token`,
      clientId: env['CLIENT_ID'] ?? 'sandbox-client-id',
      clientSecret: env['CLIENT_SECRET'] ?? 'sandbox-client-secret',
      scope: 'cob.read cob.write',
    },
    // With your keys listed, a charge on someone else's key is refused before sending.
    ownKeys: [receiverKey],
  });

  try {
    // 1. Create. PUT with a txid you generate is idempotent (retried safely on 5xx);
    //    `api.cob.create(body)` (POST /cob) lets the service pick the txid but is never retried.
    const txid = generateTxid();
    const created = await api.cob.create(txid, {
      calendario: { expiracao: 3600 },
      valor: { original: '123.45' },
      chave: receiverKey,
      solicitacaoPagador: 'Order 1001',
      infoAdicionais: [{ nome: 'Order', valor: '1001' }],
    });
    console.log(`created ${created.txid} rev ${created.revisao} ${created.status}; copy-and-paste: ${created.instantCopiaECola ?? '(none)'}`);

    // 2. Revise: only the fields that change; revisao goes up by one.
    const revised = await api.cob.update(txid, { valor: { original: '120.00' }, solicitacaoPagador: 'Order 1001 (discount)' });
    console.log(`revised to ${revised.valor.original}, rev ${revised.revisao}`);

    // 3. Fetch the current state, or an earlier revision.
    const first = await api.cob.get(txid, { revisao: 0 });
    console.log(`revision 0 was ${first.valor.original}; payments so far: ${first.instant?.length ?? 0}`);

    // 4. List: `await` gives one page, `for await` walks every charge across pages.
    const fim = new Date().toISOString();
    const inicio = new Date(Date.now() - 24 * 3600_000).toISOString();
    const page = await api.cob.list({ inicio, fim, status: 'ATIVA', paginacao: { itensPorPagina: 50 } });
    console.log(`${page.parametros.paginacao.quantidadeTotalDeItens} active charges today`);
    let cents = 0; // money as integer cents, never floats
    for await (const cob of api.cob.list({ inicio, fim })) cents += toCents(cob.valor.original);
    console.log(`sum of today's charges: ${fromCents(cents)}`);

    // 5. Remove: a PATCH carrying only status REMOVIDA_PELO_USUARIO_RECEBEDOR.
    const removed = await api.cob.remove(txid);
    console.log(`removed: ${removed.status}`);

    // A rule broken on the client side: nothing is sent, the error says which field.
    await api.cob.create(generateTxid(), { calendario: { expiracao: 0 }, valor: { original: '10.00' }, chave: receiverKey });
  } catch (error) {
    if (error instanceof CobOperacaoInvalida) {
      const fields = error.violacoes.map((v) => v.propriedade).join(', ');
      console.error(`refused (${error.sentRequest ? 'by the service' : 'before sending'}): ${fields}`);
    } else if (error instanceof CobNaoEncontrado) {
      console.error('no such charge');
    } else if (error instanceof ApiError) {
      console.error(`service said ${error.status} ${error.errorType ?? ''}`);
    } else {
      throw error;
    }
  } finally {
    await api.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
