/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL in the fleet tests), to break the
 * link the way networks do:
 *
 * - `pass`: bytes flow both ways (after `delayMs`, when set);
 * - `blackhole`: connections are accepted, open ones stay open, and every byte either way is
 *   swallowed: queries and connection attempts hang, nothing fails;
 * - `cut`: every open connection is destroyed and new ones are closed at once.
 *
 * Going back to `pass` destroys the connections that lost bytes (their protocol state is gone,
 * as after a real partition the peer resets them); new connections flow.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export type LinkMode = 'pass' | 'blackhole' | 'cut';

export interface TcpProxy {
  /** The port to connect to instead of the server's. */
  port: number;
  /** The link's state from now on. */
  set(mode: LinkMode): void;
  /** Latency added to every chunk in `pass` mode, in ms. */
  delayMs: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Stops listening and destroys every connection. */
  close(): Promise<void>;
}

export async function startTcpProxy(target: { port: number; host?: string }): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  const open = new Set<{ client: Socket; upstream: Socket; lostBytes: boolean }>();
  let mode: LinkMode = 'pass';
  let accepted = 0;

  const server = createServer((client) => {
    accepted++;
    if (mode === 'cut') return void client.destroy();
    const upstream = connect(target.port, host);
    const pair = { client, upstream, lostBytes: false };
    open.add(pair);
    const forward = (to: Socket) => (chunk: Buffer) => {
      if (mode !== 'pass') {
        pair.lostBytes = true;
        return;
      }
      if (proxy.delayMs > 0) setTimeout(() => to.destroyed || to.write(chunk), proxy.delayMs);
      else to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const end = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const proxy: TcpProxy = {
    port: (server.address() as AddressInfo).port,
    delayMs: 0,
    set(next) {
      mode = next;
      for (const pair of [...open]) {
        if (next === 'cut' || (next === 'pass' && pair.lostBytes)) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
      }
    },
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of open) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
  return proxy;
}
