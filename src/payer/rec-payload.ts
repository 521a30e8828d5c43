/**
 * Recurrence payload retrieval (tag RecPayload): what a payer app reads at the recurrence
 * location of a composite QR code (`GET /rec/{recUrlAccessToken}` on the receiving user's
 * provider). The same location checks and signature verification as the charge payloads
 * (`payload.ts`): fail closed, the JWS verified with the key from its `jku`.
 */
import { RecPayloadNaoEncontrado, RecPayloadOperacaoInvalida } from '../errors/catalogue.ts';
import type { StatusTable } from '../errors/factory.ts';
import { fetchPayload, money, record, type PayerContext } from './payload.ts';
import type { PayerRequestOptions } from './transport.ts';
import type { RecPayload } from '../recurring/terms.ts';

const ERRORS: StatusTable = {
  400: RecPayloadOperacaoInvalida,
  404: RecPayloadNaoEncontrado,
  410: RecPayloadNaoEncontrado,
};

/** Recurrence payloads fetched from their location, signature checked, `payer.recPayload`. */
export class RecPayloadResource {
  readonly #context: PayerContext;

  constructor(context: PayerContext) {
    this.#context = context;
  }

  /**
   * The recurrence at `location` (no scheme: `psp.example/qr/v2/rec/…`, the `recurrenceUrl` of a
   * composite BR Code). 404 and 410 are `RecPayloadNaoEncontrado`; 400
   * (`RecPayloadOperacaoInvalida`) for a recurrence that is expired, rejected or cancelled.
   */
  async get(location: string, options?: PayerRequestOptions): Promise<RecPayload> {
    return normalizeRecPayload(await fetchPayload(this.#context, location, ERRORS, undefined, options));
  }
}

/**
 * Reads the payload leniently: amounts as decimal strings (`"35,00"` → `"35.00"`), and
 * `calendario.periodicidade` from the misspelt `peridiocidade` of the official example (recurring
 * spec, appendix B item 14) when only that one is there.
 */
export function normalizeRecPayload(raw: unknown): RecPayload {
  const payload = record(raw);
  money(record(payload['valor']), ['valorRec', 'valorMinimoRecebedor']);
  const calendario = record(payload['calendario']);
  if (calendario['periodicidade'] === undefined && calendario['peridiocidade'] !== undefined) {
    calendario['periodicidade'] = calendario['peridiocidade'];
  }
  return payload as RecPayload;
}
