/**
 * A seed makes a start repeat an earlier one: the same client secrets (a `.env` written once
 * keeps working), own keys, payload signing key, txids, locations and e2eids. Without a seed,
 * secrets and keys are new each start.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, InstantClient } from '../../src/index.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { createSandbox, type FetchLike, type Sandbox } from '../../src/sandbox.ts';
import { cobBody, startCommand } from './support.ts';

const started: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.close();
});

async function start(seed: number | undefined, port = 0): Promise<Sandbox> {
  const sandbox = createSandbox(seed === undefined ? {} : { seed });
  started.push(sandbox);
  await sandbox.listen({ port });
  return sandbox;
}

/** What a start is known by: credentials, own keys, and the ids of a short run of work. */
async function fingerprint(sandbox: Sandbox) {
  const api = new InstantClient({ ...sandbox.clientOptions(), maxRetries: 0 });
  const key = sandbox.ownKeys[0]!;
  const created = await api.cob.create(cobBody(key));
  const paid = await sandbox.payCharge(created.txid);
  const loc = await api.loc.create({ tipoCob: 'cobv' });
  return {
    api: sandbox.credentials.clientSecret,
    cashOut: sandbox.cashOutCredentials.clientSecret,
    ownKeys: sandbox.ownKeys,
    txid: created.txid,
    location: created.location?.replace(/^[^/]+/, ''),
    // An e2eid carries the minute it was made: its last 11 characters are the drawn part.
    e2eid: paid.endToEndId.slice(-11),
    locToken: loc.location.replace(/^[^/]+/, ''),
    keySet: await keySet(sandbox),
  };
}

async function keySet(sandbox: Sandbox): Promise<Array<{ kid: string; n: string }>> {
  return (
    (await (await fetch(`${sandbox.origin}/qr/v2/jwks.json`)).json()) as { keys: Array<{ kid: string; n: string }> }
  ).keys;
}

describe('seed', () => {
  it('gives the same secrets, own keys and ids on every start with the same seed, and others with another', async () => {
    const first = await fingerprint(await start(42));
    const second = await fingerprint(await start(42));
    expect(second).toEqual(first);
    const other = await fingerprint(await start(43));
    for (const field of Object.keys(first) as Array<keyof typeof first>)
      expect({ [field]: other[field] }).not.toEqual({ [field]: first[field] });
  });

  it('gives new secrets on every start without a seed', async () => {
    const [a, b] = [await start(undefined), await start(undefined)];
    expect(a.credentials.clientSecret).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(b.credentials.clientSecret).not.toBe(a.credentials.clientSecret);
    expect(b.cashOutCredentials.clientSecret).not.toBe(a.cashOutCredentials.clientSecret);
    expect(b.ownKeys).not.toEqual(a.ownKeys);
    const [keysA, keysB] = [await keySet(a), await keySet(b)];
    expect(keysB[0]!.n).not.toBe(keysA[0]!.n);
    expect(keysB[0]!.kid).not.toBe(keysA[0]!.kid);
  });

  it('signs with the same key after a restart with the same seed: a payer that read the key set keeps verifying', async () => {
    const first = await start(9);
    const port = Number(new URL(first.origin).port);
    const txid = generateTxid();
    // Connections of one start are never reused for the next (a pooled socket of the closed server would fail).
    let pool = new Agent();
    const viaPool: FetchLike = (input, init) => {
      const request = new Request(input, init);
      return fetch(new Request(request.url.replace(/^https:/, 'http:'), request), { dispatcher: pool } as RequestInit);
    };
    const api = () => new InstantClient({ ...started.at(-1)!.clientOptions(), maxRetries: 0, fetch: viaPool });
    const location = (await api().cob.create(txid, cobBody(first.ownKeys[0]!, '5.00'))).location!;
    // One payer for the whole test: it keeps the key set it read.
    const payer = new PayerClient({ allowPrivateHosts: true, fetch: viaPool });
    await expect(payer.cobPayload.getCob(location)).resolves.toMatchObject({ txid });
    const {
      keys: [firstKey],
    } = (await (await viaPool(`${first.origin}/qr/v2/jwks.json`)).json()) as { keys: Array<{ kid: string }> };

    // The same seed, restarted on the same port: the same location for the same work.
    await first.close();
    started.length = 0;
    await pool.close();
    pool = new Agent();
    const second = await start(9, port);
    const again = (await api().cob.create(txid, cobBody(second.ownKeys[0]!, '5.00'))).location!;
    expect(again).toBe(location);
    const {
      keys: [secondKey],
    } = (await (await viaPool(`${second.origin}/qr/v2/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
    expect(secondKey).toEqual(firstKey);
    await expect(payer.cobPayload.getCob(again)).resolves.toMatchObject({ txid });
    await pool.close();
  });

  it('refuses a seed that is not an integer', () => {
    expect(() => createSandbox({ seed: 1.5 })).toThrow(ConfigurationError);
    expect(() => createSandbox({ seed: Number.NaN })).toThrow(expect.objectContaining({ option: 'seed' }));
  });
});

describe('instant-payments-sandbox --seed', () => {
  const cli = fileURLToPath(new URL('../../src/sandbox-cli.ts', import.meta.url));

  /** Starts the command, reads what it prints, stops it. */
  async function printed(args: string[]): Promise<string> {
    const { out, stop } = await startCommand(args);
    await stop();
    return out;
  }

  const credentials = (out: string) => [...out.matchAll(/(client secret|own keys)\s+(\S+)/g)].map((m) => m[2]);

  it('prints the same credentials twice with the same seed, and others with another', async () => {
    const [a, b, c] = await Promise.all([
      printed(['--seed', '42']),
      printed(['--seed', '42']),
      printed(['--seed', '43']),
    ]);
    expect(credentials(a)).toHaveLength(3);
    expect(credentials(b)).toEqual(credentials(a));
    expect(credentials(c)).not.toEqual(credentials(a));
    expect(a).toMatch(/^Seed\s+42\b/m);
  });

  it('refuses a seed that is not an integer, before listening', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--seed', 'forty-two'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15_000,
    }); // never outlives the test
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('--seed takes an integer');
  });
});
