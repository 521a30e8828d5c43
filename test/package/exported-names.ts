/**
 * The names each entry point exports, types included (`name` for a value, `type name` for a
 * type only), read by the compiler from the sources. `node test/package/exported-names.ts [root]`
 * prints them as JSON: how `exports.json` was taken.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The package's entry points, by subpath. */
export const ENTRIES: Record<string, string> = {
  '.': 'src/index.ts',
  './payer': 'src/payer.ts',
  './qr': 'src/qr.ts',
  './sandbox': 'src/sandbox.ts',
  './postgres': 'src/postgres.ts',
};

export function exportedNames(root: string): Record<string, string[]> {
  const files = Object.values(ENTRIES).map((file) => join(root, file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [subpath, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, file));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file} was not read`);
    out[subpath] = checker
      .getExportsOfModule(module)
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return target.flags & ts.SymbolFlags.Value ? symbol.name : `type ${symbol.name}`;
      })
      .sort();
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? fileURLToPath(new URL('../../', import.meta.url));
  process.stdout.write(`${JSON.stringify(exportedNames(root), null, 2)}\n`);
}
