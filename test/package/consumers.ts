/**
 * Small projects that use the published package as its users do, one per kind of user: each is
 * compiled against the packed tarball by consumer-types.test.ts, under `strict` and TypeScript's
 * default `skipLibCheck: false`, so the package's own declarations are checked too.
 *
 * `devDependencies` name what the project installs besides instant-payments (whose own
 * dependencies are always installed, as npm would): no msw, no `pg` or `@types/pg` anywhere, and
 * no `@types/node` for the browser projects.
 */

export interface Consumer {
  name: string;
  /** package.json `type`. */
  type: 'module' | 'commonjs';
  compilerOptions: Record<string, unknown>;
  devDependencies: readonly string[];
  /** File name to source. */
  files: Record<string, string>;
}

const STRICT = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2023' };
const NODE = { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' };
const BROWSER = {
  ...STRICT,
  module: 'esnext',
  moduleResolution: 'bundler',
  lib: ['es2023', 'dom', 'dom.iterable'],
  types: [],
};

/** A merchant's backend: a client, typed errors, the store, the notification handler, Node's http. */
const BACKEND = `
import { createServer } from 'node:http';
import {
  ApiError, CobNaoEncontrado, ConfigurationError, InstantClient, createMemoryStore, createSealer, receivedPaymentsHandler,
  toNodeHandler, type CobCompleta, type EncryptionKey,
} from 'instant-payments';
import { createPostgresStore, type PgPoolLike } from 'instant-payments/postgres';

const api = new InstantClient({
  baseUrl: 'https://api.example.com/v2',
  auth: { tokenUrl: 'https://api.example.com/oauth/token', clientId: 'id', clientSecret: 'secret' },
  store: createMemoryStore(),
});

export async function find(txid: string): Promise<CobCompleta | undefined> {
  try {
    return await api.cob.get(txid);
  } catch (error) {
    if (error instanceof CobNaoEncontrado) return undefined;
    if (error instanceof ApiError) console.error(error.status, error.errorType, error.violacoes);
    if (error instanceof ConfigurationError) console.error(error.option);
    throw error;
  }
}

export async function everyCharge(): Promise<string[]> {
  const txids: string[] = [];
  for await (const cob of api.cob.list({ inicio: '2026-01-01T00:00:00Z', fim: '2026-01-31T23:59:59Z' })) txids.push(cob.txid);
  return txids;
}

// The runtime's own CryptoKey (the DOM lib's, or @types/node's without it) is an EncryptionKey.
export async function sealerFromKey() {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const material: EncryptionKey = key;
  return createSealer(material);
}

declare const pool: PgPoolLike;
export const store = createPostgresStore({ pool, encryptionKey: new Uint8Array(32) });

const handler = receivedPaymentsHandler(api, { onPayment: async (payment) => void payment.endToEndId });
export const server = createServer(toNodeHandler(handler));
`;

const SANDBOX = `
import { InstantClient } from 'instant-payments';
import { createSandbox } from 'instant-payments/sandbox';

export async function start() {
  const sandbox = createSandbox({ seed: 42, balance: '100.00' });
  await sandbox.listen({ port: 0 });
  const api = new InstantClient(sandbox.clientOptions());
  const cob = await api.cob.create({ calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: sandbox.ownKeys[0]! });
  await sandbox.payCharge(cob.txid);
  await sandbox.close();
}
`;

const POSTGRES = `
import { createPostgresStore, type PgPoolLike, type PostgresStore } from 'instant-payments/postgres';

// Whatever the app's pg.Pool is, without pg's types installed here.
declare const pool: PgPoolLike;
export const store: PostgresStore = createPostgresStore({ pool, encryptionKey: 'A'.repeat(43), tablePrefix: 'shop' });
`;

const PAYER = `
import { BrCodeError, PayerClient, PayloadVerificationError, brcode, type CobPayload } from 'instant-payments/payer';

const payer = new PayerClient({ timeout: 10_000 });

export async function read(text: string): Promise<CobPayload | undefined> {
  try {
    const { url } = brcode.parse(text);
    return url === undefined ? undefined : await payer.cobPayload.getCob(url);
  } catch (error) {
    if (error instanceof BrCodeError || error instanceof PayloadVerificationError) return undefined;
    throw error;
  }
}
export const status: CobPayload['status'] | undefined = undefined;
`;

const QR = `
import { ConfigurationError, qrPng, qrSvg, type QrOptions } from 'instant-payments/qr';

const options: QrOptions = { margin: 4, scale: 8, errorCorrection: 'M' };

export async function show(text: string, image: HTMLImageElement, holder: HTMLElement): Promise<void> {
  try {
    holder.innerHTML = qrSvg(text, options);
    const png = await qrPng(text, { scale: 4 });
    image.src = URL.createObjectURL(new Blob([png], { type: 'image/png' }));
  } catch (error) {
    if (error instanceof ConfigurationError) holder.textContent = error.option;
    else throw error;
  }
}
`;

/** Every entry through the CommonJS declarations (`.d.cts`), from a CommonJS project. */
const CJS = `
import { InstantClient, CobNaoEncontrado } from 'instant-payments';
import { PayerClient, brcode } from 'instant-payments/payer';
import { createSandbox } from 'instant-payments/sandbox';
import { createPostgresStore } from 'instant-payments/postgres';
import { qrSvg } from 'instant-payments/qr';

export const api = new InstantClient({ baseUrl: 'https://api.example.com/v2', auth: { tokenUrl: 'https://api.example.com/oauth/token', clientId: 'id', clientSecret: 'secret' } });
export const payer = new PayerClient();
export const svg = qrSvg(brcode.build({ key: '+5561912345678', merchantName: 'Loja', merchantCity: 'Brasilia' }));
export const isNotFound = (error: unknown) => error instanceof CobNaoEncontrado;
export { createSandbox, createPostgresStore };
`;

export const CONSUMERS: readonly Consumer[] = [
  {
    name: 'backend-esm-node-lib',
    type: 'module',
    compilerOptions: {
      ...NODE,
      lib: ['es2023'],
      types: ['node'],
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    },
    devDependencies: ['@types/node'],
    files: { 'index.ts': BACKEND },
  },
  {
    name: 'backend-esm-dom-lib',
    type: 'module',
    compilerOptions: { ...NODE, lib: ['es2023', 'dom', 'dom.iterable'], types: ['node'] },
    devDependencies: ['@types/node'],
    files: { 'index.ts': BACKEND },
  },
  {
    name: 'every-entry-cjs',
    type: 'commonjs',
    compilerOptions: { ...NODE, lib: ['es2023'], types: ['node'] },
    devDependencies: ['@types/node'],
    files: { 'index.ts': CJS },
  },
  {
    name: 'sandbox-without-msw',
    type: 'module',
    compilerOptions: { ...NODE, lib: ['es2023'], types: ['node'] },
    devDependencies: ['@types/node'],
    files: { 'index.ts': SANDBOX },
  },
  {
    name: 'postgres-without-pg-types',
    type: 'module',
    compilerOptions: { ...NODE, lib: ['es2023'], types: ['node'] },
    devDependencies: ['@types/node'],
    files: { 'index.ts': POSTGRES },
  },
  {
    name: 'payer-browser',
    type: 'module',
    compilerOptions: BROWSER,
    devDependencies: [],
    files: { 'index.ts': PAYER },
  },
  {
    name: 'qr-browser',
    type: 'module',
    compilerOptions: BROWSER,
    devDependencies: [],
    files: { 'index.ts': QR },
  },
];
