/**
 * `/api/projects/:project/actions/...` (service-api.md §13; the newest
 * products/actions/backend/api/action.py; no `/api/environments/` twin). Scope `action:read` /
 * `action:write`, access control rules per action as for every controlled resource.
 *
 * - The list is hand-written: without `limit` every live action, `{count, results}` with no
 *   `next`/`previous` (`count` = offset + rows; with `limit`, the total). `search` (name contains, any
 *   case), `created_by` (comma-separated ids), `tags` (JSON list, any of), `ordering`
 *   (`name|created_at|pinned_at|created_by`, `-` for descending; others ignored), `limit` / `offset`
 *   (non-negative integers, anything else ignored), `include_reference_count`. Default order:
 *   `-last_calculated_at`, then `name`.
 * - Create (201; 402 `limit_exceeded` at `service.max_actions_per_team` live actions), retrieve, PATCH
 *   and PUT (soft-deleted actions included; soft delete and restore by `deleted`), DELETE → 405.
 * - Writes: a blank name refused, a name another live action of the project holds refused (only when
 *   `name` is sent), steps as action-steps.ts stores them, `pinned_at` pinned with the server's time
 *   (a value sent is ignored; already pinned stays; null or "" unpins), tags (with the organization's
 *   tagging feature, as every kind's) lowercased and deduplicated. A soft delete is never refused.
 * - `references/`: the insights, experiments, cohorts and hog functions that name the action (live
 *   ones of the project, at most 50), as `find_action_references` finds them.
 */
import { createHash } from "node:crypto";
import { filterByAccess, requireAccess, userAccessLevel } from "../access.js";
import { ApiError, collectInvalid, errorBody, invalid, notFound } from "../errors.js";
import { asBody, isDict, parseBool, parseString } from "../fields.js";
import { actionRecord } from "../records.js";
import { addModelWrites, type Ctx, type Router } from "../router.js";
import { EXPERIMENT_JSON } from "../seed-flags.js";
import type { ActionRecord, UserRecord } from "../types.js";
import { renderStep, validateSteps } from "./action-steps.js";
import { anyNode } from "./cohort-graph.js";
import { userBasic } from "./dashboard-access.js";

const BASE = "/api/projects/:project/actions";

type Json = Record<string, unknown>;

function renderAction(ctx: Ctx, a: ActionRecord): Json {
  const creator = ctx.store.user(a.created_by);
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    tags: ctx.org.features.tagging ? [...a.tags].sort() : [],
    post_to_slack: a.post_to_slack,
    slack_message_format: a.slack_message_format,
    steps: a.steps.map(renderStep),
    created_at: a.created_at,
    created_by: creator ? userBasic(creator) : null,
    deleted: a.deleted,
    is_calculating: false,
    last_calculated_at: a.last_calculated_at,
    team_id: a.team_id,
    is_action: true,
    bytecode_error: a.bytecode_error,
    pinned_at: a.pinned_at,
    creation_context: null,
    user_access_level: userAccessLevel(ctx, "action", a),
  };
}

function findAction(ctx: Ctx, level: "viewer" | "editor"): ActionRecord {
  const raw = ctx.params.id ?? "";
  const action = /^\d+$/.test(raw)
    ? ctx.store.data.actions.find((a) => a.id === Number(raw) && a.team_id === ctx.project.id)
    : undefined;
  if (!action) throw notFound();
  requireAccess(ctx, "action", action, level);
  return action;
}

// ── references ───────────────────────────────────────────────────────────────────────────────────

const idMatches = (value: unknown, id: number) => value === id || value === String(id);

/** `_ACTION_JSONPATH`: an `ActionsNode` with the id, an `actionId`, or a `{type: "actions", id}`. */
function namesAction(json: unknown, id: number): boolean {
  return anyNode(
    json,
    (node) =>
      (node.kind === "ActionsNode" && idMatches(node.id, id)) ||
      idMatches(node.actionId, id) ||
      (node.type === "actions" && idMatches(node.id, id)),
  );
}

/** `_ACTIONS_ARRAY_JSONPATH`: `$.actions[*]` with the id. */
function actionsArrayNames(json: unknown, id: number): boolean {
  return (
    isDict(json) && Array.isArray(json.actions) && json.actions.some((a) => isDict(a) && idMatches(a.id, id))
  );
}

interface Reference {
  type: "insight" | "experiment" | "cohort" | "hog_function";
  id: string;
  name: string;
  url: string;
  created_at: string | null;
  created_by: number | null;
}

function references(ctx: Ctx, action: ActionRecord, cap = Number.POSITIVE_INFINITY): Reference[] {
  const { store } = ctx;
  const team = action.team_id;
  const id = action.id;
  const refs: Reference[] = [];
  const room = () => cap - refs.length;
  const insights = store.data.insights
    .filter((i) => i.team_id === team && !i.deleted)
    .filter((i) => namesAction(i.query, id) || namesAction(i.filters, id) || actionsArrayNames(i.filters, id))
    .sort((a, b) => a.id - b.id);
  for (const i of insights.slice(0, room())) {
    refs.push({
      type: "insight",
      id: i.short_id,
      name: i.name || i.derived_name || "Unnamed",
      url: `/insights/${i.short_id}`,
      created_at: i.created_at,
      created_by: i.created_by,
    });
  }
  if (room() <= 0) return refs;
  const experiments = store.data.experiments
    .filter((e) => e.team_id === team && !e.deleted)
    .filter((e) =>
      EXPERIMENT_JSON.some(
        (f) => e[f] !== undefined && (namesAction(e[f], id) || actionsArrayNames(e[f], id)),
      ),
    )
    .sort((a, b) => a.id - b.id);
  for (const e of experiments.slice(0, room())) {
    refs.push({
      type: "experiment",
      id: String(e.id),
      name: e.name || "Unnamed",
      url: `/experiments/${e.id}`,
      created_at: e.created_at ?? null,
      created_by: e.created_by ?? null,
    });
  }
  if (room() <= 0) return refs;
  const cohorts = store.data.cohorts
    .filter((c) => c.team_id === team && !c.deleted && c.filters)
    .filter((c) =>
      anyNode(
        c.filters,
        (node) =>
          (node.event_type === "actions" && idMatches(node.key, id)) ||
          (node.seq_event_type === "actions" && idMatches(node.seq_event, id)),
      ),
    )
    .sort((a, b) => a.id - b.id);
  for (const c of cohorts.slice(0, room())) {
    refs.push({
      type: "cohort",
      id: String(c.id),
      name: c.name || "Unnamed",
      url: `/cohorts/${c.id}`,
      created_at: c.created_at,
      created_by: c.created_by,
    });
  }
  if (room() <= 0) return refs;
  const functions = store.data.hog_functions
    .filter((h) => h.team_id === team && !h.deleted && actionsArrayNames(h.filters, id))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  for (const h of functions.slice(0, room())) {
    refs.push({
      type: "hog_function",
      id: h.id,
      name: h.name || "Unnamed",
      url: `/functions/${h.id}`,
      created_at: h.created_at,
      created_by: h.created_by,
    });
  }
  return refs;
}

function referencesRoute(ctx: Ctx) {
  const action = findAction(ctx, "viewer");
  return {
    status: 200,
    body: references(ctx, action, 50).map((r) => {
      const creator: UserRecord | undefined = ctx.store.user(r.created_by);
      return { ...r, created_by: creator ? userBasic(creator) : null };
    }),
  };
}

// ── list ─────────────────────────────────────────────────────────────────────────────────────────

function nonNegative(raw: string | null): number | undefined {
  if (raw === null || !/^\s*[+-]?\d+\s*$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 0 ? n : undefined;
}

const ORDERABLE = new Set(["name", "created_at", "pinned_at", "created_by"]);

/** Postgres order: ascending puts nulls last, descending first. */
function compare(a: string | number | null, b: string | number | null, desc: boolean): number {
  if (a === b) return 0;
  if (a === null) return desc ? -1 : 1;
  if (b === null) return desc ? 1 : -1;
  const c = a < b ? -1 : 1;
  return desc ? -c : c;
}

function list(ctx: Ctx) {
  const q = ctx.query;
  let items = filterByAccess(ctx, "action", ctx.store.data.actions).filter(
    (a) => a.team_id === ctx.project.id && !a.deleted,
  );
  const search = q.get("search");
  if (search) items = items.filter((a) => (a.name ?? "").toLowerCase().includes(search.toLowerCase()));
  const createdBy = q.get("created_by");
  if (createdBy) {
    const ids = createdBy
      .split(",")
      .map((v) => v.trim())
      .filter((v) => /^\d+$/.test(v))
      .map(Number);
    if (ids.length > 0) items = items.filter((a) => a.created_by !== null && ids.includes(a.created_by));
  }
  const tags = q.get("tags");
  if (tags) {
    let wanted: unknown;
    try {
      wanted = JSON.parse(tags);
    } catch {
      wanted = null;
    }
    if (Array.isArray(wanted) && wanted.length > 0) {
      const names = new Set(wanted.map(String));
      items = items.filter((a) => a.tags.some((t) => names.has(t)));
    }
  }
  const creatorName = (a: ActionRecord) => {
    const user = ctx.store.user(a.created_by);
    return user ? [user.first_name, user.last_name] : [null, null];
  };
  const ordering = q.get("ordering");
  const field = ordering?.replace(/^-/, "") ?? "";
  const desc = ordering?.startsWith("-") ?? false;
  items.sort((a, b) => {
    if (ORDERABLE.has(field)) {
      let c: number;
      if (field === "created_by") {
        const [af, al] = creatorName(a);
        const [bf, bl] = creatorName(b);
        c = compare(af ?? null, bf ?? null, desc) || compare(al ?? null, bl ?? null, desc);
      } else c = compare(a[field as "name"] ?? null, b[field as "name"] ?? null, desc);
      if (c !== 0 || field === "name") return c;
      return compare(a.name, b.name, false);
    }
    return compare(a.last_calculated_at, b.last_calculated_at, true) || compare(a.name, b.name, false);
  });
  const offset = nonNegative(q.get("offset")) ?? 0;
  const limit = nonNegative(q.get("limit"));
  const total = items.length;
  const page = limit !== undefined ? items.slice(offset, offset + limit) : items.slice(offset);
  const withCounts = Boolean(q.get("include_reference_count"));
  const results = page.map((a) => {
    const rendered = renderAction(ctx, a);
    if (withCounts) rendered.reference_count = references(ctx, a).length;
    return rendered;
  });
  return { status: 200, body: { count: limit !== undefined ? total : offset + results.length, results } };
}

// ── writes ───────────────────────────────────────────────────────────────────────────────────────

interface Fields {
  name?: string | null;
  description?: string;
  tags?: string[];
  post_to_slack?: boolean;
  slack_message_format?: string;
  steps?: ActionRecord["steps"];
  deleted?: boolean;
  pinned_at?: string | null;
  last_calculated_at?: string;
}

function parseFields(body: Json): Fields {
  const out: Fields = {};
  const steps = collectInvalid();
  if ("name" in body)
    steps.step(() => (out.name = parseString(body.name, "name", { nullable: true, maxLength: 400 })));
  if ("description" in body)
    steps.step(() => (out.description = parseString(body.description, "description") ?? ""));
  if ("tags" in body)
    steps.step(() => {
      if (!Array.isArray(body.tags))
        throw invalid(`Expected a list of items but got type "dict".`, "tags", "not_a_list");
      out.tags = [...new Set(body.tags.map((t) => String(t).trim().toLowerCase()))];
    });
  if ("post_to_slack" in body)
    steps.step(() => (out.post_to_slack = parseBool(body.post_to_slack, "post_to_slack") ?? false));
  if ("slack_message_format" in body)
    steps.step(
      () =>
        (out.slack_message_format =
          parseString(body.slack_message_format, "slack_message_format", { maxLength: 1200 }) ?? ""),
    );
  if ("steps" in body) steps.step(() => (out.steps = validateSteps(body.steps)));
  if ("deleted" in body) steps.step(() => (out.deleted = parseBool(body.deleted, "deleted") ?? false));
  if ("pinned_at" in body)
    steps.step(() => {
      const v = body.pinned_at;
      if (v === null || v === "") out.pinned_at = null;
      else if (typeof v !== "string" || Number.isNaN(Date.parse(v)))
        throw invalid(
          "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
          "pinned_at",
        );
      else out.pinned_at = v;
    });
  if ("last_calculated_at" in body && typeof body.last_calculated_at === "string")
    out.last_calculated_at = body.last_calculated_at;
  steps.done();
  return out;
}

/** `ActionSerializer.validate`: a blank name refused, a name another live action holds refused. */
function checkName(ctx: Ctx, fields: Fields, instance: ActionRecord | undefined): void {
  const name = fields.name;
  if (name !== undefined && name !== null && name.trim() === "")
    throw invalid("This field may not be blank.", "name", "blank");
  if (name === undefined) return;
  const team = instance?.team_id ?? ctx.project.id;
  const colliding = ctx.store.data.actions
    .filter((a) => a.team_id === team && !a.deleted && a.name === name && a.id !== instance?.id)
    .sort((a, b) => a.id - b.id)[0];
  if (colliding) {
    throw invalid(`This project already has an action with this name, ID ${colliding.id}`, "name", "unique");
  }
}

function limitExceeded(ctx: Ctx, limit: number, current: number): ApiError {
  const request = createHash("sha256")
    .update(`limit-increase:${ctx.project.id}:analytics.max_actions_per_team`)
    .digest("hex");
  const id = `${request.slice(0, 8)}-${request.slice(8, 12)}-4${request.slice(13, 16)}-a${request.slice(17, 20)}-${request.slice(20, 32)}`;
  return new ApiError(402, {
    ...errorBody("limit_exceeded", "limit_exceeded", "Resource limit exceeded."),
    limit_key: "analytics.max_actions_per_team",
    limit,
    current,
    request: { id },
  });
}

function create(ctx: Ctx) {
  const body = asBody(ctx.body);
  const fields = parseFields(body);
  checkName(ctx, fields, undefined);
  const live = ctx.store.data.actions.filter((a) => a.team_id === ctx.project.id && !a.deleted).length;
  const limit = ctx.store.data.service.max_actions_per_team;
  if (live >= limit) throw limitExceeded(ctx, limit, live);
  const now = ctx.now.toISOString();
  const action = actionRecord({
    id: ctx.store.data.sequences.action++,
    team_id: ctx.project.id,
    created_at: now,
    created_by: ctx.user.id,
    name: fields.name ?? null,
    description: fields.description ?? "",
    tags: ctx.org.features.tagging ? (fields.tags ?? []) : [],
    post_to_slack: fields.post_to_slack ?? false,
    slack_message_format: fields.slack_message_format ?? "",
    steps: fields.steps ?? [],
    deleted: fields.deleted ?? false,
    last_calculated_at: fields.last_calculated_at ?? now,
    // The create path keeps a value sent (only an update pins with the server's time).
    pinned_at: fields.pinned_at ? new Date(Date.parse(fields.pinned_at)).toISOString() : null,
  });
  ctx.store.data.actions.push(action);
  return { status: 201, body: renderAction(ctx, action) };
}

function update(ctx: Ctx) {
  const action = findAction(ctx, "editor");
  const fields = parseFields(asBody(ctx.body));
  checkName(ctx, fields, action);
  if (fields.name !== undefined) action.name = fields.name;
  if (fields.description !== undefined) action.description = fields.description;
  if (fields.post_to_slack !== undefined) action.post_to_slack = fields.post_to_slack;
  if (fields.slack_message_format !== undefined) action.slack_message_format = fields.slack_message_format;
  if (fields.steps !== undefined) action.steps = fields.steps;
  if (fields.deleted !== undefined) action.deleted = fields.deleted;
  if (fields.last_calculated_at !== undefined) action.last_calculated_at = fields.last_calculated_at;
  if (fields.pinned_at !== undefined) {
    if (fields.pinned_at === null) action.pinned_at = null;
    else if (action.pinned_at === null) action.pinned_at = ctx.now.toISOString();
  }
  if (fields.tags !== undefined && ctx.org.features.tagging) action.tags = fields.tags;
  action.updated_at = ctx.now.toISOString();
  return { status: 200, body: renderAction(ctx, action) };
}

export function registerActions(router: Router): void {
  const read = { scope: "action:read", projectsOnly: true };
  const write = { scope: "action:write", projectsOnly: true };
  router.add({ method: "GET", pattern: BASE, ...read, handler: list });
  router.add({ method: "POST", pattern: BASE, ...write, creates: true, handler: create });
  router.add({
    method: "GET",
    pattern: `${BASE}/:id`,
    ...read,
    handler: (ctx) => ({ status: 200, body: renderAction(ctx, findAction(ctx, "viewer")) }),
  });
  addModelWrites(router, `${BASE}/:id`, write, update);
  router.add({ method: "GET", pattern: `${BASE}/:id/references`, ...read, handler: referencesRoute });
}
