/**
 * The published types compile for every consumer: the package is built into a temporary folder,
 * packed with `npm pack`, unpacked into small projects (test/package/consumers.ts) and each is
 * type-checked under `strict` with `skipLibCheck: false`, so the declarations in the tarball are
 * checked as a user's compiler checks them. The projects' other packages are linked from this
 * repository's node_modules: nothing is downloaded.
 *
 * The compiler runs in this process, one program per project, sharing parsed library files
 * (lib.dom.d.ts, @types/node) between programs as editors do.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDist, optionalPeers } from '../../scripts/mark-optional-peer-types.ts';
import { CONSUMERS, type Consumer } from './consumers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  files: string[];
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

let work: string;
let tarball: string;

/** Builds the package as `npm run build` does, into `<work>/package`, and packs it. */
function buildAndPack(): string {
  const staging = join(work, 'package');
  const dist = join(staging, 'dist');
  execFileSync(process.execPath, [join(root, 'node_modules/tsup/dist/cli-default.js'), '--silent', '--out-dir', dist], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  markDist(dist, optionalPeers(root));
  // `files` may name a pattern (`docs/*.md`): each file it matches is copied.
  for (const entry of pkg.files.filter((f) => f !== 'dist')) {
    for (const file of globSync(entry, { cwd: root })) cpSync(join(root, file), join(staging, file));
  }
  cpSync(join(root, 'package.json'), join(staging, 'package.json'));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: staging,
    encoding: 'utf8',
  });
  const [{ filename }] = JSON.parse(out) as [{ filename: string }];
  return join(work, filename);
}

/** The project's folder: its files, the tarball unpacked as node_modules/instant-payments, the rest linked. */
function install(consumer: Consumer): string {
  const dir = join(work, consumer.name);
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, pkg.name), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', join(modules, pkg.name), '--strip-components=1']);
  for (const name of [...Object.keys(pkg.dependencies), ...consumer.devDependencies]) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: consumer.name, private: true, type: consumer.type }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: consumer.compilerOptions, include: ['*.ts'] }),
  );
  for (const [file, text] of Object.entries(consumer.files)) writeFileSync(join(dir, file), text);
  return dir;
}

const sourceFiles = new Map<string, ts.SourceFile | undefined>();

/** The project's diagnostics, as `tsc -p <dir>` prints them. */
function typeCheck(dir: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(dir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`no tsconfig in ${dir}`);
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    const { languageVersion, impliedNodeFormat } =
      typeof language === 'object' ? language : { languageVersion: language, impliedNodeFormat: undefined };
    // Only files outside the project are shared: the TypeScript libs and the linked packages.
    if (fileName.startsWith(dir)) return read(fileName, language, onError, fresh);
    const key = `${fileName}|${languageVersion}|${impliedNodeFormat}`;
    if (!sourceFiles.has(key)) sourceFiles.set(key, read(fileName, language, onError, fresh));
    return sourceFiles.get(key);
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  const format: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => '\n',
  };
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => ts.formatDiagnostic(d, format).trim());
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'consumer-types-'));
  tarball = buildAndPack();
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package compiles in a consumer project (strict, skipLibCheck false)', () => {
  it.each(CONSUMERS.map((c) => [c.name, c] as const))(
    '%s',
    (_, consumer) => {
      expect(typeCheck(install(consumer))).toEqual([]);
    },
    60_000,
  );

  it('is built as `npm run build` builds it: tsup, then the optional peers marked', () => {
    expect(pkg.scripts['build']).toBe('tsup && node scripts/mark-optional-peer-types.ts');
  });

  it('ships no declaration that needs Node types from the payer or qr entry', () => {
    const dir = install({ ...CONSUMERS.find((c) => c.name === 'qr-browser')!, name: 'node-check' });
    const dist = join(dir, 'node_modules', pkg.name, 'dist');
    for (const entry of ['payer', 'qr']) {
      for (const ext of ['d.ts', 'd.cts']) {
        // Each entry reaches only shared chunks, never another entry's declarations.
        const text = readFileSync(join(dist, `${entry}.${ext}`), 'utf8');
        expect(text).not.toMatch(/from '\.\/(?:index|sandbox|postgres)\.c?js'|from 'node:/);
      }
    }
  });
});
