/**
 * List results. `await list(q)` gives the first page; `for await (const x of list(q))` walks
 * every item across pages, asking for `paginacao.paginaAtual` + 1 until the last page.
 */

/** The service's `parametros.paginacao` block. */
export interface Paginacao {
  paginaAtual: number;
  itensPorPagina: number;
  quantidadeDePaginas: number;
  quantidadeTotalDeItens: number;
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

/**
 * What a list method returns: `await` it for the first page, or walk every item across pages
 * with `for await`.
 */
export class PagePromise<T, P extends PageParametros = PageParametros>
  implements PromiseLike<Page<T, P>>, AsyncIterable<T>
{
  readonly #load: PageLoader<T, P>;
  #first: Promise<Page<T, P>> | undefined;

  constructor(load: PageLoader<T, P>) {
    this.#load = load;
  }

  #firstPage(): Promise<Page<T, P>> {
    return (this.#first ??= this.#load(undefined));
  }

  then<A = Page<T, P>, B = never>(
    onfulfilled?: ((page: Page<T, P>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** Handles a failure of the first page, as `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T, P> | B> {
    return this.#firstPage().catch(onrejected);
  }

  /** Every item of every page, fetching the next page when one runs out. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.#firstPage();
    for (;;) {
      yield* page.items;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }
}

/** Wraps one list answer as a `Page`, `listKey` naming its array. */
export function toPage<T, P extends PageParametros>(
  body: unknown,
  listKey: string,
  load: PageLoader<T, P>,
): Page<T, P> {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const items = Array.isArray(record[listKey]) ? (record[listKey] as T[]) : [];
  const parametros = (record['parametros'] ?? { paginacao: undefined }) as P;
  const paginacao = parametros.paginacao as Partial<Paginacao> | undefined;
  const current = paginacao?.paginaAtual ?? 0;
  const hasNextPage = () =>
    items.length > 0 && typeof paginacao?.quantidadeDePaginas === 'number' && current + 1 < paginacao.quantidadeDePaginas;
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
