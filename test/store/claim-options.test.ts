/**
 * The claim's options are checked where they are given: each bound accepted, a step past it
 * refused with a `ConfigurationError` naming the option and saying what it takes.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.ts';
import { claimSettings, type ClaimOptions } from '../../src/store/claims.ts';
import { MAX_DELAY_MS, MAX_TTL_MS } from '../../src/store/options.ts';

/** The message of the `ConfigurationError` `claim` is refused with (checking it names `option`). */
function refusal(claim: ClaimOptions, option: string): string {
  try {
    claimSettings(claim);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe(option);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(claim)} was accepted`);
}

describe('claim options', () => {
  it('durations are accepted from their least value to 2^31 - 1 ms', () => {
    expect(claimSettings({ leaseMs: 100, waitMs: 0, pollMs: 1, doneTtlMs: 1 })).toEqual({
      leaseMs: 100,
      waitMs: 0,
      pollMs: 1,
      doneTtlMs: 1,
    });
    expect(claimSettings({ leaseMs: MAX_DELAY_MS, waitMs: MAX_DELAY_MS, pollMs: MAX_DELAY_MS })).toMatchObject({
      leaseMs: MAX_DELAY_MS,
      waitMs: MAX_DELAY_MS,
      pollMs: MAX_DELAY_MS,
    });
  });

  it('a duration past either bound, or not a number, is refused saying the range and the value given', () => {
    expect(refusal({ leaseMs: 99 }, 'claim.leaseMs')).toBe(
      'claim.leaseMs must be a number of milliseconds from 100 to 2147483647 (got 99)',
    );
    expect(refusal({ leaseMs: MAX_DELAY_MS + 1 }, 'claim.leaseMs')).toBe(
      'claim.leaseMs must be a number of milliseconds from 100 to 2147483647 (got 2147483648)',
    );
    expect(refusal({ waitMs: -1 }, 'claim.waitMs')).toContain('from 0 to 2147483647 (got -1)');
    expect(refusal({ pollMs: 0.5 }, 'claim.pollMs')).toContain('from 1 to 2147483647 (got 0.5)');
    expect(refusal({ waitMs: '500' as never }, 'claim.waitMs')).toContain('(got 500)');
    expect(refusal({ pollMs: Number.NaN }, 'claim.pollMs')).toContain('(got NaN)');
  });

  it('doneTtlMs: up to 100 years, or Infinity for forever; past 100 years the message says to give Infinity', () => {
    expect(claimSettings({ doneTtlMs: MAX_TTL_MS }).doneTtlMs).toBe(MAX_TTL_MS);
    expect(claimSettings({ doneTtlMs: Infinity }).doneTtlMs).toBe(Infinity);
    expect(refusal({ doneTtlMs: MAX_TTL_MS + 1 }, 'claim.doneTtlMs')).toBe(
      `claim.doneTtlMs is over 100 years: give Infinity to keep it forever (got ${MAX_TTL_MS + 1})`,
    );
    expect(refusal({ doneTtlMs: 0 }, 'claim.doneTtlMs')).toBe(
      `claim.doneTtlMs must be a number of milliseconds from 1 to ${MAX_TTL_MS} (got 0)`,
    );
    // Text is not a number, however large the number it reads as.
    for (const text of ['60000', '1e20']) {
      expect(refusal({ doneTtlMs: text as never }, 'claim.doneTtlMs')).toBe(
        `claim.doneTtlMs must be a number of milliseconds from 1 to ${MAX_TTL_MS} (got ${text})`,
      );
    }
  });
});
