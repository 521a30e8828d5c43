/**
 * Where the examples talk to, decided in one place.
 *
 * - No credentials in the environment: an in-process sandbox (`instant-payments/sandbox`) over
 *   real HTTP on 127.0.0.1. Nothing leaves the machine; the example runs its whole scenario.
 * - Credentials in the environment: the real provider.
 *
 * Receiving user (`InstantClient`): INSTANT_BASE_URL, INSTANT_CLIENT_ID, INSTANT_CLIENT_SECRET,
 * INSTANT_TOKEN_URL (default `{INSTANT_BASE_URL}/oauth/token`), INSTANT_SCOPE, INSTANT_CLIENT_CERT
 * and INSTANT_CLIENT_KEY (PEM file paths, mTLS), INSTANT_RECEIVER_KEY (one of your directory keys).
 * Cash-out (`CashOutClient`): CASH_OUT_URL (host root), CASH_OUT_CLIENT_ID, CASH_OUT_CLIENT_SECRET,
 * CASH_OUT_CERT and CASH_OUT_KEY.
 * Setting INSTANT_CLIENT_ID or CASH_OUT_CLIENT_ID selects the real provider.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AuthenticationError,
  CashOutClient,
  ConnectionError,
  InstantClient,
  InstantError,
  TimeoutError,
} from '../src/index.ts';
import { PayerClient } from '../src/payer.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox.ts';

/** Every variable the examples read credentials or provider settings from. */
export const CREDENTIAL_PREFIXES = ['INSTANT_', 'CASH_OUT_'] as const;

export interface Connection {
  /** The sandbox when no credentials were given; `undefined` against the real provider. */
  readonly sandbox: Sandbox | undefined;
  readonly api: InstantClient;
  readonly cashOut: CashOutClient;
  readonly payer: PayerClient;
  /** A directory key of the receiving user. */
  readonly receiverKey: string;
  close(): Promise<void>;
}

/** A variable the real provider needs is missing. */
class SetupError extends Error {
  override readonly name = 'SetupError';
}

export function usesRealProvider(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env['INSTANT_CLIENT_ID'] || env['CASH_OUT_CLIENT_ID']);
}

/** Connects to the real provider when credentials are set, else to a fresh sandbox. */
export async function connect(
  options: { env?: NodeJS.ProcessEnv; sandbox?: SandboxOptions } = {},
): Promise<Connection> {
  const env = options.env ?? process.env;
  return usesRealProvider(env) ? realProvider(env) : sandboxed(options.sandbox ?? {});
}

async function sandboxed(options: SandboxOptions): Promise<Connection> {
  const sandbox = createSandbox(options);
  await sandbox.listen({ port: 0 });
  const api = new InstantClient(sandbox.clientOptions());
  const cashOut = new CashOutClient(sandbox.cashOutOptions());
  const [receiverKey] = sandbox.ownKeys;
  if (receiverKey === undefined) throw new Error('the sandbox has no key');
  return {
    sandbox,
    api,
    cashOut,
    payer: new PayerClient(sandbox.payerOptions()),
    receiverKey,
    close: async () => {
      await Promise.all([api.close(), cashOut.close()]);
      await sandbox.close();
    },
  };
}

function realProvider(env: NodeJS.ProcessEnv): Connection {
  const need = (name: string): string => {
    const value = env[name];
    if (!value) throw new SetupError(`${name} is not set (see examples/setup.ts)`);
    return value;
  };
  const tls = (cert: string, key: string) =>
    env[cert] && env[key] ? { tls: { cert: readFileSync(need(cert)), key: readFileSync(need(key)) } } : {};
  // Built on first use, so a cash-out example needs no INSTANT_* variables and vice versa.
  let api: InstantClient | undefined;
  let cashOut: CashOutClient | undefined;
  return {
    sandbox: undefined,
    get api() {
      const baseUrl = need('INSTANT_BASE_URL');
      api ??= new InstantClient({
        baseUrl,
        auth: {
          tokenUrl: env['INSTANT_TOKEN_URL'] ?? `${baseUrl}/oauth/token`,
          clientId: need('INSTANT_CLIENT_ID'),
          clientSecret: need('INSTANT_CLIENT_SECRET'),
          ...(env['INSTANT_SCOPE'] && { scope: env['INSTANT_SCOPE'] }),
        },
        ...tls('INSTANT_CLIENT_CERT', 'INSTANT_CLIENT_KEY'),
        ownKeys: [need('INSTANT_RECEIVER_KEY')],
      });
      return api;
    },
    get cashOut() {
      cashOut ??= new CashOutClient({
        baseUrl: need('CASH_OUT_URL'),
        auth: { clientId: need('CASH_OUT_CLIENT_ID'), clientSecret: need('CASH_OUT_CLIENT_SECRET') },
        ...tls('CASH_OUT_CERT', 'CASH_OUT_KEY'),
      });
      return cashOut;
    },
    payer: new PayerClient(),
    get receiverKey() {
      return need('INSTANT_RECEIVER_KEY');
    },
    close: async () => {
      await Promise.all([api?.close(), cashOut?.close()]);
    },
  };
}

/**
 * Runs an example's `main` when the file is executed (not imported). The SDK's errors that no
 * example can do anything about (credentials refused, provider unreachable) end the run with a
 * one-line reason and exit code 1 instead of a stack trace.
 */
export function runMain(meta: ImportMeta, main: () => Promise<void>): void {
  if (meta.filename !== process.argv[1]) return;
  main().catch((error: unknown) => {
    if (error instanceof SetupError) console.error(error.message);
    else if (error instanceof AuthenticationError)
      console.error(`token endpoint refused or unreachable: ${error.message}`);
    else if (error instanceof ConnectionError || error instanceof TimeoutError)
      console.error(`provider unreachable: ${error.message}`);
    else if (error instanceof InstantError) console.error(`${error.name}: ${error.message}`);
    else throw error;
    process.exitCode = 1;
  });
}

/** `promise`, or a rejection naming `what` after `ms` (the timer does not keep the process alive). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const late = sleep(ms, undefined, { ref: false }).then(() => Promise.reject(new Error(`no ${what} within ${ms} ms`)));
  return Promise.race([promise, late]);
}

/** Starts `server` on a free port of 127.0.0.1 and resolves with its base URL (`http://127.0.0.1:port`). */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
