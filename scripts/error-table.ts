/**
 * Renders the error table of docs/errors-retries-timeouts.md from ERROR_CATALOGUE.
 * `node scripts/error-table.ts` rewrites the table between the markers; test/readme.test.ts fails
 * when they drift apart.
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

/** The guide that holds the table. */
export const GUIDE = new URL('../docs/errors-retries-timeouts.md', import.meta.url);

export function withTable(guide: string): string {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start) throw new Error('the guide has no error-table markers');
  return `${guide.slice(0, start + START.length)}\n${renderErrorTable()}\n${guide.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GUIDE, withTable(readFileSync(GUIDE, 'utf8')));
}
