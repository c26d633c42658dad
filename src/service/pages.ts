/**
 * Lazy pagination. All three styles the service uses (limit/offset with `count`, cursor pages for runs
 * and backfills, `before=` pages for events) answer `{ next, results }` with `next` an absolute URL
 * carrying every parameter the following page needs, so one walker follows `next` for all of them.
 * Pages are fetched only as the caller iterates; `max` stops early without fetching more.
 * `next` must stay on the client's origin (checked by the transport), and a `next` seen before ends
 * the walk with an error instead of looping.
 */
import { ServiceError, UnexpectedAnswerError } from "./errors.js";
import type { RequestSpec, Transport } from "./transport.js";

interface Envelope<T> {
  next?: string | null;
  results?: T[];
}

export async function* paginate<T>(
  transport: Transport,
  first: RequestSpec,
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<T, void, undefined> {
  if (max <= 0) return;
  let yielded = 0;
  let spec: RequestSpec = first;
  const seen = new Set<string>();
  for (;;) {
    const page = await transport.send<Envelope<T>>(spec);
    // The transport checked the shape when the request named one; a list without results is never empty.
    if (!Array.isArray(page?.results)) throw notAList(first);
    const results = page.results;
    for (const item of results) {
      yield item;
      if (++yielded >= max) return;
    }
    const next = page.next;
    if (!next || results.length === 0) return;
    if (seen.has(next)) {
      throw new ServiceError({
        method: first.method,
        path: first.path,
        status: 0,
        summary: "the service sent the same next page twice; stopped paging",
      });
    }
    seen.add(next);
    spec = { method: first.method, path: next, budget: first.budget ?? "general" };
    if (first.expect) spec.expect = first.expect;
  }
}

function notAList(first: RequestSpec): UnexpectedAnswerError {
  return new UnexpectedAnswerError({
    method: first.method,
    path: first.path,
    status: 200,
    problem: "results is not a list",
  });
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

interface OffsetEnvelope<T> {
  count?: number;
  next?: string | null;
  results?: T[];
}

/**
 * Every item of a limit/offset list, with the pages after the first fetched concurrently: the first
 * page's `count` tells which offsets remain, so a list of N items takes one round trip plus
 * ceil(N/limit) - 1 requests in parallel (the transport's semaphore bounds them) instead of a chain of
 * N/limit. Without a `count`, or when the list grew while it was read (the last page still has a
 * `next`), the rest is read by following `next`. Items are de-duplicated by id, since a list that shifts
 * between pages can repeat one.
 */
export async function collectOffsetPages<T extends { id: unknown }>(
  transport: Transport,
  first: RequestSpec,
  limit = 100,
): Promise<T[]> {
  const query = { ...first.query, limit };
  const head = await transport.send<OffsetEnvelope<T>>({ ...first, query });
  if (!Array.isArray(head?.results)) throw notAList(first);
  const pages: OffsetEnvelope<T>[] = [head];
  if (typeof head.count === "number" && head.next) {
    const offsets: number[] = [];
    for (let offset = limit; offset < head.count; offset += limit) offsets.push(offset);
    pages.push(
      ...(await Promise.all(
        offsets.map((offset) => transport.send<OffsetEnvelope<T>>({ ...first, query: { ...query, offset } })),
      )),
    );
  }
  const items: T[] = pages.flatMap((p) => p.results ?? []);
  const last = pages[pages.length - 1];
  if (last?.next && (last.results?.length ?? 0) > 0) {
    const rest: RequestSpec = { method: first.method, path: last.next, budget: first.budget ?? "general" };
    if (first.expect) rest.expect = first.expect;
    for await (const item of paginate<T>(transport, rest)) {
      items.push(item);
    }
  }
  const seen = new Set<unknown>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}
