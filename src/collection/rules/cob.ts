/** The rules of an immediate charge body (`CobSolicitada`, `CobRevisada`). */
import { isRecord } from '../../internal/json.ts';
import type { RuleContext } from '../../core/validation.ts';
import { amountRefusal, isZeroAmount } from '../../lib/money.ts';
import {
  checkChave,
  checkCommon,
  checkDevedor,
  checkRemoval,
  isInt,
  isMoney,
  isOptionalFlag,
  type ChargeMode,
} from './fields.ts';

const ISPB = /^[0-9A-Z]{8}$/;
const SAQUE_AGENTS: readonly unknown[] = ['AGTEC', 'AGTOT', 'AGPSS'];
const TROCO_AGENTS: readonly unknown[] = ['AGTEC', 'AGTOT'];

/**
 * A cob body (`CobSolicitada` when creating, `CobRevisada` when revising) under `root`.
 * `valor.original` zero is refused on creation except for the two official exceptions: an
 * alterable charge (`modalidadeAlteracao` 1) and a withdrawal (`retirada.saque`, where it must
 * be "0.00"). A revision's zero is left to the service, which knows the charge it revises.
 */
export function checkCob(body: unknown, root: string, ctx: RuleContext, mode: ChargeMode): void {
  if (!isRecord(body)) return ctx.add(root, 'the charge must be an object');
  if (mode === 'revise') checkRemoval(body, root, ctx);
  const calendario = body['calendario'];
  if (calendario !== undefined) {
    if (!isRecord(calendario)) ctx.add(`${root}.calendario`, 'calendario must be an object');
    else if (calendario['expiracao'] !== undefined && !isInt(calendario['expiracao'], 1)) {
      ctx.add(
        `${root}.calendario.expiracao`,
        'expiracao must be an integer number of seconds greater than zero',
        calendario['expiracao'],
      );
    }
  }
  checkDevedor(body['devedor'], root, ctx, false, false);
  checkCobValor(body['valor'], `${root}.valor`, ctx, mode);
  checkChave(body['chave'], `${root}.chave`, ctx, { required: mode === 'create', owned: true });
  checkCommon(body, root, ctx);
}

function checkCobValor(valor: unknown, p: string, ctx: RuleContext, mode: ChargeMode): void {
  if (valor === undefined) {
    if (mode === 'create') ctx.add(`${p}.original`, 'valor.original is required');
    return;
  }
  if (!isRecord(valor)) return ctx.add(p, 'valor must be an object');
  const { original, modalidadeAlteracao, retirada } = valor;
  if (!isOptionalFlag(modalidadeAlteracao)) {
    ctx.add(`${p}.modalidadeAlteracao`, 'modalidadeAlteracao must be 0 or 1', modalidadeAlteracao);
  }
  const kind = retirada === undefined ? undefined : checkRetirada(retirada, `${p}.retirada`, ctx);
  if (kind !== undefined && modalidadeAlteracao === 1) {
    ctx.add(
      `${p}.modalidadeAlteracao`,
      'a charge with retirada cannot have an alterable original (modalidadeAlteracao 0)',
    );
  }
  if (original === undefined) {
    if (mode === 'create') ctx.add(`${p}.original`, 'valor.original is required');
  } else if (!isMoney(original)) {
    ctx.add(`${p}.original`, amountRefusal('valor.original', original), original);
  } else {
    const zero = isZeroAmount(original);
    if (kind === 'saque') {
      if (!zero) ctx.add(`${p}.original`, 'valor.original must be 0.00 for a withdrawal (retirada.saque)', original);
    } else if (kind === 'troco') {
      if (zero) ctx.add(`${p}.original`, 'valor.original must be greater than zero with retirada.troco', original);
    } else if (zero && mode === 'create' && modalidadeAlteracao !== 1) {
      ctx.add(`${p}.original`, 'valor.original must not be zero (unless modalidadeAlteracao is 1)', original);
    }
  }
}

/** `retirada`: exactly one of `saque`/`troco`, each `{valor, modalidadeAlteracao?, modalidadeAgente, prestadorDoServicoDeSaque}`. */
function checkRetirada(retirada: unknown, p: string, ctx: RuleContext): 'saque' | 'troco' | undefined {
  if (!isRecord(retirada)) {
    ctx.add(p, 'retirada must be an object');
    return undefined;
  }
  const { saque, troco } = retirada;
  if ((saque === undefined) === (troco === undefined)) {
    ctx.add(p, 'retirada takes exactly one of saque or troco');
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
    ctx.add(
      `${p}.${kind}`,
      `retirada.${kind} needs valor (money), modalidadeAgente (${agents.join(', ')}), prestadorDoServicoDeSaque (ISPB, 8 of 0-9/A-Z) and modalidadeAlteracao 0 or 1 if given`,
    );
  }
  return kind;
}
