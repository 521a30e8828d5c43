/**
 * What the editor offers at the keyboard: the TypeScript language service over a small virtual
 * file that imports the public entry points, asked for completions inside object literals.
 * A body position lists the body's fields only (never the call options); an options position
 * lists the options. The same file is also type-checked, so the signatures that give these
 * completions still refuse what they refused before.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const virtualFile = fileURLToPath(new URL('./__completions.virtual.ts', import.meta.url));

const OPTION_NAMES = ['signal', 'timeout', 'totalTimeout', 'maxRetries', 'headers', 'validate'];

/** `/*name*\/` markers in the source; completions are asked at each marker. */
const source = `
import {
  InstantClient, CashOutClient, type CobSolicitada, type CobVSolicitada, type
  LoteCobVSolicitado,
} from '../../src/index.ts';
import { PayerClient } from '../../src/payer.ts';
declare const api: InstantClient;
declare const cashOut: CashOutClient;
declare const payer: PayerClient;
declare const cob: CobSolicitada;
declare const cobv: CobVSolicitada;
declare const lote: LoteCobVSolicitado;

api.cob.create('txid', { /*cobCreateTxidBody*/ });
api.cob.create({ /*cobCreateBody*/ });
api.cob.create('txid', cob, { /*cobCreateTxidOptions*/ });
api.cob.create(cob, { /*cobCreateOptions*/ });
api.cob.update('txid', { /*cobUpdateBody*/ });
api.cob.get('txid', { /*cobGetQuery*/ });
api.cobv.create('txid', { /*cobvCreateBody*/ });
api.cobv.create('txid', cobv, { /*cobvCreateOptions*/ });
api.cobv.update('txid', { /*cobvUpdateBody*/ });
api.lotecobv.put(1, { /*lotePutBody*/ });
api.lotecobv.update(1, lote, { /*loteUpdateOptions*/ });
api.instant.refund('e2eid', 'id', { /*refundBody*/ });
cashOut.payments.create({ /*cashOutBody*/ }, { idempotencyKey: 'k' });
cashOut.payments.create({ instantKey: 'k', creditorDocument: 'd', amount: '1.00' } as never, { /*cashOutOptions*/ });
payer.cobPayload.getCobv('host/path', { /*getCobvQuery*/ });
`;

/** Calls the signatures must keep refusing (each line must have an error) or accepting. */
const typeChecks = `
import { InstantClient, type CobSolicitada, type RequestOptions } from '../../src/index.ts';
declare const api: InstantClient;
declare const body: CobSolicitada;
declare const options: RequestOptions;
declare const txid: string;
export const ok = [
  api.cob.create(body),
  api.cob.create(body, options),
  api.cob.create(txid, body),
  api.cob.create('literal-txid', body, { timeout: 1 }),
  api.cob.create({ valor: { original: '1.00' }, chave: 'k' }, { signal: AbortSignal.timeout(1) }),
];
api.cob.create({ valor: { original: '1.00' }, chave: 'k', signal: AbortSignal.timeout(1) }); // ERROR
api.cob.create('txid', { valor: { original: '1.00' }, chave: 'k', timeout: 1 }); // ERROR
api.cob.create('txid'); // ERROR
api.cob.create({ valor: { original: '1.00' } }); // ERROR
api.cob.create(body, body); // ERROR
api.cob.create('txid', body, options, options); // ERROR
api.cob.create(42, body); // ERROR
`;

let service: ts.LanguageService;
let files: Record<string, string>;

beforeAll(() => {
  const config = ts.readConfigFile(`${root}/tsconfig.json`, ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  files = { [virtualFile]: source, [virtualFile.replace('completions', 'typecheck')]: typeChecks };
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => Object.keys(files),
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => {
      const text = files[file] ?? ts.sys.readFile(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (file) => file in files || ts.sys.fileExists(file),
    readFile: (file) => files[file] ?? ts.sys.readFile(file),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  service = ts.createLanguageService(host, ts.createDocumentRegistry());
  // Builds the program over the whole package here, under this hook's own time limit: left to
  // the first test, it ran past that test's 20 s on a loaded machine.
  service.getProgram();
}, 120_000);

function completionsAt(marker: string): string[] {
  const position = source.indexOf(`/*${marker}*/`);
  if (position < 0) throw new Error(`no marker ${marker}`);
  const result = service.getCompletionsAtPosition(virtualFile, position, {});
  return (result?.entries ?? []).map((entry) => entry.name).sort();
}

describe('completions inside object arguments', () => {
  it.each([
    ['cobCreateTxidBody', ['valor', 'chave', 'devedor', 'calendario', 'infoAdicionais']],
    ['cobCreateBody', ['valor', 'chave', 'devedor', 'calendario', 'infoAdicionais']],
    ['cobUpdateBody', ['valor', 'chave', 'devedor', 'loc']],
    ['cobGetQuery', ['revisao']],
    ['cobvCreateBody', ['calendario', 'devedor', 'valor', 'chave']],
    ['cobvUpdateBody', ['calendario', 'devedor', 'valor']],
    ['lotePutBody', ['descricao', 'cobsv']],
    ['refundBody', ['valor', 'natureza', 'descricao']],
    ['cashOutBody', ['instantKey', 'creditorDocument']],
    ['getCobvQuery', ['codMun', 'DPP']],
  ])('%s lists the fields and none of the call options', (marker, fields) => {
    const names = completionsAt(marker);
    expect(names).toEqual(expect.arrayContaining(fields));
    expect(names.filter((name) => OPTION_NAMES.includes(name))).toEqual([]);
  });

  it.each([
    ['cobCreateTxidOptions', []],
    ['cobCreateOptions', []],
    ['cobvCreateOptions', []],
    ['loteUpdateOptions', ['checkBatch']],
    ['cashOutOptions', ['idempotencyKey']],
  ])('%s lists the call options and no body field', (marker, extra) => {
    const names = completionsAt(marker);
    expect(names).toEqual(expect.arrayContaining(['signal', 'timeout', 'maxRetries', ...extra]));
    expect(names).not.toContain('valor');
    expect(names).not.toContain('chave');
    expect(names).not.toContain('instantKey');
  });
});

describe('the create signatures still check their arguments', () => {
  it('accepts both forms and refuses options mixed into the body, missing or extra arguments', () => {
    const file = virtualFile.replace('completions', 'typecheck');
    const text = files[file] ?? '';
    const errorLines = new Set(
      service.getSemanticDiagnostics(file).map((d) => text.slice(0, d.start).split('\n').length),
    );
    const lines = text.split('\n');
    const expected = lines.flatMap((line, i) => (line.endsWith('// ERROR') ? [i + 1] : []));
    expect(expected.length).toBeGreaterThan(5);
    expect([...errorLines].sort((a, b) => a - b)).toEqual(expected);
  });
});
