/**
 * Node only. The connection of the commands that talk to a configured service (`mcp`,
 * `receipt`), read from environment variables so that no secret sits in an assistant's
 * configuration file or a shell history. Errors name the variable, never its value.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from '../composition/connection.ts';
import { ConfigurationError } from '../errors/failures.ts';
import type { TlsOptions } from '../node/tls.ts';

/** The variables read, with what each holds (the commands' help prints this list). */
export const ENVIRONMENT = {
  INSTANT_BASE_URL: "the collection API's root with its /v2",
  INSTANT_TOKEN_URL: 'the OAuth token endpoint',
  INSTANT_CLIENT_ID: 'the client id',
  INSTANT_CLIENT_SECRET: 'the client secret (omit it for certificate-only login)',
  INSTANT_CERT_FILE: 'the client certificate (PEM), with INSTANT_KEY_FILE',
  INSTANT_KEY_FILE: "the certificate's private key (PEM)",
  INSTANT_PFX_FILE: 'or the certificate and key as one PKCS#12 file',
  INSTANT_PFX_PASSPHRASE: "the PKCS#12 file's or the key's passphrase",
  INSTANT_CA_FILE: "a private CA (PEM) that signed the service's certificate",
  INSTANT_CASH_OUT_BASE_URL: "the cash-out provider's host root (for the balance)",
  INSTANT_CASH_OUT_TOKEN_URL: "the cash-out provider's token endpoint",
  INSTANT_CASH_OUT_CLIENT_ID: "the cash-out provider's client id",
  INSTANT_CASH_OUT_CLIENT_SECRET: "the cash-out provider's client secret",
} as const;

type Environment = Readonly<Record<string, string | undefined>>;
type Variable = keyof typeof ENVIRONMENT;
type Credentials = NonNullable<ConnectionOptions['auth']>;
type CashOutConnection = ConnectionOptions & { auth: Credentials };

/** The collection client's connection, and the cash-out one when its base URL is set. */
export interface ConfiguredConnections {
  api: ConnectionOptions;
  cashOut: CashOutConnection | undefined;
  /** Values that must never appear in an output: the secrets and the passphrase. */
  secrets: string[];
}

/** Reads the connections from `env`; throws `ConfigurationError` (option: the variable) when one is missing or unreadable. */
export function connectionsFromEnvironment(env: Environment): ConfiguredConnections {
  const tls = certificate(env);
  const api: ConnectionOptions = {
    baseUrl: required(env, 'INSTANT_BASE_URL'),
    auth: credentials(env, 'INSTANT_TOKEN_URL', 'INSTANT_CLIENT_ID', 'INSTANT_CLIENT_SECRET', tls !== undefined),
  };
  if (tls !== undefined) api.tls = tls;
  const cashOutBase = value(env, 'INSTANT_CASH_OUT_BASE_URL');
  const cashOut: CashOutConnection | undefined =
    cashOutBase === undefined
      ? undefined
      : {
          baseUrl: cashOutBase,
          auth: credentials(
            env,
            'INSTANT_CASH_OUT_TOKEN_URL',
            'INSTANT_CASH_OUT_CLIENT_ID',
            'INSTANT_CASH_OUT_CLIENT_SECRET',
            false,
          ),
        };
  const secrets = ['INSTANT_CLIENT_SECRET', 'INSTANT_CASH_OUT_CLIENT_SECRET', 'INSTANT_PFX_PASSPHRASE']
    .map((name) => value(env, name))
    .filter((secret) => secret !== undefined);
  return { api, cashOut, secrets };
}

function credentials(
  env: Environment,
  tokenUrl: Variable,
  clientId: Variable,
  clientSecret: Variable,
  certificateLogin: boolean,
): Credentials {
  const common = { tokenUrl: required(env, tokenUrl), clientId: required(env, clientId) };
  const secret = value(env, clientSecret);
  if (secret !== undefined) return { ...common, clientSecret: secret };
  if (certificateLogin) return { ...common, clientAuthentication: 'tls_client_auth' };
  throw new ConfigurationError(clientSecret, `${clientSecret} is not set (or give a client certificate)`);
}

function certificate(env: Environment): TlsOptions | undefined {
  const passphrase = value(env, 'INSTANT_PFX_PASSPHRASE');
  const caFile = value(env, 'INSTANT_CA_FILE');
  const extra = {
    ...(passphrase === undefined ? {} : { passphrase }),
    ...(caFile === undefined ? {} : { ca: file(env, 'INSTANT_CA_FILE') }),
  };
  if (value(env, 'INSTANT_PFX_FILE') !== undefined) return { pfx: file(env, 'INSTANT_PFX_FILE'), ...extra };
  if (value(env, 'INSTANT_CERT_FILE') === undefined) return undefined;
  return { cert: file(env, 'INSTANT_CERT_FILE'), key: file(env, 'INSTANT_KEY_FILE'), ...extra };
}

function value(env: Environment, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function required(env: Environment, name: Variable): string {
  const v = value(env, name);
  if (v === undefined) throw new ConfigurationError(name, `${name} is not set: ${ENVIRONMENT[name]}`);
  return v;
}

function file(env: Environment, name: Variable): Uint8Array {
  const path = required(env, name);
  try {
    return readFileSync(path);
  } catch {
    throw new ConfigurationError(name, `${name} names a file that cannot be read`);
  }
}
