/**
 * Checks of the store's and the claim's numeric options, made where the option is given (a
 * `ConfigurationError` naming it), so that a value out of range never reaches a database after
 * a callback already ran.
 */
import { ConfigurationError } from '../errors/failures.ts';

/** The longest delay a timer can wait (2^31 - 1 ms, about 24.8 days); PostgreSQL's time-outs stop there too. */
export const MAX_DELAY_MS = 2 ** 31 - 1;
/** The longest finite time-to-live (100 years): past it, `Infinity` (forever) is what is meant. */
export const MAX_TTL_MS = 100 * 365.25 * 24 * 3600_000;

/**
 * `value` as a duration in milliseconds: a number from `min` to `max` (default `MAX_DELAY_MS`),
 * or `undefined` when not given.
 */
export function durationOption(value: unknown, option: string, min: number, max = MAX_DELAY_MS): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    throw new ConfigurationError(
      option,
      `${option} must be a number of milliseconds from ${min} to ${max} (got ${String(value)})`,
    );
  }
  return value;
}

/** A time-to-live: 1 ms to 100 years, or `Infinity` for forever. */
export function ttlOption(value: unknown, option: string): number | undefined {
  if (value === Infinity) return Infinity;
  if (typeof value === 'number' && value > MAX_TTL_MS) {
    throw new ConfigurationError(
      option,
      `${option} is over 100 years: give Infinity to keep it forever (got ${value})`,
    );
  }
  return durationOption(value, option, 1, MAX_TTL_MS);
}

/** A count: an integer from 1. */
export function countOption(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigurationError(option, `${option} must be a whole number, 1 or more (got ${String(value)})`);
  }
  return value;
}
