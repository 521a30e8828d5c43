/**
 * Scopes as the official interface's `security` names them: a token asked without `scope` gets
 * all; asked with scopes, only those; an unknown one is `invalid_scope`; a call outside them is
 * 403 naming the scope it needs, and the SDK's error names it too.
 */
import { describe, expect, it } from 'vitest';
import { AcessoNegado, InstantClient, generateTxid } from '../../src/index.ts';
import { OPERATIONS, SCOPES } from '../../src/sandbox/operations.ts';
import { cobBody, refusal, useSandbox } from './support.ts';

const harness = useSandbox({ seed: 41 });

async function token(scope?: string): Promise<Response> {
  const { tokenUrl, clientId, clientSecret } = harness.sandbox.credentials;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  if (scope !== undefined) form.set('scope', scope);
  return fetch(tokenUrl, { method: 'POST', body: form });
}

async function call(accessToken: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${harness.sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

describe('scopes', () => {
  it('has one scope per resource and direction, the scheme resource under its neutral name', () => {
    expect(SCOPES).toContain('instant.read');
    expect(SCOPES).toContain('payloadlocationrec.write');
    expect(SCOPES.filter((scope) => !/^[a-z]+\.(read|write)$/.test(scope))).toEqual([]);
    expect(OPERATIONS.every((op) => (op.method === 'GET') === op.scope.endsWith('.read'))).toBe(true);
  });

  it('grants only the scopes asked for: a cob.read token reads charges, and neither creates them nor reads recurrences', async () => {
    const answer = await token('cob.read');
    expect(answer.status).toBe(200);
    const granted = (await answer.json()) as { access_token: string; scope: string };
    expect(granted.scope).toBe('cob.read');
    const txid = generateTxid();
    const created = await call(granted.access_token, 'PUT', `/cob/${txid}`, cobBody(harness.key));
    expect(created.status).toBe(403);
    expect(created.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="cob.write"');
    expect(await created.json()).toMatchObject({
      type: expect.stringMatching(/\/AcessoNegado$/),
      detail: expect.stringContaining('cob.write'),
    });
    const recs = await call(granted.access_token, 'GET', '/rec?inicio=2020-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z');
    expect(recs.status).toBe(403);
    expect(((await recs.json()) as { detail: string }).detail).toContain('rec.read');
    await harness.api.cob.create(txid, cobBody(harness.key));
    expect((await call(granted.access_token, 'GET', `/cob/${txid}`)).status).toBe(200);
  });

  it('gives every scope to a token asked without one', async () => {
    const granted = (await (await token()).json()) as { access_token: string };
    expect((await call(granted.access_token, 'PUT', `/cob/${generateTxid()}`, cobBody(harness.key))).status).toBe(201);
  });

  it('refuses an unknown scope with invalid_scope, naming it', async () => {
    const answer = await token('cob.read foo.bar');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'invalid_scope',
      error_description: expect.stringContaining('"foo.bar"'),
    });
  });

  it("names the missing scope in the SDK's 403 error", async () => {
    const api = new InstantClient({
      ...harness.sandbox.clientOptions(),
      auth: { ...harness.sandbox.credentials, scope: 'cob.read' },
      maxRetries: 0,
    });
    try {
      const error = await refusal(api.cob.create(generateTxid(), cobBody(harness.key)));
      expect(error).toBeInstanceOf(AcessoNegado);
      expect(error.message).toContain('the token lacks the scope cob.write: add it to auth.scope');
    } finally {
      await api.close();
    }
  });
});
