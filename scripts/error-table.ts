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

/** `text` with `body` between the `start` and `end` markers (a generated table); throws without them. */
export function betweenMarkers(text: string, start: string, end: string, body: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

export function withTable(guide: string): string {
  return betweenMarkers(guide, START, END, renderErrorTable());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GUIDE, withTable(readFileSync(GUIDE, 'utf8')));
}
