/**
 * Turns a seed (any subset of the store, records possibly partial) into a complete `StoreData`, filling
 * the defaults the service would have stored. Throws `SeedError` naming the first bad record.
 */
import { randomUUID } from "node:crypto";
import { defaultSeed } from "./default-seed.js";
import { DEFAULT_FOLDER } from "./records.js";
import { NEWEST_DESTINATIONS } from "./routes/destinations.js";
import { normaliseAccess } from "./seed-access.js";
import { normaliseActionData } from "./seed-actions.js";
import { normaliseActivity } from "./seed-activity.js";
import { SeedError } from "./seed-error.js";
import { normaliseFlagData } from "./seed-flags.js";
import { seedContent } from "./seed-insights.js";
import { defaultService, mergeService, type ServiceSettings } from "./service.js";
import type {
  ApiKeyRecord,
  BatchExportRecord,
  DashboardRecord,
  GroupTypeRecord,
  IntegrationRecord,
  MembershipRecord,
  OrganizationRecord,
  ProjectRecord,
  StoreData,
  UserRecord,
} from "./types.js";

export { SeedError };

type Raw = Record<string, unknown>;

function list(seed: Raw, key: string): Raw[] {
  const value = seed[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "object" || v === null || Array.isArray(v))) {
    throw new SeedError(`seed: "${key}" must be a list of objects`);
  }
  return value as Raw[];
}

function need<T>(record: Raw, key: string, kind: string, check: (v: unknown) => boolean): T {
  const value = record[key];
  if (!check(value)) throw new SeedError(`seed: a ${kind} has a missing or invalid "${key}"`);
  return value as T;
}

const isStr = (v: unknown) => typeof v === "string" && v !== "";
const isInt = (v: unknown) => Number.isInteger(v);
const isDict = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The newest service has no `S3` type: its migration moved every legacy S3 export to AwsS3 (or
 * S3Compatible when it had an `endpoint_url`) with an integration holding the credentials. A seed's
 * legacy S3 export is migrated the same way on load: a new integration of the export's project (the
 * inline keys are dropped, like sensitive config the API never shows) unless the export already names
 * one, and the config keeps only the keys its new type accepts.
 */
function migrateLegacyS3(exports: BatchExportRecord[], integrations: IntegrationRecord[], at: string): void {
  let next = Math.max(0, ...integrations.map((i) => i.id)) + 1;
  for (const b of exports) {
    if (b.destination.type !== "S3") continue;
    const config = b.destination.config;
    const endpoint =
      typeof config.endpoint_url === "string" && config.endpoint_url !== "" ? config.endpoint_url : "";
    const type = endpoint ? "S3Compatible" : "AwsS3";
    if (b.destination.integration === null) {
      const id = next++;
      integrations.push({
        id,
        team_id: b.team_id,
        kind: endpoint ? "s3-compatible" : "aws-s3",
        display_name: endpoint ? `${b.name} (access key, ${endpoint})` : `${b.name} (access key)`,
        config: endpoint ? { endpoint_url: endpoint } : {},
        created_at: at,
        created_by: null,
        errors: "",
      });
      b.destination.integration = id;
    }
    const accepted = NEWEST_DESTINATIONS[type]?.fields ?? {};
    b.destination = {
      type,
      integration: b.destination.integration,
      config: Object.fromEntries(Object.entries(config).filter(([k]) => k in accepted)),
    };
  }
}

/** `interval_offset` as given, or built from a seed's `offset_day` / `offset_hour` convenience keys. */
function intervalOffset(b: Raw): number | null {
  if (isInt(b.interval_offset)) return b.interval_offset as number;
  const day = isInt(b.offset_day) ? (b.offset_day as number) : 0;
  const hour = isInt(b.offset_hour) ? (b.offset_hour as number) : 0;
  if (!isInt(b.offset_day) && !isInt(b.offset_hour)) return null;
  return b.interval === "week" ? day * 86_400 + hour * 3600 : hour * 3600;
}

/** The service's display name when a seed gives none: the id for some kinds, `ID: <id>` for others. */
function defaultDisplayName(kind: string, id: number): string {
  return kind === "databricks" || kind === "google-cloud-service-account" ? String(id) : `ID: ${id}`;
}

/** A seed's `sensitive_keys`, or the keys of its `sensitive_config` (the values are dropped on load). */
function sensitiveKeys(i: Raw): { sensitive_keys?: string[] } {
  if (Array.isArray(i.sensitive_keys)) return { sensitive_keys: i.sensitive_keys.map(String) };
  if (isDict(i.sensitive_config)) return { sensitive_keys: Object.keys(i.sensitive_config as Raw) };
  return {};
}

/** A group type of a project's seed: its name and index (0 to 5) required. */
function groupType(g: Raw, at: string): GroupTypeRecord {
  const index = need<number>(g, "group_type_index", "group type", isInt);
  if (index < 0 || index > 5) throw new SeedError("seed: a group type's group_type_index is 0 to 5");
  return {
    group_type: need<string>(g, "group_type", "group type", isStr),
    group_type_index: index,
    name_singular: typeof g.name_singular === "string" ? g.name_singular : null,
    name_plural: typeof g.name_plural === "string" ? g.name_plural : null,
    created_at: typeof g.created_at === "string" ? g.created_at : at,
  };
}

function membership(value: unknown): MembershipRecord {
  if (typeof value === "string") return { id: value, level: "member" };
  const m = value as Raw;
  if (typeof m?.id !== "string") throw new SeedError('seed: a user membership needs an organization "id"');
  const level = m.level === "admin" || m.level === "owner" ? m.level : "member";
  return { id: m.id, level };
}

/** A feature switch: on unless false; `access_control` and `advanced_permissions` stand in for each other. */
function features(raw: Raw): OrganizationRecord["features"] {
  const flag = (v: unknown) => (typeof v === "boolean" ? v : undefined);
  const access = flag(raw.access_control);
  const advanced = flag(raw.advanced_permissions);
  return {
    tagging: raw.tagging !== false,
    access_control: access ?? advanced ?? true,
    advanced_permissions: advanced ?? access ?? true,
  };
}

/**
 * `serviceBase` is what a seed without a `service` key gets (the defaults, or the `service` option of
 * `startEmulator`); the seed's own `service` keys win.
 */
export function normaliseSeed(
  input: unknown,
  now: Date,
  serviceBase: ServiceSettings = defaultService(),
): StoreData {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new SeedError("seed: must be a JSON object");
  }
  const seed = input as Raw;
  const at = now.toISOString();
  const service = mergeService(serviceBase, seed.service);
  if (typeof service === "string") throw new SeedError(`seed: ${service}`);
  if (seed.base !== undefined) {
    // `"base": "default"`: the default seed for this service, with the lists the seed gives replacing its own.
    if (seed.base !== "default") throw new SeedError('seed: "base" must be "default"');
    const { base: _base, ...rest } = seed;
    return normaliseSeed({ ...defaultSeed(now, service), ...rest }, now, serviceBase);
  }
  const organizations: OrganizationRecord[] = list(seed, "organizations").map((o) => ({
    id: need<string>(o, "id", "organization", isStr),
    name: typeof o.name === "string" ? o.name : "Organization",
    features: features((o.features ?? {}) as Raw),
  }));
  const projects = list(seed, "projects").map((p) => ({
    id: need<number>(p, "id", "project", isInt),
    name: typeof p.name === "string" ? p.name : `Project ${p.id}`,
    organization: need<string>(p, "organization", "project", isStr),
    ...(p.require_evaluation_contexts === true ? { require_evaluation_contexts: true } : {}),
    ...(isInt(p.primary_dashboard) ? { primary_dashboard: p.primary_dashboard as number } : {}),
    api_token: typeof p.api_token === "string" && p.api_token !== "" ? p.api_token : `phc_project_${p.id}`,
    ...(isDict(p.session_recording_linked_flag) && isInt((p.session_recording_linked_flag as Raw).id)
      ? {
          session_recording_linked_flag: structuredClone(
            p.session_recording_linked_flag,
          ) as ProjectRecord["session_recording_linked_flag"],
        }
      : {}),
    ...(Array.isArray(p.group_types)
      ? { group_types: (p.group_types as Raw[]).map((g) => groupType(g, at)) }
      : {}),
    ...(Array.isArray(p.test_account_filters)
      ? { test_account_filters: structuredClone(p.test_account_filters) }
      : {}),
  }));
  const users: UserRecord[] = list(seed, "users").map((u) => ({
    id: need<number>(u, "id", "user", isInt),
    uuid: need<string>(u, "uuid", "user", isStr),
    email: need<string>(u, "email", "user", isStr),
    first_name: typeof u.first_name === "string" ? u.first_name : "",
    last_name: typeof u.last_name === "string" ? u.last_name : "",
    is_active: u.is_active !== false,
    organizations: Array.isArray(u.organizations) ? u.organizations.map(membership) : [],
  }));
  const api_keys: ApiKeyRecord[] = list(seed, "api_keys").map((k) => ({
    key: need<string>(k, "key", "api key", isStr),
    user: need<number>(k, "user", "api key", isInt),
    scopes: Array.isArray(k.scopes) ? k.scopes.map(String) : ["*"],
    ...(typeof k.label === "string" ? { label: k.label } : {}),
    ...(typeof k.created_at === "string" ? { created_at: k.created_at } : {}),
    ...(Array.isArray(k.scoped_teams) ? { scoped_teams: k.scoped_teams.map(Number) } : {}),
  }));
  const integrations: IntegrationRecord[] = list(seed, "integrations").map((i) => {
    const id = need<number>(i, "id", "integration", isInt);
    const kind = need<string>(i, "kind", "integration", isStr);
    const team = i.team_id ?? i.project;
    if (!isInt(team)) throw new SeedError('seed: an integration has a missing or invalid "team_id"');
    return {
      id,
      team_id: team as number,
      kind,
      display_name: typeof i.display_name === "string" ? i.display_name : defaultDisplayName(kind, id),
      config: isDict(i.config) ? (i.config as Raw) : {},
      created_at: typeof i.created_at === "string" ? i.created_at : at,
      created_by: isInt(i.created_by) ? (i.created_by as number) : null,
      errors: typeof i.errors === "string" ? i.errors : "",
      ...sensitiveKeys(i),
    };
  });
  let tileId = 1;
  const dashboards: DashboardRecord[] = list(seed, "dashboards").map((d) => ({
    id: need<number>(d, "id", "dashboard", isInt),
    team_id: need<number>(d, "team_id", "dashboard", isInt),
    name: typeof d.name === "string" || d.name === null ? (d.name as string | null) : "",
    description: typeof d.description === "string" ? d.description : "",
    pinned: d.pinned === true,
    created_at: typeof d.created_at === "string" ? d.created_at : at,
    created_by: isInt(d.created_by) ? (d.created_by as number) : null,
    last_accessed_at: typeof d.last_accessed_at === "string" ? d.last_accessed_at : null,
    last_refresh: typeof d.last_refresh === "string" ? d.last_refresh : null,
    deleted: d.deleted === true,
    creation_mode: (d.creation_mode as DashboardRecord["creation_mode"]) ?? "default",
    tags: Array.isArray(d.tags) ? d.tags.map((t) => String(t).trim().toLowerCase()) : [],
    restriction_level: d.restriction_level === 37 ? 37 : 21,
    filters: (d.filters as Raw) ?? {},
    variables: (d.variables as Raw) ?? {},
    breakdown_colors: d.breakdown_colors ?? [],
    data_color_theme_id: isInt(d.data_color_theme_id) ? (d.data_color_theme_id as number) : null,
    quick_filter_ids: Array.isArray(d.quick_filter_ids) ? d.quick_filter_ids.map(String) : [],
    folder: typeof d.folder === "string" || d.folder === null ? (d.folder as string | null) : DEFAULT_FOLDER,
    ...(typeof d.share_token === "string" ? { share_token: d.share_token } : {}),
    ...(d.is_shared === true ? { is_shared: true } : {}),
    tiles: Array.isArray(d.tiles)
      ? (d.tiles as Raw[]).map((t) => ({
          ...t,
          id: isInt(t.id) ? (t.id as number) : tileId++,
          insight: (t.insight as Raw) ?? null,
          text: (t.text as Raw) ?? null,
          layouts: (t.layouts as Raw) ?? {},
          color: typeof t.color === "string" ? t.color : null,
          ...(t.deleted === true ? { deleted: true } : {}),
        }))
      : [],
  }));
  const batch_exports: BatchExportRecord[] = list(seed, "batch_exports").map((b) => {
    const destination = (b.destination ?? {}) as Raw;
    return {
      id: typeof b.id === "string" ? b.id : randomUUID(),
      team_id: need<number>(b, "team_id", "batch export", isInt),
      name: need<string>(b, "name", "batch export", isStr),
      model: typeof b.model === "string" ? b.model : "events",
      destination: {
        type: need<string>(destination, "type", "batch export destination", isStr),
        config: (destination.config as Raw) ?? {},
        integration: isInt(destination.integration) ? (destination.integration as number) : null,
      },
      interval: typeof b.interval === "string" ? b.interval : "hour",
      paused: b.paused === true,
      deleted: b.deleted === true,
      created_at: typeof b.created_at === "string" ? b.created_at : at,
      last_updated_at: typeof b.last_updated_at === "string" ? b.last_updated_at : at,
      last_paused_at: typeof b.last_paused_at === "string" ? b.last_paused_at : null,
      start_at: typeof b.start_at === "string" ? b.start_at : null,
      end_at: typeof b.end_at === "string" ? b.end_at : null,
      hogql_query: typeof b.hogql_query === "string" ? b.hogql_query : null,
      schema: b.schema ?? null,
      filters: Array.isArray(b.filters) ? b.filters : null,
      timezone: typeof b.timezone === "string" ? b.timezone : "UTC",
      interval_offset: intervalOffset(b),
      hogql_modifiers: isDict(b.hogql_modifiers) ? (b.hogql_modifiers as Raw) : null,
      primary_key: Array.isArray(b.primary_key) ? b.primary_key.map(String) : null,
      version_key: Array.isArray(b.version_key) ? b.version_key.map(String) : null,
      incremental_mode: b.incremental_mode === "MERGE" ? "MERGE" : "APPEND",
    };
  });
  if (service.rules === "newest") migrateLegacyS3(batch_exports, integrations, at);
  const maxTile = Math.max(0, ...dashboards.flatMap((d) => d.tiles.map((t) => t.id)));
  const sequences = (seed.sequences ?? {}) as Raw;
  const { next, ...flagData } = normaliseFlagData((key) => list(seed, key), at, sequences);
  const { nextAction, ...actionData } = normaliseActionData((key) => list(seed, key), at, sequences);
  const content = seedContent(list(seed, "insights"), dashboards, at, sequences);
  return {
    service,
    organizations,
    projects,
    users,
    api_keys,
    integrations,
    dashboards,
    batch_exports,
    ...normaliseActivity((key) => list(seed, key), at),
    ...flagData,
    ...actionData,
    ...normaliseAccess((key) => list(seed, key), at),
    insights: content.insights,
    sequences: {
      ...next,
      action: nextAction,
      dashboard: Math.max(
        isInt(sequences.dashboard) ? (sequences.dashboard as number) : 1,
        ...dashboards.map((d) => d.id + 1),
      ),
      tile: Math.max(isInt(sequences.tile) ? (sequences.tile as number) : 1, maxTile + 1),
      insight: content.nextInsight,
      text: content.nextText,
    },
  };
}
