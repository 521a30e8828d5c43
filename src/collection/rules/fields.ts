/**
 * The request rules of the interface spec's "Violations", as the client judges them before sending, live in
 * `collection/rules/`: one file per charge kind (`cob`, `cobv`, `lotecobv`), the list-query and path
 * rules (`query`), and here the fields and predicates they share. A rule appends to the
 * `RuleContext` it is given a `Violacao` named the way the service names it
 * (`cob.calendario.expiracao`, `cobv.devedor`, `loteCobV.cobsV[3].valor.original`); the
 * resource base refuses with the endpoint's 400 class when any rule was broken.
 *
 * Hand-written checks rather than zod: every rule needs a service-shaped `propriedade` and a
 * per-endpoint class, and a 10,000-charge batch must be judged in a few milliseconds.
 * Values are only echoed in `violacoes[].valor` for non-personal fields (numbers, dates, money,
 * txids); documents, names, keys and free text never are.
 */
import { isRecord } from '../../internal/json.ts';
import { isHttpsOrLoopback, type RuleContext } from '../../core/validation.ts';
import { isValidCnpj, isValidCpf } from '../../lib/documents.ts';
import { isValidKey } from '../../lib/keys.ts';
import { MONEY_PATTERN } from '../../lib/money.ts';

export type Fields = Record<string, unknown>;

/** `create`: PUT/POST bodies (required fields enforced); `revise`: PATCH bodies (all optional). */
export type ChargeMode = 'create' | 'revise';

export const REMOVAL_STATUS = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';

const INT32_MAX = 2_147_483_647;

/** A CPF as the schema writes it: 11 digits (the charges' rules also check its check digits). */
export const CPF_PATTERN = /^\d{11}$/;
/** A CNPJ as the schema writes it: 14 of `[0-9A-Z]` (numeric or alphanumeric). */
export const CNPJ_PATTERN = /^[0-9A-Z]{14}$/;

/** True when `value` is a string that `pattern` matches. */
export function matches(value: unknown, pattern: RegExp): value is string {
  return typeof value === 'string' && pattern.test(value);
}

export function isInt(value: unknown, min: number, max = INT32_MAX): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** An optional `modalidadeAlteracao`: absent, 0 or 1. */
export function isOptionalFlag(value: unknown): boolean {
  return value === undefined || value === 0 || value === 1;
}

export function isMoney(value: unknown): value is string {
  return typeof value === 'string' && MONEY_PATTERN.test(value);
}

/**
 * `chave` (reported at `propriedade`): a valid directory key, at most 77 characters; with
 * `owned`, one of `ownKeys` when the client has them.
 */
export function checkChave(
  chave: unknown,
  propriedade: string,
  ctx: RuleContext,
  rule: { required: boolean; owned: boolean },
): void {
  if (chave === undefined) {
    if (rule.required) ctx.add(propriedade, 'chave is required');
  } else if (!isValidKey(chave)) {
    ctx.add(
      propriedade,
      'chave is not a valid directory key (CPF, CNPJ, +phone, lowercase e-mail or lowercase EVP, at most 77 characters)',
    );
  } else if (rule.owned && ctx.ownKeys !== undefined && !ctx.ownKeys.includes(chave)) {
    ctx.add(propriedade, "chave is not one of the receiving user's keys (ownKeys)");
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
export function checkDevedor(
  devedor: unknown,
  root: string,
  ctx: RuleContext,
  required: boolean,
  withAddress: boolean,
): void {
  const p = `${root}.devedor`;
  if (devedor === undefined) {
    if (required) ctx.add(p, 'devedor is required');
    return;
  }
  if (!isRecord(devedor)) return ctx.add(p, 'devedor must be an object');
  const { cpf, cnpj, nome } = devedor;
  if (cpf !== undefined && cnpj !== undefined) ctx.add(p, 'devedor takes cpf or cnpj, not both');
  else if (cpf === undefined && cnpj === undefined) ctx.add(p, 'devedor needs cpf or cnpj');
  else if (cpf !== undefined && !isValidCpf(cpf))
    ctx.add(p, 'devedor.cpf is not a valid CPF (11 digits, check digits)');
  else if (cnpj !== undefined && !isValidCnpj(cnpj)) {
    ctx.add(p, 'devedor.cnpj is not a valid CNPJ (14 characters of 0-9/A-Z, check digits)');
  }
  if (!isText(nome, 200)) ctx.add(p, 'devedor.nome is required, at most 200 characters');
  if (withAddress) checkAddress(devedor, p, ctx);
}

/**
 * A debtor's optional e-mail and address (`DadosComplementares`, reported at `p`): `email` a
 * string, `logradouro` (200), `cidade` (200), `uf` (2) and `cep` (8) strings of at most that many
 * characters. Shared by due-date and recurring charges.
 */
export function checkAddress(devedor: Fields, p: string, ctx: RuleContext): void {
  if (devedor['email'] !== undefined && typeof devedor['email'] !== 'string')
    ctx.add(p, 'devedor.email must be a string');
  for (const [field, max] of ADDRESS_LIMITS) {
    const value = devedor[field];
    if (value !== undefined && !isText(value, max))
      ctx.add(p, `devedor.${field} must be a string of at most ${max} characters`);
  }
}

/** A callback URL (`webhookUrl`): an absolute https URL (http on loopback only), no user name or password. */
export function checkWebhookUrl(webhookUrl: unknown, ctx: RuleContext): void {
  if (!isCallbackUrl(webhookUrl)) {
    ctx.add(
      'webhookUrl',
      'webhookUrl must be an absolute https URL (http on loopback only) without user name or password',
    );
  }
}

function isCallbackUrl(webhookUrl: unknown): boolean {
  if (typeof webhookUrl !== 'string' || !/^https?:\/\//i.test(webhookUrl)) return false;
  try {
    const url = new URL(webhookUrl);
    return isHttpsOrLoopback(url) && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `solicitacaoPagador` (at most 140), `infoAdicionais` (at most 50 of `{nome ≤ 50, valor ≤ 200}`), `loc.id`. */
export function checkCommon(body: Fields, root: string, ctx: RuleContext): void {
  const solicitacao = body['solicitacaoPagador'];
  if (solicitacao !== undefined && !isText(solicitacao, 140)) {
    ctx.add(`${root}.solicitacaoPagador`, 'solicitacaoPagador must be a string of at most 140 characters');
  }
  const info = body['infoAdicionais'];
  if (info !== undefined) {
    if (!Array.isArray(info)) ctx.add(`${root}.infoAdicionais`, 'infoAdicionais must be an array');
    else {
      if (info.length > 50) ctx.add(`${root}.infoAdicionais`, 'infoAdicionais holds at most 50 items', info.length);
      for (let i = 0; i < info.length; i++) {
        const item: unknown = info[i];
        if (!isRecord(item) || !isText(item['nome'], 50) || !isText(item['valor'], 200)) {
          ctx.add(
            `${root}.infoAdicionais`,
            `infoAdicionais[${i}] needs nome (at most 50 characters) and valor (at most 200)`,
          );
        }
      }
    }
  }
  const loc = body['loc'];
  if (loc !== undefined) {
    if (!isRecord(loc)) ctx.add(`${root}.loc`, 'loc must be an object { id }');
    else if (!isInt(loc['id'], 1, Number.MAX_SAFE_INTEGER))
      ctx.add(`${root}.loc.id`, 'loc.id must be a positive integer', loc['id']);
  }
}

/**
 * PATCH: `status` may only be `REMOVIDA_PELO_USUARIO_RECEBEDOR`, and only with no other change
 * in the same request (`txid`, which names a batch item, is not a change).
 */
export function checkRemoval(body: Fields, root: string, ctx: RuleContext): void {
  const status = body['status'];
  if (status === undefined) return;
  if (status !== REMOVAL_STATUS) {
    ctx.add(`${root}.status`, `status can only be set to ${REMOVAL_STATUS}`, status);
    return;
  }
  for (const key in body) {
    if (key !== 'status' && key !== 'txid' && body[key] !== undefined) {
      ctx.add(`${root}.status`, `${REMOVAL_STATUS} cannot be combined with other changes`);
      return;
    }
  }
}
