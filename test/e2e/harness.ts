/**
 * The SDK against a sandbox over real HTTP on 127.0.0.1: one sandbox per test file (the same
 * connection the examples use), and local receivers for the sandbox's callbacks.
 */
import { createServer, type RequestListener } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { connect, listenOnLoopback, type Connection } from '../../examples/setup.ts';
import type { Sandbox, SandboxOptions } from '../../src/sandbox.ts';

export type SandboxConnection = Connection & { readonly sandbox: Sandbox };

/** Starts a sandbox (and its clients) before the file's tests and closes it after them. */
export function useSandbox(options: SandboxOptions = {}): SandboxConnection {
  const holder = {} as { -readonly [K in keyof SandboxConnection]: SandboxConnection[K] };
  beforeAll(async () => {
    const connection = await connect({ env: {}, sandbox: { seed: 1, ...options } });
    if (!connection.sandbox) throw new Error('expected a sandbox');
    Object.assign(holder, connection);
  });
  afterAll(() => holder.close?.());
  return holder;
}

export interface Receiver {
  url: string;
  close(): void;
}

/** A local HTTP server for the sandbox's callbacks (webhooks, transfer confirmations). */
export async function startReceiver(listener: RequestListener): Promise<Receiver> {
  const server = createServer(listener);
  const url = await listenOnLoopback(server);
  return {
    url,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A range of creation times that holds everything a test just made (for list queries). */
export function aroundNow(): { inicio: string; fim: string } {
  return {
    inicio: new Date(Date.now() - 3_600_000).toISOString(),
    fim: new Date(Date.now() + 3_600_000).toISOString(),
  };
}
