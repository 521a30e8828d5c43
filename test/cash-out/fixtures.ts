/** Cash-out test data: made-up documents and keys with valid check digits, provider wire shapes. */
import { CashOutClient, type CashOutClientOptions, type Store } from '../../src/index.ts';
import { sharedStore } from '../support/shared-store.ts';

/** The cash-out host root used by msw tests (neutral, non-resolvable). */
export const CASH_OUT_URL = 'https://accounts.psp.example';
export const TOKEN_URL = `${CASH_OUT_URL}/api/v2/oauth/token`;
export const BALANCE_URL = `${CASH_OUT_URL}/api/v2/accounts/balances/`;
export const DICT_URL = `${CASH_OUT_URL}/api/v2/instant/payments/dict`;
export const BY_KEY_URL = `${CASH_OUT_URL}/api/v2/instant/payments/idempotencyKey/:key`;

export const CPF = '52998224725';
export const CNPJ = '11222333000181';
export const EVP = '123e4567-e89b-12d3-a456-426614174000';
export const PHONE = '+5511987654321';
export const EMAIL = 'payee@example.com';
export const KEY = 'order42abc';

/** A `CashOutClient` on `CASH_OUT_URL` with a fixed token; `options` overrides. */
export function cashOutClient(options: Partial<CashOutClientOptions> = {}): CashOutClient {
  return new CashOutClient({ baseUrl: CASH_OUT_URL, auth: { getToken: async () => 'co-token' }, ...options });
}

/** The provider's transfer record (floats for money), as in the status query. */
export function wireTransfer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 7,
    idempotencyKey: KEY,
    endToEndId: 'E0000000020260101120000abcdefghi',
    instantKey: EVP,
    payment: { currency: 'BRL', amount: 10.5 },
    status: 'PROCESSING',
    transactionType: 'INSTANT',
    localInstrument: 'MANU',
    creditDebitType: 'CREDIT',
    createdAt: '2026-01-01T12:00:00Z',
    creditorAccount: {
      ispb: '00000000',
      issuer: '0001',
      number: '123456',
      accountType: 'CACC',
      document: CPF,
      name: 'Payee',
    },
    debtorAccount: {
      ispb: '11111111',
      issuer: '0001',
      number: '654321',
      accountType: 'CACC',
      document: CNPJ,
      name: 'Payer',
    },
    remittanceInformation: 'invoice 1',
    txId: 'tx1',
    refunds: [],
    ...overrides,
  };
}

/** A transfer-confirmation notification as the provider posts it. */
export function notification(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { data: wireTransfer({ status: 'LIQUIDATED', ...overrides }), type: 'TRANSFER' };
}

/** The provider's error body. */
export function providerError(status: number, code = 'ABC-0042') {
  return {
    type: `https://errors.psp.example/${code}`,
    title: `Error ${status}`,
    detail: 'Something about the request',
    instance: '/api/v2/instant/payments/dict',
  };
}

/**
 * A store that is not the client's own in-memory default (so `pay()` records its intents there):
 * the shared one of test/support, without `renew` (leases renewed by taking them again).
 */
export function sharedMemoryStore(): Store & { snapshot(): Promise<Array<{ key: string; value: string }>> } {
  const { renew: _renew, ...store } = sharedStore();
  return { ...store, snapshot: () => store.list('') };
}

/**
 * A provider's answer held back: `held` settles on `release()`, or after 2 s when the code under
 * test waits for the answer after all (the test then fails on what it sees, not on its time-out).
 */
export function heldAnswer(): { held: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, 2_000);
  });
  return { held, release };
}
