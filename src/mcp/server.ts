/**
 * Node only. The Model Context Protocol server over stdio (`npx instant-payments mcp`): the
 * tools of `tools.ts` on the official `@modelcontextprotocol/sdk`, an optional peer loaded here.
 * Every failure is a tool error carrying the SDK's error (its own redacted `toJSON`); nothing a
 * tool throws stops the server. Standard output is the protocol's: the log goes to stderr and
 * names tools and outcomes only, never an input (documents, ids) or a secret.
 */
import { ConfigurationError } from '../errors/failures.ts';
import { SDK_VERSION } from '../core/version.ts';
import { fromCents } from '../lib/money.ts';
import { type McpClients, type McpPolicy, type ToolDefinition, type ToolResult, toolsFor } from './tools.ts';

/** How `serveMcp` reports and what it must never print. */
export interface McpServeOptions {
  /** One line per event, to stderr. */
  log: (line: string) => void;
  /** Values replaced by `[redacted]` wherever they would appear in an answer. */
  secrets: readonly string[];
  /** Added to the instructions the client reads (the embedded sandbox's receiving key). */
  notes?: string;
}

export const MCP_SDK = '@modelcontextprotocol/sdk';

/** Serves the tools on stdin/stdout; resolves once the client has gone (stdin closed). */
export async function serveMcp(clients: McpClients, policy: McpPolicy, options: McpServeOptions): Promise<void> {
  const [{ McpServer }, { StdioServerTransport }] = await loadSdk();
  const server = new McpServer(
    { name: 'instant-payments', version: SDK_VERSION },
    {
      instructions:
        'Tools over an instant payments service: charges (cob, cobv), received payments and refunds, ' +
        'recurrences, BR Codes. Amounts are decimal strings such as "10.00". ' +
        (policy.allowWrites
          ? 'Writes are allowed; refunds above the configured limit are refused.'
          : 'Read-only: nothing here creates, cancels or refunds.') +
        (options.notes === undefined ? '' : ` ${options.notes}`),
    },
  );
  const scrub = scrubber(options.secrets);
  const tools = toolsFor(clients, policy);
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: !tool.writes, destructiveHint: tool.writes, openWorldHint: tool.offline !== true },
      },
      async (input: Record<string, unknown>) => {
        try {
          const answer = answerOf(await tool.run(clients, input as never, policy), scrub);
          options.log(`${tool.name}: ok`);
          return answer;
        } catch (error) {
          options.log(`${tool.name}: ${error instanceof Error ? error.name : 'error'}`);
          return { isError: true, content: [{ type: 'text' as const, text: scrub(errorText(error)) }] };
        }
      },
    );
  }
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  options.log(
    `instant-payments MCP server: ${tools.length} tools, ` +
      (policy.allowWrites ? `writes allowed, refunds up to ${fromCents(policy.maxCents)}` : 'read-only'),
  );
  await closed;
}

function answerOf(result: ToolResult, scrub: (text: string) => string) {
  if ('image' in result)
    return {
      content: [
        { type: 'image' as const, data: Buffer.from(result.image).toString('base64'), mimeType: result.mimeType },
      ],
    };
  const text = scrub(JSON.stringify(result.record, null, 2));
  return { content: [{ type: 'text' as const, text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/** The error as the SDK describes it: `Name: message`, then its public fields (`violacoes`, `status`...). */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return 'Error: the tool failed';
  const head = `${error.name}: ${error.message}`;
  const json: unknown = 'toJSON' in error && typeof error.toJSON === 'function' ? error.toJSON() : undefined;
  return json === undefined ? head : `${head}\n${JSON.stringify(json, null, 2)}`;
}

function scrubber(secrets: readonly string[]): (text: string) => string {
  const words = secrets.filter((s) => s.length >= 4);
  return (text) => words.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

async function loadSdk() {
  try {
    return await Promise.all([
      import('@modelcontextprotocol/sdk/server/mcp.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(MCP_SDK);
    if (!missing) throw error;
    throw new ConfigurationError(
      'mcp',
      `The MCP server runs on the official ${MCP_SDK}, an optional peer dependency: npm install ${MCP_SDK}`,
    );
  }
}

export type { McpClients, McpPolicy, ToolDefinition };
