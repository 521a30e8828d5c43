#!/usr/bin/env node
/**
 * `npx instant-payments-sandbox [--port 8080] [--seed 42] [--balance 1000.00] [--own-key KEY]...
 * [--settle auto|manual] [--transfer-notification-url URL] [--redelivery-attempts 5]
 * [--redelivery-delay-ms 1000]`: serves the sandbox on 127.0.0.1 and prints where it is, the
 * credentials to use and the `/sandbox/...` test controls, for clients in any language. Ctrl-C
 * stops it.
 */
import { parseArgs } from 'node:util';
import { createSandbox, type SandboxOptions } from './sandbox.ts';

const USAGE = `Usage: instant-payments-sandbox [--port 8080] [--seed 42] [--balance 1000.00]
       [--own-key KEY]... [--settle auto|manual] [--transfer-notification-url URL]
       [--redelivery-attempts 5] [--redelivery-delay-ms 1000]

--seed N gives the same credentials, own keys and ids on every start.`;

export async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string', default: '8080' },
      seed: { type: 'string' },
      balance: { type: 'string' },
      'own-key': { type: 'string', multiple: true },
      settle: { type: 'string' },
      'transfer-notification-url': { type: 'string' },
      'redelivery-attempts': { type: 'string' },
      'redelivery-delay-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0 to 65535\n${USAGE}`);
  if (values.settle !== undefined && values.settle !== 'auto' && values.settle !== 'manual') throw new Error(`--settle is auto or manual\n${USAGE}`);
  const options: SandboxOptions = {};
  if (values.seed !== undefined) options.seed = integer('--seed', values.seed);
  if (values.balance !== undefined) options.balance = values.balance;
  if (values['own-key'] !== undefined) options.ownKeys = values['own-key'];
  if (values.settle !== undefined) options.settle = values.settle;
  if (values['transfer-notification-url'] !== undefined) options.transferNotificationUrl = values['transfer-notification-url'];
  const attempts = values['redelivery-attempts'];
  const delayMs = values['redelivery-delay-ms'];
  if (attempts !== undefined || delayMs !== undefined) {
    options.redelivery = {};
    if (attempts !== undefined) options.redelivery.attempts = integer('--redelivery-attempts', attempts);
    if (delayMs !== undefined) options.redelivery.delayMs = integer('--redelivery-delay-ms', delayMs);
  }
  const sandbox = createSandbox(options);
  await sandbox.listen({ port });
  const api = sandbox.clientOptions();
  const width = Math.max(...sandbox.controlRoutes.map((route) => route.path.length));
  const cashOut = sandbox.cashOutOptions();
  console.log(
    [
      `instant-payments sandbox on ${sandbox.origin} (in memory; Ctrl-C stops it)`,
      '',
      'Collection API',
      `  base URL       ${api.baseUrl}`,
      `  token URL      ${api.auth.tokenUrl}   (OAuth client credentials, form-encoded)`,
      `  client id      ${api.auth.clientId}`,
      `  client secret  ${api.auth.clientSecret}`,
      `  own keys       ${sandbox.ownKeys.join(', ')}`,
      `  own accounts   ${sandbox.ownAccounts.map((a) => `conta ${a.conta}${a.agencia === undefined ? '' : ` agencia ${a.agencia}`} ${a.tipoConta}`).join('; ')}`,
      '',
      'Cash-out provider',
      `  base URL       ${cashOut.baseUrl}   (paths /api/v2/...)`,
      `  token URL      ${cashOut.auth.tokenUrl}   (JSON body: grant_type, client_id, client_secret)`,
      `  client id      ${cashOut.auth.clientId}`,
      `  client secret  ${cashOut.auth.clientSecret}`,
      `  balance        ${sandbox.balance}`,
      '',
      `Payloads         ${sandbox.origin}/qr/v2/...   (signed JWS; key set at ${sandbox.origin}/qr/v2/jwks.json)`,
      `Payer            new PayerClient(sandboxPayerOptions('${sandbox.origin}'))   (from instant-payments/sandbox: locations are fetched over https, this sandbox speaks http)`,
      `Notifications    redelivered with backoff after a non-2xx answer or a failed connection; log at GET ${sandbox.origin}/sandbox/notifications`,
      '',
      `Test controls    ${sandbox.origin}/sandbox/...   (JSON in and out, no credentials; CORS on every route, as everywhere)`,
      ...sandbox.controlRoutes.map(({ method, path, does }) => `  ${method.padEnd(5)} ${path.padEnd(width)}  ${does}`),
      '',
      options.seed !== undefined ? `Seed             ${options.seed}: the same credentials, keys and ids on every start` : 'Seed             none: new credentials on every start (--seed N keeps them)',
    ].join('\n'),
  );
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** `text` as an integer, or a clear error naming the flag. */
function integer(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value)) throw new Error(`${flag} takes an integer, not ${JSON.stringify(text)}\n${USAGE}`);
  return value;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
