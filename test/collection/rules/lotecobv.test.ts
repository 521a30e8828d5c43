import { describe, expect, it } from 'vitest';
import { brasiliaDateOf } from '../../../src/collection/rules/lotecobv.ts';

describe('brasiliaDateOf', () => {
  it('is the civil date in Brasília, three hours behind UTC', () => {
    expect(brasiliaDateOf('2026-11-21T02:30:00Z')).toBe('2026-11-20');
    expect(brasiliaDateOf('2026-11-21T03:00:00Z')).toBe('2026-11-21');
    expect(brasiliaDateOf('not a date')).toBeUndefined();
    expect(brasiliaDateOf(undefined)).toBeUndefined();
  });
});
