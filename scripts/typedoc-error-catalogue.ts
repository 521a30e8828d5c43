/**
 * TypeDoc plugin: documents the per-type error classes from the table they are made from
 * (`ERROR_CATALOGUE` in src/errors/catalogue.ts), as the README error table is, instead of one
 * hand-written comment per class that could drift from the table.
 */
import { Comment, Converter, ReflectionKind, type Application, type Context } from 'typedoc';
import { ERROR_CATALOGUE } from '../src/errors/catalogue.ts';

export function load(app: Application): void {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    const catalogue: Record<string, { status: readonly number[]; meaning: string }> = ERROR_CATALOGUE;
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Variable | ReflectionKind.TypeAlias)) {
      const entry = Object.hasOwn(catalogue, reflection.name) ? catalogue[reflection.name] : undefined;
      if (!entry || reflection.comment) continue;
      const text =
        reflection.kind === ReflectionKind.Variable
          ? `The \`${reflection.name}\` error type (HTTP ${entry.status.join(' or ')}): ${entry.meaning}. ` +
            'An `ApiError` class: thrown for that type in an answer, or, with `sentRequest: false`, ' +
            'when the SDK refuses the call before sending it. `instanceof` works as usual.'
          : `An instance of the \`${reflection.name}\` error class.`;
      reflection.comment = new Comment([{ kind: 'text', text }]);
    }
  });
}
