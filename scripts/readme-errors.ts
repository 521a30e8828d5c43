/**
 * Renders the README's error table from ERROR_CATALOGUE. `node scripts/readme-errors.ts`
 * rewrites the table between the markers; test/readme.test.ts fails when they drift apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CATALOGUE } from '../src/errors/catalogue.ts';

export const START = '<!-- errors:start -->';
export const END = '<!-- errors:end -->';

export function renderErrorTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(
    ([name, { status, meaning }]) => `| \`${name}\` | ${status.join(' or ')} | ${meaning} |`,
  );
  return ['| Class (`errorType`) | HTTP | Meaning |', '|---|---|---|', ...rows].join('\n');
}

export function withTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error('README has no error-table markers');
  return `${readme.slice(0, start + START.length)}\n${renderErrorTable()}\n${readme.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = new URL('../README.md', import.meta.url);
  writeFileSync(file, withTable(readFileSync(file, 'utf8')));
}
