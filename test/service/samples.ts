/**
 * The smallest answers of each shape the client checks (src/service/shapes.ts), for scripted fake
 * servers, and a router that answers every endpoint of the client with one of them.
 */
import type { ServerResponse } from "node:http";
import { json, type Seen } from "./fake-server.js";

export const dashboard = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Dashboard ${id}`,
  description: "",
  pinned: false,
  tags: [],
  restriction_level: 21,
  is_shared: false,
  ...extra,
});

export const batchExport = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  team_id: 1,
  name: `export ${id}`,
  destination: { type: "NoOp", config: {} },
  interval: "hour",
  paused: false,
  ...extra,
});

export const run = (id: string) => ({ id, status: "Completed", created_at: "2026-11-20T11:00:00Z" });
export const backfill = (id: string) => ({ id, status: "Running", created_at: "2026-11-20T11:00:00Z" });
export const logEntry = (i: number) => ({
  timestamp: `2026-11-20T11:00:0${i}Z`,
  level: "INFO",
  message: `line ${i}`,
});
export const event = (id: string, timestamp = "2026-11-20T11:00:00Z") => ({
  id,
  event: "$pageview",
  timestamp,
  distinct_id: "d",
  properties: {},
  person: null,
});
export const insight = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  short_id: `short${id}`,
  name: `Insight ${id}`,
  description: null,
  query: { kind: "InsightVizNode", source: { kind: "TrendsQuery", series: [] } },
  tags: [],
  dashboard_tiles: [],
  ...extra,
});
export const tile = (id: number, insightId: number | null) => ({
  id,
  insight: insightId === null ? null : { id: insightId, name: `Insight ${insightId}` },
  text: insightId === null ? { id, body: "Notes" } : null,
  layouts: { sm: { x: 0, y: 0, w: 6, h: 5 } },
  color: null,
});
export const collaborator = (uuid: string) => ({ id: `c-${uuid}`, user: { uuid }, level: 37 });
export const sharing = { enabled: false, access_token: "t", created_at: null };

/** An offset page of `results` (count = its length unless given), `next` null. */
export const offsetPage = (results: unknown[], count = results.length, next: string | null = null) => ({
  count,
  next,
  previous: null,
  results,
});
export const cursorPage = (results: unknown[], next: string | null = null) => ({ next, results });

/** Answers every endpoint of the client with a valid sample; lists hold one item. */
export function answerEverything(req: Seen, res: ServerResponse): void {
  const p = req.path;
  if (req.method === "DELETE") {
    json(res, 204, undefined);
    return;
  }
  const routes: Array<[RegExp, () => unknown]> = [
    [/\/collaborators\/$/, () => (req.method === "GET" ? [collaborator("u-1")] : collaborator("u-1"))],
    [/\/sharing\/(refresh\/)?$/, () => sharing],
    [/\/dashboards\/$/, () => (req.method === "GET" ? offsetPage([dashboard(1)]) : dashboard(1))],
    [/\/dashboards\/[^/]+\/(move_tile\/)?$|create_from_template_json\/$/, () => dashboard(1)],
    [/\/(pause|unpause)\/$/, () => ({ paused: p.endsWith("/pause/") })],
    [
      /\/(backfills|retry)\/$/,
      () => (req.method === "GET" ? cursorPage([backfill("b")]) : { backfill_id: "b" }),
    ],
    [/\/cancel\/$/, () => ({ cancelled: true })],
    [/\/logs\/$/, () => offsetPage([logEntry(1)])],
    [/\/runs\/$/, () => cursorPage([run("r")])],
    [/\/runs\/[^/]+\/$/, () => run("r")],
    [/\/batch_exports\/$/, () => (req.method === "GET" ? offsetPage([batchExport("e")]) : batchExport("e"))],
    [/\/batch_exports\/[^/]+\/$/, () => batchExport("e")],
    [/\/events\/values\/$/, () => [{ name: "Chrome" }]],
    [/\/events\/$/, () => cursorPage([event("ev")])],
    [/\/events\/[^/]+\/$/, () => event("ev")],
    [/^\/api\/organizations\/[^/]+\/$/, () => ({ id: "org", name: "Org", available_product_features: [] })],
    [/^\/api\/projects\/[^/]+\/$/, () => ({ id: 7, organization: "org" })],
  ];
  const route = routes.find(([pattern]) => pattern.test(p));
  if (!route) json(res, 404, { type: "invalid_request", code: "not_found", detail: "Not found." });
  else json(res, req.method === "POST" && !/pause|cancel|refresh/.test(p) ? 201 : 200, route[1]());
}
