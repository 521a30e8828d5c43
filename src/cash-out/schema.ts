/**
 * The payment order schema: the one description of `CashOutPaymentRequest` (its type is the
 * schema's input) and of the rules it must pass. Loaded on the first order, with zod.
 */
import { z } from 'zod';
import type { Violacao } from '../errors/base.ts';
import { violation } from '../core/validation.ts';
import { isValidCnpj, isValidCpf } from '../lib/documents.ts';
import { detectKeyType, KEY_MAX_LENGTH } from '../lib/keys.ts';
import { MONEY_PATTERN, toCents } from '../lib/money.ts';

/** Why a destination key is not valid, by the type it looks like. */
function keyProblem(key: string): string | undefined {
  if (detectKeyType(key) !== undefined) return undefined;
  if (key.length > KEY_MAX_LENGTH) return `key is longer than ${KEY_MAX_LENGTH} characters`;
  if (/^\d{11}$/.test(key)) return 'CPF key with invalid check digits (a phone key needs a leading +)';
  if (/^[0-9A-Z]{12}\d{2}$/.test(key)) return 'CNPJ key with invalid check digits';
  if (key.startsWith('+')) return 'phone key must be + country code and number, digits only (e.g. +5511987654321)';
  if (key.includes('@')) return 'e-mail key must be a lowercase address';
  return 'not a CPF, CNPJ, phone (+...), e-mail or EVP (lowercase UUID) key';
}

/** Unknown fields pass through to the provider (`looseObject`). */
export const paymentRequestSchema = z.looseObject({
  /** Destination key: CPF, CNPJ, phone (`+55...`), e-mail or EVP. */
  instantKey: z.string().superRefine((key, ctx) => {
    const problem = keyProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** The recipient's CPF or CNPJ (digits only). */
  creditorDocument: z
    .string()
    .refine(
      (d) => isValidCpf(d) || isValidCnpj(d),
      'must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits',
    ),
  /** `HIGH` (default at the provider) skips the queue; `NORM` is queued. */
  priority: z.enum(['HIGH', 'NORM']).optional(),
  description: z.string().optional(),
  /** Seconds the order may wait in the queue before it is cancelled: 1 to 10800 (provider default 600). */
  expiration: z.int('must be an integer number of seconds').min(1).max(10_800).optional(),
  /** `amount` is a decimal string (`"10.00"`), at least `"0.01"`. */
  payment: z.object({
    currency: z.literal('BRL', 'only BRL is supported'),
    amount: z
      .string('must be a decimal string such as "10.00"')
      .regex(MONEY_PATTERN, 'must be a decimal string with exactly two decimals, such as "10.00"')
      .refine((amount) => !MONEY_PATTERN.test(amount) || toCents(amount) >= 1, 'must be at least 0.01'),
  }),
  /** ISPB codes of institutions that must not receive this payment. */
  ispbDeny: z
    .array(z.string().regex(/^[0-9A-Z]{8}$/, 'must be an 8-character ISPB'))
    .readonly()
    .optional(),
});

/** The rules a payment order breaks, as `violacoes` (property names as on the wire). */
export function paymentRequestViolations(body: unknown): Violacao[] {
  const result = paymentRequestSchema.safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => violation(issue.path.map(String).join('.') || 'body', issue.message));
}
