/**
 * The web build's `adapter.ts` (tsup.config.ts swaps it in where the runtime has no `node`
 * export condition: Workers, edge functions, browsers). There is no Node `(req, res)` there: a
 * handler is called as `handler(request)`; `.node` and `toNodeHandler` say so when called.
 */
import { ConfigurationError } from '../errors/failures.ts';
import type { NodeHandler, NodeHandlerOptions, WebHandler } from './adapter.ts';

export type * from './adapter.ts';

/** The same as `adapter.ts`'s (a test compares them). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The same key as `adapter.ts`'s; nothing reads it here (there is no `toNodeHandler` to read it). */
export const NODE_FORM: unique symbol = Symbol('instant-payments.nodeForm');

export function toNodeHandler(_handler: WebHandler, _options?: NodeHandlerOptions): NodeHandler {
  return () => {
    throw new ConfigurationError(
      'node',
      'The Node adapter (.node, toNodeHandler) runs on Node only: this runtime loaded the web build of instant-payments; call the handler as handler(request)',
    );
  };
}
