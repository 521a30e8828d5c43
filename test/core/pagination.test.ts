import { describe, expect, it } from 'vitest';
import { PagePromise, listQueryParams, toPage, type Page, type PageParametros } from '../../src/core/pagination.ts';

/** A fake service of `total` items, `size` a page, counting the pages asked for. */
function service(total: number, size: number) {
  const asked: Array<number | undefined> = [];
  const load = async (paginaAtual: number | undefined): Promise<Page<number, PageParametros>> => {
    asked.push(paginaAtual);
    const current = paginaAtual ?? 0;
    const items = Array.from(
      { length: Math.max(0, Math.min(size, total - current * size)) },
      (_, i) => current * size + i,
    );
    const body = {
      parametros: {
        inicio: 'a',
        fim: 'b',
        paginacao: {
          paginaAtual: current,
          itensPorPagina: size,
          quantidadeDePaginas: Math.max(1, Math.ceil(total / size)),
          quantidadeTotalDeItens: total,
        },
      },
      cobs: items,
    };
    return toPage<number, PageParametros>(body, 'cobs', load);
  };
  const answers: Response[] = [];
  const list = () =>
    new PagePromise<number, PageParametros>(async (paginaAtual) => {
      const response = new Response(null, { headers: { 'x-page': String(paginaAtual ?? 0) } });
      answers.push(response);
      return { data: await load(paginaAtual), response };
    });
  return { asked, answers, list };
}

describe('PagePromise', () => {
  it('await gives the first page only', async () => {
    const { asked, list } = service(250, 100);
    const page = await list();
    expect(page.items).toHaveLength(100);
    expect(page.parametros.paginacao.quantidadeDePaginas).toBe(3);
    expect(page.hasNextPage()).toBe(true);
    expect(asked).toEqual([undefined]);
  });

  it('for await walks every item across pages, in order', async () => {
    const { asked, list } = service(250, 100);
    const seen: number[] = [];
    for await (const item of list()) seen.push(item);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(asked).toEqual([undefined, 1, 2]);
  });

  it('stops on an empty list and refuses a page past the last', async () => {
    const { list } = service(0, 100);
    const page = await list();
    expect(page.items).toEqual([]);
    expect(page.hasNextPage()).toBe(false);
    await expect(page.getNextPage()).rejects.toBeInstanceOf(RangeError);
    const all: number[] = [];
    for await (const item of list()) all.push(item);
    expect(all).toEqual([]);
  });

  it('passes a failed page load to the caller', async () => {
    const failing = new PagePromise<number>(async (): Promise<never> => {
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    await expect(failing.catch((e: unknown) => (e as Error).message)).resolves.toBe('boom');
  });

  it('withResponse() gives the first page with its Response, the same request as await', async () => {
    const { asked, answers, list } = service(250, 100);
    const pages = list();
    const { data, response } = await pages.withResponse();
    expect(response.headers.get('x-page')).toBe('0');
    expect(response).toBe(answers[0]);
    expect(data.items).toHaveLength(100);
    expect(await pages).toBe(data);
    expect(asked).toEqual([undefined]);
  });

  it('is a real Promise: instanceof, finally, Promise.resolve and derived promises', async () => {
    const { asked, list } = service(250, 100);
    const pages = list();
    expect(pages).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(pages)).toBe('[object Promise]');
    let finished = 0;
    const page = await pages.finally(() => {
      finished++;
    });
    expect(finished).toBe(1);
    expect(page.items).toHaveLength(100);
    expect(await Promise.resolve(pages)).toBe(page);
    const derived = pages.then((first) => first.items.length);
    expect(derived.constructor).toBe(Promise);
    expect(await derived).toBe(100);
    expect(asked).toEqual([undefined]);
  });

  it('finally runs on a failed first page and passes the failure on', async () => {
    const failing = new PagePromise<number>(async (): Promise<never> => {
      throw new Error('boom');
    });
    let finished = 0;
    await expect(
      failing.finally(() => {
        finished++;
      }),
    ).rejects.toThrow('boom');
    expect(finished).toBe(1);
  });

  it('sends nothing until used', async () => {
    const { asked, list } = service(250, 100);
    list();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([]);
  });

  it('iterPages() walks every page in order, asking for the next one only when the loop does', async () => {
    const { asked, list } = service(250, 100);
    const sizes: number[] = [];
    for await (const page of list().iterPages()) {
      sizes.push(page.items.length);
      expect(asked).toHaveLength(sizes.length);
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(asked).toEqual([undefined, 1, 2]);
    const firstOnly: number[] = [];
    const { asked: askedOnce, list: listOnce } = service(250, 100);
    for await (const page of listOnce().iterPages()) {
      firstOnly.push(page.parametros.paginacao.paginaAtual);
      break;
    }
    expect(firstOnly).toEqual([0]);
    expect(askedOnce).toEqual([undefined]);
  });

  it('iterPages() shares the first page with await and withResponse()', async () => {
    const { asked, list } = service(150, 100);
    const pages = list();
    const first = await pages;
    const walked: Page<number, PageParametros>[] = [];
    for await (const page of pages.iterPages()) walked.push(page);
    expect(walked[0]).toBe(first);
    expect((await pages.withResponse()).data).toBe(first);
    expect(asked).toEqual([undefined, 1]);
  });

  it('keeps the other fields of the answer on the page', async () => {
    const page = toPage(
      {
        parametros: {
          paginacao: { paginaAtual: 0, itensPorPagina: 1, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
        },
        lotes: [1],
        extra: 'x',
      },
      'lotes',
      async () => {
        throw new Error('unused');
      },
    );
    expect(page.items).toEqual([1]);
    expect((page as unknown as Record<string, unknown>)['extra']).toBe('x');
  });
});

describe('listQueryParams', () => {
  it('flattens paginacao to the dotted wire names and keeps scalars as they are', () => {
    expect(
      listQueryParams({
        inicio: 'a',
        fim: 'b',
        locationPresente: false,
        loteCobVId: 7,
        paginacao: { paginaAtual: 1, itensPorPagina: 50 },
      }),
    ).toEqual({
      inicio: 'a',
      fim: 'b',
      locationPresente: false,
      loteCobVId: 7,
      'paginacao.paginaAtual': 1,
      'paginacao.itensPorPagina': 50,
    });
  });

  it('a page number overrides the query page', () => {
    expect(listQueryParams({ paginacao: { paginaAtual: 1 } }, 4)['paginacao.paginaAtual']).toBe(4);
    expect(listQueryParams(undefined, 2)).toEqual({
      'paginacao.paginaAtual': 2,
      'paginacao.itensPorPagina': undefined,
    });
  });
});
