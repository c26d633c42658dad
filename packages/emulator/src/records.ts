/**
 * New store records with the service's defaults, for the routes that create objects and for the
 * default seed: one place knows what a fresh dashboard or batch export holds.
 */
import type {
  ActionRecord,
  BatchExportRecord,
  CohortRecord,
  DashboardRecord,
  InsightRecord,
} from "./types.js";

type WithRequired<T, K extends keyof T> = Pick<T, K> & Partial<T>;

/** Where the service files a dashboard created without `_create_in_folder`. */
export const DEFAULT_FOLDER = "Unfiled/Dashboards";

export function dashboardRecord(
  fields: WithRequired<DashboardRecord, "id" | "team_id" | "created_at" | "created_by">,
): DashboardRecord {
  return {
    name: null,
    description: "",
    pinned: false,
    last_accessed_at: null,
    last_refresh: null,
    deleted: false,
    creation_mode: "default",
    tags: [],
    restriction_level: 21,
    filters: {},
    variables: {},
    breakdown_colors: [],
    data_color_theme_id: null,
    quick_filter_ids: [],
    tiles: [],
    folder: DEFAULT_FOLDER,
    ...fields,
  };
}

export function batchExportRecord(
  fields: WithRequired<BatchExportRecord, "id" | "team_id" | "created_at">,
): BatchExportRecord {
  return {
    name: "",
    model: "events",
    destination: { type: "", config: {}, integration: null },
    interval: "",
    paused: false,
    deleted: false,
    last_updated_at: fields.created_at,
    last_paused_at: null,
    start_at: null,
    end_at: null,
    hogql_query: null,
    schema: null,
    filters: null,
    timezone: "UTC",
    interval_offset: null,
    hogql_modifiers: null,
    primary_key: null,
    version_key: null,
    incremental_mode: "APPEND",
    ...fields,
  };
}

/** A new insight as the service stores it: saved, not favorited, no query until one is written. */
export function insightRecord(
  fields: WithRequired<InsightRecord, "id" | "team_id" | "short_id" | "created_at" | "created_by">,
): InsightRecord {
  return {
    name: null,
    derived_name: null,
    description: null,
    filters: {},
    query: null,
    order: null,
    deleted: false,
    saved: true,
    favorited: false,
    is_sample: false,
    tags: [],
    updated_at: fields.created_at,
    last_modified_at: fields.created_at,
    last_modified_by: fields.created_by,
    last_viewed_at: fields.created_at,
    ...fields,
  };
}

/** A new cohort as the service stores it: dynamic, not calculated yet, no members. */
export function cohortRecord(
  fields: WithRequired<CohortRecord, "id" | "team_id" | "created_at" | "created_by">,
): CohortRecord {
  return {
    name: null,
    description: "",
    filters: null,
    groups: [],
    query: null,
    is_static: false,
    cohort_type: null,
    deleted: false,
    count: null,
    version: null,
    pending_version: null,
    is_calculating: false,
    last_calculation: null,
    errors_calculating: 0,
    last_error_at: null,
    last_backfill_person_properties_at: null,
    last_backfill_events_at: null,
    people: [],
    pending_import: null,
    pending_snapshot: null,
    calculation_requested_at: null,
    calculations: [],
    experiment_set: [],
    ...fields,
  };
}

/** A new action as the service stores it. */
export function actionRecord(
  fields: WithRequired<ActionRecord, "id" | "team_id" | "created_at" | "created_by">,
): ActionRecord {
  return {
    name: null,
    description: "",
    tags: [],
    post_to_slack: false,
    slack_message_format: "",
    steps: [],
    deleted: false,
    updated_at: fields.created_at,
    last_calculated_at: fields.created_at,
    pinned_at: null,
    bytecode_error: null,
    ...fields,
  };
}
