/** The rules of a due-date charge body (`CobVSolicitada`, `CobVRevisada`). */
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { isCivilDate } from '../../lib/dates.ts';
import { amountRefusal, toCents } from '../../lib/money.ts';
import { checkChave, checkCommon, checkDevedor, checkRemoval, isInt, isMoney, type ChargeMode } from './fields.ts';

const HUNDRED_PERCENT = 10_000; // "100.00" in cents

/**
 * A cobv body (`CobVSolicitada` or `CobVRevisada`) under `root`. `notBefore` is the earliest
 * `dataDeVencimento` the service accepts, a date in Brasília on or before the charge's creation
 * date, known only when the caller has read the charge (a batch alteration). A `PUT /cobv` may
 * create the charge or alter an existing one, created on a day the client does not know, so
 * there and in a revision it is `undefined` and the service judges the date.
 */
export function checkCobV(body: unknown, root: string, ctx: RuleContext, mode: ChargeMode, notBefore?: string): void {
  if (!isRecord(body)) return ctx.add(root, 'the charge must be an object');
  if (mode === 'revise') checkRemoval(body, root, ctx);
  const due = checkCobVCalendario(body['calendario'], `${root}.calendario`, ctx, mode, notBefore);
  checkDevedor(body['devedor'], root, ctx, mode === 'create', true);
  checkCobVValor(body['valor'], `${root}.valor`, ctx, mode, due);
  checkChave(body['chave'], `${root}.chave`, ctx, { required: mode === 'create', owned: true });
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
    if (mode === 'create') ctx.add(`${p}.dataDeVencimento`, 'calendario.dataDeVencimento is required');
    return undefined;
  }
  if (!isRecord(calendario)) {
    ctx.add(p, 'calendario must be an object');
    return undefined;
  }
  let due: string | undefined;
  const date = calendario['dataDeVencimento'];
  if (date === undefined) {
    if (mode === 'create') ctx.add(`${p}.dataDeVencimento`, 'calendario.dataDeVencimento is required');
  } else if (!isCivilDate(date)) {
    ctx.add(`${p}.dataDeVencimento`, 'dataDeVencimento must be a YYYY-MM-DD calendar date', date);
  } else {
    due = date;
    if (notBefore !== undefined && due < notBefore) {
      ctx.add(
        `${p}.dataDeVencimento`,
        `dataDeVencimento is before ${notBefore}, and the charge was created on that day or later (Brasília)`,
        due,
      );
    }
  }
  const validade = calendario['validadeAposVencimento'];
  if (validade !== undefined && !isInt(validade, 0)) {
    ctx.add(
      `${p}.validadeAposVencimento`,
      'validadeAposVencimento must be an integer number of days, zero or more',
      validade,
    );
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
    if (mode === 'create') ctx.add(`${p}.original`, 'valor.original is required');
    return;
  }
  if (!isRecord(valor)) return ctx.add(p, 'valor must be an object');
  const { original, multa, juros, abatimento, desconto } = valor;
  let originalCents: number | undefined;
  if (original === undefined) {
    if (mode === 'create') ctx.add(`${p}.original`, 'valor.original is required');
  } else if (!isMoney(original)) {
    ctx.add(`${p}.original`, amountRefusal('valor.original', original), original);
  } else if ((originalCents = toCents(original)) === 0) {
    ctx.add(`${p}.original`, 'valor.original must not be zero', original);
  }
  if (multa !== undefined) checkModalidadeValor(multa, `${p}.multa`, ctx, 2);
  if (juros !== undefined) checkModalidadeValor(juros, `${p}.juros`, ctx, 8);
  if (abatimento !== undefined) {
    const checked = checkModalidadeValor(abatimento, `${p}.abatimento`, ctx, 2);
    if (checked !== undefined)
      checkBelow(checked.cents, checked.modalidade === 1, originalCents, `${p}.abatimento`, 'abatimento', ctx);
  }
  if (desconto !== undefined) checkDesconto(desconto, `${p}.desconto`, ctx, originalCents, due);
}

/** `{modalidade 1..max, valorPerc money}`; returns both, `valorPerc` in cents, when all is well. */
function checkModalidadeValor(
  value: unknown,
  p: string,
  ctx: RuleContext,
  max: number,
): { modalidade: number; cents: number } | undefined {
  if (!isRecord(value) || !isInt(value['modalidade'], 1, max) || !isMoney(value['valorPerc'])) {
    const name = p.slice(p.lastIndexOf('.') + 1);
    ctx.add(p, `${name} needs modalidade (1 to ${max}) and valorPerc (^\\d{1,10}\\.\\d{2}$)`);
    return undefined;
  }
  return { modalidade: value['modalidade'], cents: toCents(value['valorPerc']) };
}

/** An amount (`isAmount`) must stay below `original`; a percentage below 100 %. */
function checkBelow(
  cents: number,
  isAmount: boolean,
  originalCents: number | undefined,
  p: string,
  name: string,
  ctx: RuleContext,
): void {
  if (isAmount) {
    if (originalCents !== undefined && cents >= originalCents) ctx.add(p, `${name} must be less than valor.original`);
  } else if (cents >= HUNDRED_PERCENT) {
    ctx.add(p, `${name} must be less than 100%`);
  }
}

function checkDesconto(
  desconto: unknown,
  p: string,
  ctx: RuleContext,
  originalCents: number | undefined,
  due: string | undefined,
): void {
  if (!isRecord(desconto) || !isInt(desconto['modalidade'], 1, 6)) {
    return ctx.add(p, 'desconto needs modalidade 1 to 6');
  }
  const modalidade = desconto['modalidade'];
  const { valorPerc, descontoDataFixa } = desconto;
  if (modalidade <= 2) {
    // 1: fixed amount up to each date; 2: percentage up to each date.
    if (valorPerc !== undefined) ctx.add(p, 'desconto with modalidade 1 or 2 takes descontoDataFixa, not valorPerc');
    if (!Array.isArray(descontoDataFixa) || descontoDataFixa.length === 0 || descontoDataFixa.length > 3) {
      return ctx.add(p, 'desconto with modalidade 1 or 2 needs 1 to 3 descontoDataFixa items');
    }
    const dates = new Set<string>();
    for (let i = 0; i < descontoDataFixa.length; i++) {
      const item: unknown = descontoDataFixa[i];
      const q = `desconto.descontoDataFixa[${i}]`;
      const data = isRecord(item) ? item['data'] : undefined;
      if (!isRecord(item) || !isCivilDate(data) || !isMoney(item['valorPerc'])) {
        ctx.add(p, `${q} needs data (YYYY-MM-DD) and valorPerc (^\\d{1,10}\\.\\d{2}$)`);
        continue;
      }
      if (dates.has(data)) ctx.add(p, `${q}.data repeats an earlier date`, data);
      dates.add(data);
      if (due !== undefined && data > due) ctx.add(p, `${q}.data is after calendario.dataDeVencimento`, data);
      checkBelow(toCents(item['valorPerc']), modalidade === 1, originalCents, p, q, ctx);
    }
  } else {
    // 3, 4: amount per day early; 5, 6: percentage per day early.
    if (descontoDataFixa !== undefined)
      ctx.add(p, 'desconto with modalidade 3 to 6 takes valorPerc, not descontoDataFixa');
    if (!isMoney(valorPerc))
      return ctx.add(p, 'desconto with modalidade 3 to 6 needs valorPerc (^\\d{1,10}\\.\\d{2}$)');
    checkBelow(toCents(valorPerc), modalidade <= 4, originalCents, p, 'desconto', ctx);
  }
}
