/**
 * `instant-payments mcp` as an assistant meets it: the MCP SDK's own client starts the command
 * over stdio (from the sources) and calls its tools against the embedded sandbox, or against a
 * sandbox of the test's own configured through the environment.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { brcode } from '../../src/lib/brcode.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { readPng, readQr } from '../support/qr-read.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const READ_TOOLS = [
  'get_charge',
  'list_charges',
  'get_received_payment',
  'list_received_payments',
  'get_refund',
  'get_recurrence',
  'decode_br_code',
  'lint_br_code',
  'render_qr_code',
  'get_balance',
];
const WRITE_TOOLS = ['create_charge', 'cancel_charge', 'refund_payment', 'sandbox_pay_charge'];

interface Server {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  log(): string;
  /** Every answer's text so far. */
  answers: string[];
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
}

interface Answer {
  isError: boolean;
  text: string;
  record: Record<string, unknown>;
  image?: { data: string; mimeType: string };
}

const open: Client[] = [];

async function start(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    // Only what the test gives: nothing of the machine's environment reaches the server.
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  const answers: string[] = [];
  return {
    client,
    log: () => log,
    answers,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: { type: string; text?: string; data?: string; mimeType?: string }[];
        structuredContent?: Record<string, unknown>;
      };
      const text = result.content.map((c) => c.text ?? '').join('\n');
      answers.push(JSON.stringify(result));
      const image = result.content.find((c) => c.type === 'image');
      return {
        isError: result.isError === true,
        text,
        record: result.structuredContent ?? {},
        ...(image === undefined ? {} : { image: { data: image.data!, mimeType: image.mimeType! } }),
      };
    },
  };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

const hourAround = () => ({
  inicio: new Date(Date.now() - 3_600_000).toISOString(),
  fim: new Date(Date.now() + 3_600_000).toISOString(),
});

/** The receiving key the server's instructions name (the embedded sandbox's). */
function sandboxKey(client: Client): string {
  const key = /receiving key (\S+)\./.exec(client.getInstructions() ?? '')?.[1];
  expect(key).toBeDefined();
  return key!;
}

async function paidCharge(server: Server, valor = '10.00'): Promise<{ txid: string; e2eid: string }> {
  const created = await server.call('create_charge', {
    body: { calendario: { expiracao: 3600 }, valor: { original: valor }, chave: sandboxKey(server.client) },
  });
  expect(created.isError, created.text).toBe(false);
  const txid = created.record['txid'] as string;
  const paid = await server.call('sandbox_pay_charge', { txid });
  expect(paid.isError, paid.text).toBe(false);
  return { txid, e2eid: paid.record['endToEndId'] as string };
}

// Each server is a Node process started on the sources: seconds each on a busy machine.
describe('instant-payments mcp --sandbox', { timeout: 60_000 }, () => {
  it('is read-only by default: only the tools that read, each described, none of those that change state', async () => {
    const server = await start(['--sandbox']);
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(40);
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    expect(server.client.getInstructions()).toContain('Read-only');
    // A write tool is not there to call.
    const refused = await server.call('refund_payment', { e2eid: 'E'.repeat(32), id: 'r1', valor: '1.00' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/not found/i);
  });

  it('--allow-writes adds the tools that change state, marked destructive', async () => {
    const server = await start(['--sandbox', '--allow-writes']);
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools.filter((t) => WRITE_TOOLS.includes(t.name)))
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    // The input schema is the SDK's request shape.
    const create = tools.find((t) => t.name === 'create_charge')!;
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(['kind', 'txid', 'body']);
  });

  it('creates and reads a charge, then finds the payment the sandbox made and reads it', async () => {
    const server = await start(['--sandbox', '--allow-writes']);
    const { txid, e2eid } = await paidCharge(server, '12.34');
    const charge = await server.call('get_charge', { txid });
    expect(charge.record).toMatchObject({ txid, status: 'CONCLUIDA', valor: { original: '12.34' } });
    const listed = await server.call('list_received_payments', { ...hourAround(), txid });
    expect(listed.isError, listed.text).toBe(false);
    expect((listed.record['items'] as { endToEndId: string }[]).map((p) => p.endToEndId)).toEqual([e2eid]);
    const payment = await server.call('get_received_payment', { e2eid });
    expect(payment.record).toMatchObject({ endToEndId: e2eid, txid, valor: '12.34' });
    const charges = await server.call('list_charges', hourAround());
    expect((charges.record['items'] as { txid: string }[]).map((c) => c.txid)).toContain(txid);
    expect(JSON.parse(payment.text)).toEqual(payment.record);
  });

  it('refunds up to --max-amount and refuses above it, as a tool error, the server still answering', async () => {
    const server = await start(['--sandbox', '--allow-writes', '--max-amount', '5.00']);
    const { e2eid } = await paidCharge(server);
    const above = await server.call('refund_payment', { e2eid, id: 'above1', valor: '5.01' });
    expect(above.isError).toBe(true);
    expect(above.text).toContain('above');
    expect(above.text).toContain('--max-amount');
    // Nothing was asked of the service.
    const notThere = await server.call('get_refund', { e2eid, id: 'above1' });
    expect(notThere.isError).toBe(true);
    expect(notThere.text).toContain('InstantDevolucaoNaoEncontrada');
    const within = await server.call('refund_payment', { e2eid, id: 'within1', valor: '5.00' });
    expect(within.isError, within.text).toBe(false);
    expect(within.record).toMatchObject({ id: 'within1', valor: '5.00' });
    expect(server.log()).toContain('refund_payment: ToolRefusal');
  });

  it('refuses every refund when no --max-amount is given (the default cap is 0)', async () => {
    const server = await start(['--sandbox', '--allow-writes']);
    const { e2eid } = await paidCharge(server);
    const refused = await server.call('refund_payment', { e2eid, id: 'tiny1', valor: '0.01' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('limit of 0.00');
  });

  it('decodes and lints a BR Code and renders its QR image, which reads back as the code', async () => {
    const server = await start(['--sandbox']);
    const code = brcode.build({
      key: 'loja@example.com',
      amount: '9.90',
      merchantName: 'LOJA',
      merchantCity: 'BRASILIA',
    });
    const decoded = await server.call('decode_br_code', { code });
    expect(decoded.record).toMatchObject({ key: 'loja@example.com', amount: '9.90', merchantName: 'LOJA' });
    expect(await server.call('lint_br_code', { code })).toMatchObject({ record: { ok: true, findings: [] } });
    const broken = `${code.slice(0, -4)}0000`;
    const lint = await server.call('lint_br_code', { code: broken });
    expect(lint.record['ok']).toBe(false);
    const image = await server.call('render_qr_code', { code, scale: 4 });
    expect(image.image?.mimeType).toBe('image/png');
    expect(readQr(readPng(Buffer.from(image.image!.data, 'base64')))).toBe(code);
    const refused = await server.call('render_qr_code', { code: broken });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Not rendering');
  });

  it("answers bad input with the SDK's own validation error (sent nowhere), and bad types with the schema's", async () => {
    const server = await start(['--sandbox', '--allow-writes']);
    const amount = await server.call('create_charge', {
      body: { calendario: { expiracao: 3600 }, valor: { original: '10,00' }, chave: sandboxKey(server.client) },
    });
    expect(amount.isError).toBe(true);
    expect(amount.text).toMatch(/^CobOperacaoInvalida: /);
    expect(amount.text).toContain('"propriedade": "cob.valor.original"');
    expect(amount.text).toContain('"sentRequest": false');
    const e2eid = await server.call('get_received_payment', { e2eid: 'not-an-e2eid' });
    expect(e2eid.text).toMatch(/^InstantConsultaInvalida: /);
    const refund = await server.call('refund_payment', { e2eid: 'E'.repeat(32), id: 'r1', valor: '1,00' });
    expect(refund.text).toMatch(/^InstantDevolucaoInvalida: /);
    const type = await server.call('get_charge', { txid: 42 });
    expect(type.isError).toBe(true);
    expect(type.text).toContain('Input validation error');
    // Still serving.
    expect((await server.call('lint_br_code', { code: 'x' })).isError).toBe(false);
  });

  it('reads the sandbox cash-out balance', async () => {
    const server = await start(['--sandbox']);
    expect((await server.call('get_balance')).record).toMatchObject({ available: '1000.00' });
  });
});

describe('instant-payments mcp configured from the environment', { timeout: 60_000 }, () => {
  let sandbox: Sandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = createSandbox({ ownKeys: ['loja@example.com'] });
    await sandbox.listen();
    const { tokenUrl, clientId, clientSecret } = sandbox.credentials;
    const cashOut = sandbox.cashOutCredentials;
    env = {
      INSTANT_BASE_URL: sandbox.baseUrl,
      INSTANT_TOKEN_URL: tokenUrl,
      INSTANT_CLIENT_ID: clientId,
      INSTANT_CLIENT_SECRET: clientSecret,
      INSTANT_CASH_OUT_BASE_URL: sandbox.origin,
      INSTANT_CASH_OUT_TOKEN_URL: cashOut.tokenUrl,
      INSTANT_CASH_OUT_CLIENT_ID: cashOut.clientId,
      INSTANT_CASH_OUT_CLIENT_SECRET: cashOut.clientSecret,
      INSTANT_PAYMENTS_LOG: 'debug',
    };
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('reaches the configured service; no secret appears in any answer or log line, even when a call fails', async () => {
    const server = await start(['--allow-writes', '--max-amount', '1.00'], env);
    const charge = await server.call('create_charge', {
      body: { calendario: { expiracao: 3600 }, valor: { original: '3.00' }, chave: 'loja@example.com' },
    });
    expect(charge.isError, charge.text).toBe(false);
    const payment = await sandbox.payCharge(charge.record['txid'] as string);
    expect((await server.call('get_received_payment', { e2eid: payment.endToEndId })).record).toMatchObject({
      valor: '3.00',
    });
    expect((await server.call('get_balance')).isError).toBe(false);
    await server.call('refund_payment', { e2eid: payment.endToEndId, id: 'x1', valor: '2.00' });
    await server.call('get_charge', { txid: 'a'.repeat(30) });
    // A secret pasted into a field comes back from the service: the answer shows it redacted.
    const pasted = await server.call('create_charge', {
      body: {
        calendario: { expiracao: 3600 },
        valor: { original: '1.00' },
        chave: 'loja@example.com',
        solicitacaoPagador: `see ${env['INSTANT_CLIENT_SECRET']}`,
      },
    });
    expect(pasted.record['solicitacaoPagador']).toBe('see [redacted]');
    // The service logged the calls (INSTANT_PAYMENTS_LOG=debug), to stderr only.
    expect(server.log()).toMatch(/\[instant-payments\] debug/);

    const wrong = await start([], { ...env, INSTANT_CLIENT_SECRET: 'a-wrong-secret-0123456789' });
    const refused = await wrong.call('get_charge', { txid: 'a'.repeat(30) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^AuthenticationError: /);

    const everything = [...server.answers, server.log(), ...wrong.answers, wrong.log()].join('\n');
    for (const secret of [
      env['INSTANT_CLIENT_SECRET']!,
      env['INSTANT_CASH_OUT_CLIENT_SECRET']!,
      'a-wrong-secret-0123456789',
    ])
      expect(everything).not.toContain(secret);
  });

  it('says how to install the MCP SDK when it is missing, exit 1', () => {
    // A resolve hook makes the package unfindable, as in a project that did not install it.
    const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  if (specifier.startsWith('@modelcontextprotocol/sdk'))
    throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
} });`;
    const { status, stdout, stderr } = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, CLI, 'mcp', '--sandbox'],
      { env: { PATH: process.env['PATH'] ?? '' }, encoding: 'utf8', input: '', timeout: 30_000 },
    );
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('npm install @modelcontextprotocol/sdk');
  });

  it('refuses to start without its configuration, naming the variable (not a value), exit 1', () => {
    const { status, stderr } = spawnSync(process.execPath, [CLI, 'mcp'], {
      env: { PATH: process.env['PATH'] ?? '', INSTANT_CLIENT_SECRET: 'a-secret-never-printed' },
      encoding: 'utf8',
      input: '',
      timeout: 15_000,
    });
    expect(status).toBe(1);
    expect(stderr).toContain('INSTANT_BASE_URL is not set');
    expect(stderr).not.toContain('a-secret-never-printed');
  });
});
