/**
 * Which calls are sent again after an attempt whose outcome is unknown, decided per call (a
 * resource method says it as data, `CallSpec.retry`), not per HTTP method: a create under a key
 * of ours is looked for before it is sent again, so that its own landed first attempt never comes
 * back as "in use", and a create the service keys itself is never sent twice.
 */
import { isRecord } from '../internal/json.ts';
import type { CallSpec, RetryPolicy } from './types.ts';

/** The policy of a call that states none (`client.request()`, the pages of a list). */
export function retryPolicyOf(spec: CallSpec): RetryPolicy {
  if (spec.retry !== undefined) return spec.retry;
  return spec.method === 'GET' || spec.method === 'PUT' || spec.method === 'DELETE' || spec.idempotencyKey
    ? 'replay'
    : 'never';
}

/**
 * True when `found` holds everything `sent` holds: each field sent is there with the same value
 * (arrays item by item); what the service adds (its ids, status, times, defaults) is not held
 * against it.
 */
export function holds(found: unknown, sent: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(found) && found.length === sent.length && sent.every((item, i) => holds(found[i], item));
  if (isRecord(sent))
    return isRecord(found) && Object.keys(sent).every((key) => sent[key] === undefined || holds(found[key], sent[key]));
  return Object.is(found, sent);
}
