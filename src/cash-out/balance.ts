/** The cash-out account's balance. */
import type { RequestOptions } from '../core/types.ts';
import type { APIPromise } from '../core/api-promise.ts';
import { path } from '../core/path.ts';
import { CASH_OUT_ERRORS, CashOutResource } from './resource.ts';
import type { Balance } from './types.ts';
import { balanceFrom } from './wire.ts';

/** The cash-out account balance, `cashOut.balance`. */
export class CashOutBalance extends CashOutResource {
  /**
   * `GET /api/v2/accounts/balances/` (the trailing slash is the provider's). Amounts come back
   * as decimal strings; when the provider lists several entries the latest `eventDate` wins.
   */
  get(options?: RequestOptions): APIPromise<Balance> {
    return this.send<Balance, unknown>({
      method: 'GET',
      retry: 'replay',
      path: () => path`/api/v2/accounts/balances/`,
      errors: CASH_OUT_ERRORS,
      options,
      normalize: balanceFrom,
    });
  }
}
