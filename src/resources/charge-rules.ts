/**
 * The request rules of spec section 7.3 for immediate charges (cob), due-date charges (cobv) and
 * batches (lotecobv), each written once and shared by the three resources (and the list-query
 * rules by any other list). A rule appends a `Violacao` named the way the service names it
 * (`cob.calendario.expiracao`, `cobv.devedor`, `loteCobV.cobsV[3].valor.original`); the
 * resource throws the class the service would answer with when any rule was broken.
 *
 * Hand-written checks rather than zod: every rule needs a service-shaped `propriedade` and a
 * per-endpoint class, and a 10,000-charge batch must be judged in a few milliseconds.
 * Values are only echoed in `violacoes[].valor` for non-personal fields (numbers, dates, money,
 * txids); documents, names, keys and free text never are.
 */
import type { ApiErrorClass, StatusFallback, Violacao } from '../core/errors.ts';
import type { HttpCore, QueryValue, RequestOptions } from '../core/http.ts';
import { PagePromise, toPage, type PageLoader, type PageParametros } from '../core/pagination.ts';
import type { RoutePath } from '../core/path.ts';
import { refuse, violation } from '../core/validation.ts';
import { isCivilDate, isRfc3339, todayInBrasilia } from '../lib/dates.ts';
import { isValidCnpj, isValidCpf } from '../lib/documents.ts';
import { isValidTxid } from '../lib/ids.ts';
import { isValidKey } from '../lib/keys.ts';
import { MONEY_PATTERN, toCents } from '../lib/money.ts';

/** `create`: PUT/POST bodies (required fields enforced); `revise`: PATCH bodies (all optional). */
export type ChargeMode = 'create' | 'revise';

/** Where broken rules are collected, and what the rules compare against. */
export interface RuleContext {
  readonly out: Violacao[];
  /** The receiving user's keys: when given, `chave` must be one of them. */
  readonly ownKeys: readonly string[] | undefined;
}

export const REMOVAL_STATUS = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';

const INT32_MAX = 2_147_483_647;
const HUNDRED_PERCENT = 10_000; // "100.00" in cents
const ISPB = /^[0-9A-Z]{8}$/;
const CPF_QUERY = /^\d{11}$/;
const CNPJ_QUERY = /^[0-9A-Z]{14}$/;
const SAQUE_AGENTS: readonly unknown[] = ['AGTEC', 'AGTOT', 'AGPSS'];
const TROCO_AGENTS: readonly unknown[] = ['AGTEC', 'AGTOT'];

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInt(value: unknown, min: number, max = INT32_MAX): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** An optional `modalidadeAlteracao`: absent, 0 or 1. */
function isOptionalFlag(value: unknown): boolean {
  return value === undefined || value === 0 || value === 1;
}

function isMoney(value: unknown): value is string {
  return typeof value === 'string' && MONEY_PATTERN.test(value);
}

function add(ctx: RuleContext, propriedade: string, razao: string, valor?: unknown): void {
  ctx.out.push(violation(propriedade, razao, valor));
}

/** A fresh context for one request. */
export function ruleContext(ownKeys: readonly string[] | undefined): RuleContext {
  return { out: [], ownKeys };
}

// ---------------------------------------------------------------------------------------------
// Fields shared by cob and cobv

/** `chave`: a valid directory key, at most 77 characters, one of `ownKeys` when given. */
export function checkChave(chave: unknown, root: string, ctx: RuleContext, required: boolean): void {
  if (chave === undefined) {
    if (required) add(ctx, `${root}.chave`, 'chave is required');
  } else if (!isValidKey(chave as string)) {
    add(
      ctx,
      `${root}.chave`,
      'chave is not a valid directory key (CPF, CNPJ, +phone, lowercase e-mail or lowercase EVP, at most 77 characters)',
    );
  } else if (ctx.ownKeys !== undefined && !ctx.ownKeys.includes(chave as string)) {
    add(ctx, `${root}.chave`, "chave is not one of the receiving user's keys (ownKeys)");
  }
}

const ADDRESS_LIMITS = [
  ['logradouro', 200],
  ['cidade', 200],
  ['uf', 2],
  ['cep', 8],
] as const;

/**
 * `devedor`: exactly one of `cpf` (11 digits, check digits) or `cnpj` (14 of `[0-9A-Z]`, numeric
 * or alphanumeric, check digits), and `nome` (at most 200). A due-date charge's debtor may also
 * carry `email`, `logradouro` (200), `cidade` (200), `uf` (2) and `cep` (8).
 */
export function checkDevedor(devedor: unknown, root: string, ctx: RuleContext, required: boolean, withAddress: boolean): void {
  const p = `${root}.devedor`;
  if (devedor === undefined) {
    if (required) add(ctx, p, 'devedor is required');
    return;
  }
  if (!isRecord(devedor)) return add(ctx, p, 'devedor must be an object');
  const { cpf, cnpj, nome } = devedor;
  if (cpf !== undefined && cnpj !== undefined) add(ctx, p, 'devedor takes cpf or cnpj, not both');
  else if (cpf === undefined && cnpj === undefined) add(ctx, p, 'devedor needs cpf or cnpj');
  else if (cpf !== undefined && !isValidCpf(cpf as string)) add(ctx, p, 'devedor.cpf is not a valid CPF (11 digits, check digits)');
  else if (cnpj !== undefined && !isValidCnpj(cnpj as string)) {
    add(ctx, p, 'devedor.cnpj is not a valid CNPJ (14 characters of 0-9/A-Z, check digits)');
  }
  if (!isText(nome, 200)) add(ctx, p, 'devedor.nome is required, at most 200 characters');
  if (!withAddress) return;
  if (devedor['email'] !== undefined && typeof devedor['email'] !== 'string') add(ctx, p, 'devedor.email must be a string');
  for (const [field, max] of ADDRESS_LIMITS) {
    const value = devedor[field];
    if (value !== undefined && !isText(value, max)) add(ctx, p, `devedor.${field} must be a string of at most ${max} characters`);
  }
}

/** `solicitacaoPagador` (at most 140), `infoAdicionais` (at most 50 of `{nome ≤ 50, valor ≤ 200}`), `loc.id`. */
function checkCommon(body: Fields, root: string, ctx: RuleContext): void {
  const solicitacao = body['solicitacaoPagador'];
  if (solicitacao !== undefined && !isText(solicitacao, 140)) {
    add(ctx, `${root}.solicitacaoPagador`, 'solicitacaoPagador must be a string of at most 140 characters');
  }
  const info = body['infoAdicionais'];
  if (info !== undefined) {
    if (!Array.isArray(info)) add(ctx, `${root}.infoAdicionais`, 'infoAdicionais must be an array');
    else {
      if (info.length > 50) add(ctx, `${root}.infoAdicionais`, 'infoAdicionais holds at most 50 items', info.length);
      for (let i = 0; i < info.length; i++) {
        const item: unknown = info[i];
        if (!isRecord(item) || !isText(item['nome'], 50) || !isText(item['valor'], 200)) {
          add(ctx, `${root}.infoAdicionais`, `infoAdicionais[${i}] needs nome (at most 50 characters) and valor (at most 200)`);
        }
      }
    }
  }
  const loc = body['loc'];
  if (loc !== undefined) {
    if (!isRecord(loc)) add(ctx, `${root}.loc`, 'loc must be an object { id }');
    else if (!(Number.isSafeInteger(loc['id']) && (loc['id'] as number) > 0)) {
      add(ctx, `${root}.loc.id`, 'loc.id must be a positive integer', loc['id']);
    }
  }
}

/**
 * PATCH: `status` may only be `REMOVIDA_PELO_USUARIO_RECEBEDOR`, and only with no other change
 * in the same request (`txid`, which names a batch item, is not a change).
 */
function checkRemoval(body: Fields, root: string, ctx: RuleContext): void {
  const status = body['status'];
  if (status === undefined) return;
  if (status !== REMOVAL_STATUS) {
    add(ctx, `${root}.status`, `status can only be set to ${REMOVAL_STATUS}`, status);
    return;
  }
  for (const key in body) {
    if (key !== 'status' && key !== 'txid' && body[key] !== undefined) {
      add(ctx, `${root}.status`, `${REMOVAL_STATUS} cannot be combined with other changes`);
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Immediate charge (cob)

/**
 * A cob body (`CobSolicitada` when creating, `CobRevisada` when revising) under `root`.
 * `valor.original` zero is refused on creation except for the two official exceptions: an
 * alterable charge (`modalidadeAlteracao` 1) and a withdrawal (`retirada.saque`, where it must
 * be "0.00"). A revision's zero is left to the service, which knows the charge it revises.
 */
export function checkCob(body: unknown, root: string, ctx: RuleContext, mode: ChargeMode): void {
  if (!isRecord(body)) return add(ctx, root, 'the charge must be an object');
  if (mode === 'revise') checkRemoval(body, root, ctx);
  const calendario = body['calendario'];
  if (calendario !== undefined) {
    if (!isRecord(calendario)) add(ctx, `${root}.calendario`, 'calendario must be an object');
    else if (calendario['expiracao'] !== undefined && !isInt(calendario['expiracao'], 1)) {
      add(ctx, `${root}.calendario.expiracao`, 'expiracao must be an integer number of seconds greater than zero', calendario['expiracao']);
    }
  }
  checkDevedor(body['devedor'], root, ctx, false, false);
  checkCobValor(body['valor'], `${root}.valor`, ctx, mode);
  checkChave(body['chave'], root, ctx, mode === 'create');
  checkCommon(body, root, ctx);
}

function checkCobValor(valor: unknown, p: string, ctx: RuleContext, mode: ChargeMode): void {
  if (valor === undefined) {
    if (mode === 'create') add(ctx, `${p}.original`, 'valor.original is required');
    return;
  }
  if (!isRecord(valor)) return add(ctx, p, 'valor must be an object');
  const { original, modalidadeAlteracao, retirada } = valor;
  if (!isOptionalFlag(modalidadeAlteracao)) {
    add(ctx, `${p}.modalidadeAlteracao`, 'modalidadeAlteracao must be 0 or 1', modalidadeAlteracao);
  }
  const kind = retirada === undefined ? undefined : checkRetirada(retirada, `${p}.retirada`, ctx);
  if (kind !== undefined && modalidadeAlteracao === 1) {
    add(ctx, `${p}.modalidadeAlteracao`, 'a charge with retirada cannot have an alterable original (modalidadeAlteracao 0)');
  }
  if (original === undefined) {
    if (mode === 'create') add(ctx, `${p}.original`, 'valor.original is required');
  } else if (!isMoney(original)) {
    add(ctx, `${p}.original`, 'valor.original must match ^\\d{1,10}\\.\\d{2}$', original);
  } else {
    const zero = toCents(original) === 0;
    if (kind === 'saque') {
      if (!zero) add(ctx, `${p}.original`, 'valor.original must be 0.00 for a withdrawal (retirada.saque)', original);
    } else if (kind === 'troco') {
      if (zero) add(ctx, `${p}.original`, 'valor.original must be greater than zero with retirada.troco', original);
    } else if (zero && mode === 'create' && modalidadeAlteracao !== 1) {
      add(ctx, `${p}.original`, 'valor.original must not be zero (unless modalidadeAlteracao is 1)', original);
    }
  }
}

/** `retirada`: exactly one of `saque`/`troco`, each `{valor, modalidadeAlteracao?, modalidadeAgente, prestadorDoServicoDeSaque}`. */
function checkRetirada(retirada: unknown, p: string, ctx: RuleContext): 'saque' | 'troco' | undefined {
  if (!isRecord(retirada)) {
    add(ctx, p, 'retirada must be an object');
    return undefined;
  }
  const { saque, troco } = retirada;
  if ((saque === undefined) === (troco === undefined)) {
    add(ctx, p, 'retirada takes exactly one of saque or troco');
    return undefined;
  }
  const kind = saque === undefined ? 'troco' : 'saque';
  const item = saque ?? troco;
  const agents = kind === 'saque' ? SAQUE_AGENTS : TROCO_AGENTS;
  if (
    !isRecord(item) ||
    !isMoney(item['valor']) ||
    !isOptionalFlag(item['modalidadeAlteracao']) ||
    !agents.includes(item['modalidadeAgente']) ||
    typeof item['prestadorDoServicoDeSaque'] !== 'string' ||
    !ISPB.test(item['prestadorDoServicoDeSaque'])
  ) {
    add(
      ctx,
      `${p}.${kind}`,
      `retirada.${kind} needs valor (money), modalidadeAgente (${agents.join(', ')}), prestadorDoServicoDeSaque (ISPB, 8 of 0-9/A-Z) and modalidadeAlteracao 0 or 1 if given`,
    );
  }
  return kind;
}

// ---------------------------------------------------------------------------------------------
// Due-date charge (cobv)

/**
 * A cobv body (`CobVSolicitada` or `CobVRevisada`) under `root`. `notBefore` is the earliest
 * `dataDeVencimento` the service would accept: the charge's creation date in Brasília (today,
 * when creating); `undefined` when unknown (a revision), and then the date is not compared.
 */
export function checkCobV(body: unknown, root: string, ctx: RuleContext, mode: ChargeMode, notBefore: string | undefined): void {
  if (!isRecord(body)) return add(ctx, root, 'the charge must be an object');
  if (mode === 'revise') checkRemoval(body, root, ctx);
  const due = checkCobVCalendario(body['calendario'], `${root}.calendario`, ctx, mode, notBefore);
  checkDevedor(body['devedor'], root, ctx, mode === 'create', true);
  checkCobVValor(body['valor'], `${root}.valor`, ctx, mode, due);
  checkChave(body['chave'], root, ctx, mode === 'create');
  checkCommon(body, root, ctx);
}

/** Returns the due date when it is a valid civil date, for the discount-date rule. */
function checkCobVCalendario(
  calendario: unknown,
  p: string,
  ctx: RuleContext,
  mode: ChargeMode,
  notBefore: string | undefined,
): string | undefined {
  if (calendario === undefined) {
    if (mode === 'create') add(ctx, `${p}.dataDeVencimento`, 'calendario.dataDeVencimento is required');
    return undefined;
  }
  if (!isRecord(calendario)) {
    add(ctx, p, 'calendario must be an object');
    return undefined;
  }
  let due: string | undefined;
  const date = calendario['dataDeVencimento'];
  if (date === undefined) {
    if (mode === 'create') add(ctx, `${p}.dataDeVencimento`, 'calendario.dataDeVencimento is required');
  } else if (!isCivilDate(date as string)) {
    add(ctx, `${p}.dataDeVencimento`, 'dataDeVencimento must be a YYYY-MM-DD calendar date', date);
  } else {
    due = date as string;
    if (notBefore !== undefined && due < notBefore) {
      add(ctx, `${p}.dataDeVencimento`, `dataDeVencimento is before the charge's creation date (${notBefore}, Brasília)`, due);
    }
  }
  const validade = calendario['validadeAposVencimento'];
  if (validade !== undefined && !isInt(validade, 0)) {
    add(ctx, `${p}.validadeAposVencimento`, 'validadeAposVencimento must be an integer number of days, zero or more', validade);
  }
  return due;
}

/**
 * `valor` of a due-date charge: `original` (money, not zero), `multa` (modalidade 1-2),
 * `juros` (1-8), `abatimento` (1-2) each with `valorPerc`, and `desconto` (1-2 with 1 to 3
 * `descontoDataFixa` dated no later than the due date, 3-6 with `valorPerc`). Amounts of
 * abatimento and discounts stay below `original`; their percentages below 100.
 */
function checkCobVValor(valor: unknown, p: string, ctx: RuleContext, mode: ChargeMode, due: string | undefined): void {
  if (valor === undefined) {
    if (mode === 'create') add(ctx, `${p}.original`, 'valor.original is required');
    return;
  }
  if (!isRecord(valor)) return add(ctx, p, 'valor must be an object');
  const { original, multa, juros, abatimento, desconto } = valor;
  let originalCents: number | undefined;
  if (original === undefined) {
    if (mode === 'create') add(ctx, `${p}.original`, 'valor.original is required');
  } else if (!isMoney(original)) {
    add(ctx, `${p}.original`, 'valor.original must match ^\\d{1,10}\\.\\d{2}$', original);
  } else if ((originalCents = toCents(original)) === 0) {
    add(ctx, `${p}.original`, 'valor.original must not be zero', original);
  }
  if (multa !== undefined) checkModalidadeValor(multa, `${p}.multa`, ctx, 2);
  if (juros !== undefined) checkModalidadeValor(juros, `${p}.juros`, ctx, 8);
  if (abatimento !== undefined) {
    const cents = checkModalidadeValor(abatimento, `${p}.abatimento`, ctx, 2);
    if (cents !== undefined) {
      checkBelow(cents, (abatimento as Fields)['modalidade'] === 1, originalCents, `${p}.abatimento`, 'abatimento', ctx);
    }
  }
  if (desconto !== undefined) checkDesconto(desconto, `${p}.desconto`, ctx, originalCents, due);
}

/** `{modalidade 1..max, valorPerc money}`; returns `valorPerc` in cents when all is well. */
function checkModalidadeValor(value: unknown, p: string, ctx: RuleContext, max: number): number | undefined {
  if (!isRecord(value) || !isInt(value['modalidade'], 1, max) || !isMoney(value['valorPerc'])) {
    const name = p.slice(p.lastIndexOf('.') + 1);
    add(ctx, p, `${name} needs modalidade (1 to ${max}) and valorPerc (^\\d{1,10}\\.\\d{2}$)`);
    return undefined;
  }
  return toCents(value['valorPerc']);
}

/** An amount (`isAmount`) must stay below `original`; a percentage below 100 %. */
function checkBelow(cents: number, isAmount: boolean, originalCents: number | undefined, p: string, name: string, ctx: RuleContext): void {
  if (isAmount) {
    if (originalCents !== undefined && cents >= originalCents) add(ctx, p, `${name} must be less than valor.original`);
  } else if (cents >= HUNDRED_PERCENT) {
    add(ctx, p, `${name} must be less than 100%`);
  }
}

function checkDesconto(desconto: unknown, p: string, ctx: RuleContext, originalCents: number | undefined, due: string | undefined): void {
  if (!isRecord(desconto) || !isInt(desconto['modalidade'], 1, 6)) {
    return add(ctx, p, 'desconto needs modalidade 1 to 6');
  }
  const modalidade = desconto['modalidade'];
  const { valorPerc, descontoDataFixa } = desconto;
  if (modalidade <= 2) {
    // 1: fixed amount up to each date; 2: percentage up to each date.
    if (valorPerc !== undefined) add(ctx, p, 'desconto with modalidade 1 or 2 takes descontoDataFixa, not valorPerc');
    if (!Array.isArray(descontoDataFixa) || descontoDataFixa.length === 0 || descontoDataFixa.length > 3) {
      return add(ctx, p, 'desconto with modalidade 1 or 2 needs 1 to 3 descontoDataFixa items');
    }
    const dates = new Set<string>();
    for (let i = 0; i < descontoDataFixa.length; i++) {
      const item: unknown = descontoDataFixa[i];
      const q = `desconto.descontoDataFixa[${i}]`;
      if (!isRecord(item) || !isCivilDate(item['data'] as string) || !isMoney(item['valorPerc'])) {
        add(ctx, p, `${q} needs data (YYYY-MM-DD) and valorPerc (^\\d{1,10}\\.\\d{2}$)`);
        continue;
      }
      const data = item['data'] as string;
      if (dates.has(data)) add(ctx, p, `${q}.data repeats an earlier date`, data);
      dates.add(data);
      if (due !== undefined && data > due) add(ctx, p, `${q}.data is after calendario.dataDeVencimento`, data);
      checkBelow(toCents(item['valorPerc']), modalidade === 1, originalCents, p, q, ctx);
    }
  } else {
    // 3, 4: amount per day early; 5, 6: percentage per day early.
    if (descontoDataFixa !== undefined) add(ctx, p, 'desconto with modalidade 3 to 6 takes valorPerc, not descontoDataFixa');
    if (!isMoney(valorPerc)) return add(ctx, p, 'desconto with modalidade 3 to 6 needs valorPerc (^\\d{1,10}\\.\\d{2}$)');
    checkBelow(toCents(valorPerc), modalidade <= 4, originalCents, p, 'desconto', ctx);
  }
}

// ---------------------------------------------------------------------------------------------
// Batch (lotecobv)

/**
 * A batch body: `descricao` (required when creating), `cobsv` (non-empty when creating), each
 * item a due-date charge with a valid `txid`, no txid twice. Item rules are named under
 * `loteCobV.cobsV[i]`. `notBefore(txid)` gives an item's earliest accepted due date.
 */
export function checkLoteCobV(
  body: unknown,
  ctx: RuleContext,
  mode: ChargeMode,
  notBefore: (txid: string) => string | undefined,
): void {
  if (!isRecord(body)) return add(ctx, 'loteCobV', 'the batch must be an object');
  const { descricao, cobsv } = body;
  if (descricao === undefined ? mode === 'create' : typeof descricao !== 'string') {
    add(ctx, 'loteCobV.descricao', 'descricao is required, a string');
  }
  if (cobsv === undefined) {
    if (mode === 'create') add(ctx, 'loteCobV.cobsV', 'cobsv is required, with at least one charge');
    return;
  }
  if (!Array.isArray(cobsv) || (mode === 'create' && cobsv.length === 0)) {
    return add(ctx, 'loteCobV.cobsV', 'cobsv must be an array with at least one charge');
  }
  const seen = new Set<string>();
  for (let i = 0; i < cobsv.length; i++) {
    const item: unknown = cobsv[i];
    const root = `loteCobV.cobsV[${i}]`;
    const txid = isRecord(item) ? item['txid'] : undefined;
    if (!isValidTxid(txid as string)) add(ctx, `${root}.txid`, 'txid must be 26 to 35 letters or digits', txid);
    else if (seen.has(txid as string)) add(ctx, `${root}.txid`, 'txid appears twice in the batch', txid);
    else seen.add(txid as string);
    checkCobV(item, root, ctx, mode, typeof txid === 'string' ? notBefore(txid) : undefined);
  }
}

/**
 * An alteration of an existing batch against its original charges: `exact` (PUT) must list
 * exactly the original txids; otherwise (PATCH) any subset of them.
 */
export function checkBatchMembership(body: unknown, original: ReadonlySet<string>, exact: boolean, ctx: RuleContext): void {
  const cobsv = isRecord(body) && Array.isArray(body['cobsv']) ? (body['cobsv'] as unknown[]) : [];
  const listed = new Set<string>();
  for (let i = 0; i < cobsv.length; i++) {
    const item = cobsv[i];
    const txid = isRecord(item) ? item['txid'] : undefined;
    if (typeof txid !== 'string') continue;
    listed.add(txid);
    if (!original.has(txid)) add(ctx, `loteCobV.cobsV[${i}].txid`, 'txid is not a charge of this batch; a batch cannot gain charges', txid);
  }
  if (!exact) return;
  let missing = 0;
  for (const txid of original) if (!listed.has(txid)) missing++;
  if (missing > 0) {
    add(ctx, 'loteCobV.cobsV', `an alteration must list every charge of the batch; ${missing} of ${original.size} missing`);
  }
}

/** The Brasília date of an RFC 3339 instant, or `undefined` when it is not one. */
export function brasiliaDateOf(instant: unknown): string | undefined {
  return typeof instant === 'string' && isRfc3339(instant) ? todayInBrasilia(new Date(instant)) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Path and query parameters

/** A charge txid in a path: 26 to 35 letters or digits (propriedade `txid`). */
export function checkTxid(txid: unknown, ctx: RuleContext): void {
  if (!isValidTxid(txid as string)) add(ctx, 'txid', 'txid must be 26 to 35 letters or digits', txid);
}

/** `revisao` of GET /cob/{txid} and /cobv/{txid}: an integer, zero or more. */
export function checkRevisao(revisao: unknown, ctx: RuleContext): void {
  if (revisao !== undefined && !isInt(revisao, 0)) add(ctx, 'revisao', 'revisao must be an integer, zero or more', revisao);
}

/**
 * Collects the list-query rules into `ctx`: `inicio` and `fim` RFC 3339 (required unless
 * `requireRange` is false), `fim` not before `inicio`, `cpf` (11 digits) and `cnpj` (14 of
 * `[0-9A-Z]`) not both, `paginacao.paginaAtual` ≥ 0, `paginacao.itensPorPagina` 1 to 1000.
 * Properties are named as the query parameters are, prefixed with `root.` when given.
 */
export function collectListQuery(query: unknown, ctx: RuleContext, root = '', requireRange = true): void {
  const at = (name: string) => (root === '' ? name : `${root}.${name}`);
  if (query === undefined && !requireRange) return;
  if (!isRecord(query)) return add(ctx, at('inicio'), 'the query must be an object with inicio and fim');
  const { inicio, fim, cpf, cnpj, paginacao } = query;
  const start = checkInstant(inicio, at('inicio'), ctx, requireRange);
  const end = checkInstant(fim, at('fim'), ctx, requireRange);
  if (start !== undefined && end !== undefined && end < start) add(ctx, at('fim'), 'fim is earlier than inicio', fim);
  if (cpf !== undefined && cnpj !== undefined) add(ctx, at('cpf'), 'cpf and cnpj cannot both be given');
  else if (cpf !== undefined && !(typeof cpf === 'string' && CPF_QUERY.test(cpf))) add(ctx, at('cpf'), 'cpf must be 11 digits');
  else if (cnpj !== undefined && !(typeof cnpj === 'string' && CNPJ_QUERY.test(cnpj))) {
    add(ctx, at('cnpj'), 'cnpj must be 14 characters of 0-9/A-Z');
  }
  if (paginacao === undefined) return;
  if (!isRecord(paginacao)) return add(ctx, at('paginacao'), 'paginacao must be an object');
  const { paginaAtual, itensPorPagina } = paginacao;
  if (paginaAtual !== undefined && !isInt(paginaAtual, 0)) {
    add(ctx, at('paginacao.paginaAtual'), 'paginacao.paginaAtual must be an integer, zero or more', paginaAtual);
  }
  if (itensPorPagina !== undefined && !isInt(itensPorPagina, 1, 1000)) {
    add(ctx, at('paginacao.itensPorPagina'), 'paginacao.itensPorPagina must be an integer from 1 to 1000', itensPorPagina);
  }
}

function checkInstant(value: unknown, p: string, ctx: RuleContext, required: boolean): number | undefined {
  if (value === undefined) {
    if (required) add(ctx, p, `${p.slice(p.lastIndexOf('.') + 1)} is required (RFC 3339 date-time)`);
    return undefined;
  }
  if (!isRfc3339(value as string)) {
    add(ctx, p, 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z', value);
    return undefined;
  }
  return Date.parse(value as string);
}

/**
 * Throws `ErrorClass` (e.g. `CobConsultaInvalida`, `WebhookConsultaInvalida`) when `query`
 * breaks a list-query rule (see `collectListQuery`); for any list resource.
 */
export function checkListQuery(
  query: unknown,
  ErrorClass: ApiErrorClass<string>,
  root = '',
  options: { requireRange?: boolean } = {},
): void {
  const ctx = ruleContext(undefined);
  collectListQuery(query, ctx, root, options.requireRange ?? true);
  refuse(ErrorClass, ctx.out);
}

/**
 * A list query in wire form: its scalar fields as they are, `paginacao` flattened to
 * `paginacao.paginaAtual` and `paginacao.itensPorPagina`; `page` overrides the page.
 */
export function listQueryParams(query: object | undefined, page?: number): Record<string, QueryValue> {
  const params: Record<string, QueryValue> = {};
  const fields = (query ?? {}) as Fields;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[key] = value;
  }
  const paginacao = isRecord(fields['paginacao']) ? fields['paginacao'] : {};
  params['paginacao.paginaAtual'] = (page ?? paginacao['paginaAtual']) as QueryValue;
  params['paginacao.itensPorPagina'] = paginacao['itensPorPagina'] as QueryValue;
  return params;
}

/** What a list call needs: where, which array, which error for a bare 400, and the check to run first. */
export interface ListCall {
  http: HttpCore;
  path: RoutePath;
  /** The query as the caller wrote it (`paginacao` nested). */
  query: object | undefined;
  /** The list array's name in the answer (`cobs`, `lotes`, ...). */
  listKey: string;
  fallback?: StatusFallback;
  options: RequestOptions | undefined;
  /** Runs before the first page is asked for; throws to refuse (nothing is sent). */
  check?: (() => void) | undefined;
  /** Applied to each item of every page. */
  normalize?: (item: unknown) => void;
}

/** A page promise over a list endpoint: `await` = first page, `for await` = every item. */
export function listPages<T, P extends PageParametros>(call: ListCall): PagePromise<T, P> {
  const load: PageLoader<T, P> = async (page) => {
    if (page === undefined) call.check?.();
    const body = await call.http.json<unknown>({
      method: 'GET',
      path: call.path,
      query: listQueryParams(call.query, page),
      ...(call.fallback && { fallback: call.fallback }),
      options: call.options,
    });
    const normalize = call.normalize;
    if (normalize && isRecord(body) && Array.isArray(body[call.listKey])) (body[call.listKey] as unknown[]).forEach(normalize);
    return toPage<T, P>(body, call.listKey, load);
  };
  return new PagePromise<T, P>(load);
}

// ---------------------------------------------------------------------------------------------
// Responses

/**
 * Lenient response reading: the integer fields the official examples write as strings
 * (`"3600"`, modalidade `"2"`) become numbers; nothing else is touched, unknown fields and
 * enum values pass through, money stays a string. Mutates and returns the parsed body.
 */
export function normalizeCharge<T>(charge: T): T {
  if (!isRecord(charge)) return charge;
  toInteger(charge, 'revisao');
  const { calendario, valor, loc } = charge;
  if (isRecord(calendario)) {
    toInteger(calendario, 'expiracao');
    toInteger(calendario, 'validadeAposVencimento');
  }
  if (isRecord(valor)) {
    toInteger(valor, 'modalidadeAlteracao');
    for (const key of ['multa', 'juros', 'abatimento', 'desconto']) {
      const part = valor[key];
      if (isRecord(part)) toInteger(part, 'modalidade');
    }
  }
  if (isRecord(loc)) toInteger(loc, 'id');
  return charge;
}

function toInteger(record: Fields, key: string): void {
  const value = record[key];
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) record[key] = Number(value);
}
