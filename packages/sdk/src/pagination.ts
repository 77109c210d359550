import { nextLink, type Transport } from './transport.ts';

/**
 * A list endpoint walked page by page through its `Link: <…>; rel="next"` header.
 * `for await (const item of list)` yields items; `for await (const page of list.pages())` yields arrays.
 * A page is the body itself (a JSON array) or, with `itemsKey`, the array under that key (`{"minds": [...]}`).
 */
export class Paginated<T> implements AsyncIterable<T> {
  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    private readonly query: Record<string, string | number | undefined>,
    private readonly signal?: AbortSignal,
    private readonly itemsKey?: string,
  ) {}

  async *pages(): AsyncGenerator<T[]> {
    let next: string | undefined = this.transport.url(this.path, this.query);
    while (next) {
      const res = await this.transport.send({ method: 'GET', path: next, signal: this.signal });
      const body = (await res.json()) as unknown;
      yield (this.itemsKey && !Array.isArray(body) ? (body as Record<string, unknown>)[this.itemsKey] : body) as T[];
      next = nextLink(res.headers.get('link'));
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page;
  }

  /** Every item of every page. */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
