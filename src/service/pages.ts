/**
 * Lazy pagination. All three styles the service uses (limit/offset with `count`, cursor pages for runs
 * and backfills, `before=` pages for events) answer `{ next, results }` with `next` an absolute URL
 * carrying every parameter the following page needs, so one walker follows `next` for all of them.
 * Pages are fetched only as the caller iterates; `max` stops early without fetching more.
 *
 * A list is never trusted to end by itself (SPEC §8). Each walk stops with a one-line error:
 * - when `next` leads to another origin (a ServiceError: the transport refuses it before sending);
 * and with an UnexpectedAnswerError:
 * - when `next` repeats a URL already read (the first page's included);
 * - when a page claims a `count` beyond `maxObjects` (default 1,000,000), before any further page;
 * - when a page still has a `next` although the items read already reach its `count` (a lying
 *   count; an honest limit/offset list sends `next` only while offset + limit < count);
 * - after `maxPages` pages (default 10,000) or `maxObjects` items, whatever the pages claim.
 * So an endless chain ends with a clear one-line error after a bounded number of requests, never a
 * hang or an out-of-memory crash.
 */
import { cut } from "../text.js";
import { UnexpectedAnswerError } from "./errors.js";
import type { RequestSpec, Transport } from "./transport.js";

/**
 * The service's page size (DRF's `PAGE_SIZE`, service-api.md "General framework facts"): reading N
 * objects through a list costs ceil(N / LIST_PAGE) requests.
 */
export const LIST_PAGE = 100;

interface Envelope<T> {
  count?: number;
  next?: string | null;
  results: T[];
}

/** Counts pages and items of one list walk against the limits and the claimed `count`. */
class Walk {
  pages = 0;
  items = 0;
  readonly #seen = new Set<string>();
  readonly #transport: Transport;
  readonly #method: string;
  readonly #path: string;

  constructor(transport: Transport, first: RequestSpec) {
    this.#transport = transport;
    this.#method = first.method;
    this.#path = pathOf(first.path);
  }

  fail(problem: string): never {
    throw new UnexpectedAnswerError({ method: this.#method, path: this.#path, status: 200, problem });
  }

  /** Records a URL about to be read; a URL read before ends the walk. */
  visit(spec: RequestSpec): void {
    const url = this.#transport.urlOf(spec).href;
    if (this.#seen.has(url)) this.fail("the same next page came twice; stopped paging");
    this.#seen.add(url);
  }

  /** The page, when its `results` is a list (the transport checked it when the request named a shape). */
  results<T>(page: Envelope<T> | undefined): Envelope<T> {
    if (!Array.isArray(page?.results)) this.fail("results is not a list");
    return page as Envelope<T>;
  }

  /** Checks a page just read; returns the URL of the next page, or undefined at the end. */
  page(page: Envelope<unknown>): string | undefined {
    const { maxPages, maxObjects } = this.#transport.pageLimits;
    const received = page.results.length;
    this.pages++;
    this.items += received;
    this.checkCount(page.count);
    if (this.items > maxObjects) this.fail(`the list holds more than ${grouped(maxObjects)} objects`);
    const next = page.next ?? undefined;
    if (next === undefined || received === 0) return undefined;
    this.checkLink(next);
    if (page.count !== undefined && this.items >= page.count) {
      this.fail(`more pages than its count of ${grouped(page.count)} allows`);
    }
    if (this.pages >= maxPages) this.fail(`the list goes on past ${grouped(maxPages)} pages`);
    return next;
  }

  /**
   * A `next` link as the service writes them: an absolute `http://` or `https://` URL, in lower case,
   * with no space or control character, that parses. Anything else (`HTTP://…`, ` http://…`, the
   * `http:host` form a URL parser resolves against the page, a path, `javascript:`) is an unexpected
   * answer naming the link; a well-formed link to another origin is refused by the transport.
   */
  checkLink(next: unknown): asserts next is string {
    const origin = this.#transport.origin;
    const wellFormed =
      typeof next === "string" &&
      /^https?:\/\/[^\s/]/.test(next) &&
      !/[\s\u0000-\u001f\u007f]/.test(next) &&
      URL.canParse(next);
    if (!wellFormed) {
      const shown = this.#transport.scrubbed(cut(JSON.stringify(next) ?? String(next), 300));
      this.fail(`its next link ${shown} is not a link on ${origin}`);
    }
  }

  checkCount(count: number | undefined): void {
    const { maxObjects } = this.#transport.pageLimits;
    if (count !== undefined && count > maxObjects) {
      this.fail(`count ${count} is beyond the ${grouped(maxObjects)} objects one list may hold`);
    }
  }
}

const grouped = (n: number) => n.toLocaleString("en-US");
const pathOf = (path: string) => (/^https?:\/\//.test(path) ? new URL(path).pathname : path);

export function paginate<T>(
  transport: Transport,
  first: RequestSpec,
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<T, void, undefined> {
  return follow<T>(transport, first, new Walk(transport, first), max);
}

/** Reads `spec` and the pages its `next` links lead to, counted by `walk`. */
async function* follow<T>(
  transport: Transport,
  spec: RequestSpec,
  walk: Walk,
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<T, void, undefined> {
  if (max <= 0) return;
  let yielded = 0;
  for (;;) {
    walk.visit(spec);
    const page = walk.results(await transport.send<Envelope<T>>(spec));
    // Checked before any item is handed out: a page with an absurd count yields nothing.
    const next = walk.page(page);
    for (const item of page.results) {
      yield item;
      if (++yielded >= max) return;
    }
    if (next === undefined) return;
    spec = nextSpec(spec, next);
  }
}

function nextSpec(first: RequestSpec, next: string): RequestSpec {
  const spec: RequestSpec = { method: first.method, path: next, budget: first.budget ?? "general" };
  if (first.expect) spec.expect = first.expect;
  return spec;
}

/** Reads an async iterable into an array, stopping after `max` items. */
export async function collect<T>(items: AsyncIterable<T>, max = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  if (max <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * How a limit/offset list pages: its page size (default 100), and `byCount` for a list that sends no
 * `next` links and whose `count` alone says how many it holds (the actions list, service-api.md §13.1).
 */
export interface Paging {
  readonly limit?: number;
  readonly byCount?: boolean;
}

/**
 * Every item of a limit/offset list, with the pages after the first fetched concurrently: the first
 * page's `count` tells which offsets remain, so a list of N items takes one round trip plus
 * ceil(N/limit) - 1 requests in parallel (the transport's semaphore bounds them) instead of a chain of
 * N/limit. A `count` beyond `maxObjects` is refused before any of them is sent. Without a `count`, or
 * when the list grew while it was read (the last page still has a `next`), the rest is read by
 * following `next`, under the same limits. Items are de-duplicated by id, since a list that shifts
 * between pages can repeat one.
 */
export async function collectOffsetPages<T extends { id: unknown }>(
  transport: Transport,
  first: RequestSpec,
  limit = 100,
  paging: Paging = {},
): Promise<T[]> {
  const query = { ...first.query, limit: paging.limit ?? limit };
  limit = paging.limit ?? limit;
  const walk: Walk = new Walk(transport, first);
  const headSpec: RequestSpec = { ...first, query };
  walk.visit(headSpec);
  const head = walk.results(await transport.send<Envelope<T>>(headSpec));
  const headNext = walk.page(head);
  const pages: Envelope<T>[] = [head];
  // A list without `next` links (`byCount`) says by its count alone that pages remain.
  const more =
    headNext !== undefined ||
    (paging.byCount === true && head.results.length > 0 && (head.count ?? 0) > head.results.length);
  if (typeof head.count === "number" && more) {
    const offsets: number[] = [];
    for (let offset = limit; offset < head.count; offset += limit) offsets.push(offset);
    const { maxPages } = transport.pageLimits;
    if (offsets.length + 1 > maxPages) walk.fail(`the list goes on past ${grouped(maxPages)} pages`);
    const specs = offsets.map((offset): RequestSpec => ({ ...first, query: { ...query, offset } }));
    for (const spec of specs) walk.visit(spec);
    const rest = await Promise.all(specs.map((spec) => transport.send<Envelope<T>>(spec)));
    for (const page of rest) {
      walk.results(page);
      walk.checkCount(page.count);
      walk.pages++;
      walk.items += page.results.length;
    }
    pages.push(...rest);
  }
  const items: T[] = pages.flatMap((p) => p.results);
  const last = pages[pages.length - 1];
  if (headNext !== undefined && last?.next && last.results.length > 0) {
    walk.checkLink(last.next);
    for await (const item of follow<T>(transport, nextSpec(first, last.next), walk)) items.push(item);
  }
  const seen = new Set<unknown>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}
