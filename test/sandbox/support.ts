/**
 * A sandbox served over real HTTP on 127.0.0.1 for one test file, with SDK clients whose own
 * checks are off (`api`, `cashOut`: the sandbox's verdict is what is tested) and one whose checks
 * are on (`checked`: the client-side refusal to compare with).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { ApiError, CashOutClient, InstantClient } from '../../src/index.ts';
import { addDays, todayInBrasilia } from '../../src/lib/dates.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.ts';

export interface SandboxHarness {
  sandbox: Sandbox;
  api: InstantClient;
  checked: InstantClient;
  cashOut: CashOutClient;
  key: string;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHarness> {
  const sandbox = createSandbox({ seed: 7, ...options });
  await sandbox.listen();
  return {
    sandbox,
    api: new InstantClient({ ...sandbox.clientOptions(), validate: false, maxRetries: 0 }),
    checked: new InstantClient({ ...sandbox.clientOptions(), maxRetries: 0 }),
    cashOut: new CashOutClient({ ...sandbox.cashOutOptions(), validate: false, maxRetries: 0 }),
    key: sandbox.ownKeys[0]!,
  };
}

/** One sandbox for the calling test file, closed after it. */
export function useSandbox(options: SandboxOptions = {}): SandboxHarness {
  const harness = {} as SandboxHarness;
  beforeAll(async () => {
    Object.assign(harness, await startSandbox(options));
  });
  afterAll(async () => {
    await harness.sandbox.close();
  });
  return harness;
}

export const CPF = '12345678909';

export function cobBody(chave: string, original = '10.00') {
  return { calendario: { expiracao: 3600 }, valor: { original }, chave };
}

export function cobvBody(chave: string, original = '100.00', dueInDays = 10) {
  return {
    calendario: { dataDeVencimento: addDays(todayInBrasilia(), dueInDays), validadeAposVencimento: 30 },
    devedor: { cpf: CPF, nome: 'Fulano de Tal' },
    valor: { original },
    chave,
  };
}

/** The `ApiError` `promise` rejects with (fails the test when it resolves or throws anything else). */
export async function refusal(promise: PromiseLike<unknown>): Promise<ApiError> {
  const error = await Promise.resolve(promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** The distinct `propriedade`s of an error's `violacoes`, sorted. */
export function properties(error: ApiError): string[] {
  return [...new Set(error.violacoes.map((v) => v.propriedade ?? ''))].sort();
}

/** Polls `read` until `done` holds (or ~2 s pass) and returns the last value. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 200 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}

export const range = () => ({
  inicio: new Date(Date.now() - 3_600_000).toISOString(),
  fim: new Date(Date.now() + 3_600_000).toISOString(),
});

/** Starts `instant-payments-sandbox` with `args` (on a free port) and resolves once it printed everything; `stop()` ends it. */
export async function startCommand(
  args: readonly string[],
  { cwd, timeoutMs = 15_000 }: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ out: string; stop(): Promise<void> }> {
  const cli = fileURLToPath(new URL('../../src/sandbox-cli.ts', import.meta.url));
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    ...(cwd !== undefined && { cwd }),
  }); // never outlives the test
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/^Seed /m.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { out, stop };
}
