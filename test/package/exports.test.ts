/**
 * The public exports do not change by accident: each entry point's exported names (types
 * included) against `exports.json`, taken from main before the errors and helpers got their
 * public faces (`src/errors/public.ts`, `src/lib/public.ts`). A name added or removed on purpose
 * is a line added to or removed from that file, in the same change.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENTRIES, exportedNames } from './exported-names.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const snapshot = JSON.parse(readFileSync(new URL('exports.json', import.meta.url), 'utf8')) as Record<string, string[]>;

describe('public exports', () => {
  const now = exportedNames(root);

  it.each(Object.keys(ENTRIES))('%s exports exactly the names in exports.json', (subpath) => {
    expect(now[subpath]).toEqual(snapshot[subpath]);
  });

  it('the snapshot names every entry point', () => {
    expect(Object.keys(snapshot).sort()).toEqual(Object.keys(ENTRIES).sort());
  });
});
