/**
 * `toNodeHandler`'s listener loads on the first request (src/node/listener.ts): when that load
 * fails (a broken install), the listener still never rejects and answers a bare 500.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';

vi.mock('../../src/node/listener.ts', () => {
  throw new Error('listener.ts could not load');
});

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

it('answers 500 and never rejects when the listener cannot load', async () => {
  const { toNodeHandler } = await import('../../src/node/adapter.ts');
  const handler = vi.fn(async () => new Response('never'));
  const listener = toNodeHandler(handler);
  const settled: Array<Promise<void>> = [];
  const server = createServer((req, res) => void settled.push(listener(req, res))).listen(0, '127.0.0.1');
  closers.push(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  for (let i = 0; i < 2; i++) {
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
  }
  await expect(Promise.all(settled)).resolves.toBeDefined();
  expect(handler).not.toHaveBeenCalled();
});
