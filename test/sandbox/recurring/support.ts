/**
 * The recurring part of the sandbox over real HTTP on 127.0.0.1, driven with plain `fetch` and a
 * token from its own token endpoint (the client's recurring resources are not used: what is
 * tested is the sandbox's own verdict). A token refused with 401 (a clock moved by a test) is
 * replaced once.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { addDays, todayInBrasilia } from '../../../src/lib/dates.ts';
import { createSandbox, type OwnAccount, type Sandbox, type SandboxOptions } from '../../../src/sandbox.ts';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's raw answers, read field by field by the tests.
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  /** The JSON body, the text of any other body, or `undefined` when empty. */
  // biome-ignore lint/suspicious/noExplicitAny: as `Json`.
  body: any;
}

export interface RecHarness {
  sandbox: Sandbox;
  account: OwnAccount;
  /** A request to the collection API (`/v2` + `path`) with a bearer token. */
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A request on the sandbox's origin, no credentials (control routes, payloads). */
  raw(method: string, path: string, body?: unknown): Promise<Answer>;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const body = text === '' ? undefined : type.includes('json') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body };
}

export async function startRecSandbox(options: SandboxOptions = {}): Promise<RecHarness> {
  const sandbox = createSandbox({ seed: 11, ...options });
  await sandbox.listen();
  let token: string | undefined;
  const fresh = async () => {
    const { tokenUrl, clientId, clientSecret } = sandbox.credentials;
    const response = await fetch(tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    token = ((await response.json()) as { access_token: string }).access_token;
    return token;
  };
  const send = (url: string, method: string, body: unknown, headers: Record<string, string>) =>
    fetch(url, {
      method,
      headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  return {
    sandbox,
    account: sandbox.ownAccounts[0]!,
    async call(method, path, body) {
      let response = await send(`${sandbox.baseUrl}${path}`, method, body, {
        authorization: `Bearer ${token ?? (await fresh())}`,
      });
      if (response.status === 401)
        response = await send(`${sandbox.baseUrl}${path}`, method, body, { authorization: `Bearer ${await fresh()}` });
      return answer(response);
    },
    async raw(method, path, body) {
      return answer(await send(`${sandbox.origin}${path}`, method, body, {}));
    },
  };
}

/** One sandbox for the calling test file, closed after it. */
export function useRecSandbox(options: SandboxOptions = {}): RecHarness {
  const harness = {} as RecHarness;
  beforeAll(async () => {
    Object.assign(harness, await startRecSandbox(options));
  });
  afterAll(async () => {
    await harness.sandbox.close();
  });
  return harness;
}

export const CPF = '12345678909';
export const CNPJ = '11222333000181';

/** Today in Brasília plus `n` days. */
export const day = (n = 0): string => addDays(todayInBrasilia(), n);

export function recBody(overrides: Json = {}): Json {
  return {
    vinculo: { contrato: 'CTR-1', objeto: 'Assinatura mensal', devedor: { cpf: CPF, nome: 'Fulano de Tal' } },
    calendario: { dataInicial: day(10), periodicidade: 'MENSAL' },
    valor: { valorRec: '29.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
    ...overrides,
  };
}

export function cobrBody(idRec: string, account: OwnAccount, dataDeVencimento: string, overrides: Json = {}): Json {
  return {
    idRec,
    calendario: { dataDeVencimento },
    valor: { original: '29.90' },
    ajusteDiaUtil: true,
    recebedor: { ...account },
    ...overrides,
  };
}

export const solicRecBody = (idRec: string, overrides: Json = {}): Json => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + 86_400_000).toISOString() },
  destinatario: { conta: '550689', agencia: '2569', cpf: CPF, ispbParticipante: '91193552' },
  ...overrides,
});

/** A new recurrence (201), its answer. */
export async function createRec(h: RecHarness, overrides: Json = {}): Promise<Json> {
  const created = await h.call('POST', '/rec', recBody(overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** A new recurrence approved by the payer (journey 1 unless given), its idRec. */
export async function approvedRec(
  h: RecHarness,
  overrides: Json = {},
  jornada?: 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4',
): Promise<string> {
  const { idRec } = await createRec(h, overrides);
  await h.sandbox.approveRec(idRec, jornada === undefined ? {} : { jornada });
  return idRec;
}

/** Asserts a problem answer: status, type (last segment) and the distinct `propriedade`s, sorted. */
export function expectProblem(got: Answer, status: number, type: string, properties?: string[]): void {
  expect(got.status, JSON.stringify(got.body)).toBe(status);
  expect(got.headers.get('content-type')).toBe('application/problem+json');
  expect(got.body.type).toMatch(new RegExp(`/${type}$`));
  expect(got.body.status).toBe(status);
  if (properties !== undefined) {
    const seen = [...new Set((got.body.violacoes ?? []).map((v: { propriedade: string }) => v.propriedade))].sort();
    expect(seen).toEqual([...properties].sort());
  }
}

export const range = (): string => {
  const inicio = new Date(Date.now() - 3_600_000).toISOString();
  const fim = new Date(Date.now() + 3_600_000).toISOString();
  return `inicio=${inicio}&fim=${fim}`;
};
