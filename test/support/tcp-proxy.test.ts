/**
 * The TCP proxy the fleet tests break database links with: bytes pass in order, `cut()` resets
 * both ends, `blackhole()` holds bytes and closes (neither end learns anything) until
 * `restore()` delivers them, `delay()` slows every chunk, `refuse()` closes new connections.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

let echo: Server;
let proxy: TcpProxy;
const serverSockets: Socket[] = [];

beforeAll(async () => {
  echo = createServer((socket) => {
    serverSockets.push(socket);
    socket.on('data', (chunk) => socket.write(chunk));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  proxy = await startTcpProxy({ port: (echo.address() as AddressInfo).port });
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

beforeEach(() => proxy.restore());

interface Client {
  socket: Socket;
  received: () => string;
  closed: Promise<string>;
}

async function connect(): Promise<Client> {
  const socket = createConnection({ host: '127.0.0.1', port: proxy.port });
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString()));
  const closed = new Promise<string>((resolve) => {
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve('close'));
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => data, closed };
}

const until = async (check: () => boolean, ms = 2_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('tcp proxy', () => {
  it('passes bytes both ways, in order', async () => {
    const client = await connect();
    for (let i = 0; i < 20; i++) client.socket.write(`${i},`);
    await until(() => client.received().split(',').length === 21);
    expect(client.received()).toBe(Array.from({ length: 20 }, (_, i) => `${i},`).join(''));
    client.socket.destroy();
  });

  it('cut() resets both ends of every open connection', async () => {
    const client = await connect();
    client.socket.write('x');
    await until(() => client.received() === 'x');
    const upstream = serverSockets.at(-1)!;
    const upstreamClosed = new Promise<void>((resolve) => upstream.once('close', () => resolve()));
    proxy.cut();
    expect(await client.closed).toBe('ECONNRESET');
    await upstreamClosed;
  });

  it('blackhole() holds bytes and closes until restore(), then delivers them in order', async () => {
    const client = await connect();
    client.socket.write('a');
    await until(() => client.received() === 'a');
    proxy.blackhole();
    client.socket.write('b');
    client.socket.write('c');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.received()).toBe('a');
    // A connection opened during the black hole reaches the server only afterwards.
    const late = await connect();
    late.socket.write('z');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(late.received()).toBe('');
    proxy.restore();
    await until(() => client.received() === 'abc' && late.received() === 'z');
    client.socket.destroy();
    late.socket.destroy();
  });

  it('delay() holds every chunk that long; refuse() closes new connections', async () => {
    const client = await connect();
    proxy.delay(150);
    const started = Date.now();
    client.socket.write('slow');
    await until(() => client.received() === 'slow');
    // Each way: about 300 ms for the round trip.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    client.socket.destroy();
    proxy.refuse();
    const socket = createConnection({ host: '127.0.0.1', port: proxy.port });
    const outcome = await new Promise<string>((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      socket.on('close', () => resolve('close'));
    });
    expect(['ECONNRESET', 'close']).toContain(outcome);
  });
});
