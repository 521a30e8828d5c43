import { describe, expect, it } from 'vitest';
import { bodyText, guardFetch } from '../../src/core/response.ts';

const answer =
  (status: number, body: string, headers: Record<string, string> = {}) =>
  async () =>
    new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });

describe('guardFetch with detachSuccessBody', () => {
  it('hands a success over as fetch gave it, body read, its bytes to bodyText once', async () => {
    const body = JSON.stringify({ cpf: '52998224725', n: 'x'.repeat(100) });
    for (const headers of [{ 'content-length': String(body.length) }, {}]) {
      const fetch = guardFetch(() => answer(200, body, headers), { maxResponseBytes: 1024, detachSuccessBody: true });
      const response = await fetch('https://api.example/x');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.bodyUsed).toBe(true);
      expect(await bodyText(response)).toBe(body);
      // Read once, like a stream: the bytes are not kept with the response.
      expect(await bodyText(response)).toBe('');
    }
  });

  it('keeps the body of an error answer (ky reads it) and without the option', async () => {
    const error = await guardFetch(() => answer(400, '{"title":"bad"}'), {
      maxResponseBytes: 1024,
      detachSuccessBody: true,
    })('https://api.example/x');
    expect(await error.text()).toBe('{"title":"bad"}');
    const plain = await guardFetch(() => answer(200, '{"ok":true}'), { maxResponseBytes: 1024 })(
      'https://api.example/x',
    );
    expect(await plain.json()).toEqual({ ok: true });
  });

  it('a declared length over the limit, or a body past it, is too large', async () => {
    const big = 'x'.repeat(2048);
    // The last: a custom fetch whose Content-Length understates its body.
    for (const headers of [{ 'content-length': String(big.length) }, {}, { 'content-length': '10' }]) {
      const fetch = guardFetch(() => answer(200, big, headers), { maxResponseBytes: 1024, detachSuccessBody: true });
      await expect(fetch('https://api.example/x')).rejects.toMatchObject({ reason: 'too-large' });
    }
  });
});
