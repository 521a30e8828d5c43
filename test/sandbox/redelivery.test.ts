/**
 * Notifications are redelivered as a real service redelivers them: an answer other than 2xx,
 * a connection cut or refused, or no answer in time, and the same notification comes again
 * after a pause that doubles, until a 2xx or the attempts run out. This is what tests a
 * receiver's idempotency. Receivers are real HTTP servers on 127.0.0.1; pauses are short.
 */
import { createServer } from 'node:net';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import type { SentNotification } from '../../src/sandbox.ts';
import { startServer, type LoopbackServer } from '../support/loopback.ts';
import { cobBody, startSandbox, type SandboxHarness } from './support.ts';

type Answer = number | 'cut' | 'hang';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A receiver that gives `script[n]` to its n-th request (the last entry from then on). */
async function receiver(script: Answer[]): Promise<LoopbackServer> {
  const hanging: ServerResponse[] = [];
  const server = await startServer((_req, res) => {
    const answer = script[Math.min(server.requests.length - 1, script.length - 1)]!;
    if (answer === 'cut') return void res.socket?.destroy();
    if (answer === 'hang') return void hanging.push(res);
    res.writeHead(answer).end();
  });
  open.push(server);
  return server;
}

async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<SandboxHarness> {
  const s = await startSandbox(options);
  open.push(s.sandbox);
  return s;
}

/** The latest notification, once `done` holds for it (fails after ~3 s). */
async function settled(s: SandboxHarness, done: (n: SentNotification) => boolean): Promise<SentNotification> {
  await expect
    .poll(() => s.sandbox.notifications().at(-1), { timeout: 3000, interval: 5 })
    .toSatisfy((n: SentNotification | undefined) => n !== undefined && done(n));
  return s.sandbox.notifications().at(-1)!;
}

/** Milliseconds from the answer of attempt `i` to the next attempt (or to when it is due). */
function pauseAfter(n: SentNotification, i: number): number {
  const attempt = n.attempts[i]!;
  const next = n.attempts[i + 1] === undefined ? Date.parse(n.nextAttemptAt!) : Date.parse(n.attempts[i + 1]!.at);
  return next - (Date.parse(attempt.at) + attempt.durationMs);
}

/** A port on 127.0.0.1 where nothing listens (connections are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('redelivery', () => {
  it('sends a webhook again after a 500 until the receiver takes it; payCharge resolves after the first attempt', async () => {
    const hooks = await receiver([500, 200]);
    const s = await sandbox({ redelivery: { attempts: 5, delayMs: 30 } });
    await s.api.webhook.put(s.key, `${hooks.url}/hooks`);
    const txid = generateTxid();
    await s.api.cob.create(txid, cobBody(s.key));
    const payment = await s.sandbox.payCharge(txid);

    // payCharge resolved once the first attempt was answered; the second is still to come.
    const first = s.sandbox.notifications().at(-1)!;
    expect(first).toMatchObject({
      url: `${hooks.url}/hooks/instant`,
      state: 'pending',
      attempts: [{ status: 500 }],
      lastAnswer: { status: 500 },
    });
    expect(pauseAfter(first, 0)).toBe(30);

    const done = await settled(s, (n) => n.state !== 'pending');
    expect(done).toMatchObject({
      state: 'delivered',
      attempts: [{ status: 500 }, { status: 200 }],
      lastAnswer: { status: 200 },
    });
    expect(done.body).toEqual({ instant: [payment] });
    expect(done).not.toHaveProperty('nextAttemptAt');
    // The receiver got the same notification twice, byte for byte, and nothing after its 200.
    const posted = hooks.requests.filter((r) => r.url === '/hooks/instant');
    expect(posted).toHaveLength(2);
    expect(posted[1]!.body).toBe(posted[0]!.body);
    expect(JSON.parse(posted[0]!.body)).toEqual({ instant: [payment] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hooks.requests).toHaveLength(2);
  });

  it('sends it again after a connection cut before any answer, and after 3xx and 4xx answers', async () => {
    const transfers = await receiver(['cut', 302, 409, 204]);
    const s = await sandbox({
      settle: 'manual',
      transferNotificationUrl: `${transfers.url}/confirm`,
      redelivery: { attempts: 5, delayMs: 5 },
    });
    await s.sandbox.forgeTransferNotification({ idempotencyKey: 'abc123', status: 'LIQUIDATED' });
    const done = await settled(s, (n) => n.state !== 'pending');
    expect(done.state).toBe('delivered');
    expect(done.attempts.map((a) => a.status ?? 'error')).toEqual(['error', 302, 409, 204]);
    expect(done.attempts[0]!.error).toEqual(expect.any(String));
    expect(transfers.requests).toHaveLength(4);
  });

  it('stops after the attempts when the receiver never answers (connection refused), the pauses doubling', async () => {
    const port = await closedPort();
    const s = await sandbox({
      transferNotificationUrl: `http://127.0.0.1:${port}/confirm`,
      redelivery: { attempts: 4, delayMs: 20 },
    });
    await expect(
      s.sandbox.forgeTransferNotification({ idempotencyKey: 'abc123', status: 'LIQUIDATED' }),
    ).resolves.toBeUndefined();
    const done = await settled(s, (n) => n.state !== 'pending');
    expect(done.state).toBe('failed');
    expect(done.attempts).toHaveLength(4);
    for (const attempt of done.attempts)
      expect(attempt).toEqual({
        at: expect.any(String),
        durationMs: expect.any(Number),
        error: expect.stringContaining('ECONNREFUSED'),
      });
    expect(done.lastAnswer).toEqual({ error: done.attempts[3]!.error });
    // 20, 40, 80 ms between an answer and the next attempt (timers never fire early; a loaded machine makes them late).
    for (const i of [0, 1, 2]) expect(pauseAfter(done, i)).toBeGreaterThanOrEqual(20 * 2 ** i - 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(s.sandbox.notifications().at(-1)!.attempts).toHaveLength(4);
  });

  it('stops after the attempts when the receiver accepts the connection but never answers', async () => {
    const silent = await receiver(['hang']);
    const s = await sandbox({
      transferNotificationUrl: `${silent.url}/confirm`,
      redelivery: { attempts: 2, delayMs: 10, timeoutMs: 60 },
    });
    await s.sandbox.forgeTransferNotification({ idempotencyKey: 'abc123', status: 'CANCELED' });
    const done = await settled(s, (n) => n.state !== 'pending');
    expect(done).toMatchObject({
      state: 'failed',
      attempts: [{ error: 'no answer within 60 ms' }, { error: 'no answer within 60 ms' }],
    });
    expect(silent.requests).toHaveLength(2);
  });

  it('redelivers every kind of notification: an automatic transfer settlement too', async () => {
    const transfers = await receiver([503, 200]);
    const s = await sandbox({
      settle: 'auto',
      settleDelayMs: 1,
      transferNotificationUrl: `${transfers.url}/confirm`,
      redelivery: { delayMs: 5 },
    });
    const { idempotencyKey } = await s.cashOut.pay({
      key: '+5561912345678',
      creditorDocument: '52998224725',
      amount: '1.00',
    });
    const done = await settled(s, (n) => n.state === 'delivered');
    expect(done.body).toMatchObject({ type: 'TRANSFER', data: { idempotencyKey, status: 'LIQUIDATED' } });
    expect(done.attempts.map((a) => a.status)).toEqual([503, 200]);
  });

  it('defaults to 5 attempts from 1 s, doubling', async () => {
    const port = await closedPort();
    const s = await sandbox({ transferNotificationUrl: `http://127.0.0.1:${port}/confirm` });
    await s.sandbox.forgeTransferNotification({ idempotencyKey: 'abc123', status: 'LIQUIDATED' });
    const first = s.sandbox.notifications().at(-1)!;
    expect(first.state).toBe('pending');
    expect(pauseAfter(first, 0)).toBe(1000);
    // With one attempt allowed, the first failure is final.
    const once = await sandbox({
      transferNotificationUrl: `http://127.0.0.1:${port}/confirm`,
      redelivery: { attempts: 1 },
    });
    await once.sandbox.forgeTransferNotification({ idempotencyKey: 'abc123', status: 'LIQUIDATED' });
    expect(once.sandbox.notifications().at(-1)).toMatchObject({
      state: 'failed',
      attempts: [{ error: expect.any(String) }],
    });
  });

  it('stops redelivering when the sandbox closes', async () => {
    const failing = await receiver([500]);
    const s = await startSandbox({ transferNotificationUrl: `${failing.url}/confirm`, redelivery: { delayMs: 30 } });
    await s.sandbox.forgeTransferNotification({ idempotencyKey: 'abc123', status: 'LIQUIDATED' });
    await s.sandbox.close();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(failing.requests).toHaveLength(1);
  });

  it('refuses redelivery options it cannot use, naming them', async () => {
    const { createSandbox } = await import('../../src/sandbox.ts');
    expect(() => createSandbox({ redelivery: { attempts: 0 } })).toThrow(ConfigurationError);
    expect(() => createSandbox({ redelivery: { delayMs: -1 } })).toThrow(
      expect.objectContaining({ option: 'redelivery.delayMs' }),
    );
  });
});
