/**
 * Altering a batch of due-date charges: a GET, then a PUT. The service requires an alteration
 * to list exactly the batch's original charges, and due dates no earlier than each charge's
 * creation; both can only be judged against the batch as it is, so it is read first.
 */
import { LoteCobVOperacaoInvalida } from '../core/errors.ts';
import type { RequestOptions } from '../core/http.ts';
import { refuse, ruleContext, shouldValidate } from '../core/validation.ts';
import type { LoteCobV, LoteCobVSolicitado } from '../resources/lotecobv.ts';
import { judgeAgainstBatch } from '../rules/lotecobv.ts';

/** What the workflow needs of a client: the batch resource and its validation switch. */
export interface LoteCobVAlterApi {
  readonly lotecobv: Pick<LoteCobV, 'get' | 'put'>;
  readonly validate?: boolean;
}

/**
 * Alters an existing batch with `PUT /lotecobv/{id}` after reading it with `GET`: refuses
 * (`LoteCobVOperacaoInvalida`, nothing written) a body that adds or removes charges, or moves
 * a due date before its charge's creation date. With `validate: false` it is a plain `put`.
 * Also `api.lotecobv.alter(id, body)`.
 */
export async function alterLoteCobV(api: LoteCobVAlterApi, id: string | number, body: LoteCobVSolicitado, options?: RequestOptions): Promise<void> {
  if (shouldValidate(api.validate ?? true, options?.validate)) {
    const ctx = ruleContext(undefined);
    judgeAgainstBatch(await api.lotecobv.get(id, options), body, 'create', ctx);
    refuse(LoteCobVOperacaoInvalida, ctx.out);
  }
  await api.lotecobv.put(id, body, { ...options, validate: false });
}
