/**
 * TypeDoc plugin for the error classes the SDK makes from tables rather than `class` statements
 * (`defineApiError`, the catalogue in src/errors/catalogue.ts):
 *
 * - an exported `const` that can be constructed (`new CobNaoEncontrado(...)`) is documented as the
 *   class it is, with its constructor, members and parent, not as a variable;
 * - each catalogue class is described from its row of `ERROR_CATALOGUE`, as the guide's error table
 *   is, instead of one hand-written comment per class that could drift from the table.
 */
import { Comment, Context, Converter, ReflectionKind, type Application } from 'typedoc';
import ts from 'typescript';
import { ERROR_CATALOGUE } from '../src/errors/catalogue.ts';

export function load(app: Application): void {
  // TypeDoc converts a variable as a class when its comment has the `@class` modifier; the
  // comment is read while converting, so the tag is added where TypeDoc reads it.
  const getComment = Context.prototype.getComment;
  Context.prototype.getComment = function (this: Context, symbol: ts.Symbol, kind: ReflectionKind) {
    const comment = getComment.call(this, symbol, kind);
    if (kind !== ReflectionKind.Variable || !isConstructibleConst(this.checker, symbol)) return comment;
    const tagged = comment?.clone() ?? new Comment();
    tagged.modifierTags.add('@class');
    return tagged;
  };

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const catalogue: Record<string, { status: readonly number[]; meaning: string }> = ERROR_CATALOGUE;
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Class)) {
      const entry = Object.hasOwn(catalogue, reflection.name) ? catalogue[reflection.name] : undefined;
      if (!entry || reflection.comment) continue;
      const text =
        `The \`${reflection.name}\` error type (HTTP ${entry.status.join(' or ')}): ${entry.meaning}. ` +
        'An `ApiError` class: thrown for that type in an answer, or, with `sentRequest: false`, ' +
        'when the SDK refuses the call before sending it. `instanceof` works as usual.';
      reflection.comment = new Comment([{ kind: 'text', text }]);
    }
  });
}

function isConstructibleConst(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  const declaration = symbol.valueDeclaration;
  if (!declaration || !ts.isVariableDeclaration(declaration)) return false;
  if (!(ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const)) return false;
  return checker.getTypeOfSymbolAtLocation(symbol, declaration).getConstructSignatures().length > 0;
}
