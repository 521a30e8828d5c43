import type { PayloadSigner } from '../payload.ts';
import { Problem } from '../problems.ts';
import { Random } from '../random.ts';
import type { Json } from '../rules.ts';
import type { Context } from '../state.ts';
import { cobrRoutes, settleCobR, sweepCobRs } from './cobr.ts';
import { locRecRoutes, recPayloadRoute } from './locrec.ts';
import { approveRec, approvedByPayment, recOr404, recRoutes, rejectRec, sweepRecs } from './rec.ts';
import { REC_PAYLOAD_PATH, renderCobR, renderRec, renderSolicRec } from './render.ts';
import { answerSolicRec, solicRecRoutes, sweepSolicRecs, type SolicRecAnswer } from './solicrec.ts';
import { RecurringState, type OwnAccount, type RecurringContext } from './state.ts';
import { notifyCobR, notifyRec, webhookRoutes } from './webhooks.ts';

export { REC_PAYLOAD_PATH };

/** Options of `sandbox.approveRec()`. */
export interface ApproveRecOptions {
  /** The journey the paying user approved by (default: JORNADA_2 with a location, else JORNADA_1). */
  jornada?: 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4';
}

/** Options of `sandbox.settleCobr()`. */
export interface SettleCobrOptions {
  /** Rejection code (A.3) of a `REJEITADA` attempt; default `AM02`, which does not reject the charge. */
  codigo?: string;
}

export class RecurringPart {
  readonly #rc: RecurringContext;
  readonly #signer: PayloadSigner;

  constructor(base: Context, signer: PayloadSigner, seed: number, ownAccounts: readonly OwnAccount[] | undefined) {
    const ids = new Random(seed);
    const accounts =
      ownAccounts !== undefined && ownAccounts.length > 0
        ? ownAccounts.map((a) => ({ ...a }))
        : [generatedAccount(ids)];
    this.#rc = { base, state: new RecurringState(), ids, ownAccounts: accounts };
    this.#signer = signer;
  }

  /** The receiving user's accounts: a recurring charge's `recebedor` must name one. */
  get ownAccounts(): readonly OwnAccount[] {
    return this.#rc.ownAccounts;
  }

  /** Answers `/v2/{resource}/{a}/{b}/{c}` (segments decoded), or `undefined` for an unknown route. */
  /**
   * The route for a path under `/v2/<resource>` of this part, if it has one: found before any
   * token is looked at (an unknown path is a 404, not a 401), run once the token was.
   */
  route(
    request: Request,
    resource: string,
    a: string | undefined,
    b: string | undefined,
    c: string | undefined,
  ): (() => Promise<Response | undefined>) | undefined {
    const rc = this.#rc;
    const run = (answer: () => Promise<Response | undefined>) => () => {
      this.#sweep();
      return answer();
    };
    switch (resource) {
      case 'rec':
        return b === undefined ? run(() => recRoutes(rc, request, a)) : undefined;
      case 'solicrec':
        return b === undefined ? run(() => solicRecRoutes(rc, request, a)) : undefined;
      case 'cobr':
        return c === undefined || b === 'retentativa' ? run(() => cobrRoutes(rc, request, a, b, c)) : undefined;
      case 'locrec':
        if (b !== undefined && (b !== 'idRec' || c !== undefined)) return undefined;
        return run(() => locRecRoutes(rc, request, a, b === 'idRec'));
      case 'webhookrec':
      case 'webhookcobr':
        return a === undefined
          ? run(() => webhookRoutes(rc, resource === 'webhookrec' ? 'rec' : 'cobr', request))
          : undefined;
      default:
        return undefined;
    }
  }

  /** Answers `GET /qr/v2/rec/<token>`. */
  payload(request: Request, path: string): Promise<Response | undefined> {
    this.#sweep();
    return recPayloadRoute(this.#rc, this.#signer, request, path);
  }

  async approveRec(idRec: string, options: ApproveRecOptions = {}): Promise<Json> {
    this.#sweep();
    const rec = recOr404(this.#rc, idRec);
    approveRec(this.#rc, rec, options.jornada);
    await notifyRec(this.#rc, rec);
    return renderRec(this.#rc, rec, true);
  }

  async rejectRec(idRec: string, options: { codigo?: 'AP13' | 'AP14' } = {}): Promise<Json> {
    this.#sweep();
    const rec = recOr404(this.#rc, idRec);
    rejectRec(this.#rc, rec, options.codigo);
    await notifyRec(this.#rc, rec);
    return renderRec(this.#rc, rec, true);
  }

  async answerSolicRec(idSolicRec: string, status: SolicRecAnswer): Promise<Json> {
    this.#sweep();
    const { solicrec, rec } = answerSolicRec(this.#rc, idSolicRec, status);
    if (rec !== undefined) await notifyRec(this.#rc, rec);
    return renderSolicRec(this.#rc, solicrec);
  }

  async settleCobr(txid: string, status: 'PAGA' | 'REJEITADA', options: SettleCobrOptions = {}): Promise<Json> {
    this.#sweep();
    if (status !== 'PAGA' && status !== 'REJEITADA') {
      throw new Problem('RequisicaoInvalida', 'status é PAGA ou REJEITADA.', [
        { propriedade: 'status', razao: 'Desfecho desconhecido.', valor: String(status) },
      ]);
    }
    const cobr = settleCobR(this.#rc, txid, status, options.codigo);
    await notifyCobR(this.#rc, cobr);
    return renderCobR(this.#rc, cobr, true);
  }

  /** After charge `txid` was paid: the recurrences its payment activates (journeys 3 and 4). */
  async chargePaid(txid: string): Promise<void> {
    this.#sweep();
    for (const rec of approvedByPayment(this.#rc, txid)) await notifyRec(this.#rc, rec);
  }

  /**
   * The time-driven changes at the sandbox's now (attempts, charges, recurrences and requests
   * past their dates), made at once; resolves once their notifications' first attempts answered.
   */
  async sweep(): Promise<void> {
    const rc = this.#rc;
    sweepSolicRecs(rc);
    const recs = sweepRecs(rc);
    const cobrs = sweepCobRs(rc);
    await Promise.all([...recs.map((rec) => notifyRec(rc, rec)), ...cobrs.map((cobr) => notifyCobR(rc, cobr))]);
  }

  #sweep(): void {
    void this.sweep();
  }
}

/** One account of the receiving user made from the seed: 8 digits, branch 0001, CORRENTE. */
function generatedAccount(ids: Random): OwnAccount {
  let conta = '';
  for (let i = 0; i < 8; i++) conta += String(ids.below(10));
  return { conta, agencia: '0001', tipoConta: 'CORRENTE' };
}

// ---------------------------------------------------------------------------------------------
// Control routes

/** What the control routes drive (the `Sandbox` is one). */
