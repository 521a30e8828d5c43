/**
 * The package's public names, in one list: `exports.json` holds each entry point's exported names
 * (types included, `type name` for a type only). The compiler's view of the sources and each
 * entry's runtime module must both match it. A name added or removed on purpose is a line added
 * to or removed from that file, in the same change (and a CHANGELOG line for a removal).
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

  it.each(Object.entries(ENTRIES))(
    '%s has at run time exactly the value names in exports.json',
    async (subpath, file) => {
      const module = (await import(`${root}${file}`)) as Record<string, unknown>;
      const values = (snapshot[subpath] ?? []).filter((name) => !name.startsWith('type '));
      expect(Object.keys(module).sort()).toEqual(values);
    },
  );

  it('the snapshot names every entry point', () => {
    expect(Object.keys(snapshot).sort()).toEqual(Object.keys(ENTRIES).sort());
  });
});
