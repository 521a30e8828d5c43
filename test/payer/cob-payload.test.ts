import { CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CobPayloadNaoEncontrado,
  CobPayloadOperacaoInvalida,
  ConnectionError,
  InvalidLocationError,
  TimeoutError,
  PayerClient,
  PayloadVerificationError,
  addDays,
  todayInBrasilia,
  type PayloadVerificationReason,
} from '../../src/payer.ts';
import { problem, useMsw } from '../support/msw.ts';

const HOST = 'qr.psp.example';
const LOCATION = `${HOST}/qr/v2/8b3da2f39a4140d1a91abd93113bd441`;
const COBV_LOCATION = `${HOST}/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25`;
const JKU = `https://${HOST}/jwks.json`;
/** Development opt-out: these tests read plain JSON payloads to check the parsing, not the signature. */
const UNSIGNED_OK = { allowUnsignedPayloads: true };

const net = useMsw();

const cobPayload = {
  txid: 'fc9a43k6ff384ryP5f41719',
  revisao: 3,
  status: 'ATIVA',
  calendario: { criacao: '2026-10-09T20:15:00.358Z', apresentacao: '2026-10-09T20:20:00.358Z', expiracao: 3600 },
  valor: { original: '10.00' },
  chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
  solicitacaoPagador: 'Servico realizado.',
};

const cobvPayload = {
  txid: '7978c0c97ea847e78e8849634473c1f1',
  revisao: 0,
  status: 'ATIVA',
  calendario: {
    criacao: '2026-10-09T20:15:00.358Z',
    apresentacao: '2026-10-09T20:20:00.358Z',
    dataDeVencimento: '2026-12-31',
    validadeAposVencimento: 30,
  },
  devedor: { nome: 'Comprador' },
  recebedor: { nome: 'Loja', logradouro: 'Rua 1', cidade: 'Cidade', uf: 'DF', cep: '70000000' },
  valor: { original: '123.45', final: '140.45' },
  chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
};

interface Signer {
  publicJwk: JWK;
  sign(payload: unknown, header?: Record<string, unknown>): Promise<string>;
}

async function makeSigner(alg: 'RS256' | 'PS256', kid: string): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair(alg);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, use: 'sig' };
  return {
    publicJwk,
    sign: (payload, header = {}) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg, kid, jku: JKU, ...header } as { alg: string })
        .sign(privateKey),
  };
}

let rs: Signer;
let ps: Signer;
beforeAll(async () => {
  rs = await makeSigner('RS256', 'key-rs');
  ps = await makeSigner('PS256', 'key-ps');
});

function jose(body: string) {
  return new HttpResponse(body, { headers: { 'content-type': 'application/jose' } });
}

/** Serves `body` at the location and the JWKS at JKU; returns the JWKS request counter. */
function serve(body: () => Promise<string> | string, keys: () => JWK[] = () => [rs.publicJwk, ps.publicJwk]) {
  const counter = { payload: 0, jwks: 0 };
  net.server.use(
    http.get(`https://${HOST}/qr/v2/*`, async () => {
      counter.payload++;
      return jose(await body());
    }),
    http.get(JKU, () => {
      counter.jwks++;
      return HttpResponse.json({ keys: keys() });
    }),
  );
  return counter;
}

async function reasonOf(promise: Promise<unknown>): Promise<PayloadVerificationReason> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayloadVerificationError);
  return (error as PayloadVerificationError).reason;
}

describe('getCob', () => {
  it('fetches https://<location> and returns a plain JSON payload', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => HttpResponse.json(cobPayload)));
    const payload = await new PayerClient(UNSIGNED_OK).cobPayload.getCob(LOCATION);
    expect(payload).toEqual(cobPayload);
    expect(net.requests.map((r) => r.url)).toEqual([`https://${LOCATION}`]);
  });

  it.each([
    ['RS256', () => rs],
    ['PS256', () => ps],
  ])('verifies a %s JWS against the JWKS at jku before returning its payload', async (_alg, signer) => {
    serve(() => signer().sign(cobPayload));
    const payload = await new PayerClient(UNSIGNED_OK).cobPayload.getCob(LOCATION);
    expect(payload).toEqual(cobPayload);
  });

  it('sends the payload and the JWKS requests through the fetch option only', async () => {
    serve(() => rs.sign(cobPayload));
    const seen: string[] = [];
    const fetch = (input: Request | string | URL, init?: RequestInit) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return globalThis.fetch(input, init);
    };
    await new PayerClient({ fetch }).cobPayload.getCob(LOCATION);
    expect(seen).toEqual([`https://${LOCATION}`, JKU]);
  });

  it('keeps the JWKS for a few minutes (one key-set fetch for several payloads)', async () => {
    const counter = serve(() => rs.sign(cobPayload));
    const payer = new PayerClient();
    await payer.cobPayload.getCob(LOCATION);
    await payer.cobPayload.getCob(LOCATION);
    await payer.cobPayload.getCobv(COBV_LOCATION).catch(() => undefined);
    expect(counter).toEqual({ payload: 3, jwks: 1 });
  });

  it('reads the key set again once when the kid is unknown (key rotation) and finds the new key', async () => {
    let skewMs = 0;
    const payer = new PayerClient({ now: () => new Date(Date.now() + skewMs) });
    serve(
      () => rs.sign(cobPayload),
      () => [rs.publicJwk],
    );
    await payer.cobPayload.getCob(LOCATION);
    net.server.resetHandlers();
    const rotated = serve(
      () => ps.sign(cobPayload),
      () => [rs.publicJwk, ps.publicJwk],
    );
    // Right after a read the set is not read again, however unknown the kid.
    await expect(payer.cobPayload.getCob(LOCATION)).rejects.toMatchObject({ reason: 'key-not-found' });
    expect(rotated.jwks).toBe(0);
    skewMs = 60_000;
    await expect(payer.cobPayload.getCob(LOCATION)).resolves.toEqual(cobPayload);
    expect(rotated.jwks).toBe(1);
  });

  it('reads numbers leniently: string expiracao and revisao become numbers', async () => {
    const raw = { ...cobPayload, revisao: '3', calendario: { ...cobPayload.calendario, expiracao: '3600' } };
    serve(() => rs.sign(raw));
    const payload = await new PayerClient(UNSIGNED_OK).cobPayload.getCob(LOCATION);
    expect(payload.revisao).toBe(3);
    expect(payload.calendario.expiracao).toBe(3600);
  });

  it('keeps unknown fields', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => HttpResponse.json({ ...cobPayload, novoCampo: { a: 1 } })));
    const payload = await new PayerClient(UNSIGNED_OK).cobPayload.getCob(LOCATION);
    expect(payload['novoCampo']).toEqual({ a: 1 });
  });

  it('refuses a bad location before any request', async () => {
    const error = await new PayerClient().cobPayload.getCob('http://qr.psp.example/qr/abc').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidLocationError);
    expect((error as InvalidLocationError).reason).toBe('scheme');
    await expect(new PayerClient().cobPayload.getCob('169.254.169.254/latest')).rejects.toMatchObject({
      reason: 'private-host',
    });
    expect(net.requests).toHaveLength(0);
  });

  it('does not follow a redirect from the payload host', async () => {
    net.server.use(
      http.get(
        `https://${LOCATION}`,
        () => new HttpResponse(null, { status: 302, headers: { location: 'http://127.0.0.1/admin' } }),
      ),
    );
    await expect(new PayerClient().cobPayload.getCob(LOCATION)).rejects.toMatchObject({
      name: 'InvalidLocationError',
      reason: 'redirect',
    });
    expect(net.requests.map((r) => r.url)).toEqual([`https://${LOCATION}`]);
  });

  it('maps 404 and 410 to CobPayloadNaoEncontrado, keeping the status', async () => {
    for (const status of [404, 410]) {
      net.server.use(http.get(`https://${LOCATION}`, () => new HttpResponse(null, { status })));
      const error = await new PayerClient().cobPayload.getCob(LOCATION).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CobPayloadNaoEncontrado);
      expect(error).toMatchObject({ status, sentRequest: true });
    }
  });

  it('uses the problem type when the body names one', async () => {
    net.server.use(
      http.get(`https://${LOCATION}`, () =>
        problem({ type: 'https://psp.example/api/v2/error/CobPayloadNaoEncontrado', title: 'Gone', status: 410 }),
      ),
    );
    await expect(new PayerClient().cobPayload.getCob(LOCATION)).rejects.toMatchObject({
      name: 'CobPayloadNaoEncontrado',
      status: 410,
    });
  });

  it('retries a 503 and then succeeds', async () => {
    let calls = 0;
    net.server.use(
      http.get(`https://${LOCATION}`, () =>
        ++calls === 1
          ? new HttpResponse(null, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json(cobPayload),
      ),
    );
    await expect(new PayerClient(UNSIGNED_OK).cobPayload.getCob(LOCATION)).resolves.toEqual(cobPayload);
    expect(calls).toBe(2);
  });

  it('gives a ConnectionError after the retries run out on network errors', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => HttpResponse.error()));
    const error = await new PayerClient({ maxRetries: 1 }).cobPayload.getCob(LOCATION).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).not.toContain('8b3da2f39a4140d1a91abd93113bd441');
    expect(net.requests).toHaveLength(2);
  });

  it('gives a TimeoutError when an attempt runs out of time', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => new Promise<Response>(() => undefined)));
    const error = await new PayerClient({ timeout: 50, maxRetries: 0 }).cobPayload
      .getCob(LOCATION)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('GET https://qr.psp.example/… timed out after 50 ms');
  });

  it('rethrows the caller abort reason', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => new Promise<Response>(() => undefined)));
    const controller = new AbortController();
    const pending = new PayerClient().cobPayload.getCob(LOCATION, { signal: controller.signal });
    const reason = new Error('user left the screen');
    setTimeout(() => controller.abort(reason), 5);
    await expect(pending).rejects.toBe(reason);
  });

  it('refuses an unsigned payload by default, served as JSON or as text', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => HttpResponse.json(cobPayload)));
    expect(await reasonOf(new PayerClient().cobPayload.getCob(LOCATION))).toBe('unsigned');
    net.server.use(http.get(`https://${LOCATION}`, () => HttpResponse.text(JSON.stringify(cobPayload))));
    expect(await reasonOf(new PayerClient().cobPayload.getCob(LOCATION))).toBe('unsigned');
    await expect(new PayerClient(UNSIGNED_OK).cobPayload.getCob(LOCATION)).resolves.toMatchObject({
      txid: cobPayload.txid,
    });
  });
});

describe('JWS verification failures', () => {
  const payer = () => new PayerClient({ maxRetries: 0 });

  it('jku-missing', async () => {
    serve(() => rs.sign(cobPayload, { jku: undefined }));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('jku-missing');
  });

  it('jku-not-https', async () => {
    serve(() => rs.sign(cobPayload, { jku: `http://${HOST}/jwks.json` }));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('jku-not-https');
  });

  it('jku-host-mismatch (a key set on another host is never fetched)', async () => {
    serve(() => rs.sign(cobPayload, { jku: 'https://attacker.example/jwks.json' }));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('jku-host-mismatch');
    expect(net.requests.map((r) => new URL(r.url).host)).toEqual([HOST]);
  });

  it('jwks-unavailable', async () => {
    serve(() => rs.sign(cobPayload));
    net.server.use(http.get(JKU, () => new HttpResponse('nope', { status: 500 })));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('jwks-unavailable');
  });

  it('key-not-found (unknown kid)', async () => {
    serve(() => rs.sign(cobPayload, { kid: 'other' }));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('key-not-found');
  });

  it('algorithm-not-allowed (HS256 and none are never accepted)', async () => {
    const forged = (alg: string) =>
      `${Buffer.from(JSON.stringify({ alg, kid: 'key-rs', jku: JKU })).toString('base64url')}.${Buffer.from(JSON.stringify(cobPayload)).toString('base64url')}.c2ln`;
    for (const alg of ['HS256', 'none', 'ES256']) {
      net.server.resetHandlers();
      serve(() => forged(alg));
      expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('algorithm-not-allowed');
    }
  });

  it('bad-signature (payload swapped after signing)', async () => {
    serve(async () => {
      const [h, , s] = (await rs.sign(cobPayload)).split('.');
      const tampered = Buffer.from(JSON.stringify({ ...cobPayload, valor: { original: '0.01' } })).toString(
        'base64url',
      );
      return `${h}.${tampered}.${s}`;
    });
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('bad-signature');
  });

  it('bad-signature (signed by a key that is not the one named by kid)', async () => {
    const intruder = await makeSigner('RS256', 'key-rs');
    serve(() => intruder.sign(cobPayload));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('bad-signature');
  });

  it('malformed', async () => {
    serve(() => 'this is not a jws');
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('malformed');
  });

  it('malformed (a header that is no JSON object, or one that asks for extensions)', async () => {
    const signature = (await rs.sign(cobPayload)).split('.')[2];
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    serve(() => `${part(['RS256'])}.${part(cobPayload)}.${signature}`);
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('malformed');
    net.server.resetHandlers();
    // Correctly signed, yet its header asks for an unencoded payload (RFC 7797): no extension is understood here.
    serve(() => rs.sign(cobPayload, { b64: true, crit: ['b64'] }));
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('malformed');
  });

  it('key-not-found (an RSA key shorter than 2048 bits, though the signature matches)', async () => {
    // Signed with WebCrypto: jose will not make a key this short.
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    const pair = await crypto.subtle.generateKey(
      { ...algorithm, modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]) },
      true,
      ['sign', 'verify'],
    );
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signed = `${part({ alg: 'RS256', kid: 'key-short', jku: JKU })}.${part(cobPayload)}`;
    const signature = await crypto.subtle.sign(algorithm, pair.privateKey, new TextEncoder().encode(signed));
    const jwk = { ...(await crypto.subtle.exportKey('jwk', pair.publicKey)), kid: 'key-short' } as JWK;
    serve(
      () => `${signed}.${Buffer.from(signature).toString('base64url')}`,
      () => [jwk],
    );
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('key-not-found');
  });

  it('bad-signature (a PS256 signature presented as RS256 under the same key)', async () => {
    const [, payload, signature] = (await ps.sign(cobPayload)).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'key-ps', jku: JKU })).toString('base64url');
    serve(
      () => `${header}.${payload}.${signature}`,
      () => [{ ...ps.publicJwk }],
    );
    expect(await reasonOf(payer().cobPayload.getCob(LOCATION))).toBe('bad-signature');
  });
});

describe('getCobv', () => {
  it('sends codMun and DPP and reads final with a comma as a decimal string', async () => {
    const dpp = addDays(todayInBrasilia(), 3);
    let query: URLSearchParams | undefined;
    net.server.use(
      http.get(`https://${COBV_LOCATION}`, async ({ request }) => {
        query = new URL(request.url).searchParams;
        return jose(
          await rs.sign({
            ...cobvPayload,
            valor: { original: '123.45', final: '140,45' },
            calendario: { ...cobvPayload.calendario, validadeAposVencimento: '30' },
          }),
        );
      }),
      http.get(JKU, () => HttpResponse.json({ keys: [rs.publicJwk] })),
    );
    const payload = await new PayerClient(UNSIGNED_OK).cobPayload.getCobv(COBV_LOCATION, {
      codMun: '5300108',
      DPP: dpp,
    });
    expect(query?.get('codMun')).toBe('5300108');
    expect(query?.get('DPP')).toBe(dpp);
    expect(payload.valor.final).toBe('140.45');
    expect(payload.calendario.validadeAposVencimento).toBe(30);
  });

  it('accepts today (Brasília) as DPP', async () => {
    net.server.use(http.get(`https://${COBV_LOCATION}`, () => HttpResponse.json(cobvPayload)));
    await expect(
      new PayerClient(UNSIGNED_OK).cobPayload.getCobv(COBV_LOCATION, { DPP: todayInBrasilia() }),
    ).resolves.toMatchObject({ txid: cobvPayload.txid });
  });

  it.each([
    [{ codMun: '1234567' }, 'codMun'],
    [{ codMun: '530010' }, 'codMun'],
    [{ DPP: '2026-02-30' }, 'DPP'],
    [{ DPP: '31/12/2099' }, 'DPP'],
    [{ DPP: 'yesterday' }, 'DPP'],
  ])('refuses %j with CobPayloadOperacaoInvalida before sending', async (query, propriedade) => {
    const error = await new PayerClient().cobPayload.getCobv(COBV_LOCATION, query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CobPayloadOperacaoInvalida);
    expect(error).toMatchObject({ sentRequest: false, violacoes: [{ propriedade }] });
    expect(net.requests).toHaveLength(0);
  });

  it('refuses a DPP before today in Brasília', async () => {
    const yesterday = addDays(todayInBrasilia(), -1);
    await expect(new PayerClient().cobPayload.getCobv(COBV_LOCATION, { DPP: yesterday })).rejects.toMatchObject({
      name: 'CobPayloadOperacaoInvalida',
      violacoes: [{ propriedade: 'DPP' }],
    });
    expect(net.requests).toHaveLength(0);
  });

  it('maps a bare 400 to CobPayloadOperacaoInvalida', async () => {
    net.server.use(http.get(`https://${COBV_LOCATION}`, () => new HttpResponse(null, { status: 400 })));
    await expect(new PayerClient().cobPayload.getCobv(COBV_LOCATION)).rejects.toBeInstanceOf(
      CobPayloadOperacaoInvalida,
    );
  });
});
