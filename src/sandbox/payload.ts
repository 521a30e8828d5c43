/**
 * The payer side of the sandbox (spec 7.2): each location serves its charge's payload as a
 * compact JWS (RS256, `application/jose`) whose header names the key set (`jku`, served on the
 * same host) and the key (`kid`). 404 when the location shows no charge, 410 when its charge is
 * concluded, removed or past its validity; for a due-date charge `codMun` and `DPP` are judged
 * (400) and `valor.final` is computed for `DPP` (today by default).
 */
import { calculateJwkThumbprint, CompactSign, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { addDays, isCivilDate } from '../lib/dates.ts';
import { fromCents, toCents } from '../lib/money.ts';
import { isValidMunicipalityCode } from '../lib/municipalities.ts';
import { currentOf, isClosed, locationByToken } from './charges.ts';
import { json, verdict } from './http.ts';
import { Problem } from './problems.ts';
import { Random } from './random.ts';
import { seededRsaKey } from './rsa.ts';
import { Judge, isObject, type Json } from './rules.ts';
import { today, type Charge, type ChargeKind, type Context } from './state.ts';

export const JWKS_PATH = '/qr/v2/jwks.json';

/** Keys made from a seed, kept for the process: a second sandbox with the same seed finds its key made. */
const SEEDED_KEYS = new Map<number, Promise<SigningKey>>();

interface SigningKey {
  privateKey: CryptoKey;
  jwk: JWK & { kid: string };
}

/**
 * One RSA key pair per sandbox, made on first use: from the seed when there is one (the same
 * key on every start), else at random. Its `kid` is the key's thumbprint, so a new key always
 * comes with a new `kid` and a payer that kept an older key set reads it again.
 */
export class PayloadSigner {
  readonly #seed: number | undefined;
  #keys: Promise<SigningKey> | undefined;

  constructor(seed: number | undefined) {
    this.#seed = seed;
  }

  #load(): Promise<SigningKey> {
    const seed = this.#seed;
    if (seed === undefined) {
      this.#keys ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey, publicKey }) => signingKey(privateKey, await exportJWK(publicKey)));
      return this.#keys;
    }
    let keys = SEEDED_KEYS.get(seed);
    if (keys === undefined) {
      keys = seededRsaKey(new Random(seed ^ 0x5167)).then(async (jwk) => signingKey((await importJWK(jwk, 'RS256')) as CryptoKey, { kty: 'RSA', n: jwk.n!, e: jwk.e! }));
      SEEDED_KEYS.set(seed, keys);
    }
    return keys;
  }

  async sign(payload: Json, jku: string): Promise<string> {
    const { privateKey, jwk } = await this.#load();
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWS', kid: jwk.kid, jku })
      .sign(privateKey);
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.#load()).jwk] };
  }
}

async function signingKey(privateKey: CryptoKey, publicJwk: JWK): Promise<SigningKey> {
  return { privateKey, jwk: { ...publicJwk, kid: await calculateJwkThumbprint(publicJwk), use: 'sig', alg: 'RS256' } };
}

export async function payloadRoutes(ctx: Context, signer: PayloadSigner, request: Request, path: string): Promise<Response | undefined> {
  if (request.method !== 'GET') return undefined;
  if (path === JWKS_PATH) return json(200, await signer.jwks(), { 'content-type': 'application/jwk-set+json' });
  const match = /^\/qr\/v2\/(cobv\/)?([A-Za-z0-9]+)$/.exec(path);
  if (!match) return undefined;
  const kind: ChargeKind = match[1] ? 'cobv' : 'cob';
  const loc = locationByToken(ctx, match[2]!, kind);
  const charge = loc?.txid === undefined ? undefined : ctx.state.charges(kind).get(loc.txid);
  if (charge === undefined) throw new Problem('CobPayloadNaoEncontrado', 'A location não apresenta cobrança.', [], 404);
  if (isClosed(ctx, charge)) throw new Problem('CobPayloadNaoEncontrado', 'A cobrança desta location não pode mais ser paga.', [], 410);
  const params = new URL(request.url).searchParams;
  const payload = kind === 'cob' ? cobPayload(ctx, charge) : cobvPayload(ctx, charge, judgePayerQuery(ctx, charge, params));
  const jws = await signer.sign(payload, `${ctx.origin()}${JWKS_PATH}`);
  return new Response(jws, { status: 200, headers: { 'content-type': 'application/jose' } });
}

/** `codMun` (7 digits, a municipality of the national table) and `DPP` (today .. last valid day). */
function judgePayerQuery(ctx: Context, charge: Charge, params: URLSearchParams): string {
  const j = new Judge(ctx.ownKeys);
  const codMun = params.get('codMun');
  if (codMun !== null && !(/^\d{7}$/.test(codMun) && isValidMunicipalityCode(codMun))) {
    j.flag('codMun', 'codMun não é um código da tabela nacional de municípios.', codMun);
  }
  const dpp = params.get('DPP');
  const day = today(ctx);
  if (dpp !== null) {
    if (!isCivilDate(dpp)) j.flag('DPP', 'DPP não é uma data AAAA-MM-DD.', dpp);
    else if (dpp < day) j.flag('DPP', 'DPP está no passado.', dpp);
    else if (dpp > lastValidDay(charge)) j.flag('DPP', 'DPP excede a validade da cobrança (vencimento + validadeAposVencimento).', dpp);
  }
  verdict(j, 'CobPayloadOperacaoInvalida');
  return dpp ?? day;
}

function calendarOf(charge: Charge): Json {
  const calendario = currentOf(charge).content['calendario'];
  return isObject(calendario) ? calendario : {};
}

function lastValidDay(charge: Charge): string {
  const calendario = calendarOf(charge);
  return addDays(calendario['dataDeVencimento'] as string, (calendario['validadeAposVencimento'] as number | undefined) ?? 30);
}

function common(charge: Charge): Json {
  const { content, status } = currentOf(charge);
  const out: Json = { txid: charge.txid, revisao: charge.revisions.length - 1, status };
  for (const field of ['devedor', 'chave', 'solicitacaoPagador', 'infoAdicionais']) {
    if (content[field] !== undefined) out[field] = structuredClone(content[field]);
  }
  return out;
}

function cobPayload(ctx: Context, charge: Charge): Json {
  const calendario = calendarOf(charge);
  return {
    ...common(charge),
    calendario: { criacao: charge.criacao, apresentacao: ctx.now().toISOString(), expiracao: calendario['expiracao'] ?? 86_400 },
    valor: structuredClone(currentOf(charge).content['valor']),
  };
}

function cobvPayload(ctx: Context, charge: Charge, day: string): Json {
  const calendario = calendarOf(charge);
  const out = common(charge);
  const devedor = isObject(out['devedor']) ? out['devedor'] : {};
  return {
    ...out,
    calendario: {
      criacao: charge.criacao,
      apresentacao: ctx.now().toISOString(),
      dataDeVencimento: calendario['dataDeVencimento'],
      validadeAposVencimento: calendario['validadeAposVencimento'] ?? 30,
    },
    devedor: devedor['cpf'] !== undefined ? { cpf: devedor['cpf'], nome: devedor['nome'] } : { cnpj: devedor['cnpj'], nome: devedor['nome'] },
    recebedor: ctx.recebedor,
    valor: dueAmount(charge, day),
  };
}

// ---------------------------------------------------------------------------------------------
// Amount due on a day

/** `base` × `rate` (hundredths of a percent) × `times` / `divisor`, rounded half up, exactly. */
function percentOf(base: number, rate: number, times = 1, divisor = 1): number {
  const scale = 10_000n * BigInt(divisor);
  const product = BigInt(base) * BigInt(rate) * BigInt(times);
  return Number((product * 2n + scale) / (2n * scale));
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const PER_DAY_DIVISOR: Readonly<Record<number, number>> = { 2: 1, 3: 30, 4: 365, 6: 1, 7: 30, 8: 365 };

/**
 * `valor` of a due-date payload for payment on `day`: abatimento always; desconto up to the due
 * date; multa and juros after it. Business-day modalities are counted in calendar days here.
 */
export function dueAmount(charge: Charge, day: string): { final: string } & Record<string, string> {
  const valor = (currentOf(charge).content['valor'] ?? {}) as Json;
  const due = calendarOf(charge)['dataDeVencimento'] as string;
  const original = toCents(valor['original'] as string);
  const part = (name: string): Json | undefined => (isObject(valor[name]) ? (valor[name] as Json) : undefined);
  const rate = (p: Json | undefined): number => (p && typeof p['valorPerc'] === 'string' ? toCents(p['valorPerc']) : 0);
  let abatimento = 0;
  const ab = part('abatimento');
  if (ab) abatimento = ab['modalidade'] === 1 ? rate(ab) : percentOf(original, rate(ab));
  let desconto = 0;
  let multa = 0;
  let juros = 0;
  const ds = part('desconto');
  if (ds && day <= due) {
    const modalidade = ds['modalidade'] as number;
    const early = daysBetween(day, due);
    if (modalidade <= 2) {
      const dates = (Array.isArray(ds['descontoDataFixa']) ? ds['descontoDataFixa'] : []) as Json[];
      const hit = dates.filter((d) => (d['data'] as string) >= day).sort((a, b) => ((a['data'] as string) < (b['data'] as string) ? -1 : 1))[0];
      if (hit) desconto = modalidade === 1 ? rate(hit) : percentOf(original, rate(hit));
    } else {
      desconto = modalidade <= 4 ? rate(ds) * early : percentOf(original, rate(ds), early);
    }
  }
  if (day > due) {
    const late = daysBetween(due, day);
    const mt = part('multa');
    if (mt) multa = mt['modalidade'] === 1 ? rate(mt) : percentOf(original, rate(mt));
    const jr = part('juros');
    if (jr) {
      const modalidade = jr['modalidade'] as number;
      juros = modalidade === 1 || modalidade === 5 ? rate(jr) * late : percentOf(original, rate(jr), late, PER_DAY_DIVISOR[modalidade] ?? 1);
    }
  }
  const final = Math.max(1, original - abatimento - desconto + multa + juros);
  const out: { final: string } & Record<string, string> = { original: fromCents(original), final: fromCents(final) };
  if (ab) out['abatimento'] = fromCents(abatimento);
  if (ds) out['desconto'] = fromCents(desconto);
  if (part('multa')) out['multa'] = fromCents(multa);
  if (part('juros')) out['juros'] = fromCents(juros);
  return out;
}
