/**
 * The first call of a client with built-in credentials loads ky (a chunk of its own, loaded on
 * first use) while its token is on the way, not after it: a cold start pays the longer of the
 * two, not their sum.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { InstantClient } from '../../src/client.ts';
import { sendJson, startServer, type LoopbackServer } from '../support/loopback.ts';
import { settles } from '../support/settles.ts';

const ky = vi.hoisted(() => {
  let loaded!: () => void;
  const state = { loaded: false, whenLoaded: new Promise<void>((resolve) => (loaded = resolve)) };
  return { state, loaded };
});
vi.mock('../../src/core/ky.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/core/ky.ts')>();
  ky.state.loaded = true;
  ky.loaded();
  return original;
});

let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

/** True once ky has loaded; false when it never does while the token is held (the guard gives up). */
async function kyLoadsMeanwhile(): Promise<boolean> {
  return (await settles(ky.state.whenLoaded, 'loading ky', 5_000)).ok;
}

it('loads ky while the token endpoint is still answering', async () => {
  const heldToken: boolean[] = [];
  server = await startServer(async (req, res) => {
    if (req.url === '/oauth/token') {
      // The token is held until ky has loaded: loading ky only after the token never happens here.
      heldToken.push(await kyLoadsMeanwhile().catch(() => false));
      return sendJson(res, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    }
    sendJson(res, 200, { txid: 'a'.repeat(26), status: 'ATIVA' });
  });
  expect(ky.state.loaded).toBe(false);
  const client = new InstantClient({
    baseUrl: `${server.url}/v2`,
    auth: { tokenUrl: `${server.url}/oauth/token`, clientId: 'c', clientSecret: 's' },
  });
  await client.cob.get('a'.repeat(26));
  await client.close();
  expect(heldToken).toEqual([true]);
}, 10_000);
