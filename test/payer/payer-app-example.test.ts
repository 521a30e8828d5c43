import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { explain, summarize } from '../../examples/payer-app.ts';
import { PayerClient, brcode } from '../../src/payer.ts';
import { useMsw } from '../support/msw.ts';

const net = useMsw();
const HOST = 'qr.psp.example';

describe('examples/payer-app.ts', () => {
  it('summarizes a dynamic code from its verified payload, ignoring nothing but the code', async () => {
    const { publicKey, privateKey } = await generateKeyPair('PS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k' };
    const payload = {
      txid: 'a'.repeat(26),
      revisao: 0,
      status: 'ATIVA',
      chave: 'k@example.com',
      valor: { original: '25.90' },
      calendario: {},
      solicitacaoPagador: 'Pedido 42',
    };
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'PS256', kid: 'k', jku: `https://${HOST}/keys` })
      .sign(privateKey);
    net.server.use(
      http.get(
        `https://${HOST}/qr/v2/:token`,
        () => new HttpResponse(jws, { headers: { 'content-type': 'application/jose' } }),
      ),
      http.get(`https://${HOST}/keys`, () => HttpResponse.json({ keys: [jwk] })),
    );
    const code = brcode.build({ url: `${HOST}/qr/v2/abc123`, merchantName: 'LOJA', merchantCity: 'BRASILIA' });
    const summary = await summarize(code, new PayerClient());
    expect(summary).toEqual({
      kind: 'cob',
      amount: '25.90',
      txid: 'a'.repeat(26),
      key: 'k@example.com',
      message: 'Pedido 42',
    });
  });

  it('explains an unsafe location without fetching it', async () => {
    const code = brcode.build({ url: '192.168.0.1/qr/v2/abc', merchantName: 'LOJA', merchantCity: 'BRASILIA' });
    const error = await summarize(code, new PayerClient()).catch((e: unknown) => e);
    expect(explain(error)).toBe('This code points somewhere unsafe (private-host).');
    expect(net.requests).toHaveLength(0);
  });

  it('reads a static code without any request', async () => {
    const code = brcode.build({ key: 'k@example.com', amount: '5.00', merchantName: 'LOJA', merchantCity: 'BRASILIA' });
    expect(await summarize(code, new PayerClient())).toMatchObject({
      kind: 'static',
      amount: '5.00',
      key: 'k@example.com',
    });
    expect(net.requests).toHaveLength(0);
  });
});
