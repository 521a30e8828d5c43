/**
 * AES-256-GCM through WebCrypto for what a store keeps that grants access. Each value has a
 * fresh 96-bit IV and is bound to its store key (additional data), so a sealed token cannot be
 * read under another key or moved to one.
 */
import type { Sealer } from './types.ts';
import { StoreError } from './types.ts';
import { ConfigurationError } from '../errors/failures.ts';

/** 32 bytes: a `Uint8Array`, their base64 (or base64url) text, or an AES-GCM `CryptoKey`. */
export type EncryptionKey = Uint8Array | string | WebCryptoKey;

/**
 * WebCrypto's `CryptoKey` as the global `CryptoKey` names it: the DOM lib's type, or @types/node's
 * where a project has no DOM lib (there the bare name is a value only, not a type).
 */
type WebCryptoKey = InstanceType<typeof globalThis.CryptoKey>;

const VERSION = 'v1';

/** A sealer over `encryptionKey`; a key that is not 32 bytes throws `ConfigurationError` here. */
export function createSealer(encryptionKey: EncryptionKey): Sealer {
  const material = checkedKey(encryptionKey);
  const key =
    material instanceof Uint8Array
      ? globalThis.crypto.subtle.importKey('raw', new Uint8Array(material), 'AES-GCM', false, ['encrypt', 'decrypt'])
      : Promise.resolve(material);
  const encoder = new TextEncoder();
  return {
    async seal(plaintext, context) {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
      const data = await globalThis.crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(context) },
        await key,
        encoder.encode(plaintext),
      );
      return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(data))}`;
    },
    async open(sealed, context) {
      const [version, iv, data] = sealed.split('.');
      if (version !== VERSION || iv === undefined || data === undefined)
        throw new StoreError('Stored value is not sealed');
      try {
        const plain = await globalThis.crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: encoder.encode(context) },
          await key,
          fromBase64Url(data),
        );
        return new TextDecoder().decode(plain);
      } catch (error) {
        throw new StoreError('Stored value does not open with this encryption key', { cause: error });
      }
    },
  };
}

function checkedKey(encryptionKey: EncryptionKey): Uint8Array | WebCryptoKey {
  if (typeof encryptionKey === 'object' && encryptionKey !== null && !(encryptionKey instanceof Uint8Array)) {
    return encryptionKey;
  }
  const bytes = typeof encryptionKey === 'string' ? fromBase64Url(encryptionKey) : encryptionKey;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength !== 32) {
    throw new ConfigurationError(
      'encryptionKey',
      'encryptionKey must be 32 bytes (a Uint8Array or its base64), or an AES-GCM CryptoKey',
    );
  }
  return bytes;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}

/** SHA-256 of `text`, hex: names a shared token without storing what it is made of. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}

/** `bytes` as lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}
