/**
 * What a store keeps that grants access is sealed (`createSealer`, AES-256-GCM): it opens only
 * with the same key under the same store key, a fresh IV each time; anything else is a
 * `StoreError` that says which. Keys are checked where the sealer is made.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createSealer, StoreError } from '../../src/index.ts';
import { sha256Hex, toHex } from '../../src/store/crypto.ts';

const KEY = new Uint8Array(32).map((_, i) => i);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** What `promise` rejected with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

describe('createSealer', () => {
  it('opens what it sealed under the same context; the sealed text shows nothing of it', async () => {
    const sealer = createSealer(KEY);
    // Long enough that its base64 surely holds every character base64url replaces.
    const token = `token-abc/+=${'x'.repeat(3_000)}`;
    const sealed = await sealer.seal(token, 'token:x');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('token-abc');
    expect(await sealer.open(sealed, 'token:x')).toBe(token);
  });

  it('seals the same text differently each time (a fresh IV)', async () => {
    const sealer = createSealer(KEY);
    const [one, two] = [await sealer.seal('same', 'k'), await sealer.seal('same', 'k')];
    expect(one).not.toBe(two);
    expect(one.split('.')[1]).not.toBe(two.split('.')[1]);
  });

  it('the key may be its base64 or base64url text, or a CryptoKey: each opens what the others sealed', async () => {
    const cryptoKey = await globalThis.crypto.subtle.importKey('raw', KEY, 'AES-GCM', false, ['encrypt', 'decrypt']);
    const sealers = [KEY, base64(KEY), base64url(KEY), cryptoKey].map((key) => createSealer(key));
    for (const sealer of sealers) {
      const sealed = await sealer.seal('v', 'ctx');
      for (const other of sealers) expect(await other.open(sealed, 'ctx')).toBe('v');
    }
  });

  it('another context, another key or a changed byte: StoreError, "does not open with this encryption key"', async () => {
    const sealer = createSealer(KEY);
    const sealed = await sealer.seal('secret', 'token:a');
    const data = sealed.split('.')[2]!;
    const flipped = `${sealed.slice(0, -data.length)}${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    // One at a time: a rejection made before it is awaited would be unhandled.
    for (const attempt of [
      () => sealer.open(sealed, 'token:b'),
      () => createSealer(new Uint8Array(32).fill(1)).open(sealed, 'token:a'),
      () => sealer.open(flipped, 'token:a'),
    ]) {
      const error = await failure(attempt());
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).message).toBe('Stored value does not open with this encryption key');
      expect((error as StoreError).cause).toBeDefined();
    }
  });

  it('a value that is not a sealed one (plain text, another version, a part missing): StoreError, "is not sealed"', async () => {
    const sealer = createSealer(KEY);
    const sealed = await sealer.seal('secret', 'k');
    const [, iv, data] = sealed.split('.');
    for (const value of ['plain token', `v2.${iv}.${data}`, `v1.${iv}`, 'v1']) {
      const error = await failure(sealer.open(value, 'k'));
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).message).toBe('Stored value is not sealed');
    }
  });

  it('a key that is not 32 bytes is refused where the sealer is made, naming encryptionKey', () => {
    const notKeys = [undefined, null, 32] as never[];
    for (const key of [
      new Uint8Array(31),
      new Uint8Array(33),
      base64(new Uint8Array(16)),
      'not base64 at all!',
      '',
      ...notKeys,
    ]) {
      let thrown: unknown;
      try {
        createSealer(key);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect(thrown).toMatchObject({
        option: 'encryptionKey',
        message: 'encryptionKey must be 32 bytes (a Uint8Array or its base64), or an AES-GCM CryptoKey',
      });
    }
  });
});

describe('hashes and hex', () => {
  it('sha256Hex is the SHA-256 of the text, lowercase hex', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('toHex writes two digits per byte', () => {
    expect(toHex(new Uint8Array([0, 1, 15, 16, 255]))).toBe('00010f10ff');
  });
});
