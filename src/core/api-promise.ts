/**
 * What every call returns: a native promise of the parsed answer, with `.withResponse()` for the
 * answer together with its `Response` (the convention of the SDKs users know, e.g. Stainless's
 * `APIPromise`).
 *
 * Free when unused: the call's own promise of `{ data, response }` is the one `.withResponse()`
 * returns; the promise a caller awaits is that one's `.then` to `data`, a plain `Promise`
 * (so `await` takes its fast path), carrying the method and the link as two properties.
 */
import type { WithResponse } from './types.ts';

/** A call's promise: `await` gives the data; `.withResponse()` the data and the raw `Response`. */
export interface APIPromise<T> extends Promise<T> {
  /**
   * The data with the `Response` it came in: status and headers (`x-correlation-id`,
   * `retry-after`...), its body already read into `data`. The same call: nothing is sent again.
   */
  withResponse(): Promise<WithResponse<T>>;
}

const RESULT: unique symbol = Symbol('instant-payments.result');

interface Linked<T> extends APIPromise<T> {
  [RESULT]: Promise<WithResponse<T>>;
}

function withResponse<T>(this: Linked<T>): Promise<WithResponse<T>> {
  // The caller awaits the other promise: this one's failure is theirs, not an unhandled one.
  this.then(undefined, ignore);
  return this[RESULT];
}

function ignore(): void {}

function dataOf<T>(result: WithResponse<T>): T {
  return result.data;
}

/** A call that failed before anything was sent (judging its rule threw). */
export function rejectedApiPromise<T>(error: unknown): APIPromise<T> {
  return apiPromise(Promise.reject(error));
}

/**
 * A call its rule refused: `error` (made without a stack, see `refusal`) rejects it two
 * microtasks later, from a callback that stamps the stack there. Its frames are then the
 * caller's functions awaiting the call (`at async placeOrder`), where the refused call was
 * written; taken in the call they would start with the SDK's own frames, and walking those made
 * a refusal 1.75x a plain async throw instead of 0.90x (bench row "cost of a refusal"; its goal
 * is 1.2x). Two turns rather than one so that an async function returning the call's promise
 * without awaiting it has handed it to its own caller by then.
 */
export function refusedApiPromise<T>(error: Error): APIPromise<T> {
  const promise = Promise.resolve()
    .then(ignore)
    .then(function stamp(): never {
      Error.captureStackTrace?.(error, stamp); // where it is missing, `refusal` gave the error its stack
      throw error;
    }) as unknown as Linked<T>;
  promise[RESULT] = promise as unknown as Promise<WithResponse<T>>;
  // The same promise, with no second handler on it: V8 follows a promise's only handler to the
  // function awaiting it when it takes the stack.
  promise.withResponse = itself;
  return promise;
}

function itself<T>(this: Linked<T>): Promise<WithResponse<T>> {
  return this[RESULT];
}

/** The call's promise of data, from its promise of `{ data, response }`. */
export function apiPromise<T>(result: Promise<WithResponse<T>>): APIPromise<T> {
  const promise = result.then(dataOf) as Linked<T>;
  promise[RESULT] = result;
  promise.withResponse = withResponse;
  return promise;
}
