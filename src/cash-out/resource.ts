/** The base of the cash-out resources: the resource base, reading errors the provider's way. */
import { RequisicaoInvalida } from '../errors/catalogue.ts';
import type { ErrorTables, StatusTable } from '../errors/factory.ts';
import { APIResource, type EndpointErrors } from '../core/resource.ts';
import { cashOutErrors } from './errors.ts';

/** The classes of a cash-out endpoint without classes of its own. */
export const CASH_OUT_ERRORS: EndpointErrors = { 400: RequisicaoInvalida };

export abstract class CashOutResource extends APIResource {
  /** @internal */
  protected override errorTables(status: StatusTable): ErrorTables {
    return cashOutErrors(status);
  }
}
