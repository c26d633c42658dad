/**
 * A fake service holding a project's cohorts, actions and insights at `/api/projects/7/`, answering
 * and rewriting the way service-api.md §12, §13 and §11 say (written from those facts, not from the
 * tool): cohort `filters` stored as `model_dump(exclude_none=True)` (nulls dropped, `negation: false`
 * added, integers coerced, one-element lists unwrapped for one-value operators) with every condition's
 * `bytecode` and `conditionHash` (or `bytecode_error`), `cohort_type` recomputed, every write but a
 * soft delete a recalculation (counted), criteria of a static cohort refused; action steps stored with
 * all ten keys (`url_matching` "contains"), `url` and `selector` trimmed, `selector_regex` added,
 * `pinned_at` stamped with the service's own time, names unique among live actions, the list without
 * `next` links; soft-deleted cohorts and actions read by id. Every request is recorded by the server.
 */
import type { ServerResponse } from "node:http";
import { json, type Seen } from "../../service/fake-server.js";

type Row = Record<string, unknown> & { id: number; deleted?: boolean };
type Json = Record<string, unknown>;

const STEP_KEYS = [
  "event",
  "properties",
  "selector",
  "tag_name",
  "text",
  "text_matching",
  "href",
  "href_matching",
  "url",
  "url_matching",
];
const ONE_VALUE = new Set(["icontains", "not_icontains", "is_date_after", "is_date_before"]);
const INTEGERS = ["time_value", "operator_value", "seq_time_value", "total_periods", "min_periods"];
const LEAVES = new Set(["person", "person_metadata", "cohort", "behavioral"]);

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const bad = (detail: string, attr: string | null = null) => ({
  type: "validation_error",
  code: "invalid_input",
  detail,
  attr,
});

export class CohortService {
  cohorts: Row[] = [];
  actions: Row[] = [];
  insights: Row[] = [];
  next = 100;
  /** The compiler's version: bumping it rewrites every stored condition's bytecode on the next read. */
  bytecodeVersion = 1;
  /** Conditions of these event names fail to compile (`bytecode_error` instead of `bytecode`). */
  failing = new Set<string>();
  /** Recalculations started, by cohort id. */
  recalculations = new Map<number, number>();
  /** The service's clock, for `pinned_at`. */
  now = "2026-05-01T12:00:00.000000Z";

  handle(req: Seen, res: ServerResponse): void {
    json(res, ...this.answer(req));
  }

  add(collection: "cohorts" | "actions" | "insights", row: Json): Row {
    const full = { deleted: false, ...row, id: (row.id as number | undefined) ?? this.next++ } as Row;
    if (collection === "cohorts") this.storeCohort(full);
    if (collection === "actions") full.steps = storedSteps(full.steps);
    this[collection].push(full);
    return full;
  }

  private answer(req: Seen): [number, unknown] {
    const match = /^\/api\/projects\/7\/(cohorts|actions|insights)\/(?:(\d+)\/)?$/.exec(req.path);
    if (!match)
      return [404, { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null }];
    const collection = match[1] as "cohorts" | "actions" | "insights";
    const rows = this[collection];
    if (match[2] === undefined) {
      if (req.method === "POST") return this.create(collection, req.body as Json);
      return this.list(collection, req);
    }
    const row = rows.find((r) => r.id === Number(match[2]));
    if (row === undefined)
      return [404, { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null }];
    if (req.method === "GET") return [200, this.render(collection, row)];
    if (req.method === "PATCH") return this.patch(collection, row, req.body as Json);
    return [405, { detail: 'Method "DELETE" not allowed.' }];
  }

  private list(collection: "cohorts" | "actions" | "insights", req: Seen): [number, unknown] {
    const search = req.query.get("search")?.toLowerCase();
    const found = this[collection].filter(
      (r) =>
        r.deleted !== true &&
        (!search ||
          String(r.name ?? "")
            .toLowerCase()
            .includes(search)),
    );
    const limit = Number(req.query.get("limit") ?? (collection === "actions" ? found.length : 100));
    const offset = Number(req.query.get("offset") ?? 0);
    const results = found.slice(offset, offset + limit).map((r) => this.render(collection, r));
    if (collection === "actions") return [200, { count: found.length, results }];
    const next =
      offset + limit < found.length
        ? `http://${req.headers.host}${req.path}?limit=${limit}&offset=${offset + limit}`
        : null;
    return [200, { count: found.length, next, previous: null, results }];
  }

  private create(collection: "cohorts" | "actions" | "insights", body: Json): [number, unknown] {
    if (collection === "cohorts") {
      if (body.is_static === true && body.filters !== undefined) {
        return [
          400,
          bad(
            "Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead.",
          ),
        ];
      }
      const row = this.add("cohorts", { description: "", filters: null, is_static: false, ...body });
      return [201, this.render("cohorts", row)];
    }
    if (collection === "actions") {
      const taken = this.actions.find((a) => a.deleted !== true && a.name === body.name);
      if (taken)
        return [
          400,
          {
            ...bad(`This project already has an action with this name, ID ${taken.id}`, "name"),
            code: "unique",
          },
        ];
      const row = this.add("actions", { description: "", tags: [], pinned_at: null, ...body });
      return [201, this.render("actions", row)];
    }
    const row = this.add("insights", { description: null, tags: [], ...body });
    return [201, this.render("insights", row)];
  }

  private patch(collection: "cohorts" | "actions" | "insights", row: Row, body: Json): [number, unknown] {
    if (collection === "cohorts") {
      if (row.is_static === true && body.filters !== undefined) {
        return [
          400,
          bad(
            "Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead.",
          ),
        ];
      }
      Object.assign(row, body);
      if (body.filters !== undefined) this.storeCohort(row);
      if (!(body.deleted === true && Object.keys(body).length === 1) && row.is_static !== true) {
        this.recalculations.set(row.id, (this.recalculations.get(row.id) ?? 0) + 1);
        row.is_calculating = true;
      }
      return [200, this.render("cohorts", row)];
    }
    if (collection === "actions") {
      if (typeof body.name === "string") {
        const taken = this.actions.find((a) => a.id !== row.id && a.deleted !== true && a.name === body.name);
        if (taken)
          return [
            400,
            {
              ...bad(`This project already has an action with this name, ID ${taken.id}`, "name"),
              code: "unique",
            },
          ];
      }
      const { pinned_at, ...rest } = body;
      Object.assign(row, rest);
      if (body.steps !== undefined) row.steps = storedSteps(body.steps);
      if (pinned_at !== undefined) row.pinned_at = pinned_at ? (row.pinned_at ?? this.now) : null;
      return [200, this.render("actions", row)];
    }
    Object.assign(row, body);
    return [200, this.render("insights", row)];
  }

  private storeCohort(row: Row): void {
    row.filters = isObject(row.filters) ? (dumped(row.filters) as Json) : row.filters;
    row.cohort_type = row.is_static === true ? null : "realtime";
  }

  private render(collection: "cohorts" | "actions" | "insights", row: Row): Json {
    if (collection === "cohorts") {
      return {
        ...row,
        filters: isObject(row.filters) ? this.compiled(row.filters) : row.filters,
        groups: [],
      };
    }
    if (collection === "actions") {
      const steps = Array.isArray(row.steps)
        ? row.steps.map((s) => ({
            ...(s as Json),
            selector_regex: (s as Json).selector ? `^${(s as Json).selector}$` : null,
          }))
        : row.steps;
      return { is_calculating: false, is_action: true, bytecode_error: null, ...row, steps };
    }
    return { short_id: `s${row.id}`, dashboard_tiles: [], saved: true, ...row };
  }

  /** Filters with each condition's compiled form, as the current compiler writes it. */
  private compiled(filters: Json): Json {
    const walk = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(walk);
      if (!isObject(node)) return node;
      const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
      if (typeof out.type === "string" && LEAVES.has(out.type)) {
        if (this.failing.has(String(out.key))) return { ...out, bytecode_error: "Unsupported event" };
        const code = ["_H", this.bytecodeVersion, 32, JSON.stringify(out).length];
        return { ...out, bytecode: code, conditionHash: `${this.bytecodeVersion}`.padStart(16, "0") };
      }
      return out;
    };
    return walk(filters) as Json;
  }
}

/** `model_dump(exclude_none=True)` of the filters' models (service-api.md §12.4). */
function dumped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dumped);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (v === null || v === undefined || k === "bytecode" || k === "conditionHash" || k === "bytecode_error")
      continue;
    out[k] = dumped(v);
  }
  if (typeof out.type === "string" && LEAVES.has(out.type)) {
    for (const k of INTEGERS) if (typeof out[k] === "string") out[k] = Number(out[k]);
    if (out.type === "cohort" && typeof out.value === "string") out.value = Number(out.value);
    if (ONE_VALUE.has(String(out.operator)) && Array.isArray(out.value) && out.value.length === 1)
      out.value = out.value[0];
    out.negation ??= false;
  }
  return out;
}

/** Steps as the model's setter stores them (service-api.md §13.3). */
function storedSteps(steps: unknown): unknown {
  if (!Array.isArray(steps)) return steps;
  return steps.map((step: Json) => {
    const out: Json = {};
    for (const key of STEP_KEYS) {
      const value = Object.hasOwn(step, key) ? step[key] : key === "url_matching" ? "contains" : null;
      out[key] = (key === "url" || key === "selector") && typeof value === "string" ? value.trim() : value;
    }
    return out;
  });
}
