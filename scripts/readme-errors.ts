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

/** `text` with `body` between the `start` and `end` markers (a generated table); throws without them. */
export function betweenMarkers(text: string, start: string, end: string, body: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

export function withTable(readme: string): string {
  return betweenMarkers(readme, START, END, renderErrorTable());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = new URL('../README.md', import.meta.url);
  writeFileSync(file, withTable(readFileSync(file, 'utf8')));
}
