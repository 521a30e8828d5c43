#!/usr/bin/env node
/**
 * `npx instant-payments <command>`: BR Codes for support desks and scripts, and the sandbox.
 *
 *   instant-payments brcode [text] [--json]        decoded fields, then lint findings; exit 1 on an error
 *   instant-payments qr [text] --out code.png|.svg  the QR image of a code (refused when lint finds an error)
 *   instant-payments sandbox [options]              the sandbox (same as instant-payments-sandbox)
 *
 * The code is read from stdin when no text is given.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type BrCode, type BrCodeFinding, type BrCodeLint, brcode } from './lib/brcode.ts';

const USAGE = `Usage: instant-payments <command>

  brcode [text] [--json]           print a BR Code's fields, then what payer apps will refuse
                                   (exit 1 when any finding is an error); --json prints
                                   { parsed, findings }
  qr [text] --out code.png|.svg    write the QR image of a BR Code
  sandbox [options]                run the sandbox (instant-payments sandbox --help)

The BR Code is read from stdin when no text is given.`;

/** Runs one command; resolves to the exit code. */
async function run(
  argv: readonly string[],
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'sandbox') {
    // The sandbox command reads process.argv itself when its module loads.
    process.argv = [process.argv[0] ?? 'node', 'instant-payments-sandbox', ...rest];
    await import('./sandbox-cli.ts');
    return -1; // keeps running until Ctrl-C
  }
  if (command === 'brcode' || command === 'qr') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        out: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return (out(USAGE), 0);
    const text = positionals.length > 0 ? positionals.join(' ') : await readStdin();
    const lint = brcode.lint(text);
    if (command === 'brcode') return describeCode(text, lint, values.json === true, out);
    if (values.out === undefined || !/\.(png|svg)$/i.test(values.out))
      return (err(`qr needs --out file.png or --out file.svg\n\n${USAGE}`), 2);
    if (!lint.ok) {
      for (const line of findingLines(lint.findings)) err(line);
      err('Not writing a QR image of a code payer apps must refuse.');
      return 1;
    }
    for (const line of findingLines(lint.findings)) err(line);
    const code = text.trim();
    const { qrPng, qrSvg } = await import('./qr.ts');
    await writeFile(values.out, /\.svg$/i.test(values.out) ? qrSvg(code) : await qrPng(code));
    out(`Wrote ${values.out}`);
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help')
    return (out(USAGE), command === undefined ? 2 : 0);
  err(`Unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
  return 2;
}

function describeCode(text: string, lint: BrCodeLint, json: boolean, out: (line: string) => void): number {
  let parsed: BrCode | null = null;
  try {
    parsed = brcode.parse(text);
  } catch {
    // The findings say why.
  }
  if (json) {
    out(JSON.stringify({ parsed, findings: lint.findings }, null, 2));
  } else {
    if (parsed !== null) for (const line of fieldLines(parsed)) out(line);
    else out('The code could not be decoded.');
    out('');
    out(lint.findings.length === 0 ? 'No findings: payer apps should read this code.' : 'Findings:');
    for (const line of findingLines(lint.findings)) out(line);
  }
  return lint.ok ? 0 : 1;
}

function fieldLines(code: BrCode): string[] {
  const named: Array<[string, string | undefined]> = [
    [
      'kind',
      code.url !== undefined ? 'dynamic (location)' : code.key !== undefined ? 'static (key)' : 'recurrence only',
    ],
    ['point of initiation', code.pointOfInitiation],
    ['key', code.key],
    ['location', code.url],
    ['recurrence location', code.recurrenceUrl],
    ['free text', code.infoAdicional],
    ['amount', code.amount],
    ['merchant name', code.merchantName],
    ['merchant city', code.merchantCity],
    ['postal code', code.postalCode],
    ['txid', code.txid ?? '*** (none)'],
    ['CRC', code.crc],
  ];
  const lines = named.filter(([, v]) => v !== undefined).map(([k, v]) => `${k.padEnd(20)} ${v}`);
  lines.push('', 'Fields');
  for (const field of code.fields) {
    lines.push(`  ${field.id}  ${field.children === undefined ? field.value : ''}`.trimEnd());
    for (const c of field.children ?? []) lines.push(`    ${field.id}-${c.id}  ${c.value}`);
  }
  return lines;
}

function findingLines(findings: readonly BrCodeFinding[]): string[] {
  return findings.map(
    (f) => `  ${f.severity.padEnd(7)} ${(f.field === '' ? 'code' : f.field).padEnd(6)} ${f.message} [${f.code}]`,
  );
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
