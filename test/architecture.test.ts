/**
 * The house rule, as data: which part of `src/` may import which. A part imports only the parts
 * below it, so a change to the cash-out flow never climbs back up into a shared layer, and the
 * "Architecture" section of docs/architecture.md stays true. Also: no file-level import cycle
 * anywhere, and no folder imports an entry point (the files directly in `src/`). Files are split
 * by concept, not by a line count: no length limit here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Each part and the parts it may import at run time, lowest first. */
const ALLOWED: Record<string, readonly string[]> = {
  internal: [],
  errors: ['internal'],
  lib: ['internal', 'errors'],
  store: ['internal', 'errors'],
  core: ['internal', 'errors'],
  node: ['internal', 'errors', 'core'],
  notifications: ['internal', 'errors', 'lib', 'core', 'store', 'node'],
  composition: ['internal', 'errors', 'core', 'store', 'node'],
  collection: ['internal', 'errors', 'lib', 'core', 'store', 'notifications'],
  recurring: ['internal', 'errors', 'lib', 'core', 'store', 'notifications', 'collection'],
  'cash-out': ['internal', 'errors', 'lib', 'core', 'store', 'node', 'notifications', 'composition'],
  payer: ['internal', 'errors', 'lib', 'core'],
  qr: ['internal', 'errors', 'lib'],
  // The sandbox judges requests by its own reading of the spec: never the client's rules.
  sandbox: ['internal', 'errors', 'lib', 'core', 'node'],
  receipt: ['internal', 'errors', 'lib', 'qr'],
  // The MCP server's tools get the clients from the command (src/cli.ts) that builds them.
  mcp: ['internal', 'errors', 'lib', 'core', 'qr'],
};

/** Imports allowed for types only (erased from the build): the payer reads payloads of the collection's and the recurring part's resources. */
const TYPES_ONLY: Record<string, readonly string[]> = {
  payer: ['collection', 'recurring'],
  receipt: ['collection'],
  mcp: ['composition', 'node', 'collection', 'recurring', 'cash-out'],
};

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const match of text.matchAll(STATIC)) {
    const clause = match[3] ?? '';
    // `import { type A, type B }` is type-only too.
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    const allTypes =
      named !== null && named[1]!.split(',').every((part) => part.trim() === '' || part.trim().startsWith('type '));
    out.push({
      from: file,
      to: normalize(join(dirname(file), match[4]!)),
      typeOnly: match[2] !== undefined || allTypes,
    });
  }
  for (const match of text.matchAll(DYNAMIC))
    out.push({ from: file, to: normalize(join(dirname(file), match[1]!)), typeOnly: false });
  return out;
}

/** The part a file belongs to: its first folder under `src/`, or `undefined` for an entry point. */
function partOf(file: string): string | undefined {
  const parts = relative(SRC, file).split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

/** What breaks the table: an import of a part not allowed, or of an entry point. */
function brokenImports(list: readonly Import[]): string[] {
  return list.flatMap(({ from, to, typeOnly }) => {
    const source = partOf(from);
    const target = partOf(to);
    if (source === undefined || source === target) return [];
    if (target === undefined) return [`${relative(SRC, from)} imports the entry point ${relative(SRC, to)}`];
    if (ALLOWED[source]?.includes(target)) return [];
    if (typeOnly && TYPES_ONLY[source]?.includes(target)) return [];
    return [
      `${relative(SRC, from)} (${source}) imports ${relative(SRC, to)} (${target})${typeOnly ? ', types only' : ''}`,
    ];
  });
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);

describe('architecture', () => {
  it('knows every part of src/', () => {
    const parts = new Set(files.map(partOf).filter((part) => part !== undefined));
    expect([...parts].filter((part) => !(part in ALLOWED))).toEqual([]);
  });

  it('imports only the parts below (types only where the table says so)', () => {
    expect(brokenImports(imports)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const graph = new Map<string, string[]>();
    for (const { from, to } of imports) graph.set(from, [...(graph.get(from) ?? []), to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => relative(SRC, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('would catch an import that climbs back up, or one of an entry point', () => {
    expect(
      brokenImports([
        { from: join(SRC, 'store/memory.ts'), to: join(SRC, 'cash-out/intents.ts'), typeOnly: true },
        { from: join(SRC, 'payer/client.ts'), to: join(SRC, 'collection/cob.ts'), typeOnly: false },
        { from: join(SRC, 'sandbox/server.ts'), to: join(SRC, 'sandbox.ts'), typeOnly: false },
      ]),
    ).toHaveLength(3);
  });
});

/** `src/` reads the time only through the client's clock (`src/internal/clock.ts`, api.md "Time"). */
const CLOCK = join(SRC, 'internal/clock.ts');
/** `Date.now()`, `new Date()` without arguments, `performance.now()`: a read of the system clock. */
const TIME_READ = /\bDate\s*\.\s*now\s*\(|\bnew\s+Date\s*\(\s*\)|\bperformance\s*\.\s*now\s*\(/g;

/** Each direct read of the time in `text` (comments left out), as `file:line: code`. */
function timeReads(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
  return [...code.matchAll(TIME_READ)].map((match) => {
    const line = code.slice(0, match.index).split('\n').length;
    return `${relative(SRC, file)}:${line}: ${match[0]}`;
  });
}

describe('one clock', () => {
  it('reads the time nowhere in src/ but through src/internal/clock.ts', () => {
    const reads = files.filter((file) => file !== CLOCK).flatMap((file) => timeReads(file, readFileSync(file, 'utf8')));
    expect(reads).toEqual([]);
  });

  it('would catch each way of reading the time, and not a date built from a value or a comment', () => {
    const file = join(SRC, 'lib/example.ts');
    expect(
      timeReads(file, 'const a = Date.now();\nconst b = new Date();\nconst c = performance.now();\nnew Date ( )'),
    ).toEqual([
      'lib/example.ts:1: Date.now(',
      'lib/example.ts:2: new Date()',
      'lib/example.ts:3: performance.now(',
      'lib/example.ts:4: new Date ( )',
    ]);
    expect(
      timeReads(file, 'const d = new Date(ms);\n// Date.now() is not read here\n/* new Date() */ Date.parse(x);'),
    ).toEqual([]);
  });
});
