/**
 * What every payload the payer app reads goes through, charges' and recurrences' alike: the
 * location checked before anything is sent, one GET through the payer's HTTP, and a signed
 * answer (`application/jose`, or text shaped like a compact JWS) verified with the key from its
 * `jku` before anything in it is read. An unsigned answer is refused unless
 * `allowUnsignedPayloads` (development only) is set. Also the lenient readers of payload fields.
 */
import type { StatusTable } from '../errors/factory.ts';
import { isRecord, parseJson } from '../internal/json.ts';
import { wireAmount } from '../lib/money.ts';
import { PayloadVerificationError } from './errors.ts';
import { looksLikeCompactJws, type JwsVerifier } from './jws.ts';
import { resolveLocation } from './location.ts';
import type { PayerHttp, PayerRequestOptions } from './transport.ts';
import type { Now } from '../internal/clock.ts';

/** What a payload resource needs from its client. */
export interface PayerContext {
  readonly http: PayerHttp;
  readonly verifier: JwsVerifier;
  readonly allowPrivateHosts: boolean;
  readonly allowUnsignedPayloads: boolean;
  /** The client's clock: "today" for a payment date (`DPP`). */
  readonly now: Now;
}

const ACCEPT = 'application/jose, application/json;q=0.9';

/**
 * The payload at `location` (no scheme), `query` added to its URL, verified; `errors` names the
 * classes of the endpoint's error statuses. Resolves with the payload's JSON object.
 */
export async function fetchPayload(
  context: PayerContext,
  location: string,
  errors: StatusTable,
  query: Record<string, string | undefined> | undefined,
  options: PayerRequestOptions | undefined,
): Promise<unknown> {
  const { url, route } = resolveLocation(location, context.allowPrivateHosts);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
  const { response, text } = await context.http.get(url, route, ACCEPT, errors, options);
  const type = response.headers.get('content-type') ?? '';
  if (/^application\/jose\b/i.test(type) || (!/json/i.test(type) && looksLikeCompactJws(text))) {
    return context.verifier.verify(text, url, options);
  }
  if (!context.allowUnsignedPayloads) {
    throw new PayloadVerificationError(
      'unsigned',
      'the payload is not signed (allowUnsignedPayloads is for development only)',
    );
  }
  const body = parseJson(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PayloadVerificationError('malformed', 'the payload is neither a JSON object nor a compact JWS');
  }
  return body;
}

/** `value` when it is a JSON object, else a fresh empty one (so readers never throw). */
export function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** Integer-looking strings become numbers; anything else is left as it came. */
export function numbers(target: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) {
    const value = target[key];
    if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) target[key] = Number(value);
  }
}

/** `"140,45"` → `"140.45"`, `140.45` → `"140.45"`; anything else is left as it came. */
export function money(target: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) {
    try {
      const amount = wireAmount(target[key]);
      if (amount !== undefined) target[key] = amount;
    } catch {
      // Out of range or not finite: kept as it came.
    }
  }
}
