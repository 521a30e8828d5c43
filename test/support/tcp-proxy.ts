/**
 * A TCP proxy on 127.0.0.1 that can break the link it carries, for tests of what the SDK does
 * when its database (or any server) is cut off: put it between the client and the server and
 * `cut()` the open connections (both ends reset), `blackhole()` the link (nothing passes either
 * way, nobody is told; `restore()` delivers what was held, as a healed network would), `delay()`
 * every chunk, or `refuse()` new connections. Works for any protocol: it only moves bytes.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** `url` with its port (and host) replaced by the proxy's: `postgres://u@127.0.0.1:<proxy>/db`. */
  via(url: string): string;
  /** Connections open now (each a client socket and its upstream). */
  readonly open: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Resets every open connection, both ends at once (as a dropped link or a killed peer). */
  cut(): void;
  /**
   * Holds every byte either way and every close, on open and new connections, until `restore()`
   * (a link gone silent: neither side learns anything, not even that the other closed).
   */
  blackhole(): void;
  /** Delays every chunk by `ms` (0 ends it), in order. */
  delay(ms: number): void;
  /** Closes new connections at once (open ones go on) until `restore()`. */
  refuse(): void;
  /** Back to a clean link: held bytes and closes are delivered, in order. */
  restore(): void;
  close(): Promise<void>;
}

type Mode = 'pass' | 'blackhole' | 'refuse';

interface Link {
  client: Socket;
  upstream: Socket | undefined;
  /** Sends what the black hole held; connects a link accepted while it was on. */
  release(): void;
  reset(): void;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  let mode: Mode = 'pass';
  let delayMs = 0;
  let accepted = 0;
  const links = new Set<Link>();

  const server: Server = createServer((client) => {
    accepted++;
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    client.setNoDelay(true);
    const toUpstream = new Pipe(
      () => link.upstream,
      () => mode === 'blackhole',
      () => delayMs,
    );
    const toClient = new Pipe(
      () => client,
      () => mode === 'blackhole',
      () => delayMs,
    );
    const link: Link = {
      client,
      upstream: undefined,
      release: () => {
        if (!link.upstream && !client.destroyed) connect();
        toUpstream.pump();
        toClient.pump();
      },
      reset: () => {
        reset(client);
        if (link.upstream) reset(link.upstream);
        links.delete(link);
      },
    };
    links.add(link);
    const connect = () => {
      const upstream = createConnection({ host, port: target.port });
      upstream.setNoDelay(true);
      link.upstream = upstream;
      relay(upstream, toClient);
      upstream.on('close', () => {
        if (client.destroyed) links.delete(link);
      });
      toUpstream.pump();
    };
    relay(client, toUpstream);
    client.on('close', () => {
      if (!link.upstream || link.upstream.destroyed) links.delete(link);
    });
    // Accepted during a black hole: it reaches the server only once the link is back.
    if (mode !== 'blackhole') connect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    get open() {
      return [...links].filter((l) => !l.client.destroyed).length;
    },
    get accepted() {
      return accepted;
    },
    cut() {
      for (const link of [...links]) link.reset();
    },
    blackhole() {
      mode = 'blackhole';
    },
    delay(ms) {
      delayMs = ms;
    },
    refuse() {
      mode = 'refuse';
    },
    restore() {
      mode = 'pass';
      delayMs = 0;
      for (const link of [...links]) link.release();
    },
    async close() {
      for (const link of [...links]) link.reset();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What `from` sends and how it closes, queued on `pipe`: data, a clean end, or a reset. */
function relay(from: Socket, pipe: Pipe): void {
  let ended = false;
  from.on('data', (chunk: Buffer) => pipe.push(chunk));
  from.on('end', () => {
    ended = true;
    pipe.push('end');
  });
  from.on('error', () => pipe.push('reset'));
  from.on('close', () => {
    if (!ended) pipe.push('reset');
  });
}

/** Resets `socket` (RST), or destroys it when it has no connection to reset yet. */
function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

type Item = Buffer | 'end' | 'reset';

/** One direction of a link: chunks and closes in order, each sent when its delay has passed and no black hole holds it. */
class Pipe {
  readonly #queue: Array<{ item: Item; at: number }> = [];
  readonly #to: () => Socket | undefined;
  readonly #held: () => boolean;
  readonly #delayMs: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #done = false;

  constructor(to: () => Socket | undefined, held: () => boolean, delayMs: () => number) {
    this.#to = to;
    this.#held = held;
    this.#delayMs = delayMs;
  }

  push(item: Item): void {
    if (this.#done) return;
    this.#queue.push({ item, at: Date.now() + this.#delayMs() });
    this.pump();
  }

  pump(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const socket = this.#to();
    if (this.#held() || socket === undefined) return;
    while (this.#queue.length > 0 && this.#queue[0]!.at <= Date.now()) {
      const { item } = this.#queue.shift()!;
      if (item === 'end') socket.end();
      else if (item === 'reset') {
        this.#done = true;
        this.#queue.length = 0;
        reset(socket);
        return;
      } else if (!socket.destroyed && !socket.writableEnded) socket.write(item);
    }
    if (this.#queue.length > 0) this.#timer = setTimeout(() => this.pump(), this.#queue[0]!.at - Date.now());
  }
}
