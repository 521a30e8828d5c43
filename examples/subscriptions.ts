/**
 * A monthly subscription: the recurrence (the payer's authorization for periodic charges), its
 * confirmation request accepted in the payer's bank, three monthly recurring charges (the second
 * one's attempt rejected, retried and paid), and the recurrence and charge notifications handled
 * by `recurringHandler`: each confirmed with the service before it is recorded, each state once.
 *
 * Run: `node examples/subscriptions.ts`.
 * - No credentials in the environment: an in-process sandbox plays the service and the payer's
 *   bank. The receiver listens on a free port and registers itself for both recurring webhooks;
 *   the example exits once the third charge is paid and recorded.
 * - With credentials (see examples/setup.ts) it serves your provider's recurring notifications on
 *   PORT (default 8080), after registering INSTANT_RECURRING_WEBHOOK_URL for both webhooks when set.
 */
import { createServer, type Server } from 'node:http';
import {
  addDays,
  addMonths,
  generateTxid,
  recurringHandler,
  todayInBrasilia,
  type CobRCompleta,
  type InstantClient,
  type RecCompleta,
  type RecurringNotificationsApi,
} from '../src/index.ts';
import { connect, listenOnLoopback, runMain, within, type Connection } from './setup.ts';

/**
 * Your database, as far as this example goes: the latest state of each recurrence and charge.
 * Writes are keyed by id, so recording the same state twice changes nothing.
 */
export class Subscriptions {
  readonly recurrences = new Map<string, RecCompleta>();
  readonly charges = new Map<string, CobRCompleta>();
  readonly #waiting: Array<() => void> = [];

  recordRecurrence(rec: RecCompleta): void {
    this.recurrences.set(rec.idRec, rec);
    console.log(
      `  [notified] recurrence ${rec.status}${rec.status === 'APROVADA' ? ` (${rec.ativacao?.tipoJornada})` : ''}`,
    );
    this.#changed();
  }

  recordCharge(cobr: CobRCompleta): void {
    this.charges.set(cobr.txid, cobr);
    const attempts = (cobr.tentativas ?? [])
      .map((t) => `${t.tipo} ${t.status}${t.rejeicao ? ` (${t.rejeicao.codigo})` : ''}`)
      .join(', ');
    console.log(
      `  [notified] charge due ${cobr.calendario.dataDeVencimento}: ${cobr.status}; attempts: ${attempts || 'none'}`,
    );
    this.#changed();
  }

  /** Resolves once `done` holds for what was recorded (fails after 5 s, so the example never hangs). */
  until(done: (db: this) => boolean, what: string): Promise<void> {
    if (done(this)) return Promise.resolve();
    const reached = new Promise<void>((resolve) => {
      const check = () => (done(this) ? resolve() : this.#waiting.push(check));
      this.#waiting.push(check);
    });
    return within(reached, 5_000, what);
  }

  #changed(): void {
    for (const check of this.#waiting.splice(0)) check();
  }
}

/**
 * The receiver: the service posts to `{webhookUrl}/rec` and `{webhookUrl}/cobr`; one handler
 * serves both. Nothing notified is trusted: each item is read again from the service
 * (`api.rec.get`, `api.cobr.get`) and only that record is recorded. Give the handler a shared
 * `store` (`instant-payments/postgres`) when several processes receive notifications.
 */
export function createSubscriptionReceiver(api: RecurringNotificationsApi, db: Subscriptions): Server {
  const handler = recurringHandler(api, {
    onRec: (rec) => db.recordRecurrence(rec),
    onCobr: (cobr) => db.recordCharge(cobr),
    onUnconfirmed: ({ kind, reason }) => console.warn(`  unconfirmed ${kind} notification (${reason}): not recorded`),
  });
  return createServer(handler.node);
}

/** Sandbox: the whole subscription, from the recurrence to the third paid charge. */
async function subscription({
  api,
  sandbox,
}: Connection & { sandbox: NonNullable<Connection['sandbox']> }): Promise<void> {
  const db = new Subscriptions();
  const server = createSubscriptionReceiver(api, db);
  const url = `${await listenOnLoopback(server)}/recurring`;
  try {
    await api.webhookrec.put(url);
    await api.webhookcobr.put(url);
    console.log(`webhooks registered: ${url}/rec and ${url}/cobr`);

    // 1. The recurrence: monthly, 29.90, retries allowed after a failed attempt (up to 3 in 7 days).
    const start = addDays(todayInBrasilia(), 5);
    const rec = await api.rec.create({
      vinculo: {
        contrato: 'PLAN-1001',
        objeto: 'Streaming, monthly plan',
        devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
      },
      calendario: { dataInicial: start, periodicidade: 'MENSAL' },
      valor: { valorRec: '29.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });
    console.log(`recurrence ${rec.idRec}: ${rec.status}, monthly from ${start}`);

    // 2. Ask the payer to confirm it through their bank account; their bank accepts.
    const request = await api.solicrec.create({
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      destinatario: { conta: '550689', agencia: '2569', cpf: '12345678909', ispbParticipante: '91193552' },
    });
    console.log(`confirmation request ${request.idSolicRec}: ${request.status}`);
    await sandbox.answerSolicRec(request.idSolicRec, 'ACEITA'); // the payer accepts in their bank's app
    await db.until((d) => d.recurrences.get(rec.idRec)?.status === 'APROVADA', 'approval');

    // 3. Three monthly charges. Each is scheduled by the payer's bank (ATIVA, an AGND attempt).
    const txids: string[] = [];
    for (let month = 0; month < 3; month++) {
      const txid = generateTxid(); // your txid: a PUT that is safe to retry
      await api.cobr.create(txid, {
        idRec: rec.idRec,
        calendario: { dataDeVencimento: addMonths(start, month) },
        valor: { original: '29.90' },
        recebedor: sandbox.ownAccounts[0]!, // one of your accounts (the client checks it against `ownAccounts`)
      });
      txids.push(txid);
      await db.until((d) => d.charges.get(txid)?.status === 'ATIVA', 'scheduled charge');
    }
    const [first, second, third] = txids as [string, string, string];

    // 4. Month 1 is paid. Month 2's attempt is rejected with AM02, a code that leaves the charge
    //    open: ask for a new attempt two days after its due date (the policy allows it); it is paid.
    await sandbox.settleCobr(first, 'PAGA');
    await sandbox.settleCobr(second, 'REJEITADA');
    const retryOn = addDays(addMonths(start, 1), 2);
    const retried = await api.cobr.retry(second, retryOn);
    console.log(
      `retry of month 2 on ${retryOn}: ${retried.tentativas?.at(-1)?.tipo} ${retried.tentativas?.at(-1)?.status}`,
    );
    await db.until((d) => d.charges.get(second)?.tentativas?.length === 2, 'scheduled retry');
    await sandbox.settleCobr(second, 'PAGA');
    await sandbox.settleCobr(third, 'PAGA');
    await db.until((d) => txids.every((txid) => d.charges.get(txid)?.status === 'CONCLUIDA'), 'three paid charges');

    const paid = txids.map((txid) => db.charges.get(txid)!.instant?.[0]?.valor);
    console.log(`three charges recorded CONCLUIDA, paid ${paid.join(', ')}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Real provider: register the URL if asked, then serve until stopped. */
async function serve(api: InstantClient, env: NodeJS.ProcessEnv): Promise<void> {
  const url = env['INSTANT_RECURRING_WEBHOOK_URL'];
  if (url) {
    await api.webhookrec.put(url);
    await api.webhookcobr.put(url);
  }
  const port = Number(env['PORT'] ?? 8080);
  createSubscriptionReceiver(api, new Subscriptions()).listen(port, () => console.log(`listening on ${port}`));
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const connection = await connect({ env });
  const { sandbox } = connection;
  if (!sandbox) return serve(connection.api, env);
  try {
    await subscription({ ...connection, sandbox });
  } finally {
    await connection.close();
  }
}

runMain(import.meta, main);
