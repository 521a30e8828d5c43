/**
 * List results. `await list(q)` gives the first page; `for await (const x of list(q))` walks
 * every item across pages, asking for `paginacao.paginaAtual` + 1 until the last page, and
 * `list(q).iterPages()` every page.
 *
 * Every list is the same on the wire: the query with `paginacao` flattened to dotted names, and
 * an answer holding `parametros` and one array, named per list (`cobs`, `lotes`, `loc`...).
 */
import type { ErrorTables } from '../errors/factory.ts';
import { isRecord } from '../internal/json.ts';
import type { APIPromise } from './api-promise.ts';
import type { HttpCore } from './http.ts';
import type { QueryValue, RequestOptions, WithResponse } from './types.ts';
import type { RoutePath } from './path.ts';

/** The service's `parametros.paginacao` block. */
export interface Paginacao {
  paginaAtual: number;
  itensPorPagina: number;
  quantidadeDePaginas: number;
  quantidadeTotalDeItens: number;
}

/** Paging of a list query, sent as `paginacao.paginaAtual` and `paginacao.itensPorPagina`. */
export interface PaginacaoQuery {
  /** Page to fetch, from 0 (default 0). */
  paginaAtual?: number;
  /** 1 to 1000 (default 100). */
  itensPorPagina?: number;
}

/** The `parametros` of a list page: the query's dates and the paging. */
export interface PageParametros {
  inicio?: string;
  fim?: string;
  paginacao: Paginacao;
  [key: string]: unknown;
}

/** One page of a list: its items, the query as the service echoed it, and the way on. */
export interface Page<T, P extends PageParametros = PageParametros> {
  /** The list array, whatever the service calls it (`cobs`, `lotes`, `loc`, `webhooks`...). */
  items: T[];
  parametros: P;
  /** True when a page follows this one. */
  hasNextPage(): boolean;
  /** The following page; throws a `RangeError` when there is none. */
  getNextPage(): Promise<Page<T, P>>;
}

/** Loads page `paginaAtual` (the first one when `undefined`). */
export type PageLoader<T, P extends PageParametros> = (paginaAtual: number | undefined) => Promise<Page<T, P>>;

/** Loads a page with the `Response` it came in. */
export type PageResponseLoader<T, P extends PageParametros> = (
  paginaAtual: number | undefined,
) => Promise<WithResponse<Page<T, P>>>;

/**
 * What a list method returns, a real `Promise` (`instanceof Promise`, `then`, `catch`, `finally`)
 * of the first page: `await` it for that page, walk every item across pages with `for await`, or
 * every page with `iterPages()`; `.withResponse()` gives the first page with its `Response`.
 * Nothing is sent until one of them is used; then the first page is fetched once.
 */
export class PagePromise<T, P extends PageParametros = PageParametros>
  extends Promise<Page<T, P>>
  implements APIPromise<Page<T, P>>, AsyncIterable<T>
{
  /** `then`, `catch` and `finally` make plain promises: a derived promise is no page promise. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #load: PageResponseLoader<T, P>;
  #first: Promise<WithResponse<Page<T, P>>> | undefined;
  #firstData: Promise<Page<T, P>> | undefined;

  /** `load` fetches a page with its answer; the first page is fetched once, when first asked for. */
  constructor(load: PageResponseLoader<T, P>) {
    // The base promise is never read: every way to its value goes through the first page.
    super(settleUnread);
    this.#load = load;
  }

  #firstResult(): Promise<WithResponse<Page<T, P>>> {
    return (this.#first ??= this.#load(undefined));
  }

  #firstPage(): Promise<Page<T, P>> {
    return (this.#firstData ??= this.#firstResult().then(pageOf));
  }

  /**
   * The first page with the `Response` it came in (status and headers; its body already read
   * into the page). The same request as `await`: asking both sends it once.
   */
  withResponse(): Promise<WithResponse<Page<T, P>>> {
    return this.#firstResult();
  }

  // biome-ignore lint/suspicious/noThenProperty: a page promise is awaited for its first page by design.
  override then<A = Page<T, P>, B = never>(
    onfulfilled?: ((page: Page<T, P>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** Handles a failure of the first page, as `Promise.prototype.catch`. */
  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T, P> | B> {
    return this.#firstPage().catch(onrejected);
  }

  /** Runs `onfinally` once the first page has come or failed, as `Promise.prototype.finally`. */
  override finally(onfinally?: (() => void) | null): Promise<Page<T, P>> {
    return this.#firstPage().finally(onfinally);
  }

  /** Every page, from the first, fetching the next one when the loop asks for it. */
  async *iterPages(): AsyncGenerator<Page<T, P>, void, undefined> {
    let page = await this.#firstPage();
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Every item of every page, fetching the next page when one runs out. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

function settleUnread(resolve: (value: never) => void): void {
  resolve(undefined as never);
}

function pageOf<T>(result: WithResponse<T>): T {
  return result.data;
}

/** Wraps one list answer as a `Page`, `listKey` naming its array (see `listKeyOf`). */
export function toPage<T, P extends PageParametros>(
  body: unknown,
  listKey: string,
  load: PageLoader<T, P>,
): Page<T, P> {
  const record = isRecord(body) ? body : {};
  const key = listKeyOf(record, listKey);
  const items = key === undefined ? [] : (record[key] as T[]);
  const parametros = (record['parametros'] ?? { paginacao: undefined }) as P;
  const paginacao = parametros.paginacao as Partial<Paginacao> | undefined;
  const current = paginacao?.paginaAtual ?? 0;
  const hasNextPage = () =>
    items.length > 0 &&
    typeof paginacao?.quantidadeDePaginas === 'number' &&
    current + 1 < paginacao.quantidadeDePaginas;
  return {
    ...record,
    items,
    parametros,
    hasNextPage,
    getNextPage: () => {
      if (!hasNextPage()) return Promise.reject(new RangeError('There is no next page'));
      return load(current + 1);
    },
  };
}

/**
 * The name of a list answer's array: `expected` when the answer has an array under it, else its
 * one array-valued property other than `parametros` (`undefined` when there is none, or more
 * than one).
 */
export function listKeyOf(body: unknown, expected?: string): string | undefined {
  if (!isRecord(body)) return undefined;
  if (expected !== undefined && Array.isArray(body[expected])) return expected;
  const keys = Object.keys(body).filter((key) => key !== 'parametros' && Array.isArray(body[key]));
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * A list query in wire form: its scalar fields as they are, `paginacao` flattened to
 * `paginacao.paginaAtual` and `paginacao.itensPorPagina`; `page` overrides the page.
 */
export function listQueryParams(query: object | undefined, page?: number): Record<string, QueryValue> {
  const params: Record<string, QueryValue> = {};
  const fields = (query ?? {}) as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[key] = value;
  }
  const paginacao = isRecord(fields['paginacao']) ? fields['paginacao'] : {};
  params['paginacao.paginaAtual'] = (page ?? paginacao['paginaAtual']) as QueryValue;
  params['paginacao.itensPorPagina'] = paginacao['itensPorPagina'] as QueryValue;
  return params;
}

/** What a list call needs: where, which array, which error for a bare 400, and the check to run first. */
export interface ListCall<T> {
  http: HttpCore;
  path: RoutePath;
  /** The query as the caller wrote it (`paginacao` nested). */
  query: object | undefined;
  /** The list array's name in the answer (`cobs`, `lotes`, ...). */
  listKey: string;
  errors?: ErrorTables;
  options: RequestOptions | undefined;
  /** Runs before the first page is asked for; throws to refuse (nothing is sent). */
  check?: (() => void | Promise<void>) | undefined;
  /** Applied to each item of every page. */
  normalize?: ((item: T) => unknown) | undefined;
}

/** Runs the list's check; with telemetry, a refusal has its span (named as the list call would be). */
async function refusing(
  call: Pick<ListCall<unknown>, 'http' | 'path'>,
  check: () => void | Promise<void>,
): Promise<void> {
  try {
    await check();
  } catch (error) {
    const telemetry = call.http.telemetry;
    if (telemetry === undefined) throw error;
    return telemetry.refusedCall(error, 'GET', call.path.route);
  }
}

/** A page promise over a list endpoint: `await` = first page, `for await` = every item. */
export function listPages<T, P extends PageParametros>(call: ListCall<T>): PagePromise<T, P> {
  const fetchPage: PageResponseLoader<T, P> = async (page) => {
    if (page === undefined && call.check) await refusing(call, call.check);
    const { data, response } = await call.http.send<unknown>({
      method: 'GET',
      path: call.path,
      query: listQueryParams(call.query, page),
      ...(call.errors && { errors: call.errors }),
      options: call.options,
    });
    const result = toPage<T, P>(data, call.listKey, load);
    if (call.normalize) result.items.forEach(call.normalize);
    return { data: result, response };
  };
  const load: PageLoader<T, P> = (page) => fetchPage(page).then(pageOf);
  return new PagePromise<T, P>(fetchPage);
}
