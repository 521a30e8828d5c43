/**
 * Immediate charge lifecycle: create (with your own txid, so a retry cannot duplicate it),
 * revise, fetch, list, remove. Requests that break a rule of the service are refused before
 * they are sent, with the same error class the service would answer with.
 *
 * Run: `node examples/charges.ts`: against an in-process sandbox with no credentials in the
 * environment, against your provider with them (see examples/setup.ts).
 */
import { ApiError, CobNaoEncontrado, CobOperacaoInvalida, fromCents, generateTxid, toCents } from '../src/index.ts';
import { connect, runMain } from './setup.ts';

export async function main(): Promise<void> {
  const { api, receiverKey, close } = await connect();
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
    console.log(
      `created ${created.txid} rev ${created.revisao} ${created.status}; copy-and-paste: ${created.instantCopiaECola ?? '(none)'}`,
    );

    // 2. Revise: only the fields that change; revisao goes up by one.
    const revised = await api.cob.update(txid, {
      valor: { original: '120.00' },
      solicitacaoPagador: 'Order 1001 (discount)',
    });
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

    // 6. A rule broken on the client side: nothing is sent, the error says which field.
    try {
      await api.cob.create(generateTxid(), {
        calendario: { expiracao: 0 },
        valor: { original: '10.00' },
        chave: receiverKey,
      });
    } catch (error) {
      console.log(`as expected, ${describe(error)}`);
    }
  } catch (error) {
    console.error(describe(error));
    process.exitCode = 1;
  } finally {
    await close();
  }
}

/** The SDK's errors a charge call can meet, in words; anything else is a bug and is rethrown. */
function describe(error: unknown): string {
  if (error instanceof CobOperacaoInvalida) {
    const fields = error.violacoes.map((v) => v.propriedade).join(', ');
    return `refused ${error.sentRequest ? 'by the service' : 'before sending'}: ${fields}`;
  }
  if (error instanceof CobNaoEncontrado) return 'no such charge';
  if (error instanceof ApiError) return `service said ${error.status} ${error.errorType ?? ''}`;
  throw error;
}

runMain(import.meta, main);
