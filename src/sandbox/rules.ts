/**
 * The sandbox's own judge of requests (spec sections 2, 3 and 7.3). It is written apart from the
 * client's checks on purpose: with the client's `validate: false` this is what stands between a
 * bad request and the state, so it must catch every violation by itself. It names each broken
 * rule the way the service does (`cob.valor.original`, `loteCobV.cobsV[2].txid`), so that the
 * client-side refusal and the service's answer carry the same `violacoes`.
 *
 * Rules that need state (the location exists, the charge's creation date, own keys) take it from
 * the `Judge`'s context; everything is collected, nothing throws.
 */
import { isRecord } from '../internal/json.ts';
import type { Violacao } from '../errors/base.ts';
import { isCivilDate, isRfc3339 } from '../lib/dates.ts';
import { isValidCnpj, isValidCpf } from '../lib/documents.ts';
import { isValidTxid } from '../lib/ids.ts';
import { isValidKey } from '../lib/keys.ts';
import { MONEY_PATTERN, toCents } from '../lib/money.ts';

export type Json = Record<string, unknown>;

export const REMOVED_BY_USER = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';

/** A JSON object (not null, not an array). */
export const isObject: (value: unknown) => value is Json = isRecord;

const isMoney = (v: unknown): v is string => typeof v === 'string' && MONEY_PATTERN.test(v);
const isString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const isInteger = (v: unknown, min: number, max = 2_147_483_647): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const ISPB = /^[0-9A-Z]{8}$/;

/** Collects broken rules; `valor` echoes only non-personal values. */
export class Judge {
  readonly violacoes: Violacao[] = [];
  readonly ownKeys: readonly string[];

  constructor(ownKeys: readonly string[]) {
    this.ownKeys = ownKeys;
  }

  flag(propriedade: string, razao: string, valor?: unknown): void {
    const v: Violacao = { razao, propriedade };
    if (typeof valor === 'string' || typeof valor === 'number' || typeof valor === 'boolean') v.valor = String(valor);
    this.violacoes.push(v);
  }

  get ok(): boolean {
    return this.violacoes.length === 0;
  }
}

export type Mode = 'create' | 'revise';

/** What a charge body is judged against beyond its own fields. */
export interface ChargeFacts {
  /** Earliest due date allowed (the charge's creation day in Brasília); cobv only. */
  notBefore?: string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Parts shared by both charge kinds

function judgeKey(j: Judge, body: Json, root: string, mode: Mode): void {
  const chave = body['chave'];
  if (chave === undefined) {
    if (mode === 'create') j.flag(`${root}.chave`, 'A chave é obrigatória.');
  } else if (typeof chave !== 'string' || !isValidKey(chave)) {
    j.flag(`${root}.chave`, 'A chave não respeita o formato de uma chave do diretório.');
  } else if (!j.ownKeys.includes(chave)) {
    j.flag(`${root}.chave`, 'A chave não pertence a uma conta do usuário recebedor.');
  }
}

const ADDRESS: ReadonlyArray<readonly [string, number]> = [
  ['logradouro', 200],
  ['cidade', 200],
  ['uf', 2],
  ['cep', 8],
];

function judgeDebtor(j: Judge, body: Json, root: string, required: boolean, withAddress: boolean): void {
  const at = `${root}.devedor`;
  const devedor = body['devedor'];
  if (devedor === undefined) {
    if (required) j.flag(at, 'O devedor é obrigatório.');
    return;
  }
  if (!isObject(devedor)) return j.flag(at, 'O devedor deve ser um objeto.');
  const hasCpf = devedor['cpf'] !== undefined;
  const hasCnpj = devedor['cnpj'] !== undefined;
  if (hasCpf === hasCnpj) j.flag(at, 'O devedor leva exatamente um de cpf ou cnpj.');
  else if (hasCpf ? !isValidCpf(devedor['cpf'] as string) : !isValidCnpj(devedor['cnpj'] as string)) {
    j.flag(at, hasCpf ? 'O cpf do devedor é inválido.' : 'O cnpj do devedor é inválido.');
  }
  if (!isString(devedor['nome'], 200)) j.flag(at, 'O nome do devedor é obrigatório, até 200 caracteres.');
  if (!withAddress) return;
  if (devedor['email'] !== undefined && typeof devedor['email'] !== 'string')
    j.flag(at, 'O email do devedor deve ser texto.');
  for (const [field, max] of ADDRESS) {
    if (devedor[field] !== undefined && !isString(devedor[field], max))
      j.flag(at, `O campo ${field} do devedor tem até ${max} caracteres.`);
  }
}

function judgeExtras(j: Judge, body: Json, root: string): void {
  const solicitacao = body['solicitacaoPagador'];
  if (solicitacao !== undefined && !isString(solicitacao, 140)) {
    j.flag(`${root}.solicitacaoPagador`, 'solicitacaoPagador tem até 140 caracteres.');
  }
  const info = body['infoAdicionais'];
  if (info !== undefined) {
    const fine =
      Array.isArray(info) &&
      info.length <= 50 &&
      info.every((item) => isObject(item) && isString(item['nome'], 50) && isString(item['valor'], 200));
    if (!fine) j.flag(`${root}.infoAdicionais`, 'infoAdicionais: até 50 itens { nome (até 50), valor (até 200) }.');
  }
  const loc = body['loc'];
  if (loc === undefined) return;
  if (!isObject(loc)) j.flag(`${root}.loc`, 'loc deve ser um objeto { id }.');
  else if (!(Number.isSafeInteger(loc['id']) && (loc['id'] as number) > 0))
    j.flag(`${root}.loc.id`, 'loc.id deve ser um inteiro positivo.', loc['id']);
}

/** PATCH: the only status a revision may set is the removal, alone. */
function judgeRemoval(j: Judge, body: Json, root: string): void {
  if (body['status'] === undefined) return;
  if (body['status'] !== REMOVED_BY_USER) {
    j.flag(`${root}.status`, `O único status aceito é ${REMOVED_BY_USER}.`, body['status']);
  } else if (Object.keys(body).some((key) => key !== 'status' && key !== 'txid' && body[key] !== undefined)) {
    j.flag(`${root}.status`, 'A remoção não pode ser combinada com outras alterações.');
  }
}

// ---------------------------------------------------------------------------------------------
// Immediate charge

/** A cob body under `root` (`cob`); on `revise` only the fields present are judged. */
export function judgeCob(j: Judge, body: unknown, root: string, mode: Mode): void {
  if (!isObject(body)) return j.flag(root, 'A cobrança deve ser um objeto.');
  if (mode === 'revise') judgeRemoval(j, body, root);
  const calendario = body['calendario'];
  if (calendario !== undefined) {
    if (!isObject(calendario)) j.flag(`${root}.calendario`, 'calendario deve ser um objeto.');
    else if (calendario['expiracao'] !== undefined && !isInteger(calendario['expiracao'], 1)) {
      j.flag(`${root}.calendario.expiracao`, 'A expiração deve ser maior que zero.', calendario['expiracao']);
    }
  }
  judgeDebtor(j, body, root, false, false);
  judgeCobAmount(j, body['valor'], `${root}.valor`, mode);
  judgeKey(j, body, root, mode);
  judgeExtras(j, body, root);
}

const WITHDRAWAL_AGENTS: Readonly<Record<string, readonly string[]>> = {
  saque: ['AGTEC', 'AGTOT', 'AGPSS'],
  troco: ['AGTEC', 'AGTOT'],
};

function judgeCobAmount(j: Judge, valor: unknown, at: string, mode: Mode): void {
  if (valor === undefined) {
    if (mode === 'create') j.flag(`${at}.original`, 'valor.original é obrigatório.');
    return;
  }
  if (!isObject(valor)) return j.flag(at, 'valor deve ser um objeto.');
  const alterable = valor['modalidadeAlteracao'];
  if (alterable !== undefined && alterable !== 0 && alterable !== 1) {
    j.flag(`${at}.modalidadeAlteracao`, 'modalidadeAlteracao é 0 ou 1.', alterable);
  }
  let withdrawal: string | undefined;
  const retirada = valor['retirada'];
  if (retirada !== undefined) {
    const kinds = isObject(retirada) ? Object.keys(WITHDRAWAL_AGENTS).filter((k) => retirada[k] !== undefined) : [];
    if (!isObject(retirada) || kinds.length !== 1) {
      j.flag(`${at}.retirada`, 'retirada leva exatamente um de saque ou troco.');
    } else {
      withdrawal = kinds[0]!;
      const item = retirada[withdrawal];
      const fine =
        isObject(item) &&
        isMoney(item['valor']) &&
        [undefined, 0, 1].includes(item['modalidadeAlteracao'] as number | undefined) &&
        WITHDRAWAL_AGENTS[withdrawal]!.includes(item['modalidadeAgente'] as string) &&
        typeof item['prestadorDoServicoDeSaque'] === 'string' &&
        ISPB.test(item['prestadorDoServicoDeSaque']);
      if (!fine) j.flag(`${at}.retirada.${withdrawal}`, `retirada.${withdrawal} não respeita o schema.`);
      if (alterable === 1) j.flag(`${at}.modalidadeAlteracao`, 'Uma cobrança com retirada não tem valor alterável.');
    }
  }
  const original = valor['original'];
  if (original === undefined) {
    if (mode === 'create') j.flag(`${at}.original`, 'valor.original é obrigatório.');
    return;
  }
  if (!isMoney(original)) return j.flag(`${at}.original`, 'valor.original não respeita o schema.', original);
  const zero = toCents(original) === 0;
  if (withdrawal === 'saque' && !zero) j.flag(`${at}.original`, 'Com saque, valor.original é 0.00.', original);
  else if (withdrawal === 'troco' && zero)
    j.flag(`${at}.original`, 'Com troco, valor.original é maior que zero.', original);
  else if (withdrawal === undefined && zero && mode === 'create' && alterable !== 1) {
    j.flag(`${at}.original`, 'valor.original não pode ser zero.', original);
  }
}

// ---------------------------------------------------------------------------------------------
// Due-date charge

/** A cobv body under `root` (`cobv`, `loteCobV.cobsV[3]`). */
export function judgeCobV(j: Judge, body: unknown, root: string, mode: Mode, facts: ChargeFacts = {}): void {
  if (!isObject(body)) return j.flag(root, 'A cobrança deve ser um objeto.');
  if (mode === 'revise') judgeRemoval(j, body, root);
  const due = judgeDueCalendar(j, body['calendario'], `${root}.calendario`, mode, facts.notBefore);
  judgeDebtor(j, body, root, mode === 'create', true);
  judgeDueAmount(j, body['valor'], `${root}.valor`, mode, due);
  judgeKey(j, body, root, mode);
  judgeExtras(j, body, root);
}

function judgeDueCalendar(
  j: Judge,
  calendario: unknown,
  at: string,
  mode: Mode,
  notBefore: string | undefined,
): string | undefined {
  if (calendario === undefined) {
    if (mode === 'create') j.flag(`${at}.dataDeVencimento`, 'calendario.dataDeVencimento é obrigatório.');
    return undefined;
  }
  if (!isObject(calendario)) {
    j.flag(at, 'calendario deve ser um objeto.');
    return undefined;
  }
  let due: string | undefined;
  const date = calendario['dataDeVencimento'];
  if (date === undefined) {
    if (mode === 'create') j.flag(`${at}.dataDeVencimento`, 'calendario.dataDeVencimento é obrigatório.');
  } else if (typeof date !== 'string' || !isCivilDate(date)) {
    j.flag(`${at}.dataDeVencimento`, 'dataDeVencimento não é uma data AAAA-MM-DD.', date);
  } else if (notBefore !== undefined && date < notBefore) {
    j.flag(`${at}.dataDeVencimento`, 'dataDeVencimento é anterior à data de criação da cobrança.', date);
  } else {
    due = date;
  }
  const validade = calendario['validadeAposVencimento'];
  if (validade !== undefined && !isInteger(validade, 0)) {
    j.flag(`${at}.validadeAposVencimento`, 'validadeAposVencimento não pode ser menor que zero.', validade);
  }
  return due;
}

/** Highest `modalidade` of each component of a due-date amount. */
const COMPONENTS: Readonly<Record<string, number>> = { multa: 2, juros: 8, abatimento: 2 };

function judgeDueAmount(j: Judge, valor: unknown, at: string, mode: Mode, due: string | undefined): void {
  if (valor === undefined) {
    if (mode === 'create') j.flag(`${at}.original`, 'valor.original é obrigatório.');
    return;
  }
  if (!isObject(valor)) return j.flag(at, 'valor deve ser um objeto.');
  const original = valor['original'];
  let originalCents: number | undefined;
  if (original === undefined) {
    if (mode === 'create') j.flag(`${at}.original`, 'valor.original é obrigatório.');
  } else if (!isMoney(original) || toCents(original) === 0) {
    j.flag(`${at}.original`, 'valor.original não respeita o schema ou é zero.', original);
  } else {
    originalCents = toCents(original);
  }
  // A fixed amount must stay below the original; a percentage below 100%.
  const capped = (cents: number, isAmount: boolean): boolean =>
    isAmount ? originalCents === undefined || cents < originalCents : cents < 10_000;
  for (const [name, top] of Object.entries(COMPONENTS)) {
    const part = valor[name];
    if (part === undefined) continue;
    if (!isObject(part) || !isInteger(part['modalidade'], 1, top) || !isMoney(part['valorPerc'])) {
      j.flag(`${at}.${name}`, `${name} requer modalidade (1 a ${top}) e valorPerc.`);
    } else if (name === 'abatimento' && !capped(toCents(part['valorPerc']), part['modalidade'] === 1)) {
      j.flag(`${at}.${name}`, 'O abatimento deve ser menor que o valor original e que 100%.');
    }
  }
  const desconto = valor['desconto'];
  if (desconto !== undefined && !discountIsValid(desconto, due, capped)) {
    j.flag(`${at}.desconto`, 'desconto não respeita o schema (modalidade, valorPerc, descontoDataFixa).');
  }
}

function discountIsValid(
  desconto: unknown,
  due: string | undefined,
  capped: (cents: number, isAmount: boolean) => boolean,
): boolean {
  if (!isObject(desconto) || !isInteger(desconto['modalidade'], 1, 6)) return false;
  const modalidade = desconto['modalidade'];
  const { valorPerc, descontoDataFixa: fixed } = desconto;
  if (modalidade >= 3) return fixed === undefined && isMoney(valorPerc) && capped(toCents(valorPerc), modalidade <= 4);
  if (valorPerc !== undefined || !Array.isArray(fixed) || fixed.length < 1 || fixed.length > 3) return false;
  const dates = new Set<unknown>();
  for (const item of fixed) {
    if (
      !isObject(item) ||
      typeof item['data'] !== 'string' ||
      !isCivilDate(item['data']) ||
      !isMoney(item['valorPerc'])
    )
      return false;
    if (dates.has(item['data']) || (due !== undefined && item['data'] > due)) return false;
    if (!capped(toCents(item['valorPerc']), modalidade === 1)) return false;
    dates.add(item['data']);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Batches

/**
 * The batch-level rules of a batch body: `descricao`, `cobsv` (an array, not empty on creation),
 * each item an object with its own valid txid, no txid twice. The items' charge rules are
 * judged when the batch is processed (a broken item is `NEGADA`, the batch is accepted).
 */
export function judgeBatch(j: Judge, body: unknown, mode: Mode): void {
  if (!isObject(body)) return j.flag('loteCobV', 'O lote deve ser um objeto.');
  const { descricao, cobsv } = body;
  if (descricao === undefined ? mode === 'create' : typeof descricao !== 'string')
    j.flag('loteCobV.descricao', 'descricao é obrigatória (texto).');
  if (cobsv === undefined) {
    if (mode === 'create') j.flag('loteCobV.cobsV', 'cobsv é obrigatório.');
    return;
  }
  if (!Array.isArray(cobsv) || (mode === 'create' && cobsv.length === 0))
    return j.flag('loteCobV.cobsV', 'cobsv deve ter ao menos uma cobrança.');
  const seen = new Set<string>();
  cobsv.forEach((item: unknown, i) => {
    const root = `loteCobV.cobsV[${i}]`;
    const txid = isObject(item) ? item['txid'] : undefined;
    if (typeof txid !== 'string' || !isValidTxid(txid))
      j.flag(`${root}.txid`, 'txid tem de 26 a 35 letras ou dígitos.', txid);
    else if (seen.has(txid)) j.flag(`${root}.txid`, 'txid repetido no lote.', txid);
    else seen.add(txid);
  });
}

/** The txids of a batch body's items (strings only). */
export function batchTxids(body: unknown): string[] {
  const cobsv = isObject(body) && Array.isArray(body['cobsv']) ? (body['cobsv'] as unknown[]) : [];
  return cobsv.map((item) => (isObject(item) && typeof item['txid'] === 'string' ? item['txid'] : ''));
}

/** A batch's set of charges is fixed: PUT lists exactly it, PATCH a part of it. */
export function judgeMembership(j: Judge, body: unknown, members: ReadonlySet<string>, exact: boolean): void {
  const listed = batchTxids(body);
  listed.forEach((txid, i) => {
    if (txid !== '' && !members.has(txid))
      j.flag(`loteCobV.cobsV[${i}].txid`, 'txid não pertence ao lote; o conjunto de um lote não muda.', txid);
  });
  if (exact && [...members].some((txid) => !listed.includes(txid))) {
    j.flag('loteCobV.cobsV', 'Uma alteração deve listar exatamente as cobranças do lote.');
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

/** Parsed list query: the filters of section 2.3 and the page asked for. */
export interface ListQuery {
  inicio?: number;
  fim?: number;
  page: number;
  size: number;
  params: URLSearchParams;
}

const BOOLEAN = /^(true|false)$/;
const CPF_DIGITS = /^\d{11}$/;
const CNPJ_CHARS = /^[0-9A-Z]{14}$/;

/**
 * The list-query rules: `inicio`/`fim` RFC 3339 (required unless `rangeOptional`), `fim` not
 * before `inicio`, `cpf` and `cnpj` not both and well formed, booleans, page ≥ 0, size 1 to 1000.
 */
export function judgeListQuery(
  j: Judge,
  params: URLSearchParams,
  rangeOptional = false,
  booleans: readonly string[] = [],
): ListQuery {
  const instant = (name: string): number | undefined => {
    const value = params.get(name);
    if (value === null) {
      if (!rangeOptional) j.flag(name, `${name} é obrigatório.`);
      return undefined;
    }
    if (!isRfc3339(value)) {
      j.flag(name, `${name} não é uma data-hora RFC 3339.`, value);
      return undefined;
    }
    return Date.parse(value);
  };
  const inicio = instant('inicio');
  const fim = instant('fim');
  if (inicio !== undefined && fim !== undefined && fim < inicio)
    j.flag('fim', 'fim é anterior a inicio.', params.get('fim'));
  const cpf = params.get('cpf');
  const cnpj = params.get('cnpj');
  if (cpf !== null && cnpj !== null) j.flag('cpf', 'cpf e cnpj não podem ser usados juntos.');
  else if (cpf !== null && !CPF_DIGITS.test(cpf)) j.flag('cpf', 'cpf tem 11 dígitos.');
  else if (cnpj !== null && !CNPJ_CHARS.test(cnpj)) j.flag('cnpj', 'cnpj tem 14 caracteres 0-9/A-Z.');
  for (const name of booleans) {
    const value = params.get(name);
    if (value !== null && !BOOLEAN.test(value)) j.flag(name, `${name} é true ou false.`, value);
  }
  const integer = (name: string, min: number, max: number, fallback: number): number => {
    const value = params.get(name);
    if (value === null) return fallback;
    const n = /^-?\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) {
      j.flag(name, `${name} deve ser um inteiro de ${min} a ${max}.`, value);
      return fallback;
    }
    return n;
  };
  const page = integer('paginacao.paginaAtual', 0, 2_147_483_647, 0);
  const size = integer('paginacao.itensPorPagina', 1, 1000, 100);
  const query: ListQuery = { page, size, params };
  if (inicio !== undefined) query.inicio = inicio;
  if (fim !== undefined) query.fim = fim;
  return query;
}
