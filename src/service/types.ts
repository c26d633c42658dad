/**
 * Shapes of the service's JSON, as the real service sends them (see shared/reference/service-api.md).
 * Shared by the client (src/service), the handlers (src/kinds) and the emulator (src/emulator).
 * Only fields this project reads or writes are typed precisely; others stay open.
 */

export interface UserBasic {
  id: number;
  uuid: string;
  distinct_id?: string;
  first_name: string;
  last_name?: string;
  email: string;
  is_email_verified?: boolean | null;
}

/** Offset-paged list envelope (`limit`/`offset`, absolute `next`/`previous`). */
export interface OffsetPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Cursor-paged list envelope (runs, backfills): no count. */
export interface CursorPage<T> {
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Events list envelope: no count, no previous; `next` pages with `before=`. */
export interface EventsPage<T> {
  next: string | null;
  results: T[];
}

/** The service's error body. */
export interface ServiceErrorBody {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
  /** A write an approval policy holds (409 `approval_required` / `change_request_pending`): its request. */
  change_request_id: string;
}

/** A dashboard as the list endpoint returns it (DashboardBasicSerializer). */
export interface DashboardBasic {
  id: number;
  name: string | null;
  description: string;
  pinned: boolean;
  created_at: string;
  created_by: UserBasic | null;
  last_accessed_at: string | null;
  last_viewed_at?: string | null;
  is_shared: boolean;
  deleted: boolean;
  creation_mode: "default" | "template" | "duplicate" | "unlisted";
  tags: string[];
  restriction_level: 21 | 37;
  effective_restriction_level: 21 | 37;
  effective_privilege_level: 21 | 37;
  user_access_level: string | null;
  access_control_version: "v1" | "v2";
  last_refresh: string | null;
  team_id: number;
}

/** A dashboard as retrieve / create / PATCH return it. */
export interface Dashboard extends DashboardBasic {
  filters: Record<string, unknown>;
  variables: Record<string, unknown> | null;
  breakdown_colors: unknown;
  data_color_theme_id: number | null;
  persisted_filters?: Record<string, unknown> | null;
  persisted_variables?: Record<string, unknown> | null;
  quick_filter_ids: string[];
  tiles: DashboardTile[];
}

/**
 * A dashboard tile as a dashboard's retrieve shows it (service-api.md §11): an insight's place on the
 * dashboard or a text card, its layouts per breakpoint (`sm` is the 12-column grid) and colour.
 */
export interface DashboardTile {
  id: number;
  /** The insight the tile shows (in the dashboard's context), or null for a text tile. */
  insight: { id: number; short_id?: string; name: string | null; deleted?: boolean } | null;
  text: { id: number; body: string | null } | null;
  /** `{sm: {x, y, w, h, ...}, xs: {...}}`; `{}` for a tile added through the API and never placed. */
  layouts: Record<string, unknown> | null;
  color: string | null;
  order?: number | null;
}

/** A tile entry of a dashboard PATCH: display fields of the tile `id`, or a text card (new or `text.id`). */
export interface TileWrite {
  id?: number;
  text?: { id?: number; body: string };
  layouts?: Record<string, unknown>;
  color?: string | null;
  deleted?: boolean;
}

/** Body accepted by dashboard create / PATCH. */
export interface DashboardWrite {
  name?: string | null;
  description?: string;
  pinned?: boolean;
  deleted?: boolean;
  restriction_level?: 21 | 37;
  tags?: string[];
  filters?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  delete_insights?: boolean;
  use_template?: string;
  use_dashboard?: number;
  tiles?: TileWrite[];
}

export interface Collaborator {
  id: string;
  dashboard_id: number;
  user: UserBasic;
  level: 21 | 37;
  added_at: string;
  updated_at: string;
}

export interface SharingConfiguration {
  created_at: string | null;
  enabled: boolean;
  /** Server-owned; a fresh random value on every GET until sharing was first written. */
  access_token: string;
  settings?: Record<string, unknown> | null;
  password_required?: boolean;
  share_passwords?: unknown[];
}

export interface BatchExportDestination {
  type: string;
  /** Secret keys of the type are absent from every response. */
  config: Record<string, unknown>;
  integration?: number | null;
}

/** Every status a batch export run can have (the service's `BatchExportRun.Status`). */
export const RUN_STATUSES = [
  "Cancelled",
  "Completed",
  "ContinuedAsNew",
  "Failed",
  "FailedRetryable",
  "FailedBilling",
  "Terminated",
  "TimedOut",
  "Running",
  "Starting",
] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

export interface BatchExportRun {
  id: string;
  status: RunStatus;
  records_completed: number | null;
  records_failed?: number | null;
  latest_error: string | null;
  data_interval_start: string | null;
  data_interval_end: string;
  cursor: string | null;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
  records_total_count: number | null;
  bytes_exported: number | null;
  batch_export: string;
  backfill: string | null;
}

export interface BatchExport {
  id: string;
  team_id: number;
  name: string;
  model: string | null;
  destination: BatchExportDestination;
  interval: string;
  paused: boolean;
  created_at: string;
  last_updated_at: string;
  last_paused_at: string | null;
  start_at: string | null;
  end_at: string | null;
  latest_runs: BatchExportRun[];
  hogql_query?: string;
  schema: unknown;
  filters: unknown[] | null;
  /** Newest servers: the schedule's timezone and offsets (weekly exports run on `offset_day`, 0 = Sunday). */
  timezone?: string | null;
  offset_day?: number | null;
  offset_hour?: number | null;
}

/** Body accepted by batch export create / PATCH. */
export interface BatchExportWrite {
  name?: string;
  model?: string;
  destination?: { type: string; config?: Record<string, unknown>; integration_id?: number };
  interval?: string;
  paused?: boolean;
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  filters?: unknown[];
}

export interface BackfillResponse {
  backfill_id: string;
}

export type LogLevel = "DEBUG" | "LOG" | "INFO" | "WARNING" | "ERROR";

export interface LogEntry {
  log_source_id: string;
  instance_id: string;
  timestamp: string;
  level: LogLevel;
  message: string;
}

export interface EventItem {
  id: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  event: string;
  timestamp: string;
  person: null | {
    is_identified: boolean;
    distinct_ids: string[];
    properties: Record<string, unknown>;
  };
  elements: unknown[];
  elements_chain: string;
}

/* ---- Added by the service client (src/service) ---- */

/** An organization (GET /api/organizations/{id}/); only what the tool reads is typed. */
export interface Organization {
  id: string;
  name: string;
  /** Newer servers: the paid features the organization has, e.g. `{ key: "tagging" }`. */
  available_product_features?: Array<{ key: string; name?: string; [k: string]: unknown }> | null;
  /** Older servers: the same as plain keys. */
  available_features?: string[];
  [k: string]: unknown;
}

/** A project (GET /api/projects/{id}/); `organization` is the organization's id. */
/** One member of an organization (`GET /api/organizations/{id}/members/`): active users only. */
export interface OrganizationMember {
  /** The membership's id (not the user's). */
  id: string;
  user: UserBasic;
  /** 1 member, 8 admin, 15 owner. */
  level?: number;
  [k: string]: unknown;
}

export interface Project {
  id: number;
  uuid?: string;
  organization: string;
  name: string;
  [k: string]: unknown;
}

/** A backfill as GET .../batch_exports/{id}/backfills/ lists it (cursor pages). */
export interface BatchExportBackfill {
  id: string;
  progress: { total_runs: number | null; finished_runs: number | null; progress: number | null } | null;
  start_at: string | null;
  end_at: string | null;
  status: RunStatus;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
  total_records_count: number | null;
  adjusted_start_at: string | null;
  team: number;
  batch_export: string;
}

/** One value of GET /events/values/. */
export interface EventPropertyValue {
  name: unknown;
  count?: number;
}

/**
 * A feature flag as the service answers it (FeatureFlagSerializer, service-api.md §10): the fields the
 * tool reads. `filters` is as read: payload values JSON-encoded strings (encrypted ones in plain text to
 * a personal API key), `cohort_name` added to cohort properties, flag dependencies by id.
 */
export interface FeatureFlag {
  id: number;
  key: string;
  /** The flag's description. */
  name: string;
  filters: Record<string, unknown>;
  active: boolean;
  archived?: boolean;
  deleted: boolean;
  /** Bumped on every write; sent back with `original_flag` so a stale write is refused (409). */
  version?: number;
  tags?: string[];
  ensure_experience_continuity?: boolean | null;
  is_remote_configuration?: boolean | null;
  has_encrypted_payloads?: boolean | null;
  evaluation_runtime?: string | null;
  bucketing_identifier?: string | null;
  evaluation_contexts?: string[];
  /** When an SDK last evaluated the flag: within 30 days, the flag is live in production. */
  last_called_at?: string | null;
  created_at?: string;
  updated_at?: string;
  last_modified_by?: UserBasic | null;
}

/** A cohort, as far as flags name it: its id and name. */
export interface Cohort {
  id: number;
  name: string;
  deleted?: boolean;
  is_static?: boolean;
}

/** A tile placing an insight, as the insight's answers list them (`dashboard_tiles`). */
export interface InsightTile {
  id: number;
  dashboard_id: number;
  deleted: boolean | null;
}

/** An insight as `?basic=true` lists show it (metadata only, never results). */
export interface InsightBasic {
  id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string | null;
  /** Upgraded to the latest schema on every read (the stored query may be older). */
  query: Record<string, unknown> | null;
  filters: Record<string, unknown>;
  tags: string[];
  dashboard_tiles: InsightTile[];
  /** Deprecated, and left out once the service enforces its opt-in: read `dashboard_tiles`. */
  dashboards?: number[];
  saved: boolean;
  last_modified_at: string;
  last_modified_by?: UserBasic | null;
}

/** An insight as retrieve, create and PATCH return it. */
export interface Insight extends InsightBasic {
  deleted: boolean;
  result?: unknown;
}

/** Body accepted by insight create / PATCH. */
export interface InsightWrite {
  name?: string | null;
  description?: string | null;
  tags?: string[];
  query?: Record<string, unknown> | null;
  /** The replace-set of the dashboards the insight is on (the deprecated field is still how tiles are added). */
  dashboards?: number[];
  deleted?: boolean;
  saved?: boolean;
}
