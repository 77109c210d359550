import { nextLink, type Transport } from './transport.ts';

/**
 * A list endpoint walked page by page through its `Link: <…>; rel="next"` header.
 * `for await (const item of list)` yields items; `for await (const page of list.pages())` yields arrays.
 * A list answered in an envelope (`{snapshots: [...], count}`) is read through `itemsOf`; `first()`
 * answers the first page's whole body.
 */
export class Paginated<T, Body = T[]> implements AsyncIterable<T> {
  private readonly transport: Transport;
  private readonly path: string;
  private readonly query: Record<string, string | number | undefined>;
  private readonly signal?: AbortSignal;
  private readonly itemsOf: (body: Body) => T[];
  constructor(
    transport: Transport,
    path: string,
    query: Record<string, string | number | undefined>,
    signal?: AbortSignal,
    itemsOf: (body: Body) => T[] = (body) => body as unknown as T[],
  ) {
    this.transport = transport;
    this.path = path;
    this.query = query;
    this.signal = signal;
    this.itemsOf = itemsOf;
  }

  /** The first page's body as the API answers it (for an envelope, with its totals). */
  async first(): Promise<Body> {
    const res = await this.transport.send({ method: 'GET', path: this.transport.url(this.path, this.query), signal: this.signal });
    return (await res.json()) as Body;
  }

  async *pages(): AsyncGenerator<T[]> {
    let next: string | undefined = this.transport.url(this.path, this.query);
    while (next) {
      const res = await this.transport.send({ method: 'GET', path: next, signal: this.signal });
      yield this.itemsOf((await res.json()) as Body);
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
