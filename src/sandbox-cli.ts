#!/usr/bin/env node
/**
 * `npx instant-payments-sandbox [--port 8080] [--seed 42] [--balance 1000.00] [--own-key KEY]...
 * [--settle auto|manual] [--transfer-notification-url URL] [--redelivery-attempts 5]
 * [--redelivery-delay-ms 1000] [--webhook-mtls] [--webhook-server-ca file.pem]
 * [--local-holidays 2026-01-20,01-25] [--clock 2026-12-24T10:00:00-03:00] [--host 127.0.0.1]
 * [--public-origin URL] [--tls] [--tls-dir DIR] [--lenient-token] [--allow-http-webhooks]`: serves the
 * sandbox (on 127.0.0.1 unless `--host` says otherwise) and prints where it is, the credentials to use
 * (also as `sandbox.env`, written to `--tls-dir`) and the `/sandbox/...` test controls, for clients in
 * any language. Ctrl-C stops it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSandbox, type SandboxOptions } from './sandbox.ts';
import { generateCertificates, toPkcs12 } from './sandbox/certificates.ts';
import { isLoopbackHost } from './sandbox/server.ts';

const USAGE = `Usage: instant-payments-sandbox [--port 8080] [--seed 42] [--balance 1000.00]
       [--own-key KEY]... [--settle auto|manual] [--transfer-notification-url URL]
       [--redelivery-attempts 5] [--redelivery-delay-ms 1000]
       [--webhook-mtls] [--webhook-server-ca file.pem]
       [--local-holidays 2026-01-20,01-25] [--clock 2026-12-24T10:00:00-03:00]
       [--host 127.0.0.1] [--public-origin http://sandbox:8080] [--tls] [--tls-dir DIR]
       [--lenient-token] [--allow-http-webhooks]

--seed N gives the same credentials, own keys and ids on every start.
--webhook-mtls posts notifications over HTTPS with a client certificate signed by a CA made
  at start (printed), as a production service; --webhook-server-ca trusts the receiver's own CA.
--local-holidays adds payers' local holidays (YYYY-MM-DD, or MM-DD every year) to the
  national calendar due dates roll on.
--clock starts the sandbox's test clock at that instant (it runs on from there; move it with
  POST /sandbox/clock { set?, advance? }).
--host 0.0.0.0 serves a container network or a LAN (the test controls take no credentials).
--public-origin is the origin written into URLs and locations (default: where it listens).
--tls serves HTTPS demanding a client certificate: a CA, a server and a client certificate
  (PEM, and the client's as client.p12 with its passphrase printed) are generated and written
  to --tls-dir (default: a new temporary folder; --tls-dir alone implies --tls), with the
  webhook CA (--webhook-mtls) and sandbox.env: the printed settings, ready to source.
--lenient-token takes a JSON token request body too, as some services do (default: the
  standard form only).
--allow-http-webhooks lets a webhook URL be plain http on any host (a receiver in another
  container); by default http is taken on loopback only.`;

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
      'webhook-mtls': { type: 'boolean' },
      'webhook-server-ca': { type: 'string' },
      'local-holidays': { type: 'string' },
      clock: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'public-origin': { type: 'string' },
      tls: { type: 'boolean' },
      'tls-dir': { type: 'string' },
      'lenient-token': { type: 'boolean' },
      'allow-http-webhooks': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0 to 65535\n${USAGE}`);
  if (values.settle !== undefined && values.settle !== 'auto' && values.settle !== 'manual')
    throw new Error(`--settle is auto or manual\n${USAGE}`);
  const options: SandboxOptions = {};
  if (values.seed !== undefined) options.seed = integer('--seed', values.seed);
  if (values.balance !== undefined) options.balance = values.balance;
  if (values['own-key'] !== undefined) options.ownKeys = values['own-key'];
  if (values.settle !== undefined) options.settle = values.settle;
  if (values['transfer-notification-url'] !== undefined)
    options.transferNotificationUrl = values['transfer-notification-url'];
  const attempts = values['redelivery-attempts'];
  const delayMs = values['redelivery-delay-ms'];
  if (attempts !== undefined || delayMs !== undefined) {
    options.redelivery = {};
    if (attempts !== undefined) options.redelivery.attempts = integer('--redelivery-attempts', attempts);
    if (delayMs !== undefined) options.redelivery.delayMs = integer('--redelivery-delay-ms', delayMs);
  }
  if (values['webhook-mtls']) options.webhookClientCertificate = true;
  if (values['webhook-server-ca'] !== undefined)
    options.webhookServerCa = readFileSync(values['webhook-server-ca'], 'utf8');
  const localHolidays = values['local-holidays']?.split(',').map((day) => day.trim());
  if (localHolidays !== undefined) options.localHolidays = localHolidays;
  if (values['lenient-token']) options.lenientToken = true;
  if (values['allow-http-webhooks']) options.allowHttpWebhooks = true;
  const host = values.host;
  const publicOrigin = values['public-origin'];
  const tls =
    values.tls || values['tls-dir'] !== undefined
      ? writeCertificates(values['tls-dir'], host, publicOrigin)
      : undefined;
  const sandbox = createSandbox(options);
  if (values.clock !== undefined) {
    await sandbox.clock.set(values.clock).catch(() => {
      throw new Error(`--clock is an RFC 3339 instant with its offset, such as 2026-12-24T10:00:00-03:00\n${USAGE}`);
    });
  }
  try {
    await sandbox.listen({
      port,
      host,
      ...(publicOrigin !== undefined && { publicOrigin }),
      ...(tls && { tls: tls.server }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(`Port ${port} on ${host} is in use: choose another with --port N (--port 0 takes any free port).`);
  }
  const webhookCaPath = tls && sandbox.webhookCa !== undefined ? join(tls.dir, 'webhook-ca.pem') : undefined;
  if (webhookCaPath !== undefined) writeFileSync(webhookCaPath, sandbox.webhookCa!);
  const env = envLines(sandbox, tls, webhookCaPath);
  if (tls) writeFileSync(tls.paths.env, `${env.join('\n')}\n`, { mode: 0o600 });
  if (!isLoopbackHost(host)) {
    console.error(
      `warning: listening on ${host}, beyond loopback: anyone who reaches port ${new URL(sandbox.origin).port || port} can use this sandbox ` +
        '(the test controls take no credentials; its credentials are printed below)',
    );
  }
  const api = sandbox.clientOptions();
  const width = Math.max(...sandbox.controlRoutes.map((route) => route.path.length));
  const cashOut = sandbox.cashOutOptions();
  console.log(
    [
      `instant-payments sandbox serving ${tls ? 'HTTPS (client certificate required on the API)' : 'HTTP'} on ${sandbox.origin} (in memory; Ctrl-C stops it)`,
      '',
      'Collection API',
      `  base URL       ${api.baseUrl}`,
      `  token URL      ${api.auth.tokenUrl}   (OAuth client credentials, form-encoded${options.lenientToken ? ' or JSON' : ''}${tls ? '; over TLS, certificate-only login (tls_client_auth) too' : ''})`,
      `  scopes         ask with scope=... (cob.write cob.read ... instant.read ...; none asked: all); list in ${sandbox.origin}/openapi.json`,
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
      `Clock            ${sandbox.clock.now().toISOString()}   (test clock: GET ${sandbox.origin}/sandbox/clock; POST it { set?, advance? } to move it)`,
      `Due dates        roll past weekends and national holidays${localHolidays === undefined ? '' : `, and the local holidays ${localHolidays.join(', ')}`}`,
      `Payer            new PayerClient(sandboxPayerOptions('${sandbox.origin}'))   (from instant-payments/sandbox: locations are fetched over https${tls ? ', and this sandbox speaks it with its own CA' : ', this sandbox speaks http'})`,
      `Interface        ${sandbox.origin}/openapi.json and /openapi.yaml   (OpenAPI 3.1: paths, scopes, schemas)`,
      `Webhook URLs     https, or http on loopback${options.allowHttpWebhooks ? ', or http on any host (--allow-http-webhooks)' : ' (--allow-http-webhooks: http on any host)'}`,
      `Notifications    redelivered with backoff after a non-2xx answer or a failed connection; log at GET ${sandbox.origin}/sandbox/notifications`,
      ...(sandbox.webhookCa === undefined
        ? []
        : [
            '                 over HTTPS with a client certificate signed by this CA (authenticate.clientCertificate.ca):',
            sandbox.webhookCa.trimEnd(),
          ]),
      ...(tls
        ? [
            '',
            `TLS              ${tls.dir}   (HTTPS; the API, provider and token routes want the client certificate)`,
            `  CA             ${tls.paths.ca}`,
            `  server cert    ${tls.paths.serverCert}`,
            `  server key     ${tls.paths.serverKey}`,
            `  client cert    ${tls.paths.clientCert}`,
            `  client key     ${tls.paths.clientKey}`,
            `  client .p12    ${tls.paths.clientP12}   (passphrase ${tls.passphrase})`,
            ...(webhookCaPath === undefined ? [] : [`  webhook CA     ${webhookCaPath}`]),
            `  sandbox.env    ${tls.paths.env}   (the settings below; set -a; . ${tls.paths.env}; set +a)`,
          ]
        : []),
      '',
      `sandbox.env${tls ? '' : '      (paste into a file; --tls-dir DIR writes it there)'}`,
      ...env.map((line) => `  ${line}`),
      '',
      `Test controls    ${sandbox.origin}/sandbox/...   (JSON in and out, no credentials; CORS on every route, as everywhere)`,
      ...sandbox.controlRoutes.map(({ method, path, does }) => `  ${method.padEnd(5)} ${path.padEnd(width)}  ${does}`),
      '',
      options.seed !== undefined
        ? `Seed             ${options.seed}: the same credentials, keys and ids on every start`
        : 'Seed             none: new credentials on every start (--seed N keeps them)',
    ].join('\n'),
  );
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Generates a CA, a server certificate (for loopback, `host` and the public origin's host) and a
 * client certificate, and writes them to `dir` (a new temporary folder when not given).
 */
function writeCertificates(dir: string | undefined, host: string, publicOrigin: string | undefined) {
  const folder = dir === undefined ? mkdtempSync(join(tmpdir(), 'instant-payments-sandbox-tls-')) : resolve(dir);
  mkdirSync(folder, { recursive: true });
  const hosts = [
    host,
    ...(publicOrigin === undefined ? [] : [new URL(publicOrigin).hostname.replace(/^\[|\]$/g, '')]),
  ].filter((name) => name !== '0.0.0.0' && name !== '::' && name !== '');
  const certificates = generateCertificates({ hosts });
  const paths = {
    ca: join(folder, 'ca.pem'),
    serverCert: join(folder, 'server.pem'),
    serverKey: join(folder, 'server.key'),
    clientCert: join(folder, 'client.pem'),
    clientKey: join(folder, 'client.key'),
    clientP12: join(folder, 'client.p12'),
    env: join(folder, 'sandbox.env'),
  };
  const passphrase = randomBytes(8).toString('hex');
  writeFileSync(paths.ca, certificates.ca.cert);
  writeFileSync(paths.serverCert, certificates.server.cert);
  writeFileSync(paths.serverKey, certificates.server.key, { mode: 0o600 });
  writeFileSync(paths.clientCert, certificates.client.cert);
  writeFileSync(paths.clientKey, certificates.client.key, { mode: 0o600 });
  writeFileSync(paths.clientP12, toPkcs12(certificates.client, passphrase), { mode: 0o600 });
  return {
    dir: folder,
    paths,
    passphrase,
    server: { cert: certificates.server.cert, key: certificates.server.key, ca: certificates.ca.cert },
  };
}

/**
 * The settings another process needs, as `NAME='value'` lines a shell sources: the collection
 * API's (the names `examples/setup.ts` reads), the cash-out provider's, the origin of the test
 * controls and, over TLS, the certificates (and the CA as the variables Node, curl and Python read).
 */
function envLines(
  sandbox: ReturnType<typeof createSandbox>,
  tls: ReturnType<typeof writeCertificates> | undefined,
  webhookCaPath: string | undefined,
): string[] {
  const api = sandbox.clientOptions();
  const cashOut = sandbox.cashOutOptions();
  const [account] = sandbox.ownAccounts;
  const settings: Array<[string, string | undefined]> = [
    ['INSTANT_SANDBOX_ORIGIN', sandbox.origin],
    ['INSTANT_BASE_URL', api.baseUrl],
    ['INSTANT_TOKEN_URL', api.auth.tokenUrl],
    ['INSTANT_CLIENT_ID', api.auth.clientId],
    ['INSTANT_CLIENT_SECRET', api.auth.clientSecret],
    ['INSTANT_RECEIVER_KEY', sandbox.ownKeys[0]],
    ['INSTANT_RECEIVER_KEYS', sandbox.ownKeys.join(' ')],
    ['INSTANT_RECEIVER_CONTA', account?.conta],
    ['INSTANT_RECEIVER_AGENCIA', account?.agencia],
    ['INSTANT_RECEIVER_TIPO_CONTA', account?.tipoConta],
    ['CASH_OUT_URL', cashOut.baseUrl],
    ['CASH_OUT_CLIENT_ID', cashOut.auth.clientId],
    ['CASH_OUT_CLIENT_SECRET', cashOut.auth.clientSecret],
    ...(tls === undefined
      ? []
      : ([
          ['INSTANT_CLIENT_CERT', tls.paths.clientCert],
          ['INSTANT_CLIENT_KEY', tls.paths.clientKey],
          ['INSTANT_CLIENT_P12', tls.paths.clientP12],
          ['INSTANT_CLIENT_P12_PASSPHRASE', tls.passphrase],
          ['CASH_OUT_CERT', tls.paths.clientCert],
          ['CASH_OUT_KEY', tls.paths.clientKey],
          ['INSTANT_CA', tls.paths.ca],
          ['NODE_EXTRA_CA_CERTS', tls.paths.ca],
          ['CURL_CA_BUNDLE', tls.paths.ca],
          ['REQUESTS_CA_BUNDLE', tls.paths.ca],
        ] as Array<[string, string]>)),
    ['INSTANT_WEBHOOK_CA', webhookCaPath],
  ];
  return settings.flatMap(([name, value]) =>
    value === undefined ? [] : [`${name}='${value.replaceAll("'", "'\\''")}'`],
  );
}

/** `text` as an integer, or a clear error naming the flag. */
function integer(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value))
    throw new Error(`${flag} takes an integer, not ${JSON.stringify(text)}\n${USAGE}`);
  return value;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
