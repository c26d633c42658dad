/**
 * Lazy pagination. All three styles the service uses (limit/offset with `count`, cursor pages for runs
 * and backfills, `before=` pages for events) answer `{ next, results }` with `next` an absolute URL
 * carrying every parameter the following page needs, so one walker follows `next` for all of them.
 * Pages are fetched only as the caller iterates; `max` stops early without fetching more.
 * `next` must stay on the client's origin (checked by the transport), and a `next` seen before ends
 * the walk with an error instead of looping.
 */
import { ServiceError } from "./errors.js";
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
    const page = await transport.send<Envelope<T> | T[]>(spec);
    const results = Array.isArray(page) ? page : (page?.results ?? []);
    for (const item of results) {
      yield item;
      if (++yielded >= max) return;
    }
    const next = Array.isArray(page) ? null : page?.next;
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
  }
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
