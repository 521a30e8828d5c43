import { ruleContext, type RuleContext } from '../../src/core/validation.ts';

/** Names of the properties the rules broke for `judge`. */
export function broken(judge: (ctx: RuleContext) => void, ownKeys?: string[]): string[] {
  const ctx = ruleContext(ownKeys);
  judge(ctx);
  return ctx.out.map((v) => v.propriedade ?? '');
}
