/**
 * Defaults for the activity records of a seed (collaborators, sharing, runs, backfills, logs, events) and
 * the dashboards' secondary records (quick filters, saved templates, view logs), so a hand-written seed
 * may give only the fields it cares about. Identity fields stay required.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { ActivityChange, ActivityDetail, StoreData } from "./types.js";

type Raw = Record<string, unknown>;

const str = (v: unknown, fallback: string): string => (typeof v === "string" ? v : fallback);
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);
const intOrNull = (v: unknown): number | null => (Number.isInteger(v) ? (v as number) : null);

const isDict = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** A seeded row's `detail`: name, short id and type as given, `changes` kept when a list of changes. */
function activityDetail(d: Raw, name: string | null): ActivityDetail {
  const changes: ActivityChange[] | null = Array.isArray(d.changes)
    ? d.changes.filter(isDict).map((c) => ({
        type: str(c.type, "Insight"),
        action: c.action === "created" || c.action === "deleted" ? c.action : "changed",
        field: str(c.field, ""),
        before: c.before ?? null,
        after: c.after ?? null,
      }))
    : null;
  return {
    name: typeof d.name === "string" ? d.name : name,
    short_id: strOrNull(d.short_id),
    type: strOrNull(d.type),
    changes,
    trigger: null,
  };
}

export function normaliseActivity(list: (key: string) => Raw[], at: string) {
  const collaborators: StoreData["collaborators"] = list("collaborators").map((c) => ({
    id: str(c.id, randomUUID()),
    dashboard_id: Number(c.dashboard_id),
    user: Number(c.user),
    level: c.level === 21 ? 21 : 37,
    added_at: str(c.added_at, at),
    updated_at: str(c.updated_at, at),
  }));
  const sharing: StoreData["sharing"] = list("sharing").map((s) => ({
    dashboard_id: s.dashboard_id === undefined || s.dashboard_id === null ? null : Number(s.dashboard_id),
    ...(Number.isInteger(s.insight_id) ? { insight_id: s.insight_id as number } : {}),
    ...(Number.isInteger(s.team_id) ? { team_id: s.team_id as number } : {}),
    enabled: s.enabled === true,
    access_token: str(s.access_token, randomBytes(22).toString("base64url")),
    created_at: str(s.created_at, at),
    settings: (s.settings as Raw) ?? null,
    password_required: s.password_required === true,
    ...(typeof s.expires_at === "string" ? { expires_at: s.expires_at } : {}),
  }));
  const runs: StoreData["runs"] = list("runs").map((r) => ({
    id: str(r.id, randomUUID()),
    batch_export: str(r.batch_export, ""),
    status: str(r.status, "Completed"),
    records_completed: intOrNull(r.records_completed),
    records_failed: intOrNull(r.records_failed),
    latest_error: strOrNull(r.latest_error),
    data_interval_start: strOrNull(r.data_interval_start),
    data_interval_end: str(r.data_interval_end, at),
    cursor: strOrNull(r.cursor),
    created_at: str(r.created_at, at),
    finished_at: strOrNull(r.finished_at),
    last_updated_at: str(r.last_updated_at, str(r.created_at, at)),
    records_total_count: intOrNull(r.records_total_count),
    bytes_exported: intOrNull(r.bytes_exported),
    backfill: strOrNull(r.backfill),
  }));
  const logs: StoreData["logs"] = list("logs").map((l) => ({
    team_id: Number(l.team_id),
    batch_export: str(l.batch_export, ""),
    run: str(l.run, ""),
    timestamp: str(l.timestamp, at),
    level: str(l.level, "INFO").toUpperCase(),
    message: str(l.message, ""),
  }));
  const events: StoreData["events"] = list("events").map((e) => ({
    id: str(e.id, randomUUID()),
    team_id: Number(e.team_id),
    distinct_id: str(e.distinct_id, "anonymous"),
    person_id: strOrNull(e.person_id),
    event: str(e.event, "$pageview"),
    timestamp: str(e.timestamp, at),
    properties: typeof e.properties === "object" && e.properties !== null ? (e.properties as Raw) : {},
    elements_chain: str(e.elements_chain, ""),
  }));
  const backfills: StoreData["backfills"] = list("backfills").map((f) => ({
    id: str(f.id, randomUUID()),
    batch_export: str(f.batch_export, ""),
    team_id: Number(f.team_id ?? f.team),
    start_at: strOrNull(f.start_at),
    end_at: strOrNull(f.end_at),
    status: str(f.status, "Completed"),
    created_at: str(f.created_at, at),
    finished_at: strOrNull(f.finished_at),
    last_updated_at: str(f.last_updated_at, str(f.created_at, at)),
    total_records_count: intOrNull(f.total_records_count),
  }));
  const quick_filters: StoreData["quick_filters"] = list("quick_filters").map((q) => ({
    id: str(q.id, randomUUID()).toLowerCase(),
    team_id: Number(q.team_id ?? q.team),
    name: str(q.name, ""),
  }));
  const dashboard_templates: StoreData["dashboard_templates"] = list("dashboard_templates").map((t) => ({
    template_name: str(t.template_name, ""),
    team_id: intOrNull(t.team_id ?? t.team ?? null),
    scope: str(t.scope, "team"),
    dashboard_description: str(t.dashboard_description, ""),
    dashboard_filters:
      typeof t.dashboard_filters === "object" && t.dashboard_filters !== null
        ? (t.dashboard_filters as Raw)
        : {},
    tiles: Array.isArray(t.tiles) ? (t.tiles as Raw[]) : [],
    tags: Array.isArray(t.tags) ? t.tags.map(String) : [],
  }));
  const view_logs: StoreData["view_logs"] = list("view_logs").map((v) => ({
    team_id: Number(v.team_id ?? v.team),
    user: Number(v.user),
    type: str(v.type, "dashboard"),
    ref: String(v.ref),
    viewed_at: str(v.viewed_at, at),
  }));
  const activity_log: StoreData["activity_log"] = list("activity_log").map((a) => ({
    id: str(a.id, randomUUID()),
    team_id: Number(a.team_id ?? a.team),
    scope: str(a.scope, "FeatureFlag"),
    item_id: String(a.item_id),
    activity: str(a.activity, "updated"),
    user: intOrNull(a.user),
    created_at: str(a.created_at, at),
    name: strOrNull(a.name),
    ...(isDict(a.detail) ? { detail: activityDetail(a.detail, strOrNull(a.name)) } : {}),
  }));
  return {
    activity_log,
    collaborators,
    sharing,
    runs,
    backfills,
    logs,
    events,
    quick_filters,
    dashboard_templates,
    view_logs,
  };
}
