/** Reading JSON the SDK did not write. */

/** True for a plain object (not null, not an array): the shape of a JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text as JSON, or `undefined` when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
