/**
 * The emulator's memory. A seed, the `--state` file, `GET /_emulator/state` and `POST /_emulator/seed`
 * all use this one JSON shape (seed records may omit fields; `normaliseSeed` fills defaults).
 * Records hold what the service stores (secrets included); routes render them into response shapes.
 */
import type { ServiceSettings } from "./service.js";

export interface OrganizationRecord {
  id: string;
  name: string;
  /**
   * Paid features: `tagging` (tags kept); `access_control` (newest: restriction level 37 effective);
   * `advanced_permissions` (sharing passwords; under the 2025 rules also what makes level 37
   * effective). A seed that gives only one of the last two sets both (old seeds name only
   * `advanced_permissions`).
   */
  features: { tagging: boolean; access_control: boolean; advanced_permissions: boolean };
}

export interface ProjectRecord {
  id: number;
  name: string;
  organization: string;
  /** The project setting "require evaluation contexts" on new feature flags (with `flag-evaluation-tags`). */
  require_evaluation_contexts?: boolean;
  /** The project's home dashboard, if set; soft-deleting that dashboard clears it. */
  primary_dashboard?: number | null;
  /** "Filter out internal and test users": property filters, cohort ones `{type: "cohort", value: id}`. */
  test_account_filters?: unknown[];
  /**
   * The project API token (`phc_…`) SDKs send; a `?token=` on a project route picks the project by it
   * (the seed gives every project one).
   */
  api_token?: string;
  /** Session replay's linked flag setting: a flag named here cannot be deleted. */
  session_recording_linked_flag?: { id: number; key: string; variant?: string | null } | null;
  /** Its group types (each project numbers its own, index 0 to 5). */
  group_types?: GroupTypeRecord[];
}

export interface GroupTypeRecord {
  group_type: string;
  group_type_index: number;
  name_singular?: string | null;
  name_plural?: string | null;
  created_at: string;
}

export interface MembershipRecord {
  id: string;
  /** `admin` (or `owner`) members are project admins: inherent access to every dashboard. */
  level: "member" | "admin" | "owner";
}

export interface UserRecord {
  id: number;
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  organizations: MembershipRecord[];
}

export interface ApiKeyRecord {
  key: string;
  /** Shown by `GET /api/personal_api_keys/@current/`. */
  label?: string;
  created_at?: string;
  /** The owning user's numeric id. */
  user: number;
  /** `["*"]` or `object:access` entries; an empty list (legacy key) means full access. */
  scopes: string[];
  scoped_teams?: number[];
}

/**
 * A PostHog Integration of a project (credentials holder for batch export destinations). Only the
 * non-secret `config` is kept; the service never returns `sensitive_config`.
 */
export interface IntegrationRecord {
  id: number;
  team_id: number;
  /** e.g. `aws-s3`, `s3-compatible`, `snowflake`, `postgresql`, `databricks`, `azure-blob`. */
  kind: string;
  display_name: string;
  config: Record<string, unknown>;
  created_at: string;
  created_by: number | null;
  errors: string;
  /**
   * The names of the keys its `sensitive_config` holds (never their values), for the service's
   * completeness checks (a Databricks integration without `client_secret` is "not valid"). Absent:
   * complete, as every integration created through the service is.
   */
  sensitive_keys?: string[];
}

/**
 * A dashboard tile: an insight's place on a dashboard (`insight_id`) or a text card (`text`), with its
 * layouts per breakpoint and display settings (routes/tiles.ts). `insight` (an inline object) is the
 * older form a seed or a template may still give; the seed turns it into an insight record.
 */
export interface TileRecord {
  id: number;
  insight_id?: number | null;
  insight?: Record<string, unknown> | null;
  text?: TextRecord | Record<string, unknown> | null;
  layouts: Record<string, unknown>;
  color: string | null;
  /** The service's column is nullable: a tile made by adding an insight starts as null. */
  deleted?: boolean | null;
  show_description?: boolean | null;
  transparent_background?: boolean | null;
  filters_overrides?: Record<string, unknown> | null;
}

/** A text card's content (the service's Text model): shared by the tiles that show it. */
export interface TextRecord {
  id: number;
  body: string | null;
  created_by: number | null;
  last_modified_at: string;
  last_modified_by: number | null;
}

/**
 * A saved insight (routes/insights.ts). `query` is kept as it was written: reads show it upgraded
 * (src/queries), as the service does, until `POST /_emulator/upgrade_queries` rewrites stored queries.
 */
export interface InsightRecord {
  id: number;
  team_id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string | null;
  filters: Record<string, unknown>;
  query: unknown;
  order: number | null;
  deleted: boolean;
  saved: boolean;
  favorited: boolean;
  is_sample: boolean;
  tags: string[];
  created_at: string;
  created_by: number | null;
  updated_at: string;
  last_modified_at: string;
  last_modified_by: number | null;
  /** When someone last viewed it (creating it counts): the list shows it as `last_viewed_at`. */
  last_viewed_at: string | null;
}

export interface DashboardRecord {
  id: number;
  team_id: number;
  name: string | null;
  description: string;
  pinned: boolean;
  created_at: string;
  created_by: number | null;
  last_accessed_at: string | null;
  last_refresh: string | null;
  deleted: boolean;
  creation_mode: "default" | "template" | "duplicate" | "unlisted";
  tags: string[];
  restriction_level: 21 | 37;
  filters: Record<string, unknown>;
  variables: Record<string, unknown>;
  breakdown_colors: unknown;
  data_color_theme_id: number | null;
  quick_filter_ids: string[];
  tiles: TileRecord[];
  /** Newest: the project-tree folder it is filed in (`""` = root, null = no entry). */
  folder: string | null;
  /**
   * The model's legacy sharing columns (`share_token`, `is_shared`), written only by seeds (the API
   * has no field for them). Reading a dashboard's sharing keeps them in step with its sharing config
   * (routes/sharing.ts); the API's `is_shared` is the config's `enabled`, not this column.
   */
  share_token?: string | null;
  is_shared?: boolean;
}

export interface CollaboratorRecord {
  id: string;
  dashboard_id: number;
  user: number;
  level: 21 | 37;
  added_at: string;
  updated_at: string;
}

export interface SharingRecord {
  /** The dashboard shared, or null for an insight's configuration (`insight_id`). */
  dashboard_id: number | null;
  /** The insight shared, when this is an insight's configuration. */
  insight_id?: number | null;
  /** The configuration's project; by default the shared dashboard's or insight's. */
  team_id?: number;
  enabled: boolean;
  access_token: string;
  created_at: string;
  settings: Record<string, unknown> | null;
  password_required: boolean;
  /** Set on a config a refresh replaced (its grace period); only configs without it are current. */
  expires_at?: string | null;
}

export interface BatchExportRecord {
  id: string;
  team_id: number;
  name: string;
  model: string | null;
  destination: { type: string; config: Record<string, unknown>; integration: number | null };
  interval: string;
  paused: boolean;
  deleted: boolean;
  created_at: string;
  last_updated_at: string;
  last_paused_at: string | null;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string | null;
  schema: unknown;
  filters: unknown[] | null;
  /** Newest: IANA zone of daily/weekly boundaries ("UTC" default). */
  timezone: string;
  /** Newest: seconds after the interval's default start (day: hour×3600; week: day×86400 + hour×3600). */
  interval_offset: number | null;
  /** Newest, model `hogql` only. */
  hogql_modifiers: Record<string, unknown> | null;
  primary_key: string[] | null;
  version_key: string[] | null;
  incremental_mode: "APPEND" | "MERGE";
}

/** A run as the service sends it; the store keeps any status string a seed gives. */
export interface RunRecord {
  id: string;
  status: string;
  records_completed: number | null;
  records_failed: number | null;
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

export interface BackfillRecord {
  id: string;
  batch_export: string;
  team_id: number;
  start_at: string | null;
  end_at: string | null;
  status: string;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
  total_records_count: number | null;
}

export interface LogRecord {
  team_id: number;
  batch_export: string;
  run: string;
  timestamp: string;
  level: string;
  message: string;
}

export interface EventRecord {
  id: string;
  team_id: number;
  distinct_id: string;
  person_id: string | null;
  event: string;
  timestamp: string;
  properties: Record<string, unknown>;
  elements_chain: string;
}

/** The levels of an access control rule: `none` … `manager` for resources, `none`/`member`/`admin` for a project. */
export type AccessLevel = "none" | "viewer" | "editor" | "manager" | "member" | "admin";

/**
 * An access control rule (the service's `AccessControl` row, newest access control): on one object
 * (`resource_id`) or on a whole resource of a project (`resource_id` null; `project` rules name the
 * project's own id), for one member (`organization_member`: the member's user id) or for every member
 * (null). Roles are not modelled. Rules take effect only while the organization has the access-control
 * feature (access.ts).
 */
export interface AccessControlRecord {
  id: string;
  team_id: number;
  /** `project`, `dashboard`, `insight`, `sharing_configuration`, ... (the service's scope objects). */
  resource: string;
  resource_id: string | null;
  access_level: AccessLevel;
  organization_member: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * A browser session (Django's session cookie): the user it signs in, and the CSRF token its unsafe
 * requests must echo. Opened through the control surface (`POST /_emulator/sessions`), as a test's
 * `force_login`; the service's login flow (passwords, two-factor) is not modelled.
 */
export interface SessionRecord {
  id: string;
  user: number;
  csrf_token: string;
  created_at: string;
}

/**
 * A feature flag as the service stores it (service-api.md §10): `filters` in its stored form (payload
 * values JSON-encoded strings, ciphertext when `has_encrypted_payloads`), soft-deleted rows kept, and
 * `version` bumped on every write.
 */
export interface FeatureFlagRecord {
  id: number;
  team_id: number;
  key: string;
  /** The flag's description ("kept for backwards compatibility"). */
  name: string;
  filters: Record<string, unknown>;
  active: boolean;
  archived: boolean;
  deleted: boolean;
  created_at: string;
  created_by: number | null;
  updated_at: string;
  last_modified_by: number | null;
  /** Null on rows older than the column (a write counts it as 0). */
  version: number | null;
  ensure_experience_continuity: boolean;
  is_remote_configuration: boolean;
  has_encrypted_payloads: boolean;
  evaluation_runtime: "server" | "client" | "all";
  bucketing_identifier: "distinct_id" | "device_id" | null;
  /** Written only when the service flag `flag-evaluation-tags` is on; blanked on read otherwise. */
  evaluation_contexts: string[];
  tags: string[];
  /** When an SDK last evaluated the flag; set by seeds (the emulator evaluates nothing). */
  last_called_at: string | null;
  analytics_dashboards: number[];
  /** The deprecated top-level rollout column: only the filters of a flag stored without `groups` read it. */
  rollout_percentage: number | null;
}

/**
 * A cohort as the service stores it (service-api.md §12, routes/cohorts.ts): `filters` in their stored
 * (rewritten) form, or null for a cohort stored with legacy `groups` only; the recalculation fields the
 * emulator's calculation model moves (cohort-calculation.ts); a static cohort's members.
 */
export interface CohortRecord {
  id: number;
  team_id: number;
  /** Nullable and blank-able, and not unique (the service constrains only system cohorts). */
  name: string | null;
  description: string;
  /** The property tree `{properties: {type, values}}`; null for a legacy cohort stored with `groups` only. */
  filters: Record<string, unknown> | null;
  /** The deprecated criteria (`[{properties | action_id | event_id, days, count, ...}]`). */
  groups: unknown[];
  /** A static cohort's source query (ActorsQuery / HogQLQuery). */
  query: Record<string, unknown> | null;
  is_static: boolean;
  /** Server-computed: `realtime` when every leaf compiles, else null; explicit values kept otherwise. */
  cohort_type: string | null;
  deleted: boolean;
  created_at: string;
  created_by: number | null;
  count: number | null;
  /** The calculation the last finished run computed, and the one queued (null: none yet). */
  version: number | null;
  pending_version: number | null;
  is_calculating: boolean;
  last_calculation: string | null;
  errors_calculating: number;
  last_error_at: string | null;
  last_backfill_person_properties_at: string | null;
  last_backfill_events_at: string | null;
  /** Static cohorts: the uuids of their persons. */
  people: string[];
  /** Work a static cohort's next calculation does: the ids of an uploaded CSV, by kind. */
  pending_import: { id_type: "distinct_id" | "person_id" | "email"; ids: string[] } | null;
  /** A static cohort's snapshot the next calculation takes: the persons its query or criteria match. */
  pending_snapshot: "query" | "filters" | null;
  /** When the queued calculation was asked for (the calculation model settles it after that). */
  calculation_requested_at: string | null;
  /** Finished calculations, newest last (`calculation_history/`, `last_error_message`). */
  calculations: CohortCalculationRecord[];
  /** Experiments whose exposure cohort it is (`experiment_set`). */
  experiment_set: number[];
}

/** One run of a cohort's calculation (the service's CohortCalculationHistory row). */
export interface CohortCalculationRecord {
  id: string;
  filters: Record<string, unknown>;
  count: number | null;
  started_at: string;
  finished_at: string | null;
  error: string | null;
  /** `timeout`, `memory_limit`, ... (products/cohorts/backend/models/util.py CohortErrorCode). */
  error_code: string | null;
}

/** A person, as far as static cohorts need one: its uuid, distinct ids and properties. */
export interface PersonRecord {
  uuid: string;
  team_id: number;
  distinct_ids: string[];
  properties: Record<string, unknown>;
  created_at: string;
}

/** One step of an action, as stored (`steps_json`): the ten keys once written through the API. */
export type ActionStepRecord = Record<string, unknown>;

/** An action (service-api.md §13, routes/actions.ts). */
export interface ActionRecord {
  id: number;
  team_id: number;
  name: string | null;
  description: string;
  tags: string[];
  post_to_slack: boolean;
  slack_message_format: string;
  /** As stored: steps written through the API carry all ten keys; rows a seed gives may be partial. */
  steps: ActionStepRecord[];
  deleted: boolean;
  created_at: string;
  created_by: number | null;
  updated_at: string;
  last_calculated_at: string;
  pinned_at: string | null;
  bytecode_error: string | null;
}

/** A hog function (destination), only as far as it refers to actions (`filters.actions[].id`). */
export interface HogFunctionRecord {
  id: string;
  team_id: number;
  name: string;
  deleted: boolean;
  filters: Record<string, unknown>;
  created_at: string;
  created_by: number | null;
}

/** An experiment, only as far as flags care: the flag it runs on and whether it is running. */
export interface ExperimentRecord {
  id: number;
  team_id: number;
  name: string;
  feature_flag: number;
  start_date: string | null;
  end_date: string | null;
  deleted: boolean;
  created_at?: string;
  created_by?: number | null;
  /**
   * The JSON fields where an experiment may name an action (`metrics`, `metrics_secondary`, `filters`,
   * `parameters`, `exposure_criteria`, `stats_config`, `scheduling_config`, `variants`), as a seed gives them.
   */
  metrics?: unknown;
  metrics_secondary?: unknown;
  filters?: unknown;
  parameters?: unknown;
  exposure_criteria?: unknown;
  stats_config?: unknown;
  scheduling_config?: unknown;
  variants?: unknown;
}

/** An early access feature, only as far as flags care: the flag it runs on. */
export interface EarlyAccessFeatureRecord {
  id: number;
  team_id: number;
  name: string;
  feature_flag: number | null;
  deleted: boolean;
}

/** A product tour, only as far as flags care: its internal targeting flag stays out of the flag list. */
export interface ProductTourRecord {
  id: number;
  team_id: number;
  name: string;
  internal_targeting_flag: number | null;
  deleted: boolean;
}

/** An organization's (or one project's) approval policy for one flag action. */
export interface ApprovalPolicyRecord {
  id: string;
  organization: string;
  /** A project's own policy; null for the organization's. */
  team_id: number | null;
  action_key: "feature_flag.enable" | "feature_flag.disable" | "feature_flag.update";
  /** `{type: before_after | change_amount | any_change, field, operator, value}`; null gates every change. */
  conditions: Record<string, unknown> | null;
  enabled: boolean;
  approver_config: { quorum: number; users?: number[]; roles?: string[] };
  allow_self_approve: boolean;
  /** Organization membership levels that bypass the policy: "1" member, "8" admin, "15" owner. */
  bypass_org_membership_levels: string[];
}

/** A change an approval policy holds: the flag stays as it was until someone approves it. */
export interface ChangeRequestRecord {
  id: string;
  team_id: number;
  organization: string;
  action_key: string;
  resource_type: "feature_flag";
  resource_id: string | null;
  intent: Record<string, unknown>;
  intent_display: Record<string, unknown>;
  state: "pending" | "approved" | "rejected" | "applied" | "expired" | "failed";
  created_by: number;
  created_at: string;
  expires_at: string;
  /** The policy as it was when the request was opened: who may approve, how many must. */
  policy_snapshot: { quorum: number; users: number[]; allow_self_approve: boolean };
  /** Ids of the users who approved. */
  approvals: number[];
}

/** A saved quick filter of a team (only its identity: dashboards refer to quick filters by id). */
export interface QuickFilterRecord {
  id: string;
  team_id: number;
  name: string;
}

/**
 * A saved dashboard template (`DashboardTemplate`): usable by `use_template` under its name by its own
 * team, and by every team when its scope is `global`.
 */
export interface DashboardTemplateRecord {
  template_name: string;
  team_id: number | null;
  scope: string;
  dashboard_description: string;
  dashboard_filters: Record<string, unknown>;
  tiles: Array<Record<string, unknown>>;
  tags: string[];
}

/** One `Change` of an activity log row's detail: a field's value before and after a write. */
export interface ActivityChange {
  type: string;
  action: "changed" | "created" | "deleted";
  field: string;
  before: unknown;
  after: unknown;
}

/** The `Detail` an activity log row stores: the object's display name and short id, and what changed. */
export interface ActivityDetail {
  name: string | null;
  short_id: string | null;
  type: string | null;
  changes: ActivityChange[] | null;
  trigger: null;
}

/**
 * One row of the service's activity log (`ActivityLog`), as far as the emulator keeps it: which object
 * changed, how (`created`, `updated`, `deleted`, `restored`), by whom and when. Written by flag writes
 * (the row only) and insight writes (with the `Detail` the insights' activity endpoints serve).
 */
export interface ActivityLogRecord {
  id: string;
  team_id: number;
  scope: string;
  item_id: string;
  activity: string;
  user: number | null;
  created_at: string;
  /** The object's name at the time (a flag's key). */
  name: string | null;
  /** What the service stores as the row's `detail` (insight rows). */
  detail?: ActivityDetail;
}

/** A user's view of a project-tree item (`FileSystemViewLog`): a dashboard's `last_viewed_at`. */
export interface ViewLogRecord {
  team_id: number;
  user: number;
  type: string;
  ref: string;
  viewed_at: string;
}

export interface StoreData {
  /** Which service's rules apply (see service.ts). */
  service: ServiceSettings;
  organizations: OrganizationRecord[];
  projects: ProjectRecord[];
  users: UserRecord[];
  api_keys: ApiKeyRecord[];
  integrations: IntegrationRecord[];
  dashboards: DashboardRecord[];
  collaborators: CollaboratorRecord[];
  sharing: SharingRecord[];
  batch_exports: BatchExportRecord[];
  runs: RunRecord[];
  backfills: BackfillRecord[];
  logs: LogRecord[];
  events: EventRecord[];
  feature_flags: FeatureFlagRecord[];
  cohorts: CohortRecord[];
  actions: ActionRecord[];
  hog_functions: HogFunctionRecord[];
  persons: PersonRecord[];
  experiments: ExperimentRecord[];
  early_access_features: EarlyAccessFeatureRecord[];
  product_tours: ProductTourRecord[];
  approval_policies: ApprovalPolicyRecord[];
  change_requests: ChangeRequestRecord[];
  insights: InsightRecord[];
  quick_filters: QuickFilterRecord[];
  dashboard_templates: DashboardTemplateRecord[];
  view_logs: ViewLogRecord[];
  /** Rows of the activity log (flag and insight writes). */
  activity_log: ActivityLogRecord[];
  /** Access control rules (access.ts). */
  access_controls: AccessControlRecord[];
  /** Open browser sessions. */
  sessions: SessionRecord[];
  /** Next integer ids (dashboards, tiles, insights, text cards, feature flags, cohorts, actions). */
  sequences: {
    dashboard: number;
    tile: number;
    insight: number;
    text: number;
    feature_flag: number;
    cohort: number;
    action: number;
  };
}

/**
 * A seed: any subset of the store, records possibly partial; `base: "default"` starts from the default
 * seed (for the seed's service) and replaces only the lists given.
 */
export type Seed = { [K in keyof StoreData]?: unknown } & { base?: "default" };

/** How a write reaches a batch export: a create, a full PUT, or a PATCH of the keys sent. */
export type WriteMode = "create" | "put" | "patch";

/** One line of the request log (`GET /_emulator/requests`). */
export interface LogEntry {
  method: string;
  path: string;
  query: string;
  status: number;
  ms: number;
  /** Set when an injected fault decided the outcome. */
  fault?: "status" | "lose_response" | "reset";
}
