/**
 * The MCP server's tools, as data: a name and a description an assistant can choose by, an input
 * shape (zod, mirroring the SDK's request types: the handler passes the input to the SDK call,
 * so the compiler holds the two together), whether the tool changes state, and what it runs.
 * The shapes check structure only; the content (amounts, documents, dates, ids) is judged by the
 * SDK's own rules, so an assistant meets the same refusal a program would.
 */
import { z } from 'zod';
import type { Cob, CobSolicitada } from '../collection/cob.ts';
import type { CobV, CobVSolicitada } from '../collection/cobv.ts';
import type { Instant } from '../collection/instant.ts';
import type { CashOutBalance } from '../cash-out/balance.ts';
import type { Page, PageParametros } from '../core/pagination.ts';
import { brcode } from '../lib/brcode.ts';
import { fromCents, isValidAmount, toCents } from '../lib/money.ts';
import { qrMatrix } from '../qr/matrix.ts';
import { renderPng } from '../qr/png.ts';
import type { Rec } from '../recurring/rec.ts';

/** What the tools call: the SDK's clients (and, with `--sandbox`, its simulated payer). */
export interface McpClients {
  api: { cob: Cob; cobv: CobV; instant: Instant; rec: Rec };
  cashOut: { balance: CashOutBalance } | undefined;
  sandbox: { payCharge(txid: string, options?: { valor?: string }): Promise<unknown> } | undefined;
}

/** How the server was started. */
export interface McpPolicy {
  allowWrites: boolean;
  /** The largest refund (or cash-out) allowed, in cents. */
  maxCents: number;
}

/** A tool's answer: a record (or page) of the SDK, or an image. */
export type ToolResult = { record: Record<string, unknown> } | { image: Uint8Array; mimeType: string };

/** A refusal of the server's own (the cap, a code not to render): answered as a tool error. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  /** Changes state or moves money: listed only with `--allow-writes`. */
  writes: boolean;
  /** Runs here alone, reaching no service. */
  offline?: boolean;
  /** Needs the cash-out connection, or the embedded sandbox. */
  needs?: 'cashOut' | 'sandbox';
  run(clients: McpClients, input: never, policy: McpPolicy): Promise<ToolResult>;
}

const kind = z
  .enum(['cob', 'cobv'])
  .default('cob')
  .describe('cob: an immediate charge (default); cobv: a charge with a due date');
const txid = z.string().describe('The charge id (txid): 26 to 35 letters or digits');
const e2eid = z.string().describe('End-to-end id of a received payment: 32 letters or digits, e.g. E9999...');
const dateTime = (what: string) => z.string().describe(`${what}, RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z`);
const paginacao = z
  .object({
    paginaAtual: z.number().int().exactOptional().describe('Page, from 0'),
    itensPorPagina: z.number().int().exactOptional().describe('1 to 1000 (default 100)'),
  })
  .exactOptional();
const debtor = {
  cpf: z.string().exactOptional().describe("Debtor's CPF, 11 digits (not with cnpj)"),
  cnpj: z.string().exactOptional().describe("Debtor's CNPJ, 14 characters"),
};
const amount = z.string().describe('Money as a decimal string with two decimals, e.g. "10.00" (never a number)');

/** A shape's parsed input, typed for the SDK call it feeds. */
type Input<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

function tool<Shape extends z.ZodRawShape>(
  definition: Omit<ToolDefinition, 'input' | 'run'> & {
    input: Shape;
    run(clients: McpClients, input: Input<Shape>, policy: McpPolicy): Promise<ToolResult>;
  },
): ToolDefinition {
  return definition as ToolDefinition;
}

const record = (value: unknown): ToolResult => ({ record: value as Record<string, unknown> });
const page = (value: Page<unknown, PageParametros>): ToolResult =>
  record({ parametros: value.parametros, items: value.items });

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'get_charge',
    title: 'Read a charge',
    description:
      'Reads one charge the merchant created, by txid: its status (ATIVA, CONCLUIDA when paid, REMOVIDA_*), amount, ' +
      'debtor, payment location and the payments it received. Use get_received_payment for a payment by its e2eid.',
    writes: false,
    input: { kind, txid, revisao: z.number().int().exactOptional().describe('A past revision, from 0') },
    run: async ({ api }, { kind, txid, ...query }) => record(await api[kind].get(txid, query)),
  }),
  tool({
    name: 'list_charges',
    title: 'List charges',
    description:
      'Lists charges created between two instants (at most one page; paginacao.paginaAtual for the next), ' +
      'optionally only one debtor (cpf or cnpj) or one status.',
    writes: false,
    input: {
      kind,
      inicio: dateTime('Created at or after'),
      fim: dateTime('Created at or before'),
      ...debtor,
      status: z
        .string()
        .exactOptional()
        .describe('ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR or REMOVIDA_PELO_PSP'),
      locationPresente: z.boolean().exactOptional(),
      paginacao,
    },
    run: async ({ api }, { kind, ...query }) => page(await api[kind].list(query)),
  }),
  tool({
    name: 'get_received_payment',
    title: 'Read a received payment',
    description:
      'Reads one payment the merchant received, by its end-to-end id (e2eid): amount, time, txid of the charge it ' +
      'paid, the payer message and its refunds.',
    writes: false,
    input: { e2eid },
    run: async ({ api }, { e2eid }) => record(await api.instant.get(e2eid)),
  }),
  tool({
    name: 'list_received_payments',
    title: 'List received payments',
    description:
      'Lists payments received between two instants (one page), optionally for one txid, one payer document, ' +
      'or only those with a txid or with refunds. Use it to find the payment of a charge.',
    writes: false,
    input: {
      inicio: dateTime('Received at or after'),
      fim: dateTime('Received at or before'),
      txid: z.string().exactOptional().describe('Only the payments of this charge (1 to 35 letters or digits)'),
      txIdPresente: z.boolean().exactOptional(),
      devolucaoPresente: z.boolean().exactOptional(),
      ...debtor,
      paginacao,
    },
    run: async ({ api }, query) => page(await api.instant.list(query)),
  }),
  tool({
    name: 'get_refund',
    title: 'Read a refund',
    description: 'Reads one refund of a received payment: its status (EM_PROCESSAMENTO, DEVOLVIDO, NAO_REALIZADO).',
    writes: false,
    input: { e2eid, id: z.string().describe('The refund id chosen when it was asked for') },
    run: async ({ api }, { e2eid, id }) => record(await api.instant.getRefund(e2eid, id)),
  }),
  tool({
    name: 'get_recurrence',
    title: 'Read a recurrence',
    description:
      "Reads a recurring-payment authorization (idRec): its status, period, amounts and the payer's consent.",
    writes: false,
    input: {
      idRec: z.string().describe('Recurrence id: RR or RN, then 30 characters'),
      txid: z.string().exactOptional().describe('Also the recurring charge of this txid'),
    },
    run: async ({ api }, { idRec, ...query }) => record(await api.rec.get(idRec, query)),
  }),
  tool({
    name: 'decode_br_code',
    offline: true,
    title: 'Decode a BR Code',
    description:
      'Decodes a BR Code (the copy-and-paste text of a payment QR code) into its fields: key or location, amount, ' +
      'merchant name and city, txid. Offline.',
    writes: false,
    input: { code: z.string().describe('The BR Code text, starting 000201') },
    run: async (_, { code }) => record(brcode.parse(code)),
  }),
  tool({
    name: 'lint_br_code',
    offline: true,
    title: 'Check a BR Code',
    description:
      'Lists what payer apps will refuse or warn about in a BR Code (CRC, lengths, field rules); ok is false when ' +
      'any finding is an error. Offline.',
    writes: false,
    input: { code: z.string().describe('The BR Code text') },
    run: async (_, { code }) => record(brcode.lint(code)),
  }),
  tool({
    name: 'render_qr_code',
    offline: true,
    title: 'Render a BR Code as a QR image',
    description: 'The QR code image (PNG) of a BR Code, to show or print. Refused when lint_br_code finds an error.',
    writes: false,
    input: {
      code: z.string().describe('The BR Code text'),
      scale: z.number().int().exactOptional().describe('Pixels per module, 1 to 64 (default 8)'),
    },
    run: async (_, { code, ...options }) => {
      const lint = brcode.lint(code);
      if (!lint.ok)
        throw new ToolRefusal(
          `Not rendering a code payer apps must refuse: ${lint.findings.map((f) => f.message).join('; ')}`,
        );
      return { image: await renderPng(qrMatrix(code.trim(), options)), mimeType: 'image/png' };
    },
  }),
  tool({
    name: 'get_balance',
    title: 'Read the cash-out balance',
    description: "The cash-out account's available (and blocked) balance, as decimal strings.",
    writes: false,
    needs: 'cashOut',
    input: {},
    run: async ({ cashOut }) => {
      const { raw: _raw, ...balance } = await cashOut!.balance.get();
      return record(balance);
    },
  }),
  tool({
    name: 'create_charge',
    title: 'Create a charge',
    description:
      'Creates a charge the payer pays by QR code or copy-and-paste. cob: body { calendario: { expiracao }, ' +
      'valor: { original }, chave, devedor?, solicitacaoPagador? }, txid optional. cobv: txid required, body ' +
      '{ calendario: { dataDeVencimento }, devedor (with cpf or cnpj and nome), valor: { original }, chave }.',
    writes: true,
    input: {
      kind,
      txid: txid.exactOptional(),
      body: z
        .record(z.string(), z.unknown())
        .describe('The charge as the interface spec names it (CobSolicitada or CobVSolicitada); amounts as strings'),
    },
    run: async ({ api }, { kind, txid, body }) => {
      if (kind === 'cobv') return record(await api.cobv.create(txid ?? '', body as unknown as CobVSolicitada));
      const charge = body as unknown as CobSolicitada;
      return record(await (txid === undefined ? api.cob.create(charge) : api.cob.create(txid, charge)));
    },
  }),
  tool({
    name: 'cancel_charge',
    title: 'Cancel a charge',
    description: 'Cancels an ATIVA charge (status REMOVIDA_PELO_USUARIO_RECEBEDOR): it can no longer be paid.',
    writes: true,
    input: { kind, txid },
    run: async ({ api }, { kind, txid }) => record(await api[kind].remove(txid)),
  }),
  tool({
    name: 'refund_payment',
    title: 'Refund a received payment',
    description:
      "Sends money back to the payer of a received payment. Refused above the server's --max-amount. The id is " +
      'yours (1 to 35 letters or digits) and makes the request idempotent: reuse it to retry the same refund.',
    writes: true,
    input: {
      e2eid,
      id: z.string().describe('Your refund id, 1 to 35 letters or digits'),
      valor: amount,
      natureza: z.enum(['ORIGINAL', 'RETIRADA']).exactOptional(),
      descricao: z.string().exactOptional().describe('At most 140 characters, shown to the payer'),
    },
    run: async ({ api }, { e2eid, id, ...body }, { maxCents }) => {
      // A malformed amount goes on to the SDK, which refuses it as the service would.
      if (isValidAmount(body.valor) && toCents(body.valor) > maxCents)
        throw new ToolRefusal(
          `Refused: a refund of ${body.valor} is above this server's limit of ${fromCents(maxCents)} ` +
            '(--max-amount). Ask a person to make it.',
        );
      return record(await api.instant.refund(e2eid, id, body));
    },
  }),
  tool({
    name: 'sandbox_pay_charge',
    title: 'Pay a charge (sandbox payer)',
    description:
      'Sandbox only: plays the payer and pays an ATIVA charge (default its amount), so that it becomes CONCLUIDA and a received payment appears.',
    writes: true,
    needs: 'sandbox',
    input: { txid, valor: amount.exactOptional() },
    run: async ({ sandbox }, { txid, ...options }) => record(await sandbox!.payCharge(txid, options)),
  }),
];

/** The tools a server started with `policy` offers, given the connections it has. */
export function toolsFor(clients: McpClients, policy: McpPolicy): ToolDefinition[] {
  return TOOLS.filter(
    (t) => (policy.allowWrites || !t.writes) && (t.needs === undefined || clients[t.needs] !== undefined),
  );
}
