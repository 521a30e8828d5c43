/**
 * The root of every error the SDK throws, and the shape of a broken rule (`Violacao`). A leaf:
 * the pure helpers (`lib/`) and the error classes above build on it without importing anything else.
 */
/** One entry of `violacoes`, as the service sends it (interface spec, "Violations", `Violacao`). */
export interface Violacao {
  razao?: string;
  propriedade?: string;
  valor?: string;
}

/** Base of every error this SDK throws. */
export class InstantError extends Error {
  override readonly name: string = 'InstantError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** What `JSON.stringify(error)` shows: the public fields, never the cause or the response. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (value !== undefined && key !== 'name' && key !== 'message') out[key] = value;
    }
    return out;
  }
}
