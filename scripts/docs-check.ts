/**
 * Checks the README and the guides in `docs/` as a reader meets them: every ```ts block compiles
 * against the package (its entry names mapped to `src/`, the repository's strict options), and
 * every relative link, #anchor included, leads somewhere. test/docs.test.ts runs it;
 * `node scripts/docs-check.ts` prints what it finds.
 *
 * Fence info after `ts`: `partial` skips a block that is deliberately a fragment (say why in the
 * text); `in=<folder>` compiles the block as if it were a file in that folder of the repository,
 * so its relative imports (`./checkout.ts`) resolve there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface Markdown {
  /** Path from the repository's root (`README.md`, `docs/cash-out.md`). */
  path: string;
  text: string;
}

export interface Block {
  file: string;
  /** 1-based line of the block's first code line in its Markdown file. */
  line: number;
  info: string;
  code: string;
}

/** The README and every guide directly in `docs/` (the generated `docs/api/` is not one). */
export function markdownFiles(root = ROOT): Markdown[] {
  const guides = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...guides].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

const FENCE = /^(\s*)(`{3,})(.*)$/;

/** Fenced code blocks with their info string; indented fences (inside a list item) count too. */
export function codeBlocks(file: Markdown): Block[] {
  const blocks: Block[] = [];
  const lines = file.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', ticks = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${ticks}\\s*$`).test(lines[j]!))
      body.push(lines[j++]!.slice(indent.length));
    blocks.push({ file: file.path, line: i + 2, info: info.trim(), code: `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}

/** The blocks to compile: fence info `ts`, not marked `partial`. */
function tsBlocks(files: Markdown[]): Block[] {
  return files.flatMap(codeBlocks).filter((b) => {
    const words = b.info.split(/\s+/);
    return (words[0] === 'ts' || words[0] === 'typescript') && !words.includes('partial');
  });
}

/** Each package import path mapped to its source entry, read from package.json's exports. */
function entryPaths(root: string): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const paths: Record<string, string[]> = {};
  for (const key of Object.keys(pkg.exports)) {
    if (key === './package.json') continue;
    const name = key === '.' ? pkg.name : pkg.name + key.slice(1);
    paths[name] = [join(root, 'src', key === '.' ? 'index.ts' : `${key.slice(2)}.ts`)];
  }
  return paths;
}

/**
 * Compiles every block in one program, each as a module of its own placed (virtually, nothing is
 * written) beside its Markdown file or in its `in=` folder. Returns one line per error.
 */
export function compileBlocks(files: Markdown[], root = ROOT): string[] {
  const blocks = tsBlocks(files);
  if (blocks.length === 0) return [];
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: true,
    paths: entryPaths(root),
    noUnusedLocals: false,
  };
  const virtual = new Map<string, Block>();
  blocks.forEach((block, index) => {
    const folder = /(?:^|\s)in=(\S+)/.exec(block.info)?.[1] ?? dirname(block.file);
    const name = `${block.file.replace(/[^\w]/g, '_')}.block${index}.line${block.line}.ts`;
    virtual.set(resolve(root, folder, name), block);
  });
  // `export {}` makes each block a module: its names are its own and top-level await works.
  const source = (path: string) => {
    const block = virtual.get(path);
    return block ? `${block.code}export {};\n` : undefined;
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => virtual.has(resolve(path)) || fileExists.call(host, path);
  host.readFile = (path) => source(resolve(path)) ?? readFile.call(host, path);
  host.getSourceFile = (path, language, onError, create) => {
    const text = source(resolve(path));
    return text === undefined
      ? getSourceFile.call(host, path, language, onError, create)
      : ts.createSourceFile(path, text, language);
  };
  const program = ts.createProgram({
    rootNames: [...virtual.keys(), ...config.fileNames.filter((f) => f.endsWith('.d.ts'))],
    options,
    host,
  });
  const problems: string[] = [];
  for (const [path, block] of virtual) {
    const file = program.getSourceFile(path)!;
    for (const d of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
      const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
      problems.push(`${block.file}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
  }
  return problems;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file has: its headings' slugs (a repeated one numbered, as GitHub does). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const match of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

function withoutFences(text: string): string {
  return text.replace(/^(\s*)(`{3,})[^\n]*\n[\s\S]*?^\s*\2\s*$/gm, '');
}

/** The text with fenced blocks and inline code blanked (links there are not links). */
function withoutCode(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '``');
}

/**
 * Relative links (`docs/x.md`, `#anchor`, `x.md#anchor`) that lead nowhere: a file that does not
 * exist in the repository, or an anchor its Markdown target does not have.
 */
export function brokenLinks(files: Markdown[], root = ROOT): string[] {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const problems: string[] = [];
  for (const file of files) {
    for (const match of withoutCode(file.text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const link = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
      const [target = '', anchor] = link.split('#');
      const path = target === '' ? file.path : relative(root, resolve(root, dirname(file.path), target));
      const text =
        texts.get(path) ?? (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);
      if (text === undefined || path.startsWith('..')) problems.push(`${file.path}: link to a missing file: ${link}`);
      else if (anchor !== undefined && path.endsWith('.md') && !anchors(text).has(decodeURIComponent(anchor))) {
        problems.push(`${file.path}: link to a missing anchor: ${link}`);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = markdownFiles();
  const problems = [...brokenLinks(files), ...compileBlocks(files)];
  for (const problem of problems) console.log(problem);
  console.log(`${problems.length} problem(s) in ${files.length} file(s)`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
