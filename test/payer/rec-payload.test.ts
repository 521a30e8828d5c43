/**
 * `payer.recPayload.get(location)`: the recurrence payload of a composite QR code, verified as the
 * charge payloads are (fail closed: a JWS whose key comes from its `jku` on the location's host),
 * with the location checked before anything is sent and the payload's errors typed.
 */
import { CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidLocationError,
  PayerClient,
  PayloadVerificationError,
  RecPayloadNaoEncontrado,
  RecPayloadOperacaoInvalida,
  ServicoIndisponivel,
  type RecPayload,
} from '../../src/payer.ts';
import { problem, useMsw } from '../support/msw.ts';

const HOST = 'qr.psp.example';
const LOCATION = `${HOST}/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890`;
const JKU = `https://${HOST}/jwks.json`;

const net = useMsw();

/** The official example payload (recPayload1), documents as written there. */
const recPayload: RecPayload = {
  idRec: 'RN123456782024011577825445612',
  vinculo: {
    contrato: '5582610',
    devedor: { cpf: '45164632481', nome: 'Fulano de Tal' },
    objeto: 'Serviço de Streamming de Música.',
  },
  calendario: { dataFinal: '2025-04-01', dataInicial: '2024-04-01', periodicidade: 'MENSAL' },
  politicaRetentativa: 'NAO_PERMITE',
  valor: { valorRec: '35.00' },
  recebedor: { cnpj: '28765007802371', nome: 'Startup Musical', ispbParticipante: '12345678' },
  atualizacao: [{ status: 'CRIADA', data: '2024-03-20T10:12:07.567Z' }],
};

let publicJwk: JWK;
let otherJwk: JWK;
let sign: (payload: unknown, header?: Record<string, unknown>) => Promise<string>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  publicJwk = { ...(await exportJWK(publicKey)), kid: 'rec-key', use: 'sig' };
  otherJwk = { ...(await exportJWK((await generateKeyPair('RS256')).publicKey)), kid: 'rec-key', use: 'sig' };
  sign = (payload, header = {}) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'RS256', kid: 'rec-key', jku: JKU, ...header } as { alg: string })
      .sign(privateKey);
});

/** Serves `body` at the location (as application/jose) and the key set at JKU. */
function serve(body: () => Promise<string> | string, keys: () => JWK[] = () => [publicJwk]) {
  const counter = { payload: 0, jwks: 0 };
  net.server.use(
    http.get(`https://${HOST}/qr/v2/rec/*`, async () => {
      counter.payload++;
      return new HttpResponse(await body(), { headers: { 'content-type': 'application/jose' } });
    }),
    http.get(JKU, () => {
      counter.jwks++;
      return HttpResponse.json({ keys: keys() });
    }),
  );
  return counter;
}

describe('payer.recPayload.get', () => {
  it('GETs https://<location>, verifies the JWS with the key from its jku, and returns the recurrence', async () => {
    const counter = serve(() => sign(recPayload));
    await expect(new PayerClient().recPayload.get(LOCATION)).resolves.toEqual(recPayload);
    expect(net.requests.map((r) => r.url)).toEqual([`https://${LOCATION}`, JKU]);
    expect(net.requests[0]?.headers.get('accept')).toMatch(/^application\/jose/);
    expect(counter).toEqual({ payload: 1, jwks: 1 });
  });

  it.each<[string, () => Promise<string> | string, (() => JWK[]) | undefined, string]>([
    ['signed by another key', () => sign(recPayload), () => [otherJwk], 'bad-signature'],
    [
      'with its key set on another host',
      () => sign(recPayload, { jku: 'https://keys.elsewhere.example/jwks.json' }),
      undefined,
      'jku-host-mismatch',
    ],
    ['with no jku', () => sign(recPayload, { jku: undefined }), undefined, 'jku-missing'],
    [
      'HS256',
      () =>
        new CompactSign(new TextEncoder().encode('{}'))
          .setProtectedHeader({ alg: 'HS256', jku: JKU })
          .sign(new Uint8Array(32)),
      undefined,
      'algorithm-not-allowed',
    ],
    ['not a JWS at all', () => 'not.a.jws!', undefined, 'malformed'],
  ])('fails closed on a payload %s', async (_case, body, keys, reason) => {
    serve(body, keys);
    const error = await new PayerClient().recPayload.get(LOCATION).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadVerificationError);
    expect(error).toMatchObject({ reason });
  });

  it('refuses an unsigned payload unless allowUnsignedPayloads (development only)', async () => {
    net.server.use(http.get(`https://${LOCATION}`, () => HttpResponse.json(recPayload)));
    await expect(new PayerClient().recPayload.get(LOCATION)).rejects.toMatchObject({
      name: 'PayloadVerificationError',
      reason: 'unsigned',
    });
    await expect(new PayerClient({ allowUnsignedPayloads: true }).recPayload.get(LOCATION)).resolves.toEqual(
      recPayload,
    );
  });

  it('refuses a bad location before any request', async () => {
    for (const [location, reason] of [
      [`http://${LOCATION}`, 'scheme'],
      ['127.0.0.1/qr/v2/rec/abc', 'private-host'],
      ['user@qr.psp.example/qr/v2/rec/abc', 'userinfo'],
      [`${HOST}/qr/v2/rec/${'a'.repeat(80)}`, 'too-long'],
    ] as const) {
      const error = await new PayerClient().recPayload.get(location).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidLocationError);
      expect(error).toMatchObject({ reason });
    }
    expect(net.requests).toHaveLength(0);
  });

  it('maps 404 and 410 to RecPayloadNaoEncontrado, keeping the status, and 400 to RecPayloadOperacaoInvalida', async () => {
    for (const status of [404, 410]) {
      net.server.use(http.get(`https://${LOCATION}`, () => new HttpResponse(null, { status })));
      const error = await new PayerClient().recPayload.get(LOCATION).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RecPayloadNaoEncontrado);
      expect(error).toMatchObject({ status, sentRequest: true });
    }
    net.server.use(http.get(`https://${LOCATION}`, () => new HttpResponse(null, { status: 400 })));
    await expect(new PayerClient().recPayload.get(LOCATION)).rejects.toBeInstanceOf(RecPayloadOperacaoInvalida);
    net.server.use(
      http.get(`https://${LOCATION}`, () =>
        problem({
          type: 'https://psp.example/api/v2/error/RecPayloadOperacaoInvalida',
          title: 'Recorrência não encontrada.',
          status: 400,
          detail: 'A recorrência em questão encontra-se expirada, cancelada ou rejeitada.',
        }),
      ),
    );
    await expect(new PayerClient().recPayload.get(LOCATION)).rejects.toMatchObject({
      name: 'RecPayloadOperacaoInvalida',
      detail: expect.stringContaining('expirada'),
    });
  });

  it('retries a 503 (a GET), then gives ServicoIndisponivel', async () => {
    net.server.use(
      http.get(`https://${LOCATION}`, () => new HttpResponse(null, { status: 503, headers: { 'retry-after': '0' } })),
    );
    await expect(new PayerClient({ maxRetries: 1 }).recPayload.get(LOCATION)).rejects.toBeInstanceOf(
      ServicoIndisponivel,
    );
    expect(net.requests).toHaveLength(2);
  });

  it('reads the payload leniently: the misspelt peridiocidade of the official example, amounts with a comma, unknown fields', async () => {
    const { periodicidade: _, ...calendario } = recPayload.calendario;
    serve(() =>
      sign({
        ...recPayload,
        calendario: { ...calendario, peridiocidade: 'MENSAL' },
        valor: { valorRec: '35,5' },
        novo: true,
      }),
    );
    const payload = await new PayerClient().recPayload.get(LOCATION);
    expect(payload.calendario.periodicidade).toBe('MENSAL');
    expect(payload.valor?.valorRec).toBe('35.50');
    expect(payload['novo']).toBe(true);
  });
});
