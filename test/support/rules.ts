import { ruleContext, type RuleContext } from '../../src/core/validation.ts';
import { systemNow, type Now } from '../../src/internal/clock.ts';

/** Names of the properties the rules broke for `judge` (judged at `now`, default the system clock). */
export function broken(judge: (ctx: RuleContext) => void, ownKeys?: string[], now: Now = systemNow): string[] {
  const ctx = ruleContext(ownKeys, now);
  judge(ctx);
  return ctx.out.map((v) => v.propriedade ?? '');
}
