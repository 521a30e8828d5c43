/**
 * Quick start: a client with OAuth client credentials (and mTLS when a certificate is given),
 * one call, and the typed errors. Run: `node examples/quick-start.ts` with BASE_URL, TOKEN_URL,
 * CLIENT_ID, CLIENT_SECRET (and CLIENT_CERT/CLIENT_KEY file paths for mTLS) in the environment.
 */
import { readFileSync } from 'node:fs';
import { ApiError, ConnectionError, InstantClient, TimeoutError, path } from '../src/index.ts';

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const baseUrl = env['BASE_URL'] ?? 'https://api.psp.example/v2';
  const api = new InstantClient({
    baseUrl,
    auth: {
      tokenUrl: env['TOKEN_URL'] ?? `${baseUrl}/oauth/token`,
      clientId: env['CLIENT_ID'] ?? 'client-id',
      clientSecret: env['CLIENT_SECRET'] ?? 'client-secret',
      scope: 'cob.read',
    },
    ...(env['CLIENT_CERT'] && env['CLIENT_KEY']
      ? { tls: { cert: readFileSync(env['CLIENT_CERT']), key: readFileSync(env['CLIENT_KEY']) } }
      : {}),
    timeout: 10_000,
  });
  try {
    const txid = env['TXID'] ?? 'quickstart0000000000000000001';
    const charge = await api.http.json<Record<string, unknown>>({ method: 'GET', path: path`/cob/${txid}` });
    console.log('charge status:', charge['status']);
  } catch (error) {
    if (error instanceof ApiError) console.error(`service said ${error.status} ${error.errorType ?? ''}`);
    else if (error instanceof TimeoutError || error instanceof ConnectionError) console.error(error.message);
    else throw error;
  } finally {
    await api.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
