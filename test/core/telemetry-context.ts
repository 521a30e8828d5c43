/**
 * A context manager that follows async calls, as the one `NodeSDK` registers does: without one,
 * `@opentelemetry/api`'s context is the no-op one and no span is ever active. Written here in a
 * few lines on `AsyncLocalStorage` rather than taken as one more dev dependency.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, context, type Context, type ContextManager } from '@opentelemetry/api';

class AsyncContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    active: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(active, () => fn.apply(thisArg, args));
  }

  bind<T>(active: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.with(active, () => fn(...args))) as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.#storage.disable();
    return this;
  }
}

/** Registers the manager for the test file; the returned function takes it away. */
export function trackAsyncContext(): () => void {
  context.setGlobalContextManager(new AsyncContextManager());
  return () => context.disable();
}
