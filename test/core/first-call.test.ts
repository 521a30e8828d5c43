/**
 * The first call of a client with built-in credentials loads ky (a chunk of its own, loaded on
 * first use) while its token is on the way, not after it: a cold start pays the longer of the
 * two, not their sum.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { InstantClient } from '../../src/client.ts';
import { sendJson, startServer, type LoopbackServer } from '../support/loopback.ts';

const ky = vi.hoisted(() => ({ loaded: false }));
vi.mock('../../src/core/ky.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/core/ky.ts')>();
  ky.loaded = true;
  return original;
});

let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

/** Resolves once ky has loaded (true), or after `ms` (false). */
async function kyLoadedWithin(ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!ky.loaded && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return ky.loaded;
}

it('loads ky while the token endpoint is still answering', async () => {
  const heldToken: boolean[] = [];
  server = await startServer(async (req, res) => {
    if (req.url === '/oauth/token') {
      // The token is held until ky has loaded; loading ky only after the token would wait 3 s here.
      heldToken.push(await kyLoadedWithin(3_000));
      return sendJson(res, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    }
    sendJson(res, 200, { txid: 'a'.repeat(26), status: 'ATIVA' });
  });
  expect(ky.loaded).toBe(false);
  const client = new InstantClient({
    baseUrl: `${server.url}/v2`,
    auth: { tokenUrl: `${server.url}/oauth/token`, clientId: 'c', clientSecret: 's' },
  });
  await client.cob.get('a'.repeat(26));
  await client.close();
  expect(heldToken).toEqual([true]);
}, 10_000);
