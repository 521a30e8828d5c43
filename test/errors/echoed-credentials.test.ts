/**
 * A service that echoes the request's Authorization header in its problem body (seen in the wild
 * in debug modes): the error the user receives carries no trace of the token, wherever they look.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError, InstantClient } from '../../src/index.ts';

const TOKEN = 'tok-Zq81mV0xK2pLr7Tn4wYb';
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const echoed = req.headers.authorization ?? '';
    res.writeHead(400, { 'content-type': 'application/problem+json' });
    res.end(
      JSON.stringify({
        type: 'https://errors.example/CobOperacaoInvalida',
        title: `Refused for ${echoed}`,
        status: 400,
        detail: `request headers: Authorization: ${echoed}; authorization=${echoed}`,
        instance: `/cob/x?auth=${echoed}`,
        violacoes: [{ razao: `header ${echoed} is not allowed`, propriedade: 'cob.valor', valor: echoed }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('an ApiError whose body echoes the Authorization header never shows the token', async () => {
  const api = new InstantClient({ baseUrl, auth: { getToken: async () => TOKEN }, maxRetries: 0 });
  const error = await api.cob.get('echoedcredentials000000000000001').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  const shown = [
    String(error),
    (error as Error).message,
    (error as Error).stack,
    JSON.stringify(error),
    inspect(error, { depth: 10, showHidden: false }),
    JSON.stringify((error as ApiError).violacoes),
    String((error as ApiError).detail),
    String((error as ApiError).title),
  ].join('\n');
  expect(shown).toContain('CobOperacaoInvalida');
  expect(shown).not.toContain(TOKEN);
  expect(shown).not.toContain(TOKEN.slice(4, 16));
});
