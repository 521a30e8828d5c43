/** Small response and request helpers shared by the sandbox's routes. */
import type { Judge, ListQuery } from './rules.ts';
import type { CatalogueErrorType } from '../errors/catalogue.ts';
import { Problem } from './problems.ts';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function empty(status: number): Response {
  return new Response(null, { status });
}

/** The request body as JSON; `undefined` when empty; a `Problem` of `errorType` when not JSON. */
export async function readJson(request: Request, errorType: CatalogueErrorType): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Problem(errorType, 'O corpo da requisição não é JSON.');
  }
}

/** Throws `errorType` with the judge's violations when there are any. */
export function verdict(
  judge: Judge,
  errorType: CatalogueErrorType,
  detail = 'A requisição não respeita as regras do serviço.',
): void {
  if (!judge.ok) throw new Problem(errorType, detail, judge.violacoes);
}

/** Items created within `inicio`..`fim` (when given). */
export function inRange<T>(items: Iterable<T>, query: ListQuery, createdAt: (item: T) => string): T[] {
  const out: T[] = [];
  for (const item of items) {
    const at = Date.parse(createdAt(item));
    if (query.inicio !== undefined && at < query.inicio) continue;
    if (query.fim !== undefined && at > query.fim) continue;
    out.push(item);
  }
  return out;
}

/** One page of `items` and the `parametros` echoing the query. */
export function page<T>(
  items: readonly T[],
  query: ListQuery,
  listKey: string,
  render: (item: T) => unknown,
  echo: readonly string[] = [],
): Json {
  const parametros: Json = {};
  for (const name of ['inicio', 'fim', ...echo]) {
    const value = query.params.get(name);
    if (value !== null) parametros[name] = value === 'true' ? true : value === 'false' ? false : value;
  }
  parametros['paginacao'] = {
    paginaAtual: query.page,
    itensPorPagina: query.size,
    quantidadeDePaginas: Math.max(1, Math.ceil(items.length / query.size)),
    quantidadeTotalDeItens: items.length,
  };
  const start = query.page * query.size;
  return { parametros, [listKey]: items.slice(start, start + query.size).map(render) };
}

type Json = Record<string, unknown>;
