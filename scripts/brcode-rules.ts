/**
 * Renders the lint rules table of docs/brcodes-and-qr.md from LINT_RULES.
 * `node scripts/brcode-rules.ts` rewrites the table between the markers; a test in
 * test/lib/brcode-lint.test.ts fails when they drift apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { LINT_RULES } from '../src/lib/brcode/lint.ts';
import { betweenMarkers } from './error-table.ts';

export const START = '<!-- brcode-rules:start -->';
export const END = '<!-- brcode-rules:end -->';
export const DOC = new URL('../docs/brcodes-and-qr.md', import.meta.url);

export function renderRulesTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = LINT_RULES.map(
    (r) =>
      `| \`${r.code}\` | ${r.severity} | ${r.field === '' ? 'whole code' : r.field} | ${cell(r.summary)} | ${cell(r.source)} |`,
  );
  return ['| Code | Severity | Field | Finds | Source |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function withRulesTable(doc: string): string {
  return betweenMarkers(doc, START, END, renderRulesTable());
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(DOC, withRulesTable(readFileSync(DOC, 'utf8')));
