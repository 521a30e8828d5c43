/**
 * The notification handlers look alike: one error class for a bad body, `onError` told of
 * every error answer, `maxBodyBytes`, and the same handler under `.node` for a Node server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { passthrough, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  InvalidNotificationError,
  receivedPaymentsHandler,
  recurringHandler,
  type NotificationHandler,
} from '../../src/index.ts';
import { cashOutClient } from '../cash-out/fixtures.ts';
import { testClient, useMsw } from '../support/msw.ts';

const net = useMsw();

function handlers(): Array<
  [string, (onError: (error: unknown, status: number) => void, maxBodyBytes?: number) => NotificationHandler]
> {
  return [
    [
      'received payments',
      (onError, maxBodyBytes) =>
        receivedPaymentsHandler(testClient({ maxRetries: 0 }), {
          onPayment: () => undefined,
          onError,
          ...(maxBodyBytes && { maxBodyBytes }),
        }),
    ],
    [
      'transfer confirmations',
      (onError, maxBodyBytes) =>
        cashOutClient().notificationHandler({
          onConfirmed: () => undefined,
          onSuspicious: () => undefined,
          onError,
          ...(maxBodyBytes && { maxBodyBytes }),
        }),
    ],
    [
      'recurring',
      (onError, maxBodyBytes) =>
        recurringHandler(testClient({ maxRetries: 0 }), {
          onRec: () => undefined,
          onCobr: () => undefined,
          onError,
          ...(maxBodyBytes && { maxBodyBytes }),
        }),
    ],
  ];
}

const post = (body: string) => new Request('https://hooks.example.com/n', { method: 'POST', body });

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe.each(handlers())('%s handler', (_name, make) => {
  it('answers a body that is not JSON 400 and tells onError with an InvalidNotificationError', async () => {
    const onError = vi.fn();
    const response = await make(onError)(post('{not json'));
    expect(response.status).toBe(400);
    expect(onError).toHaveBeenCalledWith(expect.any(InvalidNotificationError), 400);
  });

  it('answers 405 to a GET, telling onError', async () => {
    const onError = vi.fn();
    const response = await make(onError)(new Request('https://hooks.example.com/n'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(onError).toHaveBeenCalledWith(expect.any(InvalidNotificationError), 405);
  });

  it('answers a body over maxBodyBytes 400 without reading on', async () => {
    const onError = vi.fn();
    const response = await make(onError, 16)(post(JSON.stringify({ data: 'x'.repeat(64) })));
    expect(response.status).toBe(400);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(InvalidNotificationError);
  });

  it('serves Node through .node, with the same answers', async () => {
    net.server.use(http.all(/^http:\/\/127\.0\.0\.1/, () => passthrough()));
    const handler = make(() => undefined);
    server = createServer((req, res) => void handler.node(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/n`, { method: 'POST', body: '{not json' });
    expect(response.status).toBe(400);
  });
});
