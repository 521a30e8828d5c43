/**
 * The payer side of the sandbox (spec 7.2): each location serves its charge's payload as a
 * compact JWS (RS256, `application/jose`) whose header names the key set (`jku`, served on the
 * same host) and the key (`kid`). 404 when the location shows no charge, 410 when its charge is
 * concluded, removed or past its validity; for a due-date charge `codMun` and `DPP` are judged
 * (400) and `valor.final` is computed for `DPP` (today by default).
 */
import { calculateJwkThumbprint, CompactSign, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { businessDaysBetween, daysBetween, roll } from '../lib/calendar.ts';
import { isCivilDate } from '../lib/dates.ts';
import { centsTimes, fromCents, toCents } from '../lib/money.ts';
import { isValidMunicipalityCode } from '../lib/municipalities.ts';
import { currentOf, isClosed, lastPayableDay, locationByToken } from './charges.ts';
import { json, verdict } from './http.ts';
import { Problem } from './problems.ts';
import { Random } from './random.ts';
import { seededRsaKey } from './rsa.ts';
import { Judge, isObject, type Json } from './rules.ts';
import { businessDays, today, type Charge, type ChargeKind, type Context } from './state.ts';

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
      this.#keys ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey, publicKey }) =>
        signingKey(privateKey, await exportJWK(publicKey)),
      );
      return this.#keys;
    }
    let keys = SEEDED_KEYS.get(seed);
    if (keys === undefined) {
      keys = seededRsaKey(new Random(seed ^ 0x5167)).then(async (jwk) =>
        signingKey((await importJWK(jwk, 'RS256')) as CryptoKey, { kty: 'RSA', n: jwk.n!, e: jwk.e! }),
      );
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

export async function payloadRoutes(
  ctx: Context,
  signer: PayloadSigner,
  request: Request,
  path: string,
): Promise<Response | undefined> {
  if (request.method !== 'GET') return undefined;
  if (path === JWKS_PATH) return json(200, await signer.jwks(), { 'content-type': 'application/jwk-set+json' });
  const match = /^\/qr\/v2\/(cobv\/)?([A-Za-z0-9]+)$/.exec(path);
  if (!match) return undefined;
  const kind: ChargeKind = match[1] ? 'cobv' : 'cob';
  const loc = locationByToken(ctx, match[2]!, kind);
  const charge = loc?.txid === undefined ? undefined : ctx.state.charges(kind).get(loc.txid);
  if (charge === undefined) throw new Problem('CobPayloadNaoEncontrado', 'A location não apresenta cobrança.', [], 404);
  const params = new URL(request.url).searchParams;
  // The payer's local holidays (codMun) may keep a due-date charge payable a day longer.
  const codMun = /^\d{7}$/.test(params.get('codMun') ?? '') ? (params.get('codMun') as string) : undefined;
  if (isClosed(ctx, charge, codMun))
    throw new Problem('CobPayloadNaoEncontrado', 'A cobrança desta location não pode mais ser paga.', [], 410);
  const payload =
    kind === 'cob' ? cobPayload(ctx, charge) : cobvPayload(ctx, charge, ...judgePayerQuery(ctx, charge, params));
  const jws = await signer.sign(payload, `${ctx.origin()}${JWKS_PATH}`);
  return new Response(jws, { status: 200, headers: { 'content-type': 'application/jose' } });
}

/**
 * `codMun` (7 digits, a municipality of the national table) and `DPP` (today .. the last payable
 * day on that payer's calendar): the day to price and the payer's municipality.
 */
function judgePayerQuery(
  ctx: Context,
  charge: Charge,
  params: URLSearchParams,
): [day: string, codMun: string | undefined] {
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
    else if (dpp > lastPayableDay(ctx, charge, codMun ?? undefined)) {
      j.flag(
        'DPP',
        'DPP excede a validade da cobrança (vencimento, prorrogado ao dia útil, + validadeAposVencimento).',
        dpp,
      );
    }
  }
  verdict(j, 'CobPayloadOperacaoInvalida');
  return [dpp ?? day, codMun ?? undefined];
}

function calendarOf(charge: Charge): Json {
  const calendario = currentOf(charge).content['calendario'];
  return isObject(calendario) ? calendario : {};
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
    calendario: {
      criacao: charge.criacao,
      apresentacao: ctx.now().toISOString(),
      expiracao: calendario['expiracao'] ?? 86_400,
    },
    valor: structuredClone(currentOf(charge).content['valor']),
  };
}

function cobvPayload(ctx: Context, charge: Charge, day: string, codMun: string | undefined): Json {
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
    devedor:
      devedor['cpf'] !== undefined
        ? { cpf: devedor['cpf'], nome: devedor['nome'] }
        : { cnpj: devedor['cnpj'], nome: devedor['nome'] },
    recebedor: ctx.recebedor,
    valor: dueAmount(ctx, charge, day, codMun),
  };
}

// ---------------------------------------------------------------------------------------------
// Amount due on a day

/** `base` × `rate` (hundredths of a percent) × `times` / `divisor`, rounded half up, exactly. */
function percentOf(base: number, rate: number, times = 1, divisor = 1): number {
  return centsTimes(base, rate, times, 10_000 * divisor);
}

/** Days in a month and in a year for the interest rates per month and per year: calendar (3, 4) and business days (7, 8). */
const PER_DAY_DIVISOR: Readonly<Record<number, number>> = { 2: 1, 3: 30, 4: 365, 6: 1, 7: 21, 8: 252 };

/**
 * `valor` of a due-date payload for payment on `day` by a payer of `codMun`. The due date moves
 * to the payer's next business day when it is not one, and everything counts from there:
 * abatimento always; desconto up to the (moved) fixed dates, or per calendar (3, 5) or business
 * (4, 6) day before the due date; multa and juros after it, juros per calendar (1–4) or business
 * (5–8) day late. Business days early or late: those after the earlier day through the later.
 * A discount never takes the amount below 0.01.
 */
export function dueAmount(
  ctx: Context,
  charge: Charge,
  day: string,
  codMun?: string,
): { final: string } & Record<string, string> {
  const valor = (currentOf(charge).content['valor'] ?? {}) as Json;
  const open = businessDays(ctx, codMun);
  const due = roll(calendarOf(charge)['dataDeVencimento'] as string, open);
  const days = (from: string, to: string, business: boolean) =>
    business ? businessDaysBetween(from, to, open) : daysBetween(from, to);
  const original = toCents(valor['original'] as string);
  const part = (name: string): Json | undefined => (isObject(valor[name]) ? (valor[name] as Json) : undefined);
  const rate = (p: Json | undefined): number => (p && typeof p['valorPerc'] === 'string' ? toCents(p['valorPerc']) : 0);
  let abatimento = 0;
  const ab = part('abatimento');
  if (ab) abatimento = Number(ab['modalidade']) === 1 ? rate(ab) : percentOf(original, rate(ab));
  let desconto = 0;
  let multa = 0;
  let juros = 0;
  const ds = part('desconto');
  if (ds) {
    const modalidade = Number(ds['modalidade']);
    if (modalidade <= 2) {
      const dates = (Array.isArray(ds['descontoDataFixa']) ? ds['descontoDataFixa'] : []) as Json[];
      // Sorted by the date as written: of two dates that roll to the same day, the earlier one counts.
      const hit = dates
        .map((d) => ({ data: d['data'] as string, d }))
        .sort((a, b) => a.data.localeCompare(b.data))
        .find(({ data }) => roll(data, open) >= day);
      if (hit) desconto = modalidade === 1 ? rate(hit.d) : percentOf(original, rate(hit.d));
    } else if (day < due) {
      const early = days(day, due, modalidade === 4 || modalidade === 6);
      desconto = modalidade <= 4 ? rate(ds) * early : percentOf(original, rate(ds), early);
    }
  }
  if (day > due) {
    const mt = part('multa');
    if (mt) multa = Number(mt['modalidade']) === 1 ? rate(mt) : percentOf(original, rate(mt));
    const jr = part('juros');
    if (jr) {
      const modalidade = Number(jr['modalidade']);
      const late = days(due, day, modalidade >= 5);
      juros =
        modalidade === 1 || modalidade === 5
          ? rate(jr) * late
          : percentOf(original, rate(jr), late, PER_DAY_DIVISOR[modalidade] ?? 1);
    }
  }
  desconto = Math.max(0, Math.min(desconto, original - abatimento - 1));
  const final = Math.max(0, original - abatimento - desconto + multa + juros);
  const out: { final: string } & Record<string, string> = { original: fromCents(original), final: fromCents(final) };
  if (ab) out['abatimento'] = fromCents(abatimento);
  if (ds) out['desconto'] = fromCents(desconto);
  if (part('multa')) out['multa'] = fromCents(multa);
  if (part('juros')) out['juros'] = fromCents(juros);
  return out;
}
