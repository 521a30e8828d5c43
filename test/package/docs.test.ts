/**
 * The API reference a user navigates (`npm run docs`): built here into a temporary folder with the
 * repository's typedoc.json, then read back. And the links of the README and the guides, which are
 * the reference's front page and documents and ship in the npm package: they must work where the
 * repository is not.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReflectionKind } from 'typedoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  files: string[];
  exports: Record<string, unknown>;
  repository?: { url: string };
};
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The guides (`docs/*.md`): the reference's documents, shipped in the package. */
const guides = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** Each entry point's import path, from the exports map: `instant-payments`, `instant-payments/payer`... */
const entries = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => pkg.name + key.slice(1));
/** The source file of each import path, from the tsup entries (`payer: 'src/payer.ts'`). */
const sources: Record<string, string> = {
  [pkg.name]: 'src/index.ts',
  ...Object.fromEntries(
    entries.filter((e) => e !== pkg.name).map((e) => [e, `src/${e.slice(pkg.name.length + 1)}.ts`]),
  ),
};

interface Reflection {
  id: number;
  name: string;
  kind: number;
  /** A reference's target (an export another module documents). */
  target?: number;
  children?: Reflection[];
  comment?: { summary: Array<{ text: string }> };
}
let out: string;
let project: Reflection & { readme?: Array<{ text: string }> };

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'docs-'));
  // Type errors are `npm run typecheck`'s to report (npm test runs it first): not checked twice.
  const args = ['--skipErrorChecking', '--out', join(out, 'html'), '--json', join(out, 'api.json')];
  execFileSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  project = JSON.parse(readFileSync(join(out, 'api.json'), 'utf8')) as typeof project;
}, 120_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('the API reference (npm run docs)', () => {
  it('has one module per entry point, named by its package path', () => {
    const modules = project.children?.filter((c) => c.kind === ReflectionKind.Module).map((c) => c.name);
    expect(modules?.sort()).toEqual([...entries].sort());
  });

  it('has the README as its front page', () => {
    const front = project.readme?.map((part) => part.text).join('') ?? '';
    expect(front).toContain(readme.split('\n').slice(2, 4).join('\n'));
    const index = readFileSync(join(out, 'html/index.html'), 'utf8');
    expect(index).toContain('Quick start');
  });

  it('has every guide in docs/ as a document, the README linking to its page', () => {
    const index = readFileSync(join(out, 'html/index.html'), 'utf8');
    for (const guide of guides) {
      const name = guide.slice('docs/'.length, -'.md'.length);
      expect(existsSync(join(out, `html/documents/${name}.html`)), guide).toBe(true);
      expect(index, guide).toContain(`href="documents/${name}.html`);
    }
    expect(readFileSync(join(out, 'html/documents/sandbox-and-testing.html'), 'utf8')).toContain(
      'Testing your integration',
    );
  });

  it.each(entries)('lists every error class %s exports as a class', async (entry) => {
    const module = project.children?.find((c) => c.name === entry);
    const kinds = new Map(project.children?.flatMap((m) => m.children ?? []).map((c) => [c.id, c.kind]));
    // A re-export of what another module documents is a reference to it: its target's kind.
    const docs = new Map(
      (module?.children ?? []).map((c) => [
        c.name,
        c.kind === ReflectionKind.Reference ? kinds.get(c.target!) : c.kind,
      ]),
    );
    const exported = (await import(join(root, sources[entry]!))) as Record<string, unknown>;
    const errorClasses = Object.entries(exported)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    expect(errorClasses.length > 0 || entry.endsWith('/postgres') || entry.endsWith('/sandbox')).toBe(true);
    for (const name of errorClasses) expect([name, docs.get(name)]).toEqual([name, ReflectionKind.Class]);
    // and no function or class is left under Variables
    for (const [name, value] of Object.entries(exported)) {
      if (typeof value === 'function') expect([name, docs.get(name)]).not.toEqual([name, ReflectionKind.Variable]);
    }
  });

  it('describes each catalogue class from its row of ERROR_CATALOGUE', () => {
    const cob = project.children
      ?.find((c) => c.name === pkg.name)
      ?.children?.find((c) => c.name === 'CobNaoEncontrado');
    expect(cob?.kind).toBe(ReflectionKind.Class);
    expect(cob?.comment?.summary.map((p) => p.text).join('')).toContain('(HTTP 404): No immediate charge for the txid');
  });
});

describe('README and guide links', () => {
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  /** The guides' relative links, as paths from the repository's root (they ship beside the README). */
  const guideLinks = guides.flatMap((guide) =>
    [...readFileSync(join(root, guide), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((link) => !link.startsWith('#') && !/^https?:/.test(link))
      .map((link) => posix.join('docs', link)),
  );
  /** Whether the package ships `path`: named in `files`, or matched by a `dir/*.ext` entry there. */
  const ships = (path: string) =>
    pkg.files.some(
      (entry) =>
        entry === path ||
        (entry.includes('*') && new RegExp(`^${entry.replace('.', '\\.').replace('*', '[^/]+')}$`).test(path)),
    );
  const repository = (pkg.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');

  it('have a repository to point to (package.json `repository`)', () => {
    expect(repository).toMatch(/^https:\/\/github\.com\/[\w-]+\/[\w-]+$/);
  });

  it('point to the repository or to a file the package ships, never to a path only a clone has', () => {
    for (const link of [...links, ...guideLinks]) {
      if (link.startsWith('#') || /^https?:/.test(link)) continue;
      expect([link, ships(link.split('#')[0]!)]).toEqual([link, true]);
    }
    expect(guideLinks.length).toBeGreaterThan(0);
  });

  it('to the repository name files that exist in it', () => {
    const inRepository = links.filter((link) => link.startsWith(`${repository}/`));
    expect(inRepository.length).toBeGreaterThan(0);
    for (const link of inRepository) {
      const path = /^\/(?:blob|tree)\/main\/(.+)$/.exec(link.slice(repository.length))?.[1];
      expect(path, link).toBeDefined();
      expect(existsSync(join(root, path!)), link).toBe(true);
    }
  });

  it('link every example scenario', () => {
    const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.ts'));
    expect(examples.length).toBeGreaterThan(3);
    for (const file of examples) expect(links, file).toContain(`${repository}/blob/main/examples/${file}`);
  });
});
