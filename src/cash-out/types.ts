/**
 * Cash-out types as the SDK hands them out. The provider's money is a float on the wire; here it
 * is always a decimal string with two decimals (`"10.50"`), converted digit by digit. Responses
 * are read leniently: fields the SDK does not know pass through unchanged, and the status and
 * error-code unions stay open (`(string & {})`) for values the provider adds later.
 */
import type { z } from 'zod';
import type { paymentRequestSchema } from './schema.ts';

/** Transfer statuses the provider documents (interface spec, "Transfer (payment order) status"). */
export const TRANSFER_STATUSES = ['PROCESSING', 'LIQUIDATED', 'CANCELED', 'REFUNDED', 'PARTIALLY_REFUNDED'] as const;

/** A transfer's status: the documented values, or any value the provider adds later. */
export type TransferStatus = (typeof TRANSFER_STATUSES)[number] | (string & {});

/** The statuses a transfer-confirmation notification may carry (interface spec, "Events"). */
export const NOTIFIED_STATUSES = ['LIQUIDATED', 'CANCELED'] as const;

/** A status a genuine transfer-confirmation notification carries. */
export type NotifiedStatus = (typeof NOTIFIED_STATUSES)[number];

/** Why a transfer was cancelled (or a refund failed): the provider's `errorCode` values. */
export const TRANSFER_ERROR_CODES = {
  AB03: 'Settlement timeout',
  AB09: "Error at the recipient's participant",
  AB11: 'Initiating participant timeout',
  AC03: 'Recipient agency or account does not exist or is invalid',
  AC06: 'Recipient account blocked',
  AC07: 'Recipient account closed',
  AC14: 'Wrong account type',
  AG03: 'Transaction type not allowed for the account (e.g. salary account)',
  AG13: 'A refund of a refund is not allowed',
  AGNT: "Direct participant is not the payer participant's settlement agent",
  AM01: 'Zero amount',
  AM02: 'Amount over the limit for the credited account type',
  AM09: 'Refund exceeds the original amount',
  AM18: 'Invalid number of transactions',
  BE01: 'CPF/CNPJ does not match the account holder',
  BE05: 'Initiator CNPJ not registered in the instant payment scheme',
  BE17: "QR code rejected by the recipient's participant",
  CH11: 'Recipient CPF/CNPJ incorrect',
  CH16: 'Content incompatible with business rules',
  DS04: "Order rejected by the recipient's participant",
  DT02: 'Invalid message date/time',
  DT05: 'Refund past the regulatory deadline',
  ED05: 'Error processing the instant payment',
  FF07: 'Purpose inconsistent with the structured block',
  FF08: 'Malformed operation id',
  OZ01: 'Provider-internal processing error',
} as const;

/** A transfer's `errorCode`: the documented codes, or any code the provider adds later. */
export type TransferErrorCode = keyof typeof TRANSFER_ERROR_CODES | (string & {});

/** Money as the SDK gives it: `amount` is a decimal string with two decimals (`"10.50"`). */
export interface Money {
  currency: string;
  amount: string;
}

/** The creditor's or debtor's account on a transfer. */
export interface TransferAccount {
  ispb?: string;
  issuer?: string;
  number?: string;
  /** ISO 20022 account type: `CACC`, `SVGS`, `TRAN`, `SLRY`, ... */
  accountType?: 'CACC' | 'SVGS' | 'TRAN' | 'SLRY' | (string & {});
  document?: string;
  name?: string;
  [field: string]: unknown;
}

/**
 * One refund of a transfer. The status query gives objects; the order's 202 answer gives a bare
 * number per refund, read here as the refund's amount (`{ instantRefundAmount: { amount } }`).
 * A freshly accepted order has no refunds, so in practice that shape is always empty.
 */
export interface TransferRefund {
  endToEndId?: string;
  status?: TransferStatus;
  errorCode?: TransferErrorCode;
  instantRefundAmount?: { currency?: string; amount: string };
  [field: string]: unknown;
}

/** A payment order (transfer), from the 202 answer, the status query or a notification. */
export interface Transfer {
  /** The key the order was placed with: the way to query it. */
  idempotencyKey: string;
  status: TransferStatus;
  /** Present when `status` is `CANCELED` (and on failed refunds). */
  errorCode?: TransferErrorCode;
  id?: number;
  endToEndId?: string;
  instantKey?: string;
  payment?: Money;
  transactionType?: string;
  localInstrument?: string;
  creditDebitType?: string;
  createdAt?: string;
  creditorAccount?: TransferAccount;
  debtorAccount?: TransferAccount;
  remittanceInformation?: string;
  txId?: string;
  /** Always an array (empty when the provider sends none), one shape for both answers. */
  refunds: TransferRefund[];
  [field: string]: unknown;
}

/**
 * `POST /api/v2/instant/payments/dict`: a payment order to a destination key, as sent. The type
 * is the input of the schema that checks it (src/cash-out/schema.ts), so the two cannot differ.
 */
export type CashOutPaymentRequest = z.input<typeof paymentRequestSchema>;

/** One entry of the balance answer, amounts converted to decimal strings. */
export interface BalanceEntry {
  eventDate: string | undefined;
  name: string | undefined;
  available: string;
  blocked: string | undefined;
  overdraft: string | undefined;
}

/**
 * The account balance. The provider answers a list; the figures here are the entry with the
 * latest `eventDate` (the first entry when the dates do not tell), every entry is in `entries`,
 * and the body as received is in `raw`. Amounts may be negative (`"-12.30"`).
 */
export interface Balance extends BalanceEntry {
  entries: BalanceEntry[];
  raw: unknown;
}
