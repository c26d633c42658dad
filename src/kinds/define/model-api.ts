/**
 * The endpoints of a PostHog model (service-api.md §1, §10, §11, §12, §13): a collection under the
 * project, `/api/projects/{project}/<path>/`, listed with limit/offset pages (filters such as
 * `search` or `key` as query parameters), read, created and PATCHed by id; no DELETE (405): a soft
 * delete and a restore are PATCHes of `deleted`. Every answer is checked against the model's shapes
 * before anything reads it, and may be handed to the model's `answer` first (a flag's encrypted
 * payloads go to the scrubber). Creates are never repeated after they may have reached the service;
 * GETs and PATCHes are retried.
 */
import type { AnswerShape, Paging, ServiceClient } from "../../service/index.js";
import { type ProjectId, projectPath, type Query, segment as seg } from "../../service/query.js";
import type { RequestSpec } from "../../service/transport.js";

/** Where a model lives and what its answers look like. */
export interface ModelEndpoints<A> {
  /** The collection under a project: `dashboards` is `/api/projects/{project}/dashboards/`. */
  readonly path: string;
  /** A page of the list and one object (retrieve, create and PATCH answer it). */
  readonly shapes: { readonly page: AnswerShape; readonly one: AnswerShape };
  /** What every list read adds (insights: `basic: "true"`, the metadata-only shape). */
  readonly listQuery?: Query;
  /**
   * How its list pages (default 100 a page with `next` links): the actions list sends every object
   * to one request with a large `limit`, and no `next` links (`byCount`).
   */
  readonly paging?: Paging;
  /** The client's budget its requests draw from (insights: `events`, the ClickHouse throttles). */
  readonly budget?: RequestSpec["budget"];
  /** Every answer, before anything else reads it. */
  readonly answer?: (client: ServiceClient, answer: A) => A;
}

/** The model's endpoints on a client. */
export interface ModelApi<A> {
  /** The list's items, read lazily page by page (at most `max`). */
  list(project: ProjectId, query?: Query, max?: number): AsyncIterable<A>;
  /** Every item of the list, pages after the first read concurrently. */
  listAll(project: ProjectId, query?: Query): Promise<A[]>;
  /** How many the list holds: one request for a one-item page. */
  count(project: ProjectId, query?: Query): Promise<number>;
  get(project: ProjectId, id: number | string): Promise<A>;
  create(project: ProjectId, body: Record<string, unknown>): Promise<A>;
  update(project: ProjectId, id: number | string, body: Record<string, unknown>): Promise<A>;
}

export function modelApi<A extends { id: unknown }>(
  client: ServiceClient,
  model: ModelEndpoints<A>,
): ModelApi<A> {
  const path = (project: ProjectId, rest = "") => projectPath(project, `${model.path}/${rest}`);
  const budget = model.budget ? { budget: model.budget } : {};
  const seen = (answer: A) => (model.answer ? model.answer(client, answer) : answer);
  const one = async (spec: Omit<RequestSpec, "expect">) =>
    seen(await client.request<A>({ ...spec, ...budget, expect: model.shapes.one }));
  return {
    async *list(project, query = {}, max) {
      const spec = { method: "GET", path: path(project), query: { ...model.listQuery, ...query } } as const;
      for await (const item of client.pages<A>({ ...spec, ...budget, expect: model.shapes.page }, max)) {
        yield seen(item);
      }
    },
    async listAll(project, query = {}) {
      const all = await client.listAll<A>(
        path(project),
        { ...model.listQuery, ...query },
        model.shapes.page,
        model.budget,
        model.paging,
      );
      return all.map(seen);
    },
    async count(project, query = {}) {
      const page = await client.request<{ count?: number; results: unknown[] }>({
        method: "GET",
        path: path(project),
        query: { ...model.listQuery, ...query, limit: 1 },
        ...budget,
        expect: model.shapes.page,
      });
      return page.count ?? page.results.length;
    },
    get: (project, id) => one({ method: "GET", path: path(project, `${seg(id)}/`) }),
    create: (project, body) => one({ method: "POST", path: path(project), body }),
    update: (project, id, body) => one({ method: "PATCH", path: path(project, `${seg(id)}/`), body }),
  };
}
