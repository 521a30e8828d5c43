#!/usr/bin/env node
/**
 * `npx instant-payments <command>`: BR Codes for support desks and scripts, and the sandbox.
 *
 *   instant-payments brcode [text] [--json]        decoded fields, then lint findings; exit 1 on an error
 *   instant-payments qr [text] --out code.png|.svg  the QR image of a code (refused when lint finds an error)
 *   instant-payments sandbox [options]              the sandbox (same as instant-payments-sandbox)
 *   instant-payments mcp [--sandbox] [--allow-writes] [--max-amount 10.00]   the MCP server (stdio)
 *   instant-payments receipt <e2eid> [--out file.pdf]  a payment's PDF receipt (--sandbox: a demo one)
 *
 * The code is read from stdin when no text is given.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type BrCode, type BrCodeFinding, type BrCodeLint, brcode } from './lib/brcode.ts';
import { parseAmount, toCents } from './lib/money.ts';
import { ENVIRONMENT } from './mcp/environment.ts';
import type { McpClients } from './mcp/tools.ts';
import type { FetchLike, Sandbox } from './sandbox.ts';

const USAGE = `Usage: instant-payments <command>

  brcode [text] [--json]           print a BR Code's fields, then what payer apps will refuse
                                   (exit 1 when any finding is an error); --json prints
                                   { parsed, findings }
  qr [text] --out code.png|.svg    write the QR image of a BR Code
  sandbox [options]                run the sandbox (instant-payments sandbox --help)
  mcp [--sandbox] [--allow-writes] [--max-amount 10.00]
                                   a Model Context Protocol server on stdin/stdout for AI
                                   assistants: read-only unless --allow-writes; refunds above
                                   --max-amount (default 0.00) refused
  receipt <e2eid> [--refund id] [--out file.pdf]
                                   write the PDF receipt of a received payment (or of one of
                                   its refunds); --sandbox writes one of a demo payment

The BR Code is read from stdin when no text is given. mcp and receipt reach the service
configured by these environment variables (or, with --sandbox, an embedded sandbox):

${Object.entries(ENVIRONMENT)
  .map(([name, what]) => `  ${name.padEnd(31)} ${what}`)
  .join('\n')}`;

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
  if (command === 'mcp' || command === 'receipt') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: command === 'receipt',
      options: {
        sandbox: { type: 'boolean' },
        'allow-writes': { type: 'boolean' },
        'max-amount': { type: 'string', default: '0.00' },
        refund: { type: 'string' },
        out: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return (out(USAGE), 0);
    const maxCents = amountCents(values['max-amount']);
    if (maxCents === undefined) return (err(`--max-amount takes an amount such as 10.00\n\n${USAGE}`), 2);
    if (command === 'receipt' && positionals[0] === undefined && !values.sandbox)
      return (err(`receipt needs an end-to-end id (or --sandbox for a demo)\n\n${USAGE}`), 2);
    const service = await connect(values.sandbox === true);
    try {
      if (command === 'mcp') {
        const { serveMcp } = await import('./mcp/server.ts');
        const policy = { allowWrites: values['allow-writes'] === true, maxCents };
        const notes = service.notes === undefined ? {} : { notes: service.notes };
        await serveMcp(service.clients, policy, { log: err, secrets: service.secrets, ...notes });
        return 0;
      }
      return await writeReceipt(service, positionals[0], values, out);
    } finally {
      await service.close();
    }
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

/** The clients of `mcp` and `receipt`: an embedded sandbox's, or the configured service's. */
interface Service {
  clients: McpClients;
  /** With `--sandbox`: the embedded sandbox. */
  sandbox: Sandbox | undefined;
  secrets: string[];
  /** What an assistant should know about this service. */
  notes?: string;
  close(): Promise<void>;
}

async function connect(sandboxMode: boolean): Promise<Service> {
  const [{ InstantClient }, { CashOutClient }] = await Promise.all([
    import('./client.ts'),
    import('./cash-out/client.ts'),
  ]);
  if (!sandboxMode) {
    const { connectionsFromEnvironment } = await import('./mcp/environment.ts');
    const { api, cashOut, secrets } = connectionsFromEnvironment(process.env);
    const clients = {
      api: new InstantClient(api),
      cashOut: cashOut === undefined ? undefined : new CashOutClient(cashOut),
      sandbox: undefined,
    };
    return { clients, sandbox: undefined, secrets, close: () => closeAll(clients.api, clients.cashOut) };
  }
  const { createSandbox } = await import('./sandbox.ts');
  const sandbox = createSandbox();
  // In process: the clients reach the sandbox through `fetch`, no port is opened.
  const fetch: FetchLike = (input, init) => sandbox.handle(new Request(input, init));
  const clients = {
    api: new InstantClient({ ...sandbox.clientOptions(), fetch }),
    cashOut: new CashOutClient({ ...sandbox.cashOutOptions(), fetch }),
    sandbox,
  };
  return {
    clients,
    sandbox,
    secrets: [sandbox.credentials.clientSecret, sandbox.cashOutCredentials.clientSecret],
    notes: `This is an embedded sandbox: a charge's chave must be its receiving key ${sandbox.ownKeys[0]}.`,
    close: () => closeAll(clients.api, clients.cashOut, sandbox),
  };
}

async function closeAll(...closables: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  await Promise.all(closables.map((c) => c?.close()));
}

/** `receipt <e2eid>`: the payment read from the service, its PDF written; with `--sandbox` and no id, a demo payment's. */
async function writeReceipt(
  service: Service,
  e2eid: string | undefined,
  values: { refund?: string; out?: string },
  out: (line: string) => void,
): Promise<number> {
  const { api } = service.clients;
  const { sandbox } = service;
  let id = e2eid;
  if (id === undefined && sandbox !== undefined) {
    const charge = await api.cob.create({
      calendario: { expiracao: 3600 },
      valor: { original: '10.00' },
      chave: sandbox.ownKeys[0]!,
      devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
    });
    id = (await sandbox.payCharge(charge.txid)).endToEndId;
  }
  const [{ receipt }, payment] = await Promise.all([import('./receipt/receipt.ts'), api.instant.get(id!)]);
  const pdf = await receipt(payment, values.refund === undefined ? {} : { refund: values.refund });
  const file =
    values.out ?? `receipt-${payment.endToEndId}${values.refund === undefined ? '' : `-${values.refund}`}.pdf`;
  await writeFile(file, pdf);
  out(`Wrote ${file}`);
  return 0;
}

function amountCents(text: string | undefined): number | undefined {
  try {
    return toCents(parseAmount(text ?? ''));
  } catch {
    return undefined;
  }
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
